package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool/naming"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
)

// A whole turn against the real server-everything: the model asks for two
// tools in one streamed response (fragments interleaved), both wait for
// approval at once, the user runs one and declines the other, and the
// model's next request carries both outcomes.
func TestFullTurnEverything(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{everythingServer(t)}})
	en.llm.Script(
		llmtest.Turn{
			Text: []string{"Let me check."},
			ToolCalls: []llmtest.ToolCall{
				{ID: "call_echo", Name: "everything__echo", Arguments: `{"message":"hello from the model"}`},
				{ID: "call_sum", Name: "everything__get-sum", Arguments: `{"a":2,"b":40}`},
			},
			Interleave: true,
			Usage:      &llmtest.Usage{Prompt: 100, Completion: 20},
		},
		llmtest.Turn{Text: []string{"The echo said ", "hello; ", "the sum was declined."}, Usage: &llmtest.Usage{Prompt: 150, Completion: 12}},
	)
	conv := en.newConv(nil)
	res := en.send(conv.ID, "Echo something, and add 2 and 40")

	echo := en.approval(res.TurnID, "call_echo")
	sum := en.approval(res.TurnID, "call_sum")
	// Both wait at the same time: the calls run concurrently.
	view, err := en.e.Conversation(en.ctx, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(view.Approvals) != 2 || view.Running != res.TurnID {
		t.Fatalf("view: running %q, %d approvals open", view.Running, len(view.Approvals))
	}
	if echo.Server != "everything" || echo.Tool != "echo" || string(echo.Arguments) != `{"message":"hello from the model"}` ||
		echo.Annotations.ReadOnlyHint == nil || !*echo.Annotations.ReadOnlyHint || !strings.Contains(string(echo.InputSchema), "message") {
		t.Errorf("echo approval = %+v", echo)
	}
	if err := en.e.Approve(en.ctx, echo.ID, ApprovalDecision{Action: "run"}); err != nil {
		t.Fatal(err)
	}
	if err := en.e.Approve(en.ctx, sum.ID, ApprovalDecision{Action: "cancel"}); err != nil {
		t.Fatal(err)
	}
	if err := en.e.Approve(en.ctx, sum.ID, ApprovalDecision{Action: "run"}); !errors.Is(err, ErrNoSuchApproval) {
		t.Errorf("second answer: %v, want ErrNoSuchApproval", err)
	}
	done := en.done(res.TurnID)
	if done.Reason != DoneStop || done.Steps != 2 {
		t.Fatalf("done = %+v", done)
	}

	reqs := en.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	var offered []string
	for _, tl := range reqs[0].Tools() {
		fn, _ := tl["function"].(map[string]any)
		offered = append(offered, fn["name"].(string))
	}
	if !slices.Contains(offered, "everything__echo") || !slices.Contains(offered, "everything__get-sum") {
		t.Errorf("offered %v", offered)
	}
	if got := toolMessage(t, reqs[1], "call_echo"); !strings.Contains(got, "Echo: hello from the model") {
		t.Errorf("echo result to the model: %q", got)
	}
	if got := toolMessage(t, reqs[1], "call_sum"); !strings.Contains(got, "declined by user") {
		t.Errorf("declined result to the model: %q", got)
	}

	msgs := en.messages(conv.ID)
	if got := roles(msgs); got != "user,assistant,tool,tool,assistant" {
		t.Fatalf("stored roles %s", got)
	}
	first, final := msgs[1], msgs[4]
	if first.Content != "Let me check." || first.Status != store.MessageComplete || len(first.ToolCalls) != 2 {
		t.Errorf("first reply = %+v", first)
	}
	ce, cs := callOf(t, msgs, "call_echo"), callOf(t, msgs, "call_sum")
	if ce.Status != store.ToolCallDone || ce.Approval != store.ApprovalUser || ce.Server != "everything" || ce.Tool != "echo" || len(ce.Result) == 0 {
		t.Errorf("echo call = %+v", ce)
	}
	if cs.Status != store.ToolCallDeclined || cs.Approval != store.ApprovalUser {
		t.Errorf("sum call = %+v", cs)
	}
	if msgs[2].ToolCallID != "call_echo" || msgs[3].ToolCallID != "call_sum" {
		t.Errorf("tool messages out of call order: %q %q", msgs[2].ToolCallID, msgs[3].ToolCallID)
	}
	if final.Content != "The echo said hello; the sum was declined." || final.Status != store.MessageComplete {
		t.Errorf("final = %+v", final)
	}
	if got := en.rec.deltaText(final.ID); got != final.Content {
		t.Errorf("deltas %q != stored %q", got, final.Content)
	}
	if got := en.rec.deltaText(first.ID); got != first.Content {
		t.Errorf("deltas %q != stored %q", got, first.Content)
	}
	if final.Usage == nil || final.Usage.PromptTokens != 150 || final.Usage.CompletionTokens != 12 ||
		first.Usage == nil || first.Usage.PromptTokens != 100 {
		t.Errorf("usage: first %+v final %+v", first.Usage, final.Usage)
	}
	if final.Model != en.provider.ID+"/gpt-4o" {
		t.Errorf("model = %q", final.Model)
	}

	evs := en.rec.turnEvents(res.TurnID)
	var usages int
	for _, e := range evs {
		if u, ok := e.payload.(events.ChatUsagePayload); ok {
			usages++
			if u.Provider != en.provider.ID || u.Model != "gpt-4o" {
				t.Errorf("usage event %+v", u)
			}
		}
	}
	if usages != 2 {
		t.Errorf("%d usage events", usages)
	}
	if last := evs[len(evs)-1]; last.name != events.ChatDone {
		t.Errorf("last event of the turn is %s", last.name)
	}
	checkDeltasBeforeOthers(t, evs)
	c, _ := en.st.GetConversation(en.ctx, conv.ID)
	if c.Title != "Echo something, and add 2 and 40" {
		t.Errorf("title = %q", c.Title)
	}
}

