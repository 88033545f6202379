package store

// The values of the chat history: conversations, their settings, messages,
// tool calls and their statuses, as the engine and the UI exchange them.

import (
	"encoding/json"
	"strings"
	"time"
)

// Limits on what a conversation or message may hold.
const (
	// MaxTitleLen is the longest title, in characters.
	MaxTitleLen = 300
	// MaxToolResultBytes is the largest tool result kept verbatim in a
	// message; a larger one is stored shortened (see [ToolCall]).
	MaxToolResultBytes = 1 << 20
	// toolResultTextBudget is how much text a shortened result keeps.
	toolResultTextBudget = 64 << 10
	// previewLen is the length of ConversationSummary.Preview, in characters.
	previewLen = 160
)

// ToolFilter narrows the tools of one server in a conversation. With Allowed
// set only those tools are offered; Disabled tools are never offered.
type ToolFilter struct {
	Allowed  []string `json:"allowed,omitempty"`
	Disabled []string `json:"disabled,omitempty"`
}

// ConversationSettings are the per-conversation choices of SPEC D1.
type ConversationSettings struct {
	// Provider is the id of the provider the conversation talks to. It is
	// not a foreign key: a conversation outlives a deleted provider, and the
	// chat service reports the missing provider when the user sends.
	Provider string `json:"provider"`
	// Model is the model id at that provider.
	Model        string `json:"model"`
	SystemPrompt string `json:"systemPrompt"`
	// Temperature is nil for the provider's default, else 0…2.
	Temperature *float64 `json:"temperature"`
	// Servers are the ids of the MCP servers whose tools are offered. Nil
	// means every enabled server; an empty list means none.
	Servers []string `json:"servers" ts_type:"string[] | null"`
	// Tools narrows tools per server id. Nil means every tool of the
	// allowed servers.
	Tools map[string]ToolFilter `json:"tools" ts_type:"Record<string, ToolFilter> | null"`
	// MaxSteps caps the agent loop; nil means the application default.
	MaxSteps *int `json:"maxSteps"`
}

// Conversation is one chat with its settings.
type Conversation struct {
	ID       int64                `json:"id"`
	Title    string               `json:"title"`
	Settings ConversationSettings `json:"settings"`
	Pinned   bool                 `json:"pinned"`
	// CreatedAt is when it was created.
	CreatedAt time.Time `json:"createdAt"`
	// UpdatedAt is when a message was last added or changed (or creation).
	// Renaming, pinning and changing settings do not move it, so the
	// sidebar order reflects activity.
	UpdatedAt time.Time `json:"updatedAt"`
}

