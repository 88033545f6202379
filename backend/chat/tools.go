package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/apps"
	"mcpdesk/backend/events"
	"mcpdesk/backend/llm"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/mcppool/naming"
	"mcpdesk/backend/store"
	"mcpdesk/backend/trust"
)

// OfferedTool is one tool a model may be offered.
type OfferedTool struct {
	// Name is the name the model sees (SPEC A5), e.g. "everything__echo".
	Name        string                 `json:"name"`
	Server      string                 `json:"server"`
	Tool        string                 `json:"tool"`
	Title       string                 `json:"title"`
	Description string                 `json:"description"`
	Annotations events.ToolAnnotations `json:"annotations"`
	// Warnings are what looks suspicious in the tool's definition (SPEC G1).
	Warnings []trust.Warning `json:"warnings,omitempty"`
}

// offeredTool is an OfferedTool with its input schema and what a standing
// approval of it is bound to (SPEC G1): its definition and hash, and its
// server's identity.
type offeredTool struct {
	OfferedTool
	schema json.RawMessage
	def    trust.Definition
	hash   string
	facts  mcpconfig.IdentityFacts
	// identity is facts.Hash(): the server's identity.
	identity string
	// viewURI is the tool's MCP Apps view, if it has one.
	viewURI string
}

// offer is what one model call is offered: the servers taking part, the
// tool definitions, and the tools by the name the model sees.
type offer struct {
	servers []string
	defs    []llm.ToolDef
	byName  map[string]*offeredTool
	// searching: the defs are search_tools and a few tools (toolsearch.go),
	// all every tool search_tools searches.
	searching bool
	all       []llm.ToolDef
}

// AvailableTools lists the tools a conversation could offer: those of the
// given servers (nil: every enabled server) that are connected, minus the
// tools switched off for models in the pool (SPEC A6), in server order.
func (e *Engine) AvailableTools(servers []string) ([]OfferedTool, error) {
	off := e.offer(store.ConversationSettings{Servers: servers})
	out := make([]OfferedTool, 0, len(off.defs))
	for _, d := range off.defs {
		out = append(out, off.byName[d.Name].OfferedTool)
	}
	return out, nil
}

// offer builds what a conversation with settings s offers a model: the
// tools of its servers (nil: every enabled server) that are connected,
// narrowed by the pool's allow/deny lists (through the naming table) and
// the conversation's own per-server filter, under their SPEC A5 names.
func (e *Engine) offer(s store.ConversationSettings) offer {
	off := offer{byName: map[string]*offeredTool{}}
	if e.tools == nil {
		return off
	}
	table := e.tools.ToolTable()
	lists := e.connectedTools()
	for _, st := range e.tools.Servers() {
		id := st.Config.ID
		tools, connected := lists[id]
		if !connected {
			continue
		}
		if s.Servers != nil && !slices.Contains(s.Servers, id) {
			continue
		}
		off.servers = append(off.servers, id)
		facts := st.Config.Facts()
		identity := facts.Hash()
		inspector := trust.NewInspector(otherTools(lists, table, id), toolNames(tools))
		filter, filtered := s.Tools[id]
		for _, t := range tools {
			if filtered {
				if len(filter.Allowed) > 0 && !slices.Contains(filter.Allowed, t.Name) {
					continue
				}
				if slices.Contains(filter.Disabled, t.Name) {
					continue
				}
			}
			name, ok := table.Name(naming.Ref{Server: id, Tool: t.Name})
			if !ok {
				continue // switched off in the pool, or not listed yet
			}
			if !apps.UIOf(t).ForModel() {
				continue // an MCP Apps tool only its view may call (issue 15)
			}
			o := describeTool(id, t, facts, identity)
			o.Name, o.viewURI = name, apps.UIOf(t).ResourceURI
			o.Warnings = e.inspections.Inspect(inspector, o.def, o.hash)
			off.byName[name] = o
			desc := t.Description
			if desc == "" {
				desc = o.Title
			}
			off.defs = append(off.defs, llm.ToolDef{Name: name, Description: desc, Parameters: o.schema})
		}
	}
	return off
}

