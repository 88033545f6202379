package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usage"
)

// withLedger gives the engine a real usage ledger and audit log, returned
// through *u.
func withLedger(u **usage.Engine, em events.Emitter) func(*Options) {
	return func(o *Options) {
		*u = usage.New(usage.Options{Store: o.Store, Emitter: em})
		o.Recorder = *u
	}
}

// auditByTool returns the chat's audit entries of a conversation by tool.
func auditByTool(t *testing.T, u *usage.Engine, conv int64) map[string]store.AuditEntry {
	t.Helper()
	page, err := u.Audit(context.Background(), usage.AuditQuery{Source: store.AuditChat})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]store.AuditEntry{}
	for _, e := range page.Entries {
		if e.ConversationID == conv {
			out[e.Tool+" "+e.Arguments] = e
		}
	}
	return out
}

// A real turn: every tool call of the model reaches the audit log with
// how it was approved, and every model call the usage ledger.
func TestAuditAndUsageOfATurn(t *testing.T) {
	var u *usage.Engine
	evs := newRecorder()
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}, engine: withLedger(&u, evs)})
	en.allow(policyAlways, "test", "echo")
	en.llm.Script(
		llmtest.Turn{
			ToolCalls: []llmtest.ToolCall{
				{ID: "c1", Name: "test__echo", Arguments: `{"message":"hi"}`},
				{ID: "c2", Name: "test__add", Arguments: `{"a":1,"b":2}`},
				{ID: "c3", Name: "test__nope", Arguments: `{}`},
				{ID: "c4", Name: "test__echo", Arguments: `{"msg":1}`},
			},
			Usage: &llmtest.Usage{Prompt: 100, Completion: 20, Cached: 30, Reasoning: 5},
		},
		llmtest.Turn{Text: []string{"Done."}, Usage: &llmtest.Usage{Prompt: 150, Completion: 10}},
	)
	conv := en.newConv(nil)
	res := en.send(conv.ID, "use the tools")
	a := en.approval(res.TurnID, "c2")
	if err := en.e.Approve(en.ctx, a.ID, ApprovalDecision{Action: "cancel"}); err != nil {
		t.Fatal(err)
	}
	if d := en.done(res.TurnID); d.Reason != DoneStop {
		t.Fatalf("done %+v", d)
	}

	got := auditByTool(t, u, conv.ID)
	if len(got) != 4 {
		t.Fatalf("audit entries %+v", got)
	}
	for key, want := range map[string]struct{ server, status, approval, output, errPart string }{
		`echo {"message":"hi"}`: {"test", store.AuditOK, "always", "Echo: hi", ""},
		`add {"a":1,"b":2}`:     {"test", store.AuditDeclined, "user", "", ""},
		`test__nope {}`:         {"", store.AuditDeclined, "validation", "", "no tool named"},
		`echo {"msg":1}`:        {"test", store.AuditDeclined, "validation", "", "Invalid arguments"},
	} {
		e, ok := got[key]
		if !ok || e.Server != want.server || e.Status != want.status || string(e.Approval) != want.approval || e.Output != want.output ||
			!strings.Contains(e.Error, want.errPart) || e.Source != store.AuditChat || e.Time.IsZero() {
			t.Errorf("%s: %+v, want %+v", key, e, want)
		}
	}

	s, err := u.Summary(en.ctx, usage.UsageQuery{ConversationID: conv.ID})
	if err != nil {
		t.Fatal(err)
	}
	tot := s.Totals
	if tot.Calls != 2 || tot.PromptTokens != 250 || tot.CompletionTokens != 30 || tot.CachedTokens != 30 || tot.ReasoningTokens != 5 {
		t.Errorf("usage totals %+v", tot)
	}
	// A custom endpoint has no price: tokens, and no cost.
	if len(s.ByModel) != 1 || s.ByModel[0].Provider != en.provider.ID || s.ByModel[0].Model != "gpt-4o" || tot.Cost != nil ||
		len(s.Unpriced) != 1 || s.Unpriced[0] != "Fake AI · gpt-4o" {
		t.Errorf("by model %+v, unpriced %v, cost %v", s.ByModel, s.Unpriced, tot.Cost)
	}
	if total, err := u.ConversationTotal(en.ctx, conv.ID); err != nil || total.Calls != 2 {
		t.Errorf("conversation total %+v, %v", total, err)
	}
	changed := 0
	for _, e := range evs.all() {
		if p, ok := e.payload.(events.UsageChangedPayload); ok && p.ConversationID == conv.ID {
			changed++
		}
	}
	if changed != 2 {
		t.Errorf("%d usage:changed events, want 2", changed)
	}
}

