// Package llm streams chat completions from language-model providers
// (SPEC C1, C3): OpenAI-compatible endpoints through go-openai and Ollama
// through ollama/api, behind one small interface.
//
// A Client knows one provider endpoint and its key. It turns a Request into a
// stream of Deltas (text, reasoning, tool-call fragments) and returns the
// assembled Result when the stream ends. Failures come back as *Error with a
// Kind a user understands (bad key, unknown model, rate limit…); a stream that
// breaks after some text returns that text in the Result together with an
// Error of kind Interrupted.
//
// The package never logs or returns an API key.
package llm

import (
	"context"
	"encoding/json"
)

// Role of a message in a conversation.
type Role string

const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one turn sent to the model.
type Message struct {
	Role Role `json:"role"`
	// Content is the text of the message.
	Content string `json:"content"`
	// ToolCalls are the calls an assistant message asked for.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolCallID links a RoleTool message to the call it answers.
	ToolCallID string `json:"toolCallId,omitempty"`
	// Images are base64 images attached to a user message (vision models).
	Images []Image `json:"images,omitempty"`
}

// Image is an attached picture.
type Image struct {
	MIMEType string `json:"mimeType"`
	Data     string `json:"data"` // base64, no data: prefix
}

// ToolCall is a function call the model asked for.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // JSON text as the model produced it
}

// ToolDef is a tool offered to the model.
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"` // JSON Schema object
}

// Request is one streamed completion.
type Request struct {
	Model       string
	Messages    []Message
	Tools       []ToolDef
	Temperature *float32
	MaxTokens   int
}

// DeltaKind says what a Delta carries.
type DeltaKind string

const (
	DeltaText      DeltaKind = "text"
	DeltaReasoning DeltaKind = "reasoning"
	// DeltaToolCall reports progress on a tool call: Index identifies the
	// call in this response; ID and Name arrive first, Arguments in fragments.
	DeltaToolCall DeltaKind = "tool_call"
)

// Delta is one piece of a streaming response.
type Delta struct {
	Kind  DeltaKind
	Text  string // text or reasoning fragment, or an arguments fragment
	Index int    // tool call index
	ID    string // tool call id, when known
	Name  string // tool name, when known
}

// Usage counts the tokens of one call.
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	CachedTokens     int `json:"cachedTokens"`
	ReasoningTokens  int `json:"reasoningTokens"`
}

// Result is a finished (or interrupted) response.
type Result struct {
	Content      string
	Reasoning    string
	ToolCalls    []ToolCall
	Usage        Usage
	FinishReason string // "stop", "tool_calls", "length", …
	Model        string // the model that answered
}

// Model is one model a provider offers.
type Model struct {
	ID      string `json:"id"`
	OwnedBy string `json:"ownedBy,omitempty"`
}

// Client streams completions from one provider endpoint.
type Client interface {
	// Stream sends req and calls onDelta for every piece as it arrives, on
	// the calling goroutine. It returns when the response is complete, the
	// context ends or the stream fails. On failure the Result holds what had
	// arrived and the error is an *Error.
	Stream(ctx context.Context, req Request, onDelta func(Delta)) (*Result, error)
	// Models lists the models the endpoint offers.
	Models(ctx context.Context) ([]Model, error)
}