// checkDeltasBeforeOthers checks that every delta of a message comes before
// the chat:message that finishes it.
func checkDeltasBeforeOthers(t *testing.T, evs []rec) {
	t.Helper()
	finished := map[int64]bool{}
	for _, e := range evs {
		switch p := e.payload.(type) {
		case events.ChatMessagePayload:
			if p.Message.Status != store.MessageStreaming || len(p.Message.ToolCalls) > 0 {
				finished[p.Message.ID] = true
			}
		case events.ChatDeltaPayload:
			if finished[p.MessageID] {
				t.Errorf("a delta of message %d after it was finished", p.MessageID)
			}
		}
	}
}

// Invalid arguments go back to the model as a tool error and the server is
// not called (SPEC D5).
func TestInvalidArgumentsNotCalled(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
	en.llm.Script(
		llmtest.ToolTurn(llmtest.ToolCall{ID: "c1", Name: "test__add", Arguments: `{"a":"two"}`}),
		llmtest.TextTurn("Sorry."),
	)
	conv := en.newConv(nil)
	res := en.send(conv.ID, "add")
	if d := en.done(res.TurnID); d.Reason != DoneStop {
		t.Fatalf("done = %+v", d)
	}
	got := toolMessage(t, en.llm.Requests()[1], "c1")
	if !strings.Contains(got, "Invalid arguments for test__add") || !strings.Contains(got, "/a") ||
		!strings.Contains(got, "want number") || !strings.Contains(got, "missing property 'b'") {
		t.Errorf("tool message = %q", got)
	}
	if en.hasRPC("tools/call", events.Outgoing) {
		t.Error("the server was called")
	}
	c := callOf(t, en.messages(conv.ID), "c1")
	if c.Status != store.ToolCallError || c.Server != "test" || c.Tool != "add" {
		t.Errorf("call = %+v", c)
	}
	evs := en.rec.turnEvents(res.TurnID)
	if len(approvalsOf(evs)) != 0 {
		t.Error("invalid arguments were put to the user")
	}
	errs := errorsOf(evs)
	if len(errs) != 1 || errs[0].Kind != kindValidation {
		t.Errorf("errors = %+v", errs)
	}

	// Arguments the user edits are validated too; the approval stays open.
	en.llm.Script(
		llmtest.ToolTurn(llmtest.ToolCall{ID: "c2", Name: "test__add", Arguments: `{"a":1,"b":2}`}),
		llmtest.TextTurn("3"),
	)
	res = en.send(conv.ID, "again")
	a := en.approval(res.TurnID, "c2")
	if err := en.e.Approve(en.ctx, a.ID, ApprovalDecision{Action: "run", Arguments: json.RawMessage(`{"a":"x","b":2}`)}); err == nil ||
		!strings.Contains(err.Error(), "want number") {
		t.Fatalf("invalid edit: %v", err)
	}
	if err := en.e.Approve(en.ctx, a.ID, ApprovalDecision{Action: "run", Arguments: json.RawMessage(`{"a": 40, "b": 2}`)}); err != nil {
		t.Fatal(err)
	}
	en.done(res.TurnID)
	c = callOf(t, en.messages(conv.ID), "c2")
	if c.Status != store.ToolCallDone || c.Arguments != `{"a":40,"b":2}` || !strings.Contains(string(c.Result), "42") {
		t.Errorf("edited call = %+v", c)
	}
}

// callTurn runs one turn in which the model calls tool with args and then
// answers; answer handles an approval (nil: none may be asked). It returns
// the stored call and whether an approval was asked.
func (en *env) callTurn(conv int64, tool, args string, answer *ApprovalDecision) (store.ToolCall, bool) {
	en.t.Helper()
	id := "call_" + strings.ReplaceAll(newTurnID(), "-", "_")
	en.llm.Script(llmtest.ToolTurn(llmtest.ToolCall{ID: id, Name: tool, Arguments: args}), llmtest.TextTurn("ok"))
	res := en.send(conv, "please")
	e := en.rec.waitFor(en.t, "approval or done", func(e rec) bool {
		switch p := e.payload.(type) {
		case events.ChatApprovalPayload:
			return p.TurnID == res.TurnID
		case events.ChatDonePayload:
			return p.TurnID == res.TurnID
		}
		return false
	})
	asked := false
	if a, ok := e.payload.(events.ChatApprovalPayload); ok {
		asked = true
		if answer == nil {
			en.t.Fatalf("%s was put to the user", tool)
		}
		if err := en.e.Approve(en.ctx, a.ID, *answer); err != nil {
			en.t.Fatal(err)
		}
	}
	en.done(res.TurnID)
	return callOf(en.t, en.messages(conv), id), asked
}

