package llmtest

import (
	"encoding/json"
	"time"
)

type olChunk struct {
	Model                 string    `json:"model"`
	CreatedAt             string    `json:"created_at"`
	Message               olMessage `json:"message"`
	DoneReason            string    `json:"done_reason,omitempty"`
	Done                  bool      `json:"done"`
	TotalDuration         int64     `json:"total_duration,omitempty"`
	LoadDuration          int64     `json:"load_duration,omitempty"`
	PromptEvalCount       int       `json:"prompt_eval_count,omitempty"`
	PromptEvalCachedCount *int      `json:"prompt_eval_cached_count,omitempty"`
	PromptEvalDuration    int64     `json:"prompt_eval_duration,omitempty"`
	EvalCount             int       `json:"eval_count,omitempty"`
	EvalDuration          int64     `json:"eval_duration,omitempty"`
}

type olMessage struct {
	Role      string       `json:"role"`
	Content   string       `json:"content"`
	Thinking  string       `json:"thinking,omitempty"`
	ToolCalls []olToolCall `json:"tool_calls,omitempty"`
}

type olToolCall struct {
	ID       string     `json:"id,omitempty"`
	Function olFunction `json:"function"`
}

type olFunction struct {
	Index     int             `json:"index"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func ndjson(v any) []byte {
	b, _ := json.Marshal(v)
	return append(b, '\n')
}

func (s *Server) streamOllama(sw *streamWriter, rec Request, model string) {
	turn := sw.turn
	created := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	line := func(m olMessage) []byte {
		created = created.Add(20 * time.Millisecond)
		return ndjson(olChunk{Model: model, CreatedAt: created.Format(time.RFC3339Nano), Message: m})
	}
	sw.header("application/x-ndjson")
	if turn.CutAfter == CutImmediately {
		sw.cut()
		return
	}
	for i := 0; i < turn.KeepAlives; i++ {
		sw.raw([]byte("\n"))
	}
	if len(turn.Events) > 0 {
		for _, e := range turn.Events {
			if !sw.contentChunk([]byte(e + "\n")) {
				return
			}
		}
		sw.cutAtEnd()
		return
	}
	for _, r := range turn.Reasoning {
		if !sw.contentChunk(line(olMessage{Role: "assistant", Thinking: r})) {
			return
		}
	}
	for _, t := range turn.Text {
		if !sw.contentChunk(line(olMessage{Role: "assistant", Content: t})) {
			return
		}
	}
	if len(turn.ToolCalls) > 0 {
		var calls []olToolCall
		for i, tc := range turn.ToolCalls {
			args := json.RawMessage(tc.Arguments)
			if len(args) == 0 {
				args = json.RawMessage("{}")
			}
			calls = append(calls, olToolCall{ID: tc.ID, Function: olFunction{Index: i, Name: tc.Name, Arguments: args}})
		}
		if !sw.contentChunk(line(olMessage{Role: "assistant", ToolCalls: calls})) {
			return
		}
	}
	if sw.cutAtEnd() {
		return
	}
	if turn.StreamError != "" {
		sw.raw(ndjson(map[string]string{"error": turn.StreamError}))
		return
	}
	u := turn.Usage
	if u == nil {
		u = &Usage{Prompt: estimateTokens(rec.Raw), Completion: sw.content}
	}
	finish := turn.FinishReason
	if finish == "" {
		finish = "stop"
	}
	created = created.Add(20 * time.Millisecond)
	final := olChunk{
		Model: model, CreatedAt: created.Format(time.RFC3339Nano),
		Message:    olMessage{Role: "assistant", Content: ""},
		DoneReason: finish, Done: true,
		TotalDuration: 4883583458, LoadDuration: 1334875, PromptEvalCount: u.Prompt,
		PromptEvalDuration: 342546000, EvalCount: u.Completion, EvalDuration: 4535599000,
	}
	if u.Cached > 0 {
		c := u.Cached
		final.PromptEvalCachedCount = &c
	}
	sw.raw(ndjson(final))
}
