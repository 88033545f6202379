package events

import (
	"encoding/json"

	"mcpdesk/backend/store"
	"mcpdesk/backend/trust"
)

// The chat event contract (SPEC D2). A turn starts with ChatService.Send (or
// Regenerate / EditAndResend), which returns at once; everything the turn
// does arrives as these events, all carrying the conversation id and the
// turn id. A turn always ends with exactly one ChatDone, even when it fails
// or is stopped. Text deltas are coalesced (a few per second per turn) and
// never lost: the concatenation of every ChatDelta.Text of a message equals
// the message's final content.
const (
	// ChatMessage carries a ChatMessagePayload when a message is created or
	// changes as a whole (user message stored, assistant message started or
	// finished, tool result stored).
	ChatMessage Name = "chat:message"
	// ChatDelta carries a ChatDeltaPayload: more text or reasoning of the
	// assistant message being streamed.
	ChatDelta Name = "chat:delta"
	// ChatToolCall carries a ChatToolCallPayload whenever a tool call of an
	// assistant message changes: its status, its result, its progress.
	ChatToolCall Name = "chat:tool-call"
	// ChatToolInput carries a ChatToolInputPayload while the model is still
	// writing the arguments of a call of a tool with a view (MCP Apps
	// tool-input-partial, issue 15); the call as stored follows with the
	// message, under the same id.
	ChatToolInput Name = "chat:tool-input"
	// ChatApproval carries a ChatApprovalPayload: a tool call waits for the
	// user (SPEC D4). ChatService.Approve answers it.
	ChatApproval Name = "chat:approval"
	// ChatApprovalDone carries a ChatApprovalDonePayload when an approval
	// was answered, or its turn ended.
	ChatApprovalDone Name = "chat:approval-done"
	// ChatSampling carries a ChatSamplingPayload: a server asks the
	// conversation's model for a completion (SPEC A11).
	// ChatService.AnswerSampling answers it.
	ChatSampling Name = "chat:sampling"
	// ChatSamplingDone carries a ChatSamplingDonePayload.
	ChatSamplingDone Name = "chat:sampling-done"
	// ChatStep carries a ChatStepPayload: the agent loop moved on (a model
	// call started, tools started, a retry or a fallback).
	ChatStep Name = "chat:step"
	// ChatUsage carries a ChatUsagePayload after every model call.
	ChatUsage Name = "chat:usage"
	// ChatError carries a ChatErrorPayload: something in the turn failed.
	// The turn may go on (a failed tool goes back to the model) or end.
	ChatError Name = "chat:error"
	// ChatDone carries a ChatDonePayload: the turn is over.
	ChatDone Name = "chat:done"
	// ChatConversations carries a ChatConversationsPayload when the list of
	// conversations changed (created, renamed, deleted, new message).
	ChatConversations Name = "chat:conversations"
)

// ChatMessagePayload is one message as stored.
type ChatMessagePayload struct {
	ConversationID int64         `json:"conversationId"`
	TurnID         string        `json:"turnId"`
	Message        store.Message `json:"message"`
	// Seq orders the message and tool-call events of the process: a larger
	// one was sent later, and holds the newer state. The window drops what
	// is older than what it shows, because events can arrive out of order
	// (in a browser, Wails' development server writes each one from its
	// own goroutine).
	Seq uint64 `json:"seq"`
}

