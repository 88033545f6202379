package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mcpdesk/backend/events"
	"mcpdesk/backend/store"
	"mcpdesk/backend/trust"
)

// Tool approval (SPEC D4). A call no policy covers waits for the user
// (unless the approval default lets read-only tools run, SPEC F1): the
// engine emits chat:approval and blocks the call on a channel that Approve
// fills once; the first answer wins, later ones are refused. An open
// approval expires when its turn ends.
//
// Policies live in the settings table under policiesKey, so that the window
// and the command line share them and they survive restarts. "Allow for
// this conversation" is kept there too, by conversation id, and forgotten
// when the conversation is deleted.

// ApprovalDecision answers one approval.
type ApprovalDecision struct {
	// Action is "run" or "cancel".
	Action string `json:"action" ts_type:"'run' | 'cancel'"`
	// Policy is "once" (default), "conversation", "always", "server" or,
	// with cancel only, "never".
	Policy string `json:"policy" ts_type:"'once' | 'conversation' | 'always' | 'server' | 'never' | ''"`
	// Arguments replaces the model's arguments (a JSON object) when set;
	// they are validated against the tool's input schema.
	Arguments json.RawMessage `json:"arguments,omitempty" ts_type:"any"`
}

// ToolRef names one tool of one server.
type ToolRef struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
}

// ApprovalPolicies are the stored approval policies.
type ApprovalPolicies struct {
	// AlwaysAllow tools run without asking.
	AlwaysAllow []ToolRef `json:"alwaysAllow"`
	// AutoServers have every tool run without asking.
	AutoServers []string `json:"autoServers"`
	// Never tools are declined without asking.
	Never []ToolRef `json:"never"`
	// Suspended are the allowing policies that ask again because their
	// server or tool changed since they were given (SPEC G1).
	Suspended []SuspendedPolicy `json:"suspended"`
}

// Approval actions and policies.
const (
	actionRun    = "run"
	actionCancel = "cancel"

	policyOnce         = "once"
	policyConversation = "conversation"
	policyAlways       = string(PolicyAlways)
	policyServer       = string(PolicyServer)
	policyNever        = string(PolicyNever)
)

// PolicyKind is the kind of standing policy RevokePolicy removes.
type PolicyKind string

// The kinds of standing policy.
const (
	PolicyAlways PolicyKind = "always" // run this tool without asking
	PolicyServer PolicyKind = "server" // run every tool of this server without asking
	PolicyNever  PolicyKind = "never"  // refuse this tool without asking
)

// verdict is what the policies say about a call.
type verdict int

const (
	verdictAsk verdict = iota
	verdictRun
	verdictDecline
)

// pendingApproval is one open approval.
type pendingApproval struct {
	payload events.ChatApprovalPayload
	schema  json.RawMessage
	// tool is the tool as the user is shown it: a policy given here is
	// pinned to it (SPEC G1).
	tool *offeredTool
	ch   chan decision // buffered: Approve never blocks
}

// decision is an answer as the waiting call needs it.
type decision struct {
	ApprovalDecision
	approval store.Approval
	args     map[string]any // the edited arguments, decoded
}

// decide applies the policies to a call of o in turn t. A "never" policy
// wins over everything, then the turn's mode (the command line's
// --approve), then "this conversation", "always" and "this server" — each
// only while the server and the tool are what it was given for (SPEC G1);
// a suspended one asks, saying what changed. A call none of them covers
// falls to the default of cs: ask, or run a read-only tool without asking.
func (e *Engine) decide(t *turn, o *offeredTool, cs ChatSettings) (store.Approval, verdict, *trust.Change) {
	return e.decideFor(t.ctx, t.conv, t.mode, o, cs)
}