// Policies: always-allow survives a restart, a server can be auto-approved,
// "never" declines without asking, "this conversation" stays in its
// conversation, and each can be revoked.
func TestPolicies(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
	a := en.newConv(nil)

	c, asked := en.callTurn(a.ID, "test__echo", `{"message":"1"}`, &ApprovalDecision{Action: "run", Policy: "always"})
	if !asked || c.Status != store.ToolCallDone || c.Approval != store.ApprovalUser {
		t.Fatalf("first echo: asked %v, %+v", asked, c)
	}
	en.restart()
	p, err := en.e.Policies(en.ctx)
	if err != nil || !slices.Contains(p.AlwaysAllow, ToolRef{"test", "echo"}) {
		t.Fatalf("policies after restart = %+v, %v", p, err)
	}
	if c, _ := en.callTurn(a.ID, "test__echo", `{"message":"2"}`, nil); c.Status != store.ToolCallDone || c.Approval != store.ApprovalAlways {
		t.Fatalf("always-allowed echo = %+v", c)
	}

	// Auto-approve the server.
	if c, _ := en.callTurn(a.ID, "test__add", `{"a":1,"b":2}`, &ApprovalDecision{Action: "run", Policy: "server"}); c.Status != store.ToolCallDone {
		t.Fatalf("add = %+v", c)
	}
	if c, _ := en.callTurn(a.ID, "test__structured", `{}`, nil); c.Approval != store.ApprovalServerAuto || c.Status != store.ToolCallDone {
		t.Fatalf("server-auto call = %+v", c)
	}
	if err := en.e.RevokePolicy(en.ctx, "server", "test", ""); err != nil {
		t.Fatal(err)
	}

	// Never.
	if c, asked := en.callTurn(a.ID, "test__fail", `{}`, &ApprovalDecision{Action: "cancel", Policy: "never"}); !asked || c.Status != store.ToolCallDeclined {
		t.Fatalf("fail = %+v", c)
	}
	c, _ = en.callTurn(a.ID, "test__fail", `{}`, nil)
	if c.Status != store.ToolCallDeclined || c.Approval != store.ApprovalNever {
		t.Fatalf("never call = %+v", c)
	}
	if got := toolMessage(t, en.llm.LastRequest(), c.ID); !strings.Contains(got, "never") {
		t.Errorf("never result to the model: %q", got)
	}
	if en.hasRPCCall("fail") {
		t.Error("a never tool reached the server")
	}
	if err := en.e.RevokePolicy(en.ctx, "never", "test", "fail"); err != nil {
		t.Fatal(err)
	}
	if _, asked := en.callTurn(a.ID, "test__fail", `{}`, &ApprovalDecision{Action: "cancel"}); !asked {
		t.Fatal("revoked never still applies")
	}

	// This conversation only.
	if _, asked := en.callTurn(a.ID, "test__env", `{"name":"HOME"}`, &ApprovalDecision{Action: "run", Policy: "conversation"}); !asked {
		t.Fatal("env not asked")
	}
	if c, _ := en.callTurn(a.ID, "test__env", `{"name":"HOME"}`, nil); c.Approval != store.ApprovalConversation {
		t.Fatalf("conversation-allowed call = %+v", c)
	}
	b := en.newConv(nil)
	if _, asked := en.callTurn(b.ID, "test__env", `{"name":"HOME"}`, &ApprovalDecision{Action: "cancel"}); !asked {
		t.Fatal("a conversation policy leaked into another conversation")
	}
	if err := en.e.Delete(en.ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	doc, _ := en.e.loadPolicies(en.ctx)
	if len(doc.Conversations) != 0 {
		t.Errorf("policies of a deleted conversation kept: %+v", doc.Conversations)
	}

	if err := en.e.RevokePolicy(en.ctx, "always", "test", "echo"); err != nil {
		t.Fatal(err)
	}
	if p, _ := en.e.Policies(en.ctx); len(p.AlwaysAllow)+len(p.AutoServers)+len(p.Never) != 0 {
		t.Errorf("policies after revoking all = %+v", p)
	}
	if err := en.e.RevokePolicy(en.ctx, "sometimes", "test", "echo"); err == nil {
		t.Error("unknown policy kind accepted")
	}
}

func (en *env) hasRPCCall(tool string) bool {
	for _, e := range en.pool.Log().Entries() {
		if e.Method == "tools/call" && e.Direction == events.Outgoing && strings.Contains(e.Payload, `"name":"`+tool+`"`) {
			return true
		}
	}
	return false
}

// Stop in the middle of a streamed reply keeps the partial text, marked
// interrupted.
func TestStopMidStream(t *testing.T) {
	en := newEnv(t, envConfig{})
	en.llm.Script(llmtest.Turn{Text: []string{"Hello", " world", " never sent"}, Delay: time.Hour})
	conv := en.newConv(nil)
	res := en.send(conv.ID, "talk")
	en.rec.waitFor(t, "first delta", func(e rec) bool {
		d, ok := e.payload.(events.ChatDeltaPayload)
		return ok && d.TurnID == res.TurnID
	})
	if err := en.e.Stop(conv.ID); err != nil {
		t.Fatal(err)
	}
	if d := en.done(res.TurnID); d.Reason != DoneCancelled {
		t.Fatalf("done = %+v", d)
	}
	m := lastAssistant(t, en.messages(conv.ID))
	if m.Status != store.MessageInterrupted || m.Content != "Hello" {
		t.Fatalf("reply = %+v", m)
	}
	if got := en.rec.deltaText(m.ID); got != m.Content {
		t.Errorf("deltas %q != stored %q", got, m.Content)
	}
	if errs := errorsOf(en.rec.turnEvents(res.TurnID)); len(errs) != 0 {
		t.Errorf("stop reported as errors: %+v", errs)
	}
	// The conversation is free again.
	en.llm.Script(llmtest.TextTurn("again"))
	res = en.send(conv.ID, "go on")
	en.done(res.TurnID)
	// The interrupted reply went to the model as what it had said.
	msgs := en.llm.LastRequest().Messages()
	if len(msgs) != 3 || msgs[1]["content"] != "Hello" {
		t.Errorf("history after stop: %v", msgs)
	}
}

// Stop while a tool call runs and another waits for approval: the running
// call is cancelled on the server (notifications/cancelled), the approval
// expires, and the turn ends cancelled without another model call.
func TestStopDuringToolCall(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
	en.allow(policyAlways, "test", "sleep")
	en.llm.Script(llmtest.ToolTurn(
		llmtest.ToolCall{ID: "sleepy", Name: "test__sleep", Arguments: `{"ms":60000}`},
		llmtest.ToolCall{ID: "echo", Name: "test__echo", Arguments: `{"message":"x"}`},
	))
	conv := en.newConv(nil)
	res := en.send(conv.ID, "sleep")
	approval := en.approval(res.TurnID, "echo")
	// Progress from the server proves the call reached it; it is
	// forwarded as chat:tool-call.
	pe := en.rec.waitFor(t, "progress of the sleep call", func(e rec) bool {
		p, ok := e.payload.(events.ChatToolCallPayload)
		return ok && p.TurnID == res.TurnID && p.Call.ID == "sleepy" && p.Progress != nil
	})
	if p := pe.payload.(events.ChatToolCallPayload); p.Call.Status != store.ToolCallRunning || p.Progress.Total != 60000 {
		t.Errorf("progress event %+v %+v", p.Call, p.Progress)
	}
	if err := en.e.Stop(conv.ID); err != nil {
		t.Fatal(err)
	}
	if d := en.done(res.TurnID); d.Reason != DoneCancelled {
		t.Fatalf("done = %+v", d)
	}
	expired := false
	for _, e := range en.rec.all() {
		if p, ok := e.payload.(events.ChatApprovalDonePayload); ok && p.ID == approval.ID && p.Outcome == events.ApprovalExpired {
			expired = true
		}
	}
	if !expired {
		t.Error("the open approval did not expire")
	}
	if err := en.e.Approve(en.ctx, approval.ID, ApprovalDecision{Action: "run"}); !errors.Is(err, ErrNoSuchApproval) {
		t.Errorf("approving an expired approval: %v", err)
	}
	msgs := en.messages(conv.ID)
	if got := roles(msgs); got != "user,assistant,tool,tool" {
		t.Fatalf("roles %s", got)
	}
	if c := callOf(t, msgs, "sleepy"); c.Status != store.ToolCallCancelled {
		t.Errorf("sleep call = %+v", c)
	}
	if c := callOf(t, msgs, "echo"); c.Status != store.ToolCallCancelled {
		t.Errorf("echo call = %+v", c)
	}
	if msgs[1].Status != store.MessageInterrupted {
		t.Errorf("reply status %s", msgs[1].Status)
	}
	deadline := time.Now().Add(waitLimit)
	for !en.hasRPC("notifications/cancelled", events.Outgoing) {
		if time.Now().After(deadline) {
			t.Fatal("no notifications/cancelled sent")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(en.llm.Requests()); n != 1 {
		t.Errorf("%d model requests after stop", n)
	}
}

// A rejected key is an auth error naming the provider, and the key appears
// in nothing emitted or stored.
func TestAuthErrorNoKeyLeak(t *testing.T) {
	en := newEnv(t, envConfig{key: testKey})
	en.llm.RequireKey("sk-the-right-key-0000000000000000")
	conv := en.newConv(nil)
	res := en.send(conv.ID, "hi")
	if d := en.done(res.TurnID); d.Reason != DoneError {
		t.Fatalf("done = %+v", d)
	}
	errs := errorsOf(en.rec.turnEvents(res.TurnID))
	if len(errs) != 1 || errs[0].Kind != "auth" || !strings.Contains(errs[0].Message, "Fake AI") {
		t.Fatalf("errors = %+v", errs)
	}
	m := lastAssistant(t, en.messages(conv.ID))
	if m.Status != store.MessageError || !strings.Contains(m.Error, "Fake AI") {
		t.Errorf("reply = %+v", m)
	}
	for _, e := range en.rec.all() {
		b, _ := json.Marshal(e.payload)
		if strings.Contains(string(b), testKey) || strings.Contains(string(b), "LEAKCHECK") {
			t.Fatalf("%s carries the key: %s", e.name, b)
		}
	}
	exp, _ := en.e.Export(en.ctx, conv.ID, "json")
	if strings.Contains(exp, "LEAKCHECK") {
		t.Error("the export carries the key")
	}
}

// A 429 with Retry-After is retried after the wait it asked for, and the
// retry is reported.
func TestRateLimitRetried(t *testing.T) {
	en := newEnv(t, envConfig{})
	en.llm.Script(llmtest.RateLimited("1"), llmtest.TextTurn("fine now"))
	conv := en.newConv(nil)
	res := en.send(conv.ID, "hi")
	if d := en.done(res.TurnID); d.Reason != DoneStop {
		t.Fatalf("done = %+v", d)
	}
	if len(en.sleeps) != 1 || en.sleeps[0] != time.Second {
		t.Errorf("waits %v", en.sleeps)
	}
	retries := stepsOf(en.rec.turnEvents(res.TurnID), phaseRetry)
	if len(retries) != 1 || retries[0].WaitMs != 1000 || !strings.Contains(retries[0].Message, "rate-limiting") ||
		!strings.Contains(retries[0].Message, "Trying again in 1 s") {
		t.Errorf("retry steps %+v", retries)
	}
	if m := lastAssistant(t, en.messages(conv.ID)); m.Content != "fine now" {
		t.Errorf("reply %+v", m)
	}
}

// When the model keeps failing, the fallback model answers, and the turn
// says so.
func TestFallbackModel(t *testing.T) {
	en := newEnv(t, envConfig{engine: func(o *Options) { o.Retry.MaxAttempts = 2 }})
	backupLLM := llmtest.NewOpenAI(t)
	backup, err := en.pm.Save(en.ctx, providers.ProviderInput{Name: "Backup AI", Type: "openai", BaseURL: backupLLM.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	if err := en.pm.SetFallbacks(en.ctx, []providers.ModelRef{{Provider: backup.ID, Model: "backup-model"}}); err != nil {
		t.Fatal(err)
	}
	en.llm.Script(llmtest.ErrorTurn(503, ""), llmtest.ErrorTurn(503, ""))
	backupLLM.Script(llmtest.TextTurn("from the backup"))
	conv := en.newConv(nil)
	res := en.send(conv.ID, "hi")
	if d := en.done(res.TurnID); d.Reason != DoneStop {
		t.Fatalf("done = %+v", d)
	}
	evs := en.rec.turnEvents(res.TurnID)
	fb := stepsOf(evs, phaseFallback)
	if len(fb) != 1 || fb[0].Model != backup.ID+"/backup-model" || !strings.Contains(fb[0].Message, "Backup AI") {
		t.Fatalf("fallback steps %+v", fb)
	}
	for _, e := range evs {
		if u, ok := e.payload.(events.ChatUsagePayload); ok && (u.Provider != backup.ID || u.Model != "backup-model") {
			t.Errorf("usage %+v", u)
		}
	}
	m := lastAssistant(t, en.messages(conv.ID))
	if m.Content != "from the backup" || m.Model != backup.ID+"/backup-model" {
		t.Errorf("reply %+v", m)
	}
}

// The step limit ends a turn whose model never stops calling tools.
func TestMaxSteps(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
	en.allow(policyAlways, "test", "echo")
	en.llm.Repeat(llmtest.ToolTurn(llmtest.Call("test__echo", `{"message":"again"}`)))
	two := 2
	conv := en.newConv(func(s *store.ConversationSettings) { s.MaxSteps = &two })
	res := en.send(conv.ID, "loop")
	if d := en.done(res.TurnID); d.Reason != DoneMaxSteps || d.Steps != 2 {
		t.Fatalf("done = %+v", d)
	}
	if n := len(en.llm.Requests()); n != 2 {
		t.Errorf("%d model calls", n)
	}
	if got := roles(en.messages(conv.ID)); got != "user,assistant,tool,assistant,tool" {
		t.Errorf("roles %s", got)
	}
}

// Regenerate and edit-and-resend cut the conversation and answer again.
func TestRegenerateAndEdit(t *testing.T) {
	en := newEnv(t, envConfig{})
	en.llm.Script(llmtest.TextTurn("first answer"), llmtest.TextTurn("second answer"), llmtest.TextTurn("third answer"))
	conv := en.newConv(nil)
	res := en.send(conv.ID, "question")
	en.done(res.TurnID)

	res, err := en.e.Regenerate(en.ctx, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	en.done(res.TurnID)
	msgs := en.messages(conv.ID)
	if roles(msgs) != "user,assistant" || msgs[1].Content != "second answer" || res.UserMessage.ID != msgs[0].ID {
		t.Fatalf("after regenerate: %s %+v", roles(msgs), msgs)
	}
	if n := len(en.llm.LastRequest().Messages()); n != 1 {
		t.Errorf("regenerate sent %d messages", n)
	}

	res, err = en.e.EditAndResend(en.ctx, conv.ID, msgs[0].ID, "edited question")
	if err != nil {
		t.Fatal(err)
	}
	en.done(res.TurnID)
	msgs = en.messages(conv.ID)
	if roles(msgs) != "user,assistant" || msgs[0].Content != "edited question" || msgs[1].Content != "third answer" {
		t.Fatalf("after edit: %+v", msgs)
	}
	if got := en.llm.LastRequest().Messages(); len(got) != 1 || got[0]["content"] != "edited question" {
		t.Errorf("edit sent %v", got)
	}
	if _, err := en.e.EditAndResend(en.ctx, conv.ID, msgs[1].ID, "not mine"); err == nil {
		t.Error("edited an assistant message")
	}
}

// A timed-out call can be retried; the model then continues from its
// result.
func TestRetryToolCall(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
	en.allow(policyAlways, "test", "sleep")
	if _, err := en.e.SaveSettings(en.ctx, ChatSettings{ToolTimeoutMs: 100}); err != nil {
		t.Fatal(err)
	}
	en.llm.Script(llmtest.ToolTurn(llmtest.ToolCall{ID: "nap", Name: "test__sleep", Arguments: `{"ms":1000}`}), llmtest.TextTurn("it timed out"))
	conv := en.newConv(nil)
	res := en.send(conv.ID, "nap")
	en.done(res.TurnID)
	msgs := en.messages(conv.ID)
	c := callOf(t, msgs, "nap")
	if c.Status != store.ToolCallError || !strings.Contains(c.Error, "did not finish within") {
		t.Fatalf("call = %+v", c)
	}
	if got := toolMessage(t, en.llm.LastRequest(), "nap"); !strings.Contains(got, "did not finish") {
		t.Errorf("timeout to the model: %q", got)
	}

	if _, err := en.e.SaveSettings(en.ctx, ChatSettings{ToolTimeoutMs: 60000}); err != nil {
		t.Fatal(err)
	}
	en.llm.Script(llmtest.TextTurn("it slept"))
	res, err := en.e.RetryToolCall(en.ctx, conv.ID, msgs[1].ID, "nap")
	if err != nil {
		t.Fatal(err)
	}
	if res.UserMessage.ID != msgs[0].ID {
		t.Errorf("retry answers message %d", res.UserMessage.ID)
	}
	if d := en.done(res.TurnID); d.Reason != DoneStop {
		t.Fatalf("done = %+v", d)
	}
	msgs = en.messages(conv.ID)
	if got := roles(msgs); got != "user,assistant,tool,assistant" {
		t.Fatalf("roles %s", got)
	}
	c = callOf(t, msgs, "nap")
	if c.Status != store.ToolCallDone || c.Approval != store.ApprovalUser || !strings.Contains(string(c.Result), "slept 1000 ms") {
		t.Errorf("retried call = %+v", c)
	}
	if got := toolMessage(t, en.llm.LastRequest(), "nap"); !strings.Contains(got, "slept 1000 ms") {
		t.Errorf("retried result to the model: %q", got)
	}
	if msgs[3].Content != "it slept" || msgs[1].Status != store.MessageComplete {
		t.Errorf("messages %+v", msgs)
	}
	if _, err := en.e.RetryToolCall(en.ctx, conv.ID, msgs[1].ID, "nap"); err == nil {
		t.Error("a successful call was retried")
	}
	// Applied in the order of their seq, whatever order they arrive in,
	// the events end where the store does: the retried call done.
	if got := replayCalls(t, en.rec.all())["nap"]; got != store.ToolCallDone {
		t.Errorf("the events, in seq order, leave the call %q", got)
	}
}

// replayCalls applies the chat:message and chat:tool-call events in the
// order of their Seq, as the window does, and returns each call's last
// status. Seqs must be unique.
func replayCalls(t *testing.T, evs []rec) map[string]store.ToolCallStatus {
	t.Helper()
	type state struct {
		seq   uint64
		calls []store.ToolCall
	}
	var states []state
	seen := map[uint64]bool{}
	for _, ev := range evs {
		var st state
		switch p := ev.payload.(type) {
		case events.ChatMessagePayload:
			st = state{p.Seq, p.Message.ToolCalls}
		case events.ChatToolCallPayload:
			st = state{p.Seq, []store.ToolCall{p.Call}}
		default:
			continue
		}
		if st.seq == 0 || seen[st.seq] {
			t.Fatalf("%s has seq %d, unset or taken", ev.name, st.seq)
		}
		seen[st.seq] = true
		states = append(states, st)
	}
	slices.SortFunc(states, func(a, b state) int { return cmp.Compare(a.seq, b.seq) })
	last := map[string]store.ToolCallStatus{}
	for _, st := range states {
		for _, c := range st.calls {
			last[c.ID] = c.Status
		}
	}
	return last
}

// A tool that asks the user (elicitation) during a chat call works through
// the inspector's desk.
func TestElicitationDuringChat(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
	en.allow(policyAlways, "test", "confirm")
	en.llm.Script(llmtest.ToolTurn(llmtest.ToolCall{ID: "ask", Name: "test__confirm", Arguments: `{"action":"deploy"}`}), llmtest.TextTurn("confirmed"))
	conv := en.newConv(nil)
	res := en.send(conv.ID, "deploy")
	var answered []string
	for _, content := range []map[string]any{{"name": "Ada"}, {"sure": true}} {
		e := en.rec.waitFor(t, "elicitation", func(e rec) bool {
			p, ok := e.payload.(events.ElicitationPayload)
			return ok && !slices.Contains(answered, p.ID)
		})
		id := e.payload.(events.ElicitationPayload).ID
		answered = append(answered, id)
		if err := en.desk.Answer(id, "accept", content); err != nil {
			t.Fatal(err)
		}
	}
	if d := en.done(res.TurnID); d.Reason != DoneStop {
		t.Fatalf("done = %+v", d)
	}
	c := callOf(t, en.messages(conv.ID), "ask")
	if c.Status != store.ToolCallDone || !strings.Contains(string(c.Result), `who=accept{\"name\":\"Ada\"`) || !strings.Contains(string(c.Result), "sure=accept") {
		t.Errorf("call = %+v", c)
	}
}

// Sampling: a server's sampling/createMessage during a chat call is shown,
// approved, and answered by the conversation's model for real; a rejected
// one fails the tool.
func TestSamplingEverything(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{everythingServer(t)}})
	en.waitTool("everything", "trigger-sampling-request")
	en.allow(policyAlways, "everything", "trigger-sampling-request")
	en.llm.Script(
		llmtest.ToolTurn(llmtest.ToolCall{ID: "s1", Name: "everything__trigger-sampling-request", Arguments: `{"prompt":"Say hi","maxTokens":50}`}),
		llmtest.Turn{Text: []string{"Hi from the sampled model"}, Check: func(r llmtest.Request) error {
			if len(r.Tools()) != 0 {
				return errors.New("sampling offered tools")
			}
			msgs := r.Messages()
			if len(msgs) != 2 || msgs[0]["role"] != "system" || !strings.Contains(msgs[1]["content"].(string), "Say hi") {
				return errors.New("sampling messages: " + string(r.Raw))
			}
			if r.Body["max_tokens"] != 50.0 && r.Body["max_completion_tokens"] != 50.0 {
				return errors.New("maxTokens not passed: " + string(r.Raw))
			}
			return nil
		}},
		llmtest.TextTurn("The server got its answer."),
	)
	conv := en.newConv(nil)
	res := en.send(conv.ID, "sample")
	e := en.rec.waitFor(t, "chat:sampling", func(e rec) bool { _, ok := e.payload.(events.ChatSamplingPayload); return ok })
	s := e.payload.(events.ChatSamplingPayload)
	if s.ConversationID != conv.ID || s.Server != "everything" || s.Model != en.provider.ID+"/gpt-4o" || !strings.Contains(string(s.Request), "Say hi") {
		t.Fatalf("sampling = %+v", s)
	}
	view, _ := en.e.Conversation(en.ctx, conv.ID)
	if len(view.Sampling) != 1 {
		t.Errorf("view lists %d sampling requests", len(view.Sampling))
	}
	if err := en.e.AnswerSampling(s.ID, SamplingAnswer{Approve: true}); err != nil {
		t.Fatal(err)
	}
	if d := en.done(res.TurnID); d.Reason != DoneStop {
		t.Fatalf("done = %+v", d)
	}
	c := callOf(t, en.messages(conv.ID), "s1")
	if c.Status != store.ToolCallDone || !strings.Contains(string(c.Result), "Hi from the sampled model") {
		t.Fatalf("call = %+v", c)
	}
	if got := toolMessage(t, en.llm.LastRequest(), "s1"); !strings.Contains(got, "Hi from the sampled model") {
		t.Errorf("tool message %q", got)
	}

	// Rejected.
	en.llm.Script(
		llmtest.ToolTurn(llmtest.ToolCall{ID: "s2", Name: "everything__trigger-sampling-request", Arguments: `{"prompt":"again","maxTokens":10}`}),
		llmtest.TextTurn("It was rejected."),
	)
	res = en.send(conv.ID, "sample again")
	e = en.rec.waitFor(t, "second chat:sampling", func(e rec) bool {
		p, ok := e.payload.(events.ChatSamplingPayload)
		return ok && p.ID != s.ID
	})
	if err := en.e.AnswerSampling(e.payload.(events.ChatSamplingPayload).ID, SamplingAnswer{Approve: false}); err != nil {
		t.Fatal(err)
	}
	en.done(res.TurnID)
	c = callOf(t, en.messages(conv.ID), "s2")
	if c.Status != store.ToolCallError || !strings.Contains(c.Error, "rejected") {
		t.Errorf("rejected call = %+v", c)
	}
}

// Ollama's native API for a tool-calling turn.
func TestOllamaToolTurn(t *testing.T) {
	en := newEnv(t, envConfig{ollama: true, servers: []mcpconfig.Server{testServer("test")}})
	en.allow(policyAlways, "test", "echo")
	en.llm.Script(llmtest.ToolTurn(llmtest.Call("test__echo", `{"message":"from ollama"}`)), llmtest.TextTurn("Echoed."))
	conv := en.newConv(nil)
	res := en.send(conv.ID, "echo")
	if d := en.done(res.TurnID); d.Reason != DoneStop {
		t.Fatalf("done = %+v", d)
	}
	msgs := en.messages(conv.ID)
	if got := roles(msgs); got != "user,assistant,tool,assistant" {
		t.Fatalf("roles %s", got)
	}
	if c := msgs[1].ToolCalls[0]; c.Status != store.ToolCallDone || c.ID == "" {
		t.Errorf("call %+v", c)
	}
	if got := toolMessage(t, en.llm.LastRequest(), ""); !strings.Contains(got, "Echo: from ollama") {
		t.Errorf("tool message %q", got)
	}
	if msgs[3].Content != "Echoed." || msgs[3].Usage == nil {
		t.Errorf("final %+v", msgs[3])
	}
}

// A conversation runs one turn at a time.
func TestBusy(t *testing.T) {
	en := newEnv(t, envConfig{})
	en.llm.Script(llmtest.Turn{Text: []string{"a", "b"}, Delay: time.Hour})
	conv := en.newConv(nil)
	res := en.send(conv.ID, "one")
	if _, err := en.e.Send(en.ctx, SendRequest{ConversationID: conv.ID, Text: "two"}); !errors.Is(err, ErrBusy) {
		t.Errorf("second send: %v", err)
	}
	if _, err := en.e.Regenerate(en.ctx, conv.ID); !errors.Is(err, ErrBusy) {
		t.Errorf("regenerate while busy: %v", err)
	}
	// Delete stops the turn first.
	if err := en.e.Delete(en.ctx, conv.ID); err != nil {
		t.Fatal(err)
	}
	if d := en.done(res.TurnID); d.Reason != DoneCancelled {
		t.Errorf("done = %+v", d)
	}
	if _, err := en.st.GetConversation(en.ctx, conv.ID); !errors.Is(err, store.ErrConversationNotFound) {
		t.Errorf("conversation still there: %v", err)
	}
}

// A stream that breaks after some text keeps it, marked interrupted, and
// says so.
func TestStreamCut(t *testing.T) {
	en := newEnv(t, envConfig{})
	en.llm.Script(llmtest.Turn{Text: []string{"partial ", "answer", "never"}, CutAfter: 2})
	conv := en.newConv(nil)
	res := en.send(conv.ID, "hi")
	if d := en.done(res.TurnID); d.Reason != DoneError {
		t.Fatalf("done = %+v", d)
	}
	m := lastAssistant(t, en.messages(conv.ID))
	if m.Status != store.MessageInterrupted || m.Content != "partial answer" || m.Error == "" {
		t.Fatalf("reply %+v", m)
	}
	if got := en.rec.deltaText(m.ID); got != m.Content {
		t.Errorf("deltas %q != stored %q", got, m.Content)
	}
	errs := errorsOf(en.rec.turnEvents(res.TurnID))
	if len(errs) != 1 || errs[0].Kind != "interrupted" || !errs[0].Partial || errs[0].MessageID != m.ID {
		t.Errorf("errors %+v", errs)
	}
}

// panicModels breaks in the middle of a turn.
type panicModels struct{ Models }

func (panicModels) Routes(context.Context, providers.ModelRef) ([]providers.Route, error) {
	panic("routes exploded")
}

// A panic inside a turn still ends it with one chat:done, as an internal
// error.
func TestPanicEndsTurn(t *testing.T) {
	en := newEnv(t, envConfig{engine: func(o *Options) { o.Models = panicModels{o.Models} }})
	conv := en.newConv(nil)
	res := en.send(conv.ID, "hi")
	if d := en.done(res.TurnID); d.Reason != DoneError {
		t.Fatalf("done = %+v", d)
	}
	errs := errorsOf(en.rec.turnEvents(res.TurnID))
	if len(errs) != 1 || errs[0].Kind != kindInternal || !strings.Contains(errs[0].Message, "routes exploded") {
		t.Errorf("errors %+v", errs)
	}
	// The conversation is usable again.
	if _, err := en.e.Send(en.ctx, SendRequest{ConversationID: conv.ID, Text: "again"}); err != nil {
		t.Errorf("send after a panic: %v", err)
	}
	if tr := en.e.running(conv.ID); tr != nil {
		en.done(tr.id)
	}
}

// The model is offered only the tools of the conversation's servers, minus
// those switched off in the pool or the conversation, and each selected
// server's instructions come as a system message (SPEC A5, A6, A7).
func TestOfferAndInstructions(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{
		testServer("test", "--instructions", "Always echo politely."),
		testServer("other", "--instructions", "Other rules."),
	}})
	if err := en.pool.SetToolEnabled("test", "big", false); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(waitLimit)
	for _, ok := en.pool.ToolTable().Name(naming.Ref{Server: "test", Tool: "big"}); ok; _, ok = en.pool.ToolTable().Name(naming.Ref{Server: "test", Tool: "big"}) {
		if time.Now().After(deadline) {
			t.Fatal("big still offered")
		}
		time.Sleep(10 * time.Millisecond)
	}
	all, err := en.e.AvailableTools(nil)
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]int{}
	for _, o := range all {
		servers[o.Server]++
		if o.Name != o.Server+"__"+o.Tool {
			t.Errorf("offered %+v", o)
		}
	}
	if servers["test"] == 0 || servers["other"] == 0 {
		t.Errorf("available tools by server %v", servers)
	}
	none, _ := en.e.AvailableTools([]string{})
	if len(none) != 0 {
		t.Errorf("no servers still offers %d tools", len(none))
	}

	en.llm.Script(llmtest.TextTurn("ok"))
	conv := en.newConv(func(s *store.ConversationSettings) {
		s.SystemPrompt = "Be brief."
		s.Servers = []string{"test"}
		s.Tools = map[string]store.ToolFilter{"test": {Disabled: []string{"crash"}}}
	})
	en.done(en.send(conv.ID, "hi").TurnID)
	r := en.llm.LastRequest()
	msgs := r.Messages()
	if len(msgs) != 3 || msgs[0]["content"] != "Be brief." || !strings.Contains(msgs[1]["content"].(string), "Always echo politely.") ||
		msgs[1]["role"] != "system" {
		t.Errorf("messages %v", msgs)
	}
	var names []string
	for _, tl := range r.Tools() {
		names = append(names, tl["function"].(map[string]any)["name"].(string))
	}
	if !slices.Contains(names, "test__echo") || slices.Contains(names, "test__crash") || slices.Contains(names, "test__big") ||
		slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "other__") }) {
		t.Errorf("offered %v", names)
	}
}