// ChatDeltaPayload is streamed text of one assistant message.
type ChatDeltaPayload struct {
	ConversationID int64  `json:"conversationId"`
	TurnID         string `json:"turnId"`
	MessageID      int64  `json:"messageId"`
	// Text continues the answer; Reasoning continues the model's thinking,
	// shown apart. Either may be empty.
	Text      string `json:"text,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
}

// ChatToolInputPayload is a tool call being written: Call.Status is
// "streaming" and Call.Arguments the JSON written so far (incomplete).
type ChatToolInputPayload struct {
	ConversationID int64          `json:"conversationId"`
	TurnID         string         `json:"turnId"`
	MessageID      int64          `json:"messageId"`
	Call           store.ToolCall `json:"call"`
}

// ChatToolCallPayload is the state of one tool call.
type ChatToolCallPayload struct {
	ConversationID int64          `json:"conversationId"`
	TurnID         string         `json:"turnId"`
	MessageID      int64          `json:"messageId"`
	Call           store.ToolCall `json:"call"`
	// Progress of a running call, from the server's progress notifications.
	Progress *ProgressPayload `json:"progress,omitempty"`
	// Seq orders it among the message and tool-call events (see
	// ChatMessagePayload.Seq).
	Seq uint64 `json:"seq"`
}

// ToolAnnotations are the hints a server gives about a tool.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// ChatApprovalPayload asks the user to run a tool call.
type ChatApprovalPayload struct {
	// ID names this question for ChatService.Approve.
	ID             string          `json:"id"`
	ConversationID int64           `json:"conversationId"`
	TurnID         string          `json:"turnId"`
	MessageID      int64           `json:"messageId"`
	CallID         string          `json:"callId"`
	Server         string          `json:"server"`
	Tool           string          `json:"tool"`
	Title          string          `json:"title,omitempty"`
	Description    string          `json:"description,omitempty"`
	Annotations    ToolAnnotations `json:"annotations"`
	// Arguments are the model's arguments (a JSON object), editable.
	Arguments json.RawMessage `json:"arguments" ts_type:"any"`
	// InputSchema is the tool's input schema, for the argument form.
	InputSchema json.RawMessage `json:"inputSchema" ts_type:"any"`
	// DefinitionHash is the hash of the tool's definition the user is
	// asked about (SPEC G1).
	DefinitionHash string `json:"definitionHash"`
	// Change says what changed since a standing approval was given: the
	// approval is suspended and asks again (SPEC G1). Nil for a first ask.
	Change *trust.Change `json:"change,omitempty"`
	// Warnings are what looks suspicious in the tool's definition.
	Warnings []trust.Warning `json:"warnings,omitempty"`
}

// ChatApprovalDonePayload says an approval question is no longer open.
type ChatApprovalDonePayload struct {
	ID             string          `json:"id"`
	ConversationID int64           `json:"conversationId"`
	Outcome        ApprovalOutcome `json:"outcome"`
}

// ApprovalOutcome is how an approval question ended.
type ApprovalOutcome string

// The outcomes of an approval question.
const (
	ApprovalRun     ApprovalOutcome = "run"     // the call ran
	ApprovalCancel  ApprovalOutcome = "cancel"  // the user refused it
	ApprovalExpired ApprovalOutcome = "expired" // the turn ended first
)

// ChatSamplingPayload shows a server's sampling/createMessage request.
type ChatSamplingPayload struct {
	ID             string `json:"id"`
	ConversationID int64  `json:"conversationId"`
	Server         string `json:"server"`
	// Request is the params of sampling/createMessage as the server sent them.
	Request json.RawMessage `json:"request" ts_type:"any"`
	// Model is the model that will answer ("provider/model").
	Model string `json:"model"`
}

// ChatSamplingDonePayload says a sampling request was answered.
type ChatSamplingDonePayload struct {
	ID             string          `json:"id"`
	ConversationID int64           `json:"conversationId"`
	Outcome        SamplingOutcome `json:"outcome"`
}

// SamplingOutcome is how a sampling request ended.
type SamplingOutcome string

// The outcomes of a sampling request.
const (
	SamplingApproved SamplingOutcome = "approved" // the model answered the server
	SamplingRejected SamplingOutcome = "rejected" // the user refused it
	SamplingFailed   SamplingOutcome = "failed"   // the model call failed
	SamplingExpired  SamplingOutcome = "expired"  // it was not answered in time
)

// StepPhase says where the agent loop is.
type StepPhase string

// The phases of a turn.
const (
	StepModel    StepPhase = "model"    // a model call started
	StepTools    StepPhase = "tools"    // tool calls run
	StepRetry    StepPhase = "retry"    // waiting before trying again
	StepFallback StepPhase = "fallback" // on to the next model
)

// ChatStepPayload tells where the agent loop is.
type ChatStepPayload struct {
	ConversationID int64  `json:"conversationId"`
	TurnID         string `json:"turnId"`
	Step           int    `json:"step"`
	MaxSteps       int    `json:"maxSteps"`
	// Phase is "model" (a model call started), "tools" (tool calls run),
	// "retry" (waiting before trying again) or "fallback" (next model).
	Phase StepPhase `json:"phase"`
	// Model is "provider/model" of the call.
	Model string `json:"model,omitempty"`
	// Message explains a retry or fallback in words ("Rate limited; trying
	// again in 2 s").
	Message string `json:"message,omitempty"`
	// WaitMs is the wait before a retry.
	WaitMs int64 `json:"waitMs,omitempty"`
}

// ChatUsagePayload is the token usage of one model call.
type ChatUsagePayload struct {
	ConversationID int64            `json:"conversationId"`
	TurnID         string           `json:"turnId"`
	MessageID      int64            `json:"messageId"`
	Provider       string           `json:"provider"`
	Model          string           `json:"model"`
	Usage          store.TokenUsage `json:"usage"`
}

// ChatErrorPayload is a failure a user can understand.
type ChatErrorPayload struct {
	ConversationID int64  `json:"conversationId"`
	TurnID         string `json:"turnId"`
	MessageID      int64  `json:"messageId,omitempty"`
	// Kind is the llm error kind ("auth", "rate_limit", …) or "tool",
	// "validation", "internal".
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Partial is true when the answer so far is kept, marked interrupted.
	Partial bool `json:"partial,omitempty"`
}

// ChatDonePayload ends a turn.
type ChatDonePayload struct {
	ConversationID int64      `json:"conversationId"`
	TurnID         string     `json:"turnId"`
	Reason         DoneReason `json:"reason"`
	Steps          int        `json:"steps"`
}

// DoneReason is why a turn ended.
type DoneReason string

// The reasons a turn ends.
const (
	DoneStop      DoneReason = "stop"      // the model finished
	DoneCancelled DoneReason = "cancelled" // the user stopped it
	DoneError     DoneReason = "error"     // it failed (a chat:error says why)
	DoneMaxSteps  DoneReason = "max_steps" // the step limit was reached
)

// ChatConversationsPayload says the conversation list changed.
type ChatConversationsPayload struct {
	// ConversationID is the conversation that changed, 0 for several.
	ConversationID int64 `json:"conversationId"`
}
