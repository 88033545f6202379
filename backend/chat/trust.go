package chat

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool/naming"
	"mcpdesk/backend/trust"
)

// Trust pinning (SPEC G1). A standing approval — "always allow this tool",
// "allow for this conversation", "auto-approve this server" — is bound to
// what the user approved: the server's identity (mcpconfig.Server.Identity:
// what runs, or where the app connects) and the hash of the tool's
// definition (trust.Definition: name, title, description, input schema,
// annotations); for a server, the hashes of all its tools at that moment.
// The pins live beside the policies (policyDoc.Pins), the approved
// definitions in the store by hash, so that a change can be shown as a diff.
//
// When the server or the tool changes, the approval is suspended: the next
// call asks again, and the card says what changed (events.ChatApprovalPayload
// .Change). Approving it again with the same policy pins the new state. A
// tool added to an auto-approved server asks once too. "Never" is not
// pinned: it stays in force whatever changes.
//
// Policies stored before pins existed have none: the first call they cover
// pins them to what the server offers then (trust on first use), as the
// user approved the tool as it was before; later changes suspend them.

// pin is what one standing approval was given for.
type pin struct {
	// Kind is the policy: "always", "conversation" or "server".
	Kind string `json:"kind"`
	// Conversation is the conversation of a "conversation" policy.
	Conversation int64  `json:"conversation,omitempty"`
	Server       string `json:"server"`
	// Tool is the tool of an "always" or "conversation" policy.
	Tool string `json:"tool,omitempty"`
	// Identity is the server's identity hash when approved; Facts
	// describe it (secrets left out), to say what changed.
	Identity string                  `json:"identity"`
	Facts    mcpconfig.IdentityFacts `json:"facts"`
	// Hash is the tool's definition hash ("always", "conversation").
	Hash string `json:"hash,omitempty"`
	// Tools are the definition hashes of the server's tools, by name
	// ("server").
	Tools map[string]string `json:"tools,omitempty"`
	// At is when it was pinned; FirstUse says it was pinned at the first
	// call after pins were introduced, not by the user.
	At       time.Time `json:"at"`
	FirstUse bool      `json:"firstUse,omitempty"`
}

// pinKey names the pin of one policy. Built, never parsed.
func pinKey(kind string, conv int64, server, tool string) string {
	b, _ := json.Marshal([]string{kind, strconv.FormatInt(conv, 10), server, tool})
	return string(b)
}

func (p pin) key() string { return pinKey(p.Kind, p.Conversation, p.Server, p.Tool) }

// prunePins drops the pins whose policy is gone.
func (d *policyDoc) prunePins() {
	for k, p := range d.Pins {
		ref := ToolRef{Server: p.Server, Tool: p.Tool}
		var live bool
		switch p.Kind {
		case policyAlways:
			live = slices.Contains(d.AlwaysAllow, ref)
		case policyConversation:
			live = slices.Contains(d.Conversations[convKey(p.Conversation)], ref)
		case policyServer:
			live = slices.Contains(d.AutoServers, p.Server)
		}
		if !live || k != p.key() {
			delete(d.Pins, k)
		}
	}
	if len(d.Pins) == 0 {
		d.Pins = nil
	}
}

// check compares a standing approval of kind with the tool o as offered
// now. It returns nil when the approval holds; else what changed. A
// policy without a pin (stored before pins existed) holds, and is pinned
// to o now.
func (e *Engine) check(ctx context.Context, doc policyDoc, kind string, conv int64, o *offeredTool) *trust.Change {
	if kind != policyConversation {
		conv = 0
	}
	tool := o.Tool
	if kind == policyServer {
		tool = ""
	}
	p, ok := doc.Pins[pinKey(kind, conv, o.Server, tool)]
	if !ok {
		if err := e.pinFirstUse(ctx, kind, conv, o); err != nil {
			e.logger.Warn("pin approval policy", "server", o.Server, "tool", o.Tool, "err", err)
		}
		return nil
	}
	return e.compare(ctx, p, o)
}

// pinHolds reports whether the policy kind covering o is pinned to what o
// is now (or not pinned at all); it reads no definitions.
func (d policyDoc) pinHolds(kind string, conv int64, o *offeredTool) bool {
	if kind != policyConversation {
		conv = 0
	}
	tool := o.Tool
	if kind == policyServer {
		tool = ""
	}
	p, ok := d.Pins[pinKey(kind, conv, o.Server, tool)]
	if !ok {
		return true
	}
	hash := p.Hash
	if kind == policyServer {
		hash = p.Tools[o.Tool]
	}
	return p.Identity == o.identity && hash == o.hash
}