// decideFor is decide for a call of o in conversation conv under mode.
func (e *Engine) decideFor(ctx context.Context, conv int64, mode ApprovalMode, o *offeredTool, cs ChatSettings) (store.Approval, verdict, *trust.Change) {
	doc, err := e.loadPolicies(ctx)
	if err != nil {
		e.logger.Warn("read approval policies; asking", "err", err)
	}
	ref := ToolRef{Server: o.Server, Tool: o.Tool}
	switch {
	case slices.Contains(doc.Never, ref):
		return store.ApprovalNever, verdictDecline, nil
	case mode == ApproveNever:
		return store.ApprovalNever, verdictDecline, nil
	case mode == ApproveAuto:
		return store.ApprovalServerAuto, verdictRun, nil
	}
	var suspended *trust.Change
	for _, s := range []struct {
		kind     string
		applies  bool
		approval store.Approval
	}{
		{policyConversation, slices.Contains(doc.Conversations[convKey(conv)], ref), store.ApprovalConversation},
		{policyAlways, slices.Contains(doc.AlwaysAllow, ref), store.ApprovalAlways},
		{policyServer, slices.Contains(doc.AutoServers, o.Server), store.ApprovalServerAuto},
	} {
		if !s.applies {
			continue
		}
		change := e.check(ctx, doc, s.kind, conv, o)
		if change == nil {
			return s.approval, verdictRun, nil
		}
		if suspended == nil {
			suspended = change
		}
	}
	if suspended != nil {
		return store.ApprovalUser, verdictAsk, suspended
	}
	if cs.withDefaults().ApprovalDefault == ApprovalDefaultReadOnly && readOnly(o.Annotations) {
		return store.ApprovalReadOnly, verdictRun, nil
	}
	return store.ApprovalUser, verdictAsk, nil
}

// readOnly reports whether a tool's annotations say it only reads: its
// readOnlyHint is true. The spec makes destructiveHint "meaningful only
// when readOnlyHint == false" (and SDKs such as mcp-go send its default,
// true, on every tool), so a destructive tool is one that is not read-only
// and it always asks. The hints are the server's word, not a guarantee.
func readOnly(a events.ToolAnnotations) bool {
	return a.ReadOnlyHint != nil && *a.ReadOnlyHint
}

// ask publishes an approval for call c and waits for the answer or the end
// of the turn (answered false). change is what suspended a standing
// approval of the tool, if that is why it asks.
func (e *Engine) ask(t *turn, msgID int64, c store.ToolCall, o *offeredTool, change *trust.Change) (decision, bool) {
	id := fmt.Sprintf("approval-%d", e.seq.Add(1))
	args := json.RawMessage(c.Arguments)
	if strings.TrimSpace(c.Arguments) == "" {
		args = json.RawMessage("{}")
	}
	p := &pendingApproval{
		payload: events.ChatApprovalPayload{
			ID: id, ConversationID: t.conv, TurnID: t.id, MessageID: msgID, CallID: c.ID,
			Server: o.Server, Tool: o.Tool, Title: o.Title, Description: o.Description,
			Annotations: o.Annotations, Arguments: args, InputSchema: o.schema,
			DefinitionHash: o.hash, Change: change, Warnings: o.Warnings,
		},
		schema: o.schema,
		tool:   o,
		ch:     make(chan decision, 1),
	}
	e.mu.Lock()
	e.approvals[id] = p
	e.mu.Unlock()
	e.emit.Emit(events.ChatApproval, p.payload)

	select {
	case d := <-p.ch:
		e.emit.Emit(events.ChatApprovalDone, events.ChatApprovalDonePayload{ID: id, ConversationID: t.conv, Outcome: events.ApprovalOutcome(d.Action)})
		return d, true
	case <-t.ctx.Done():
		e.mu.Lock()
		_, open := e.approvals[id]
		delete(e.approvals, id)
		e.mu.Unlock()
		if !open {
			<-p.ch // answered at the same moment; the turn is over all the same
		}
		e.emit.Emit(events.ChatApprovalDone, events.ChatApprovalDonePayload{ID: id, ConversationID: t.conv, Outcome: events.ApprovalExpired})
		return decision{}, false
	}
}

