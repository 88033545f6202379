package chat

import (
	"context"
	"time"

	"mcpdesk/backend/providers"
	"mcpdesk/backend/store"
)

// Recorder keeps the usage ledger and the audit log (SPEC E1, E2);
// *usage.Engine is one. Both methods are called on the turn's goroutines
// and must not fail the call they describe: they log their own errors.
type Recorder interface {
	// RecordUsage records the tokens of one model call.
	RecordUsage(ctx context.Context, r store.UsageRecord)
	// RecordToolCall records one tool call the model asked for, however
	// it ended.
	RecordToolCall(ctx context.Context, e store.AuditEntry)
}

// noRecorder is the Recorder of an engine given none.
type noRecorder struct{}

func (noRecorder) RecordUsage(context.Context, store.UsageRecord)   {}
func (noRecorder) RecordToolCall(context.Context, store.AuditEntry) {}

// recordUsage records a model call of conversation conv (0: none) that
// route answered.
func (e *Engine) recordUsage(ctx context.Context, conv int64, route providers.Route, kind string, u store.TokenUsage) {
	e.rec.RecordUsage(ctx, store.UsageRecord{
		Time: time.Now(), ConversationID: conv, Provider: route.Ref.Provider, ProviderName: route.ProviderName,
		Model: route.Ref.Model, Kind: kind,
		PromptTokens: int64(u.PromptTokens), CompletionTokens: int64(u.CompletionTokens),
		CachedTokens: int64(u.CachedTokens), ReasoningTokens: int64(u.ReasoningTokens),
	})
}

// callNote is what the audit log needs to know about a call beyond its
// stored state.
type callNote struct {
	start   time.Time // when it started running, or was decided
	refused bool      // refused by validation: unknown tool or bad arguments
	byMode  bool      // decided by the turn's approval mode (--approve)
	timeout bool      // ran past a time limit
	hash    string    // the definition hash of the tool as offered (SPEC G1)
}

// auditCall writes the final state of a call to the audit log.
func (e *Engine) auditCall(t *turn, c store.ToolCall, note callNote) {
	entry := store.AuditEntry{
		Time: note.start, Source: store.AuditChat, ConversationID: t.conv, Server: c.Server, Tool: c.Tool,
		Arguments: c.Arguments, Approval: c.Approval, DurationMs: c.DurationMs, Error: c.Error,
		DefinitionHash: note.hash,
	}
	if entry.Tool == "" {
		entry.Tool = c.Name // a tool the model made up
	}
	if entry.Time.IsZero() {
		entry.Time = time.Now()
	}
	if len(c.Result) > 0 {
		entry.Output = resultText(c.Result)
	}
	switch c.Status {
	case store.ToolCallDone:
		entry.Status = store.AuditOK
	case store.ToolCallDeclined:
		entry.Status = store.AuditDeclined
	case store.ToolCallCancelled:
		entry.Status = store.AuditCancelled
	default:
		entry.Status = store.AuditError
	}
	switch {
	case note.refused:
		entry.Status, entry.Approval = store.AuditDeclined, store.AuditApprovalValidation
	case note.timeout:
		entry.Status = store.AuditTimeout
	}
	if note.byMode {
		entry.Approval = store.AuditApprovalModeAuto
		if t.mode == ApproveNever {
			entry.Approval = store.AuditApprovalModeNever
		}
	}
	e.rec.RecordToolCall(t.store(), entry)
}