// compare returns how o differs from what p was given for, nil when not.
func (e *Engine) compare(ctx context.Context, p pin, o *offeredTool) *trust.Change {
	c := &trust.Change{Policy: p.Kind}
	if p.Identity != o.identity {
		c.Server = trust.CompareServers(p.Facts, o.facts)
	}
	hash := p.Hash
	if p.Kind == policyServer {
		h, known := p.Tools[o.Tool]
		c.New, hash = !known, h
	}
	if !c.New && hash != o.hash {
		c.Tool = e.toolChange(ctx, hash, o.def)
	}
	if c.Server == nil && c.Tool == nil && !c.New {
		return nil
	}
	return c
}

// toolChange describes how after differs from the definition approved as
// hash: a diff when that definition was kept, else only the hashes.
func (e *Engine) toolChange(ctx context.Context, hash string, after trust.Definition) *trust.ToolChange {
	raw, ok, err := e.st.ToolDefinition(context.WithoutCancel(ctx), hash)
	if err != nil {
		e.logger.Warn("read approved tool definition", "err", err)
	}
	if ok {
		if before, err := trust.ParseDefinition(raw); err == nil {
			return trust.CompareTools(before, after)
		}
	}
	return &trust.ToolChange{HashBefore: hash, HashAfter: after.Hash()}
}

// keepDefinition stores a definition by its hash, for later diffs.
func (e *Engine) keepDefinition(ctx context.Context, d trust.Definition, hash string) {
	if _, err := e.st.PutToolDefinition(context.WithoutCancel(ctx), hash, d.Canonical()); err != nil {
		e.logger.Warn("keep approved tool definition", "err", err)
	}
}

// pinFirstUse pins a policy stored before pins existed to o.
func (e *Engine) pinFirstUse(ctx context.Context, kind string, conv int64, o *offeredTool) error {
	e.logger.Info("approval policy pinned on first use", "policy", kind, "server", o.Server, "tool", o.Tool)
	return e.editPolicies(ctx, func(d *policyDoc) {
		e.setPin(ctx, d, kind, conv, o, true)
	})
}

// setPin pins the policy kind covering o to o as offered (the
// definition the user saw) and its server's identity. A server pin keeps
// the hashes of the server's other tools it has, and takes the current
// ones of those it has not; firstUse does not replace an existing pin.
func (e *Engine) setPin(ctx context.Context, d *policyDoc, kind string, conv int64, o *offeredTool, firstUse bool) {
	p := pin{Kind: kind, Server: o.Server, Identity: o.identity, Facts: o.facts, At: time.Now().UTC(), FirstUse: firstUse}
	switch kind {
	case policyConversation:
		p.Conversation, p.Tool, p.Hash = conv, o.Tool, o.hash
	case policyAlways:
		p.Tool, p.Hash = o.Tool, o.hash
	case policyServer:
		p.Tools = map[string]string{}
		if old, ok := d.Pins[p.key()]; ok {
			maps.Copy(p.Tools, old.Tools)
		} else {
			for _, t := range e.serverTools(o.Server) {
				def := trust.DefinitionOf(t)
				h := def.Hash()
				p.Tools[t.Name] = h
				e.keepDefinition(ctx, def, h)
			}
		}
		p.Tools[o.Tool] = o.hash
	default:
		return
	}
	if _, exists := d.Pins[p.key()]; exists && firstUse {
		return
	}
	e.keepDefinition(ctx, o.def, o.hash)
	if d.Pins == nil {
		d.Pins = map[string]pin{}
	}
	d.Pins[p.key()] = p
}

// serverTools returns a server's tools as listed now (none when unknown).
func (e *Engine) serverTools(id string) []mcp.Tool {
	if e.tools == nil {
		return nil
	}
	tools, _ := e.tools.Tools(id)
	return tools
}

// connectedTools returns the tools of every connected server, by id.
func (e *Engine) connectedTools() map[string][]mcp.Tool {
	out := map[string][]mcp.Tool{}
	if e.tools == nil {
		return out
	}
	for _, st := range e.tools.Servers() {
		if st.Status.State != events.StateConnected {
			continue
		}
		if tools, err := e.tools.Tools(st.Config.ID); err == nil {
			out[st.Config.ID] = tools
		}
	}
	return out
}

// otherTools names the tools of every connected server but self, for
// trust.Inspect.
func otherTools(lists map[string][]mcp.Tool, table *naming.Table, self string) []trust.ToolName {
	var out []trust.ToolName
	for _, id := range slices.Sorted(maps.Keys(lists)) {
		if id == self {
			continue
		}
		for _, t := range lists[id] {
			n := trust.ToolName{Server: id, Tool: t.Name}
			if table != nil {
				n.Qualified, _ = table.Name(naming.Ref{Server: id, Tool: t.Name})
			}
			out = append(out, n)
		}
	}
	return out
}

