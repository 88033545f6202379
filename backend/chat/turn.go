package chat

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/llm"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/store"
)

// Step phases (events.ChatStepPayload.Phase).
const (
	phaseModel    = events.StepModel
	phaseTools    = events.StepTools
	phaseRetry    = events.StepRetry
	phaseFallback = events.StepFallback
)

// retryCall is a tool call RetryToolCall runs again before the model
// continues.
type retryCall struct {
	msg    store.Message
	callID string
}

// run is a turn's goroutine. Whatever happens, it ends with finish, which
// emits the turn's one chat:done.
func (e *Engine) run(t *turn, retry *retryCall) {
	reason := DoneError
	start := time.Now()
	defer func() {
		r := recover()
		if r != nil {
			e.logger.Error("chat turn panicked", "conversation", t.conv, "turn", t.id,
				"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		}
		if !e.settle(t) {
			e.abandon(t) // Send failed and says why
			return
		}
		if r != nil {
			text := fmt.Sprintf("Internal error: %v. The reply was stopped.", r)
			e.failMessage(t, text)
			e.emitError(t, t.msgID.Load(), kindInternal, text, false)
			reason = DoneError
		}
		e.finish(t, reason, time.Since(start))
	}()
	reason = e.loop(t, retry)
}

// storeUser stores the user's message Send left to the turn, with the
// messages in with after it in the same commit (the reply's row), names a
// new conversation after it, announces it and lets Send return. It returns
// the messages of with as stored. A message that cannot be stored ends the
// turn without a word: Send says why.
func (e *Engine) storeUser(t *turn, with ...store.Message) ([]store.Message, error) {
	out, err := e.st.AppendMessages(t.store(), t.title, append([]store.Message{*t.pending}, with...)...)
	t.pending = nil
	if err != nil {
		t.storeErr = err
		close(t.stored)
		return nil, err
	}
	t.user = out[0]
	e.emitMessage(t, t.user)
	e.emitConversations(t.conv)
	close(t.stored)
	return out[1:], nil
}

// settle stores the user's message when the turn has not yet (it ends, or
// says something, before its first reply): nothing the user sent is lost,
// and it is announced before anything about it. False when it cannot be
// stored.
func (e *Engine) settle(t *turn) bool {
	if t.pending != nil {
		_, _ = e.storeUser(t)
	}
	return t.storeErr == nil
}

// finish ends a turn: what still waits on it expires, the conversation is
// free again, and chat:done goes out last.
func (e *Engine) finish(t *turn, reason events.DoneReason, took time.Duration) {
	t.cancel(nil)
	e.expireSamplings(t)
	e.mu.Lock()
	if e.turns[t.conv] == t {
		delete(e.turns, t.conv)
	}
	e.mu.Unlock()
	steps := int(t.steps.Load())
	e.logger.Info("chat turn ended", "conversation", t.conv, "turn", t.id, "reason", reason,
		"steps", steps, "took", took.Round(time.Millisecond))
	e.emitConversations(t.conv)
	e.emit.Emit(events.ChatDone, events.ChatDonePayload{ConversationID: t.conv, TurnID: t.id, Reason: reason, Steps: steps})
	close(t.done)
}

// failMessage marks the reply being written as failed after a panic.
func (e *Engine) failMessage(t *turn, text string) {
	id := t.msgID.Load()
	if id == 0 {
		return
	}
	defer func() { _ = recover() }() // a second panic must not lose chat:done
	m, err := e.st.GetMessage(t.store(), id)
	if err != nil || m.Status != store.MessageStreaming {
		return
	}
	m.Status, m.Error = store.MessageError, text
	for i, c := range m.ToolCalls {
		switch c.Status {
		case store.ToolCallPending, store.ToolCallApproved, store.ToolCallRunning:
			m.ToolCalls[i].Status = store.ToolCallCancelled
		}
	}
	if m, err = e.st.UpdateMessage(t.store(), m); err == nil {
		e.emitMessage(t, m)
	}
}

// loop is the agent loop (SPEC D3): a model call, the tools it asks for,
// and again, until the model answers without tools, the step limit, a
// failure or Stop. It returns the chat:done reason.
func (e *Engine) loop(t *turn, retry *retryCall) events.DoneReason {
	ctx := t.ctx
	// What comes before the request is the first token's wait. It is read
	// here, one query after another, not beside the routes in a second
	// goroutine: database/sql hands this goroutine the connection Send has
	// just used, whose page cache is warm, where a second connection had to
	// reload what the last turn's commits invalidated (0.3-0.5 ms measured
	// on the settings read alone, more than the overlap saved).
	cs := e.settings(ctx)
	conv, err := t.sendConv, error(nil)
	if t.pending == nil {
		conv, err = e.st.GetConversation(ctx, t.conv)
	}
	var routes []providers.Route
	var routeErr error
	if err == nil {
		routes, routeErr = e.models.Routes(ctx, resolveModel(conv))
	}
	if (err != nil || routeErr != nil) && !e.settle(t) {
		return DoneCancelled // not reported: run abandons the turn
	}
	if err != nil {
		if ctx.Err() != nil {
			return DoneCancelled
		}
		e.emitError(t, 0, kindInternal, fmt.Sprintf("Could not read the conversation: %v", err), false)
		return DoneError
	}
	maxSteps := cs.MaxSteps
	if conv.Settings.MaxSteps != nil {
		maxSteps = *conv.Settings.MaxSteps
	}
	if err := routeErr; err != nil {
		if ctx.Err() != nil {
			return DoneCancelled
		}
		// The user needs to see why in the transcript too.
		m, serr := e.st.AppendMessage(t.store(), store.Message{
			ConversationID: t.conv, Role: store.RoleAssistant, Status: store.MessageError, Error: err.Error(),
		})
		if serr == nil {
			e.emitMessage(t, m)
		}
		e.emitError(t, m.ID, string(llm.KindBadRequest), err.Error(), false)
		return DoneError
	}

	if retry != nil {
		t.msgID.Store(retry.msg.ID)
		e.emitStep(t, 0, maxSteps, phaseTools, "", "", 0)
		off := e.offer(conv.Settings)
		if searching(cs.ToolSearch, off) {
			off = narrow(off, nil, nil)
		}
		e.retryTools(t, retry, off, cs)
		if ctx.Err() != nil {
			return DoneCancelled
		}
	}

	for step := 1; ; step++ {
		t.steps.Store(int32(step))
		if step > 1 {
			// Settings changed during the turn apply from the next step.
			if c, err := e.st.GetConversation(ctx, t.conv); err == nil {
				conv = c
			}
		}
		var msgs []store.Message
		msgs, err = e.st.Messages(ctx, conv.ID)
		if err == nil && t.pending != nil {
			// Sent now; stored with the reply's row.
			msgs = append(msgs, *t.pending)
		}
		var history []llm.Message
		off := e.offer(conv.Settings)
		if err == nil {
			if searching(cs.ToolSearch, off) {
				off = narrow(off, pinnedOf(msgs), t.search.list())
			}
			history, err = e.history(ctx, conv, msgs, off.servers)
		}
		if err != nil {
			if ctx.Err() != nil || !e.settle(t) {
				return DoneCancelled
			}
			e.emitError(t, 0, kindInternal, fmt.Sprintf("Could not read the conversation: %v", err), false)
			return DoneError
		}
		msg, reason := e.callModel(t, conv, step, maxSteps, routes, history, off)
		if reason != "" {
			return reason
		}
		if len(msg.ToolCalls) == 0 {
			return DoneStop
		}
		e.emitStep(t, step, maxSteps, phaseTools, "", "", 0)
		e.runTools(t, msg, off, cs)
		if ctx.Err() != nil {
			return DoneCancelled
		}
		if step >= maxSteps {
			return DoneMaxSteps
		}
	}
}

// callModel streams one model reply into a new assistant message. It
// returns the stored message and "" to go on, or the chat:done reason when
// the turn ends here.
func (e *Engine) callModel(t *turn, conv store.Conversation, step, maxSteps int, routes []providers.Route,
	history []llm.Message, off offer) (store.Message, events.DoneReason) {
	// The reply's row (for a Send, in one commit with the user's message)
	// is written while the request goes out, so that the first token waits
	// for the slower of the two rather than for both.
	// What the stream brings waits for the row (ready): the window hears
	// of the message, then the step, then its text, as before.
	ctx, stopStream := context.WithCancel(t.ctx)
	defer stopStream()
	placed := make(chan struct{})
	var msg store.Message
	var placeErr error
	go func() {
		defer close(placed)
		row := store.Message{
			ConversationID: t.conv, Role: store.RoleAssistant, Status: store.MessageStreaming, Model: modelLabel(routes[0]),
		}
		if t.pending != nil {
			// The user's message and the reply's row: one commit.
			var rows []store.Message
			if rows, placeErr = e.storeUser(t, row); placeErr == nil {
				msg = rows[0]
			}
		} else {
			msg, placeErr = e.st.AppendMessage(t.store(), row)
		}
		if placeErr != nil {
			stopStream()
			return
		}
		t.msgID.Store(msg.ID)
		e.emitMessage(t, msg)
		e.emitStep(t, step, maxSteps, phaseModel, modelLabel(routes[0]), "Asking "+routes[0].Target.Label+".", 0)
	}()
	var co *coalescer
	ready := func() bool {
		<-placed
		if placeErr != nil {
			return false
		}
		if co == nil {
			co = newCoalescer(e.emit, t, msg.ID, e.opts.FlushInterval)
		}
		return true
	}

	targets := make([]llm.Target, len(routes))
	for i, r := range routes {
		targets[i] = r.Target
	}
	attempts := e.opts.Retry.MaxAttempts
	if attempts <= 0 {
		attempts = llm.DefaultRetryPolicy().MaxAttempts
	}
	cur := 0 // the route being tried
	var text, reasoning strings.Builder
	lastSave := time.Now()
	writing := map[int]*partialCall{}
	onDelta := func(d llm.Delta) {
		if !ready() {
			return
		}
		switch d.Kind {
		case llm.DeltaText:
			text.WriteString(d.Text)
			co.add(d.Text, "")
		case llm.DeltaReasoning:
			reasoning.WriteString(d.Text)
			co.add("", d.Text)
		case llm.DeltaToolCall:
			e.partialCall(t, msg.ID, writing, d, off)
			return
		default:
			return
		}
		if time.Since(lastSave) >= e.opts.SaveInterval {
			// Every few seconds, so that a crash keeps most of the reply
			// (each write re-indexes the text for search).
			lastSave = time.Now()
			m := msg
			m.Content, m.Reasoning = text.String(), reasoning.String()
			if _, err := e.st.UpdateMessage(t.store(), m); err != nil {
				e.logger.Warn("save streaming reply", "message", msg.ID, "err", err)
			}
		}
	}
	onAttempt := func(a llm.Attempt) {
		if !ready() {
			return
		}
		co.flush()
		why := errText(a.Err)
		if a.Fallback {
			if cur+1 < len(routes) {
				cur++
			}
			e.emitStep(t, step, maxSteps, phaseFallback, modelLabel(routes[cur]),
				fmt.Sprintf("%s Falling back to %s.", why, a.NextTarget), 0)
			return
		}
		e.emitStep(t, step, maxSteps, phaseRetry, modelLabel(routes[cur]),
			fmt.Sprintf("%s Trying again in %s (attempt %d of %d).", why, humanDuration(a.Wait), a.Try+1, attempts), a.Wait)
	}

	req := llm.Request{Model: routes[0].Ref.Model, Messages: history, Tools: off.defs}
	if temp := conv.Settings.Temperature; temp != nil {
		v := float32(*temp)
		req.Temperature = &v
	}
	res, err := llm.StreamWithFallback(ctx, targets, req, e.opts.Retry, onDelta, onAttempt)
	if !ready() {
		if t.storeErr != nil {
			return msg, DoneCancelled // not reported: run abandons the turn
		}
		e.emitError(t, 0, kindInternal, fmt.Sprintf("Could not save the reply: %v", placeErr), false)
		return msg, DoneError
	}
	co.close()

	route := routes[cur]
	msg.Model = modelLabel(route)
	msg.Content, msg.Reasoning = res.Content, res.Reasoning
	// What was shown is what is kept: when the stream is cut, the result
	// can lag the deltas already sent to the window by a chunk.
	msg.Content = longerOf(msg.Content, text.String())
	msg.Reasoning = longerOf(msg.Reasoning, reasoning.String())
	if u := res.Usage; u != (llm.Usage{}) {
		tu := usageOf(u)
		msg.Usage = &tu
		e.emit.Emit(events.ChatUsage, events.ChatUsagePayload{
			ConversationID: t.conv, TurnID: t.id, MessageID: msg.ID,
			Provider: route.Ref.Provider, Model: route.Ref.Model, Usage: tu,
		})
		kind := store.UsageChat
		if cur > 0 {
			kind = store.UsageFallback
		}
		e.recordUsage(t.store(), t.conv, route, kind, tu)
	}

	if err == nil {
		msg.Status = store.MessageComplete
		if len(res.ToolCalls) > 0 {
			msg.ToolCalls = prepareCalls(msg.ID, res.ToolCalls, off)
			// Still in progress until its calls end: a crash marks it
			// interrupted and its unfinished calls cancelled.
			msg.Status = store.MessageStreaming
		}
		saved, err := e.st.UpdateMessage(t.store(), msg)
		if err != nil {
			e.emitError(t, msg.ID, kindInternal, fmt.Sprintf("Could not save the reply: %v", err), false)
			return msg, DoneError
		}
		e.emitMessage(t, saved)
		return saved, ""
	}

	stopped := ctx.Err() != nil
	le, _ := llm.AsError(err)
	switch {
	case stopped:
		msg.Status = store.MessageInterrupted
	case res.Content != "" || res.Reasoning != "" || (le != nil && le.Partial):
		msg.Status, msg.Error = store.MessageInterrupted, errText(err)
	default:
		msg.Status, msg.Error = store.MessageError, errText(err)
	}
	saved, uerr := e.st.UpdateMessage(t.store(), msg)
	if uerr != nil {
		e.logger.Warn("save failed reply", "message", msg.ID, "err", uerr)
		saved = msg
	}
	e.emitMessage(t, saved)
	if stopped {
		return saved, DoneCancelled
	}
	kind := string(llm.KindOf(err))
	if kind == "" {
		kind = kindInternal
	}
	e.emitError(t, msg.ID, kind, errText(err), msg.Status == store.MessageInterrupted)
	return saved, DoneError
}

// prepareCalls turns the model's calls into stored ones: ids made unique
// (a provider may leave them out), server and tool filled in when the name
// is one that was offered.
func prepareCalls(msgID int64, calls []llm.ToolCall, off offer) []store.ToolCall {
	out := make([]store.ToolCall, 0, len(calls))
	seen := map[string]bool{}
	for i, c := range calls {
		id := c.ID
		if id == "" || seen[id] {
			id = callID(msgID, i)
		}
		seen[id] = true
		tc := store.ToolCall{ID: id, Name: c.Name, Arguments: c.Arguments, Status: store.ToolCallPending}
		if o, ok := off.byName[c.Name]; ok {
			tc.Server, tc.Tool, tc.ViewURI = o.Server, o.Tool, o.viewURI
		}
		out = append(out, tc)
	}
	return out
}

// runTools runs the calls of one reply concurrently, then stores their
// results as tool messages in call order and closes the reply.
func (e *Engine) runTools(t *turn, msg store.Message, off offer, cs ChatSettings) {
	results := make([]store.ToolCall, len(msg.ToolCalls))
	var wg sync.WaitGroup
	for i, c := range msg.ToolCalls {
		wg.Go(func() { results[i] = e.safeCall(t, msg.ID, c, off, cs, false) })
	}
	wg.Wait()
	e.closeReply(t, msg.ID, results)
}

// retryTools runs one call of a reply again; the reply's other calls keep
// what they had.
func (e *Engine) retryTools(t *turn, r *retryCall, off offer, cs ChatSettings) {
	results := slices.Clone(r.msg.ToolCalls)
	for i, c := range results {
		if c.ID != r.callID {
			continue
		}
		c.Status, c.Error, c.Result, c.ResultTruncated, c.ResultBytes, c.DurationMs, c.Approval =
			store.ToolCallPending, "", nil, false, 0, 0, ""
		results[i] = e.safeCall(t, r.msg.ID, c, off, cs, true)
	}
	e.closeReply(t, r.msg.ID, results)
}

// closeReply appends one tool message per call, in call order, and marks
// the reply complete (interrupted when the turn was stopped).
func (e *Engine) closeReply(t *turn, msgID int64, calls []store.ToolCall) {
	ctx := t.store()
	for _, c := range calls {
		tm, err := e.st.AppendMessage(ctx, store.Message{
			ConversationID: t.conv, Role: store.RoleTool, ToolCallID: c.ID, Content: toolMessageText(c),
		})
		if err != nil {
			e.emitError(t, msgID, kindInternal, fmt.Sprintf("Could not save the result of %s: %v", c.Name, err), false)
			continue
		}
		e.emitMessage(t, tm)
	}
	m, err := e.st.GetMessage(ctx, msgID)
	if err != nil {
		e.logger.Warn("read reply", "message", msgID, "err", err)
		return
	}
	m.Status = store.MessageComplete
	if t.ctx.Err() != nil {
		m.Status = store.MessageInterrupted
	}
	if m, err = e.st.UpdateMessage(ctx, m); err != nil {
		e.logger.Warn("close reply", "message", msgID, "err", err)
		return
	}
	e.emitMessage(t, m)
}

// usageOf converts a model call's token counts.
func usageOf(u llm.Usage) store.TokenUsage {
	return store.TokenUsage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens,
		CachedTokens: u.CachedTokens, ReasoningTokens: u.ReasoningTokens}
}

// callID names the i-th call of message msgID when the model gave it no id.
func callID(msgID int64, i int) string { return fmt.Sprintf("call_%d_%d", msgID, i) }

// toolInputEvery is how often a call being written is shown again.
const toolInputEvery = 100 * time.Millisecond

// partialCall is a tool call the model is still writing.
type partialCall struct {
	id, name string
	args     strings.Builder
	last     time.Time
}

// partialCall follows the calls the model is writing; for a tool with a
// view it emits the arguments so far (chat:tool-input, at most every
// toolInputEvery), so the view can show them while they arrive (MCP Apps
// tool-input-partial). The call as stored follows with the message, under
// the same id (prepareCalls).
func (e *Engine) partialCall(t *turn, msgID int64, writing map[int]*partialCall, d llm.Delta, off offer) {
	p := writing[d.Index]
	if p == nil {
		p = &partialCall{}
		writing[d.Index] = p
	}
	if d.ID != "" {
		p.id = d.ID
	}
	if d.Name != "" {
		p.name = d.Name
	}
	p.args.WriteString(d.Text)
	o, ok := off.byName[p.name]
	if !ok || o.viewURI == "" || time.Since(p.last) < toolInputEvery {
		return
	}
	p.last = time.Now()
	id := p.id
	if id == "" {
		id = callID(msgID, d.Index)
	}
	e.emit.Emit(events.ChatToolInput, events.ChatToolInputPayload{ConversationID: t.conv, TurnID: t.id, MessageID: msgID,
		Call: store.ToolCall{ID: id, Name: p.name, Arguments: p.args.String(), Status: store.ToolCallStreaming,
			Server: o.Server, Tool: o.Tool, ViewURI: o.viewURI}})
}

// longerOf returns shown when it continues kept (the deltas went further
// than the result), else kept.
func longerOf(kept, shown string) string {
	if len(shown) > len(kept) && strings.HasPrefix(shown, kept) {
		return shown
	}
	return kept
}