// describeTool is tool t of server id as approvals and their pins (SPEC
// G1) need it: its definition and hash, and the server's identity.
func describeTool(id string, t mcp.Tool, facts mcpconfig.IdentityFacts, identity string) *offeredTool {
	def := trust.DefinitionOf(t)
	return &offeredTool{
		OfferedTool: OfferedTool{Server: id, Tool: t.Name, Title: toolTitle(t), Description: t.Description, Annotations: annotations(t.Annotations)},
		schema:      inputSchema(t),
		def:         def, hash: def.Hash(), facts: facts, identity: identity,
	}
}

func toolTitle(t mcp.Tool) string {
	if t.Title != "" {
		return t.Title
	}
	return t.Annotations.Title
}

func annotations(a mcp.ToolAnnotation) events.ToolAnnotations {
	return events.ToolAnnotations{Title: a.Title, ReadOnlyHint: a.ReadOnlyHint, DestructiveHint: a.DestructiveHint,
		IdempotentHint: a.IdempotentHint, OpenWorldHint: a.OpenWorldHint}
}

// inputSchema returns a tool's input schema as JSON, always an object
// schema (model APIs refuse a tool without one).
func inputSchema(t mcp.Tool) json.RawMessage {
	if len(t.RawInputSchema) > 0 {
		return t.RawInputSchema
	}
	s := t.InputSchema
	if s.Type == "" {
		s.Type = "object"
	}
	b, err := json.Marshal(s)
	if err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return b
}

// errToolTimeout is the cause of a call that ran past the chat's limit.
var errToolTimeout = errors.New("tool call timed out")