// ConversationSummary is one row of the sidebar.
type ConversationSummary struct {
	ID       int64  `json:"id"`
	Title    string `json:"title"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Pinned   bool   `json:"pinned"`
	// MessageCount counts every message, tool and hidden ones included.
	MessageCount int `json:"messageCount"`
	// Preview is the start of the last visible user or assistant text,
	// whitespace collapsed, at most 160 characters.
	Preview   string    `json:"preview"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Role is who wrote a message.
type Role string

// The roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// MessageStatus is how far a message got.
type MessageStatus string

// The message statuses.
const (
	// MessageComplete is a finished message (the default).
	MessageComplete MessageStatus = "complete"
	// MessageStreaming is an assistant reply still arriving.
	MessageStreaming MessageStatus = "streaming"
	// MessageInterrupted was stopped by the user or cut by a broken stream
	// or a crash; Content holds what had arrived.
	MessageInterrupted MessageStatus = "interrupted"
	// MessageError failed; Error says why.
	MessageError MessageStatus = "error"
)

// ToolCallStatus is the state of one tool call.
type ToolCallStatus string

// The tool call statuses, in the order a call passes through them.
const (
	// ToolCallStreaming: the model is still writing the arguments; only
	// in chat:tool-input events, never stored.
	ToolCallStreaming ToolCallStatus = "streaming"
	ToolCallPending   ToolCallStatus = "pending" // waiting for approval
	ToolCallApproved  ToolCallStatus = "approved"
	ToolCallDeclined  ToolCallStatus = "declined"
	ToolCallRunning   ToolCallStatus = "running"
	ToolCallDone      ToolCallStatus = "done"
	ToolCallError     ToolCallStatus = "error"
	ToolCallCancelled ToolCallStatus = "cancelled"
)

// Approval is how a tool call came to run (or not), SPEC D4.
type Approval string

// The approvals.
const (
	ApprovalUser         Approval = "user"         // the user clicked Run (or Cancel)
	ApprovalConversation Approval = "conversation" // allowed for this conversation
	ApprovalAlways       Approval = "always"       // this tool is always allowed
	ApprovalServerAuto   Approval = "server-auto"  // the server is auto-approved
	ApprovalNever        Approval = "never"        // refused by a "never" policy
	// ApprovalReadOnly: run without asking by the "read-only tools run"
	// default, the tool's annotations saying it only reads.
	ApprovalReadOnly Approval = "read-only"
	// ApprovalUndecided: nobody decided, the call ended first (the audit
	// log records it; a message's tool call leaves the field out).
	ApprovalUndecided Approval = ""
)

// ToolCall is one tool call an assistant message asked for, with what became
// of it.
type ToolCall struct {
	// ID is the call id the model gave; a RoleTool message answers it.
	ID string `json:"id"`
	// Name is the function name the model used.
	Name string `json:"name"`
	// Arguments is the JSON text that ran (or the model's text, if it was
	// never run); it may be invalid JSON when the model produced that.
	Arguments string `json:"arguments"`
	// Server and Tool are the MCP server id and the tool's own name.
	Server string         `json:"server"`
	Tool   string         `json:"tool"`
	Status ToolCallStatus `json:"status"`
	// Result is the MCP CallToolResult as JSON, if the call returned. One
	// larger than MaxToolResultBytes is stored shortened: its text blocks
	// cut, binary blocks replaced by a note, and ResultTruncated set.
	Result          json.RawMessage `json:"result,omitempty" ts_type:"any"`
	ResultTruncated bool            `json:"resultTruncated,omitempty"`
	// ResultBytes is the size of the original result when it was shortened.
	ResultBytes int    `json:"resultBytes,omitempty"`
	Error       string `json:"error,omitempty"`
	DurationMs  int64  `json:"durationMs,omitempty"`
	// Approval says how the call was allowed or refused, once decided.
	Approval Approval `json:"approval,omitempty"`
	// ViewURI is the tool's MCP Apps view (its _meta.ui.resourceUri) when
	// it was offered: the chat shows it with the call.
	ViewURI string `json:"viewUri,omitempty"`
	// ViewContext is what the call's view last gave the model
	// (ui/update-model-context), sent on later turns; at most
	// MaxViewContext bytes. Only SetViewContext changes it.
	ViewContext string `json:"viewContext,omitempty"`
	// WidgetState is an Apps SDK widget's state (window.openai.setWidgetState)
	// as JSON: restored when the widget is shown again and sent to the
	// model on later turns; at most MaxViewContext bytes. Only
	// SetWidgetState changes it.
	WidgetState string `json:"widgetState,omitempty"`
	// ViewStorage is what the call's view keeps in its localStorage (a JSON
	// object of strings), given back when it is shown again; never sent to
	// the model. Only SetViewStorage changes it.
	ViewStorage string `json:"viewStorage,omitempty"`
}

// MaxViewContext bounds the context one view gives the model, and a
// widget's state.
const MaxViewContext = 16 << 10

// TokenUsage counts the tokens a message cost (the sum over the model calls
// that produced it).
type TokenUsage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	CachedTokens     int `json:"cachedTokens"`
	ReasoningTokens  int `json:"reasoningTokens"`
}

// Message is one message of a conversation.
type Message struct {
	ID             int64 `json:"id"`
	ConversationID int64 `json:"conversationId"`
	// Seq numbers the messages of a conversation from 1.
	Seq       int    `json:"seq"`
	Role      Role   `json:"role"`
	Content   string `json:"content"`
	Reasoning string `json:"reasoning"`
	// ToolCalls are the calls of an assistant message; never nil when read.
	ToolCalls []ToolCall `json:"toolCalls"`
	// ToolCallID links a RoleTool message to the call it answers.
	ToolCallID string `json:"toolCallId"`
	// Attachments of a user message; never nil when read.
	Attachments []Attachment `json:"attachments"`
	// Hidden messages go to the model but not on screen (widget state,
	// SPEC D9); they are not searched and not previewed.
	Hidden bool          `json:"hidden"`
	Status MessageStatus `json:"status"`
	Error  string        `json:"error"`
	// Model is the model that wrote an assistant message, as
	// "provider-id/model" (see JoinModel).
	Model     string      `json:"model"`
	Usage     *TokenUsage `json:"usage"`
	CreatedAt time.Time   `json:"createdAt"`
	UpdatedAt time.Time   `json:"updatedAt"`
	// VersionGroup is the id of the user message this message follows:
	// the answer (and what came after it) belongs to that message's
	// answer versions. 0 before the first user message. Set by the store.
	VersionGroup int64 `json:"versionGroup"`
	// Version is which version of VersionGroup's answer this message is
	// part of, from 1. Set by the store.
	Version int `json:"version"`
	// SelectedVersion is, on a user message, the version of its answer
	// shown and sent to the model (see [Store.SelectVersion]).
	SelectedVersion int `json:"selectedVersion"`
	// Versions is, on a user message, how many versions its answer has;
	// filled in when read.
	Versions int `json:"versions"`
}

// JoinModel is how a message names the model that wrote it:
// "provider-id/model". Provider ids never hold "/"; models may.
func JoinModel(provider, model string) string { return provider + "/" + model }

// SplitModel reads what JoinModel wrote; a string without "/" is a model
// alone.
func SplitModel(s string) (provider, model string) {
	if p, m, ok := strings.Cut(s, "/"); ok && p != "" {
		return p, m
	}
	return "", s
}