func toolNames(tools []mcp.Tool) []string {
	out := make([]string, 0, len(tools))
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

// ---- the report ----------------------------------------------------------------

// TrustReport lists what changed since standing approvals were given, and
// the approvals suspended by it (SPEC G1).
type TrustReport struct {
	// Servers with a change, in config order.
	Servers []ServerTrust `json:"servers"`
}

// ServerTrust is what changed on one server since its tools were approved.
type ServerTrust struct {
	Server string `json:"server"`
	// Identity is set when the server runs another command, or connects
	// elsewhere, than when approved.
	Identity *trust.ServerChange `json:"identity,omitempty"`
	// Tools changed since they were approved, or added to an
	// auto-approved server since; by name.
	Tools []ChangedTool `json:"tools"`
	// Suspended are the standing approvals suspended by these changes.
	Suspended []SuspendedPolicy `json:"suspended"`
}

// ChangedTool is one tool whose definition differs from the approved one.
type ChangedTool struct {
	Tool string `json:"tool"`
	// New: the tool was not there when its server was auto-approved.
	New bool `json:"new,omitempty"`
}

// SuspendedPolicy is one standing approval that asks again because what it
// was given for changed.
type SuspendedPolicy struct {
	Kind           string `json:"kind" ts_type:"'always' | 'conversation' | 'server'"`
	Server         string `json:"server"`
	Tool           string `json:"tool,omitempty"`
	ConversationID int64  `json:"conversationId,omitempty"`
}

// Trust reports the standing approvals whose server or tools changed
// since they were given. A server that is not connected is judged by its
// identity alone (its tools are not known).
func (e *Engine) Trust(ctx context.Context) (TrustReport, error) {
	doc, err := e.loadPolicies(ctx)
	if err != nil {
		return TrustReport{Servers: []ServerTrust{}}, err
	}
	return e.trustReport(ctx, doc), nil
}

func (e *Engine) trustReport(ctx context.Context, doc policyDoc) TrustReport {
	rep := TrustReport{Servers: []ServerTrust{}}
	if e.tools == nil || len(doc.Pins) == 0 {
		return rep
	}
	pins := slices.SortedFunc(maps.Values(doc.Pins), func(a, b pin) int {
		switch {
		case a.key() < b.key():
			return -1
		case a.key() > b.key():
			return 1
		}
		return 0
	})
	for _, st := range e.tools.Servers() {
		id := st.Config.ID
		facts := st.Config.Facts()
		identity := facts.Hash()
		var tools map[string]trust.Definition
		if st.Status.State == events.StateConnected {
			tools = map[string]trust.Definition{}
			for _, t := range e.serverTools(id) {
				tools[t.Name] = trust.DefinitionOf(t)
			}
		}
		s := ServerTrust{Server: id, Tools: []ChangedTool{}, Suspended: []SuspendedPolicy{}}
		for _, p := range pins {
			if p.Server != id {
				continue
			}
			suspended := false
			if p.Identity != identity {
				suspended = true
				if s.Identity == nil {
					s.Identity = trust.CompareServers(p.Facts, facts)
				}
			}
			hashes := p.Tools
			if p.Kind != policyServer {
				hashes = map[string]string{p.Tool: p.Hash}
			}
			for _, name := range slices.Sorted(maps.Keys(hashes)) {
				if def, ok := tools[name]; ok && def.Hash() != hashes[name] {
					suspended = true
					s.addTool(ChangedTool{Tool: name})
				}
			}
			if p.Kind == policyServer {
				for _, name := range slices.Sorted(maps.Keys(tools)) {
					if _, known := p.Tools[name]; !known {
						suspended = true
						s.addTool(ChangedTool{Tool: name, New: true})
					}
				}
			}
			if suspended {
				s.Suspended = append(s.Suspended, SuspendedPolicy{Kind: p.Kind, Server: id, Tool: p.Tool, ConversationID: p.Conversation})
			}
		}
		if s.Identity != nil || len(s.Tools) > 0 {
			rep.Servers = append(rep.Servers, s)
		}
	}
	return rep
}

func (s *ServerTrust) addTool(t ChangedTool) {
	if !slices.ContainsFunc(s.Tools, func(x ChangedTool) bool { return x.Tool == t.Tool }) {
		s.Tools = append(s.Tools, t)
	}
}