// safeCall is runCall that turns a panic into a failed call, so one broken
// call cannot take the turn down before the others end.
// Either way, the call's outcome goes to the audit log.
func (e *Engine) safeCall(t *turn, msgID int64, c store.ToolCall, off offer, cs ChatSettings, userApproved bool) (out store.ToolCall) {
	var note callNote
	defer func() {
		if r := recover(); r != nil {
			e.logger.Error("tool call panicked", "call", c.ID, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			out = c
			out.Status, out.Error = store.ToolCallError, fmt.Sprintf("Internal error: %v", r)
			e.updateCall(t, msgID, out)
		}
		e.auditCall(t, out, note)
	}()
	return e.runCall(t, msgID, c, off, cs, userApproved, &note)
}

// updateCall stores a call's new state and tells the UI.
func (e *Engine) updateCall(t *turn, msgID int64, c store.ToolCall) {
	m, err := e.st.UpdateToolCall(t.store(), msgID, c)
	if err != nil {
		e.logger.Warn("save tool call", "message", msgID, "call", c.ID, "err", err)
	}
	// The UI gets the call as stored: a large result shortened.
	for _, stored := range m.ToolCalls {
		if stored.ID == c.ID {
			c = stored
		}
	}
	e.emitToolCall(t, msgID, c, nil)
}

// runCall takes one call from the model's request to its result: resolve
// the name, validate the arguments (SPEC D5), apply the policies or ask
// the user (D4), run it, and record what happened. userApproved skips the
// asking (the user pressed Retry). note learns what the audit log needs.
func (e *Engine) runCall(t *turn, msgID int64, c store.ToolCall, off offer, cs ChatSettings, userApproved bool, note *callNote) store.ToolCall {
	note.start = time.Now()
	if c.Name == SearchToolName && off.searching {
		c = e.runSearch(t, c, off)
		e.updateCall(t, msgID, c)
		return c
	}
	o, ok := off.byName[c.Name]
	if !ok {
		note.refused = true
		c.Status = store.ToolCallError
		c.Error = fmt.Sprintf("There is no tool named %q; the model can only call the tools it was offered.", c.Name)
		e.updateCall(t, msgID, c)
		e.emitError(t, msgID, kindTool, c.Error, false)
		return c
	}
	c.Server, c.Tool, c.ViewURI = o.Server, o.Tool, o.viewURI
	note.hash = o.hash
	args, problem := e.validateArgs(o.schema, c.Arguments)
	if problem != "" {
		note.refused = true
		c.Status = store.ToolCallError
		c.Error = fmt.Sprintf("Invalid arguments for %s: %s. The tool was not called.", c.Name, problem)
		e.updateCall(t, msgID, c)
		e.emitError(t, msgID, kindValidation, c.Error, false)
		return c
	}
	if t.ctx.Err() != nil {
		return e.cancelled(t, msgID, c, "The turn was stopped before the call ran.")
	}

	approval, verdict := store.ApprovalUser, verdictRun
	var change *trust.Change
	if !userApproved {
		approval, verdict, change = e.decide(t, o, cs)
		note.byMode = t.mode == ApproveAuto && approval == store.ApprovalServerAuto ||
			t.mode == ApproveNever && approval == store.ApprovalNever
	}
	switch verdict {
	case verdictDecline:
		c.Status, c.Approval = store.ToolCallDeclined, approval
		e.updateCall(t, msgID, c)
		return c
	case verdictAsk:
		e.updateCall(t, msgID, c) // pending, shown with the approval card
		d, answered := e.ask(t, msgID, c, o, change)
		if !answered {
			return e.cancelled(t, msgID, c, "The turn ended before the call was approved.")
		}
		approval = d.approval
		if d.Action == actionCancel {
			c.Status, c.Approval = store.ToolCallDeclined, approval
			e.updateCall(t, msgID, c)
			return c
		}
		if len(d.Arguments) > 0 {
			c.Arguments = string(d.Arguments)
			args = d.args
		}
	}
	c.Status, c.Approval = store.ToolCallApproved, approval
	e.updateCall(t, msgID, c)
	note.start = time.Now()
	return e.execute(t, msgID, c, args, cs, note)
}

// cancelled records a call that never ran because the turn ended.
func (e *Engine) cancelled(t *turn, msgID int64, c store.ToolCall, why string) store.ToolCall {
	c.Status, c.Error = store.ToolCallCancelled, why
	e.updateCall(t, msgID, c)
	return c
}

// execute runs an approved call on its server, under the chat's time limit,
// forwarding its progress.
func (e *Engine) execute(t *turn, msgID int64, c store.ToolCall, args map[string]any, cs ChatSettings, note *callNote) store.ToolCall {
	c.Status = store.ToolCallRunning
	e.updateCall(t, msgID, c)
	running := c // the progress callback's copy: c changes below

	timeout := cs.toolTimeout()
	ctx, cancel := context.WithTimeoutCause(t.ctx, timeout, errToolTimeout)
	defer cancel()
	callID := fmt.Sprintf("%s/%d/%s", t.id, msgID, c.ID)
	e.trackCall(c.Server, callID, t)
	defer e.untrackCall(c.Server, callID)
	// Progress arrives on the transport's goroutine; none may follow the
	// call's final state.
	var progressMu sync.Mutex
	finished := false
	res, took, err := e.tools.CallToolObserved(ctx, callID, c.Server, c.Tool, args, func(p events.ProgressPayload) {
		progressMu.Lock()
		defer progressMu.Unlock()
		if !finished {
			e.emitToolCall(t, msgID, running, &p)
		}
	})
	progressMu.Lock()
	finished = true
	progressMu.Unlock()
	c.DurationMs = took.Milliseconds()
	switch {
	case err == nil && res != nil:
		raw, merr := json.Marshal(res)
		if merr != nil {
			c.Status, c.Error = store.ToolCallError, fmt.Sprintf("The result could not be read: %v", merr)
			break
		}
		c.Result = raw
		c.Status = store.ToolCallDone
		if res.IsError {
			c.Status, c.Error = store.ToolCallError, clip(resultText(raw), 500)
		}
	case t.ctx.Err() != nil:
		c.Status, c.Error = store.ToolCallCancelled, "Stopped by the user."
	case errors.Is(context.Cause(ctx), errToolTimeout) || errors.Is(err, errToolTimeout):
		note.timeout = true
		c.Status = store.ToolCallError
		c.Error = fmt.Sprintf("%s › %s did not finish within %s.", c.Server, c.Tool, humanDuration(timeout))
	case err == nil:
		c.Status, c.Error = store.ToolCallError, "The server returned no result."
	default:
		c.Status, c.Error = store.ToolCallError, err.Error()
		note.timeout = errors.Is(err, mcppool.ErrTimeout)
	}
	e.updateCall(t, msgID, c)
	if c.Status == store.ToolCallError && c.Result == nil {
		e.emitError(t, msgID, kindTool, fmt.Sprintf("%s › %s failed: %s", c.Server, c.Tool, c.Error), false)
	}
	return c
}

// trackCall notes a call running on a server, so that a sampling request
// from that server finds its conversation.
func (e *Engine) trackCall(server, id string, t *turn) {
	e.mu.Lock()
	e.active[server] = append(e.active[server], activeCall{id: id, t: t})
	e.mu.Unlock()
}

func (e *Engine) untrackCall(server, id string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	list := slices.DeleteFunc(e.active[server], func(a activeCall) bool { return a.id == id })
	if len(list) == 0 {
		delete(e.active, server)
		return
	}
	e.active[server] = list
}

// activeTurnOn returns the turn whose call started last on server, or nil.
func (e *Engine) activeTurnOn(server string) *turn {
	e.mu.Lock()
	defer e.mu.Unlock()
	list := e.active[server]
	if len(list) == 0 {
		return nil
	}
	return list[len(list)-1].t
}

// toolMessageText is what the model reads about a call (the RoleTool
// message): the result's text, or why there is none. It is stored and sent
// with every later request, so it is bounded like a stored result
// (store.MaxToolResultBytes).
func toolMessageText(c store.ToolCall) string {
	return clipResultText(toolMessageTextAll(c))
}

// clipResultText cuts a tool message past store.MaxToolResultBytes, at a
// character boundary, saying so.
func clipResultText(s string) string {
	if len(s) <= store.MaxToolResultBytes {
		return s
	}
	note := fmt.Sprintf("\n… [result cut from %d bytes]", len(s))
	cut := store.MaxToolResultBytes - len(note)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + note
}

func toolMessageTextAll(c store.ToolCall) string {
	switch c.Status {
	case store.ToolCallDone:
		return resultText(c.Result)
	case store.ToolCallDeclined:
		if c.Approval == store.ApprovalNever {
			return "The tool call was declined by user (a \"never\" policy for this tool); it did not run."
		}
		return "The tool call was declined by user; it did not run. Do not retry it unless the user asks."
	case store.ToolCallCancelled:
		if c.Error != "" {
			return "The tool call was cancelled: " + c.Error
		}
		return "The tool call was cancelled before it finished."
	case store.ToolCallError:
		if len(c.Result) > 0 {
			return "Error: " + resultText(c.Result)
		}
		return "Error: " + c.Error
	default:
		return "The tool call did not complete."
	}
}

// resultText renders a CallToolResult (as JSON) for the model: its text
// blocks, embedded text resources, notes for binary content, and the
// structured content when there is no text.
func resultText(raw json.RawMessage) string {
	var res struct {
		Content           []map[string]any `json:"content"`
		StructuredContent any              `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return string(raw)
	}
	var parts []string
	for _, b := range res.Content {
		switch b["type"] {
		case "text":
			s, _ := b["text"].(string)
			parts = append(parts, s)
		case "resource":
			r, _ := b["resource"].(map[string]any)
			uri, _ := r["uri"].(string)
			if s, ok := r["text"].(string); ok {
				parts = append(parts, fmt.Sprintf("[resource %s]\n%s", uri, s))
			} else {
				mime, _ := r["mimeType"].(string)
				parts = append(parts, fmt.Sprintf("[resource %s (%s), binary]", uri, mime))
			}
		case "resource_link":
			uri, _ := b["uri"].(string)
			name, _ := b["name"].(string)
			parts = append(parts, fmt.Sprintf("[resource link %s: %s]", name, uri))
		default:
			mime, _ := b["mimeType"].(string)
			parts = append(parts, fmt.Sprintf("[%v %s shown to the user]", b["type"], mime))
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		return string(b)
	}
	return strings.Join(parts, "\n")
}