// The refusals a user meets when starting a turn carry a code the UI words
// in its language; the English text stays for logs and the CLI.
func TestTurnRefusalsAreCoded(t *testing.T) {
	en := newEnv(t, envConfig{})
	en.llm.Script(llmtest.Turn{Text: []string{"a", "b"}, Delay: time.Hour})
	conv := en.newConv(nil)
	_, empty := en.e.Send(en.ctx, SendRequest{ConversationID: conv.ID, Text: "  \n"})
	_, nothing := en.e.Regenerate(en.ctx, conv.ID)
	en.send(conv.ID, "one")
	_, busy := en.e.Send(en.ctx, SendRequest{ConversationID: conv.ID, Text: "two"})
	for _, c := range []struct {
		err     error
		code    usererr.Code
		english string
	}{
		{empty, usererr.ChatEmptyMessage, "send: the message is empty"},
		{nothing, usererr.ChatNothingToAnswer, "regenerate: the conversation has no message of yours to answer"},
		{busy, usererr.ChatBusy, "a reply is still running in this conversation; stop it or wait for it to finish"},
	} {
		p := usererr.PayloadOf(c.err)
		if p.Code != c.code || p.Message != c.english {
			t.Errorf("%v: payload %+v, want code %s and message %q", c.err, p, c.code, c.english)
		}
	}
	if err := en.e.Delete(en.ctx, conv.ID); err != nil {
		t.Fatal(err)
	}
}