// Approve answers approval id. Edited arguments that do not fit the tool's
// input schema are refused and the approval stays open. A policy other
// than "once" is stored first, and also settles the other open approvals
// it covers.
func (e *Engine) Approve(ctx context.Context, id string, d ApprovalDecision) error {
	d.Action = strings.ToLower(strings.TrimSpace(d.Action))
	d.Policy = strings.ToLower(strings.TrimSpace(d.Policy))
	if d.Policy == "" {
		d.Policy = policyOnce
	}
	switch d.Action {
	case actionRun:
		switch d.Policy {
		case policyOnce, policyConversation, policyAlways, policyServer:
		case policyNever:
			return errors.New("approve: \"never\" goes with cancel, not run")
		default:
			return fmt.Errorf("approve: unknown policy %q; want once, conversation, always, server or never", d.Policy)
		}
	case actionCancel:
		switch d.Policy {
		case policyNever:
		case policyOnce, policyConversation, policyAlways, policyServer:
			d.Policy = policyOnce // allowing policies make no sense with cancel
		default:
			return fmt.Errorf("approve: unknown policy %q; want once, conversation, always, server or never", d.Policy)
		}
		d.Arguments = nil
	default:
		return fmt.Errorf("approve: action must be run or cancel, not %q", d.Action)
	}

	e.mu.Lock()
	p := e.approvals[id]
	e.mu.Unlock()
	if p == nil {
		return ErrNoSuchApproval
	}
	dec := decision{ApprovalDecision: d, approval: store.ApprovalUser}
	if len(bytes.TrimSpace(d.Arguments)) > 0 && string(bytes.TrimSpace(d.Arguments)) != "null" {
		args, problem := e.validateArgs(p.schema, string(d.Arguments))
		if problem != "" {
			return fmt.Errorf("the arguments do not fit the tool's input schema: %s", problem)
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, d.Arguments); err == nil {
			dec.Arguments = buf.Bytes()
		}
		dec.args = args
	} else {
		dec.Arguments = nil
	}

	ref := ToolRef{Server: p.payload.Server, Tool: p.payload.Tool}
	if err := e.addPolicy(ctx, d.Policy, p.payload.ConversationID, ref, p.tool); err != nil {
		return fmt.Errorf("approve: %w", err)
	}
	e.mu.Lock()
	if e.approvals[id] != p {
		e.mu.Unlock()
		return ErrNoSuchApproval
	}
	delete(e.approvals, id)
	e.mu.Unlock()
	p.ch <- dec
	if d.Policy != policyOnce {
		e.settleCovered(ctx, d.Policy, p.payload.ConversationID, ref)
	}
	return nil
}

// settleCovered answers the open approvals a new policy covers: for the
// allowing policies, only those whose server and tool are what the policy
// is now pinned to, so that an approval showing another change still
// waits for the user.
func (e *Engine) settleCovered(ctx context.Context, policy string, conv int64, ref ToolRef) {
	type answer struct {
		p *pendingApproval
		d decision
	}
	doc, err := e.loadPolicies(ctx)
	if err != nil {
		e.logger.Warn("read approval policies", "err", err)
		return
	}
	var out []answer
	e.mu.Lock()
	for id, p := range e.approvals {
		r := ToolRef{Server: p.payload.Server, Tool: p.payload.Tool}
		if policy != policyNever && (p.tool == nil || !doc.pinHolds(policy, conv, p.tool)) {
			continue
		}
		var d decision
		switch {
		case policy == policyConversation && p.payload.ConversationID == conv && r == ref:
			d = decision{ApprovalDecision: ApprovalDecision{Action: actionRun, Policy: policyOnce}, approval: store.ApprovalConversation}
		case policy == policyAlways && r == ref:
			d = decision{ApprovalDecision: ApprovalDecision{Action: actionRun, Policy: policyOnce}, approval: store.ApprovalAlways}
		case policy == policyServer && r.Server == ref.Server:
			d = decision{ApprovalDecision: ApprovalDecision{Action: actionRun, Policy: policyOnce}, approval: store.ApprovalServerAuto}
		case policy == policyNever && r == ref:
			d = decision{ApprovalDecision: ApprovalDecision{Action: actionCancel, Policy: policyOnce}, approval: store.ApprovalNever}
		default:
			continue
		}
		delete(e.approvals, id)
		out = append(out, answer{p, d})
	}
	e.mu.Unlock()
	for _, a := range out {
		a.p.ch <- a.d
	}
}

// ---- stored policies -----------------------------------------------------------

// policiesKey is the settings key holding policyDoc.
const policiesKey = "chat.policies"

// policyDoc is the stored form of the policies.
type policyDoc struct {
	AlwaysAllow []ToolRef `json:"alwaysAllow"`
	AutoServers []string  `json:"autoServers"`
	Never       []ToolRef `json:"never"`
	// Conversations are the tools allowed for one conversation, by
	// conversation id.
	Conversations map[string][]ToolRef `json:"conversations,omitempty"`
	// Pins bind the allowing policies to what was approved (SPEC G1), by
	// pinKey.
	Pins map[string]pin `json:"pins,omitempty"`
}

func convKey(id int64) string { return strconv.FormatInt(id, 10) }

func (e *Engine) loadPolicies(ctx context.Context) (policyDoc, error) {
	var doc policyDoc
	if _, err := e.st.GetSetting(context.WithoutCancel(ctx), policiesKey, &doc); err != nil {
		return policyDoc{}, err
	}
	return doc, nil
}