// The command line's --approve modes and the chat's time limit reach the
// audit log as such.
func TestAuditOfApprovalModesAndTimeout(t *testing.T) {
	var u *usage.Engine
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}, engine: withLedger(&u, nil)})
	if _, err := en.e.SaveSettings(en.ctx, ChatSettings{ToolTimeoutMs: 300}); err != nil {
		t.Fatal(err)
	}
	en.llm.Script(
		llmtest.ToolTurn(llmtest.ToolCall{ID: "s1", Name: "test__sleep", Arguments: `{"ms":10000}`}),
		llmtest.TextTurn("Too slow."),
		llmtest.ToolTurn(llmtest.ToolCall{ID: "e1", Name: "test__echo", Arguments: `{"message":"no"}`}),
		llmtest.TextTurn("Declined."),
	)
	conv := en.newConv(nil)
	en.done(en.send(conv.ID, "sleep", WithApprovalMode(ApproveAuto)).TurnID)
	en.done(en.send(conv.ID, "echo", WithApprovalMode(ApproveNever)).TurnID)

	got := auditByTool(t, u, conv.ID)
	if e := got[`sleep {"ms":10000}`]; e.Status != store.AuditTimeout || e.Approval != store.AuditApprovalModeAuto || e.DurationMs < 250 {
		t.Errorf("sleep %+v", e)
	}
	if e := got[`echo {"message":"no"}`]; e.Status != store.AuditDeclined || e.Approval != store.AuditApprovalModeNever {
		t.Errorf("echo %+v", e)
	}
}

// A fallback's and a sampling request's model calls are recorded as such.
func TestUsageOfFallbackAndSampling(t *testing.T) {
	var u *usage.Engine
	en := newEnv(t, envConfig{engine: func(o *Options) { o.Retry.MaxAttempts = 1; withLedger(&u, nil)(o) }})
	backupLLM := llmtest.NewOpenAI(t)
	backup, err := en.pm.Save(en.ctx, providers.ProviderInput{Name: "Backup AI", Type: "openai", BaseURL: backupLLM.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	if err := en.pm.SetFallbacks(en.ctx, []providers.ModelRef{{Provider: backup.ID, Model: "backup-model"}}); err != nil {
		t.Fatal(err)
	}
	en.llm.Script(llmtest.ErrorTurn(503, ""), llmtest.Turn{Text: []string{"sampled"}, Usage: &llmtest.Usage{Prompt: 7, Completion: 3}})
	backupLLM.Script(llmtest.Turn{Text: []string{"from the backup"}, Usage: &llmtest.Usage{Prompt: 40, Completion: 4}})
	conv := en.newConv(nil)
	en.done(en.send(conv.ID, "hi").TurnID)

	// A sampling request outside any turn is answered by the default model.
	answered := make(chan error, 1)
	go func() {
		_, err := en.e.CreateMessage(en.ctx, "some-server", mcp.CreateMessageRequest{CreateMessageParams: mcp.CreateMessageParams{
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}, MaxTokens: 10,
		}})
		answered <- err
	}()
	e := en.rec.waitFor(t, "chat:sampling", func(e rec) bool { _, ok := e.payload.(events.ChatSamplingPayload); return ok })
	if err := en.e.AnswerSampling(e.payload.(events.ChatSamplingPayload).ID, SamplingAnswer{Approve: true}); err != nil {
		t.Fatal(err)
	}
	if err := <-answered; err != nil {
		t.Fatal(err)
	}

	var recs []store.UsageRecord
	if err := en.st.UsageRecords(en.ctx, store.UsageFilter{}, func(r store.UsageRecord) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("records %+v", recs)
	}
	if r := recs[0]; r.Kind != store.UsageFallback || r.Provider != backup.ID || r.ProviderName != "Backup AI" || r.Model != "backup-model" ||
		r.ConversationID != conv.ID || r.PromptTokens != 40 {
		t.Errorf("fallback record %+v", r)
	}
	if r := recs[1]; r.Kind != store.UsageSampling || r.Provider != en.provider.ID || r.ConversationID != 0 || r.PromptTokens != 7 {
		t.Errorf("sampling record %+v", r)
	}
}