// The user's message is stored in one commit with its reply's row while
// the request goes out. When the message cannot be stored, Send says why
// and the turn ends without a word: no event, nothing kept, the request
// (if it got out) cut, and the conversation free at once for the next
// message.
func TestSendThatCannotStoreSaysNothing(t *testing.T) {
	en := newEnv(t, envConfig{})
	// The refused message's request, if it gets out, streams slowly: it is
	// cut long before its end. Its conversation asks another model, so
	// that the retry is answered whichever way the race went.
	slow := llmtest.Turn{ForModel: "slow-model", Text: slices.Repeat([]string{"never shown "}, 200), Delay: 20 * time.Millisecond}
	en.llm.Script(slow, llmtest.TextTurn("Stored this time."))
	refusing := en.newConv(func(s *store.ConversationSettings) { s.Provider, s.Model = en.provider.ID, "slow-model" })
	conv := en.newConv(nil)
	db, err := en.st.DB().DB()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TRIGGER refuse BEFORE INSERT ON messages WHEN new.content = 'refuse me'
		BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`); err != nil {
		t.Fatal(err)
	}
	before := len(en.rec.all())
	if _, err := en.e.Send(en.ctx, SendRequest{ConversationID: refusing.ID, Text: "refuse me"}); err == nil || !strings.Contains(err.Error(), "refused by the test") {
		t.Fatalf("Send = %v, want the store's refusal", err)
	}
	if evs := en.rec.all()[before:]; len(evs) != 0 {
		t.Errorf("a Send that stored nothing emitted:\n%s", en.rec.dump())
	}
	if view, err := en.e.Conversation(en.ctx, refusing.ID); err != nil || view.Running != "" || len(view.Messages) != 0 {
		t.Fatalf("after the failed Send: running %q, %d messages, %v", view.Running, len(view.Messages), err)
	}
	res := en.send(conv.ID, "Try again")
	if d := en.done(res.TurnID); d.Reason != DoneStop {
		t.Fatalf("done = %+v", d)
	}
	if reqs := en.llm.Requests(); len(reqs) == 0 || len(reqs) > 2 {
		t.Fatalf("%d model requests, want the second Send's and at most the refused one's", len(reqs))
	}
	// The window hears of the user's message before anything of the turn.
	evs := en.rec.all()[before:]
	if len(evs) < 2 || evs[0].name != events.ChatMessage || evs[0].payload.(events.ChatMessagePayload).Message.Role != store.RoleUser {
		t.Errorf("first events: %s", en.rec.dump())
	}
	if msgs := en.messages(conv.ID); len(msgs) != 2 || msgs[0].Content != "Try again" || msgs[1].Content != "Stored this time." {
		t.Errorf("stored %+v", msgs)
	}
}