// editPolicies changes the stored policies under a lock.
func (e *Engine) editPolicies(ctx context.Context, edit func(*policyDoc)) error {
	e.policyMu.Lock()
	defer e.policyMu.Unlock()
	doc, err := e.loadPolicies(ctx)
	if err != nil {
		return err
	}
	edit(&doc)
	for k, v := range doc.Conversations {
		if len(v) == 0 {
			delete(doc.Conversations, k)
		}
	}
	doc.prunePins()
	return e.st.PutSetting(ctx, policiesKey, doc)
}

// addPolicy stores policy for ref ("once" stores nothing). An allowing
// policy is pinned to o, the tool as the user was shown it (SPEC G1); with
// o nil it is pinned at its first use.
func (e *Engine) addPolicy(ctx context.Context, policy string, conv int64, ref ToolRef, o *offeredTool) error {
	if policy == policyOnce {
		return nil
	}
	return e.editPolicies(ctx, func(d *policyDoc) {
		if o != nil {
			e.setPin(ctx, d, policy, conv, o, false)
		}
		switch policy {
		case policyConversation:
			if d.Conversations == nil {
				d.Conversations = map[string][]ToolRef{}
			}
			d.Conversations[convKey(conv)] = addRef(d.Conversations[convKey(conv)], ref)
			d.Never = removeRef(d.Never, ref)
		case policyAlways:
			d.AlwaysAllow = addRef(d.AlwaysAllow, ref)
			d.Never = removeRef(d.Never, ref)
		case policyServer:
			if !slices.Contains(d.AutoServers, ref.Server) {
				d.AutoServers = append(d.AutoServers, ref.Server)
			}
		case policyNever:
			d.Never = addRef(d.Never, ref)
			d.AlwaysAllow = removeRef(d.AlwaysAllow, ref)
			for k, v := range d.Conversations {
				d.Conversations[k] = removeRef(v, ref)
			}
		}
	})
}

func addRef(list []ToolRef, r ToolRef) []ToolRef {
	if slices.Contains(list, r) {
		return list
	}
	return append(list, r)
}

func removeRef(list []ToolRef, r ToolRef) []ToolRef {
	return slices.DeleteFunc(list, func(x ToolRef) bool { return x == r })
}

// Policies returns the stored approval policies.
func (e *Engine) Policies(ctx context.Context) (ApprovalPolicies, error) {
	doc, err := e.loadPolicies(ctx)
	if err != nil {
		return ApprovalPolicies{}, err
	}
	p := ApprovalPolicies{AlwaysAllow: doc.AlwaysAllow, AutoServers: doc.AutoServers, Never: doc.Never, Suspended: []SuspendedPolicy{}}
	for _, s := range e.trustReport(ctx, doc).Servers {
		for _, sp := range s.Suspended {
			if sp.Kind != policyConversation {
				p.Suspended = append(p.Suspended, sp)
			}
		}
	}
	if p.AlwaysAllow == nil {
		p.AlwaysAllow = []ToolRef{}
	}
	if p.AutoServers == nil {
		p.AutoServers = []string{}
	}
	if p.Never == nil {
		p.Never = []ToolRef{}
	}
	return p, nil
}

// RevokePolicy removes one policy: kind "always" or "never" with a server
// and tool, or "server" with a server. Removing one that is not there is
// not an error.
func (e *Engine) RevokePolicy(ctx context.Context, kind PolicyKind, server, tool string) error {
	ref := ToolRef{Server: server, Tool: tool}
	switch kind {
	case PolicyAlways, PolicyNever:
		if server == "" || tool == "" {
			return fmt.Errorf("revoke %s: name the server and the tool", kind)
		}
	case PolicyServer:
		if server == "" {
			return errors.New("revoke server: name the server")
		}
	default:
		return fmt.Errorf("revoke: kind must be always, server or never, not %q", kind)
	}
	return e.editPolicies(ctx, func(d *policyDoc) {
		switch kind {
		case PolicyAlways:
			d.AlwaysAllow = removeRef(d.AlwaysAllow, ref)
		case PolicyNever:
			d.Never = removeRef(d.Never, ref)
		case PolicyServer:
			d.AutoServers = slices.DeleteFunc(d.AutoServers, func(s string) bool { return s == server })
		}
	})
}

// forgetConversationPolicies drops the "this conversation" policies of a
// deleted conversation.
func (e *Engine) forgetConversationPolicies(ctx context.Context, conv int64) error {
	doc, err := e.loadPolicies(ctx)
	if err != nil || len(doc.Conversations[convKey(conv)]) == 0 {
		return err
	}
	return e.editPolicies(ctx, func(d *policyDoc) { delete(d.Conversations, convKey(conv)) })
}
