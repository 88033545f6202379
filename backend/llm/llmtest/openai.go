package llmtest

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// OpenAI chunk shapes, field order as api.openai.com sends them.
type oaChunk struct {
	ID                string          `json:"id"`
	Object            string          `json:"object"`
	Created           int64           `json:"created"`
	Model             string          `json:"model"`
	SystemFingerprint string          `json:"system_fingerprint"`
	Choices           []oaChoice      `json:"choices"`
	Usage             json.RawMessage `json:"usage,omitempty"`
}

type oaChoice struct {
	Index        int             `json:"index"`
	Delta        json.RawMessage `json:"delta"`
	Logprobs     json.RawMessage `json:"logprobs"`
	FinishReason *string         `json:"finish_reason"`
}

type oaToolCall struct {
	Index    *int       `json:"index,omitempty"`
	ID       string     `json:"id,omitempty"`
	Type     string     `json:"type,omitempty"`
	Function oaFunction `json:"function"`
}

type oaFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

var jsonNull = json.RawMessage("null")

// oaStream renders one OpenAI streaming response.
type oaStream struct {
	sw           *streamWriter
	id           string
	model        string
	includeUsage bool
}

func (o *oaStream) chunk(delta any, finish *string) []byte {
	d, _ := json.Marshal(delta)
	c := oaChunk{
		ID: o.id, Object: "chat.completion.chunk", Created: 1700000000, Model: o.model,
		SystemFingerprint: "fp_llmtest",
		Choices:           []oaChoice{{Index: 0, Delta: d, Logprobs: jsonNull, FinishReason: finish}},
	}
	if o.includeUsage {
		c.Usage = jsonNull
	}
	return event(c)
}

func event(v any) []byte {
	b, _ := json.Marshal(v)
	out := make([]byte, 0, len(b)+8)
	out = append(out, "data: "...)
	out = append(out, b...)
	return append(out, '\n', '\n')
}

func (s *Server) streamOpenAI(sw *streamWriter, rec Request, model string, n int) {
	turn := sw.turn
	o := &oaStream{sw: sw, id: "chatcmpl-llmtest" + strconv.Itoa(n), model: model}
	if so, ok := rec.Body["stream_options"].(map[string]any); ok {
		o.includeUsage, _ = so["include_usage"].(bool)
	}
	sw.w.Header().Set("X-Request-Id", "req_llmtest"+strconv.Itoa(n))
	sw.header("text/event-stream; charset=utf-8")

	sw.raw(o.chunk(struct {
		Role    string          `json:"role"`
		Content string          `json:"content"`
		Refusal json.RawMessage `json:"refusal"`
	}{"assistant", "", jsonNull}, nil))
	for i := 0; i < turn.KeepAlives; i++ {
		sw.raw([]byte(": keep-alive\n\n"))
	}

	if len(turn.Events) > 0 {
		for _, e := range turn.Events {
			if !sw.contentChunk([]byte("data: " + e + "\n\n")) {
				return
			}
		}
		if sw.cutAtEnd() {
			return
		}
		sw.raw([]byte("data: [DONE]\n\n"))
		return
	}

	field := turn.ReasoningField
	if field == "" {
		field = "reasoning_content"
	}
	for _, r := range turn.Reasoning {
		if !sw.contentChunk(o.chunk(map[string]string{field: r}, nil)) {
			return
		}
	}
	for _, t := range turn.Text {
		if !sw.contentChunk(o.chunk(map[string]string{"content": t}, nil)) {
			return
		}
	}
	for _, frag := range toolFragments(turn, n) {
		if !sw.contentChunk(o.chunk(map[string]any{"tool_calls": []oaToolCall{frag}}, nil)) {
			return
		}
	}
	if sw.cutAtEnd() {
		return
	}
	if turn.StreamError != "" {
		sw.raw(event(map[string]any{"error": map[string]any{
			"message": turn.StreamError, "type": "server_error", "param": nil, "code": turn.StreamErrorCode,
		}}))
		return
	}

	finish := turn.FinishReason
	if finish == "" {
		finish = "stop"
		if len(turn.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	sw.raw(o.chunk(struct{}{}, &finish))

	if o.includeUsage {
		u := turn.Usage
		if u == nil {
			u = &Usage{Prompt: estimateTokens(rec.Raw), Completion: sw.content, Reasoning: len(turn.Reasoning)}
		}
		sw.raw(event(oaChunk{
			ID: o.id, Object: "chat.completion.chunk", Created: 1700000000, Model: model,
			SystemFingerprint: "fp_llmtest", Choices: []oaChoice{},
			Usage: json.RawMessage(fmt.Sprintf(
				`{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d,`+
					`"prompt_tokens_details":{"cached_tokens":%d,"audio_tokens":0},`+
					`"completion_tokens_details":{"reasoning_tokens":%d,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}`,
				u.Prompt, u.Completion, u.Prompt+u.Completion, u.Cached, u.Reasoning)),
		}))
	}
	sw.raw([]byte("data: [DONE]\n\n"))
}

// toolFragments renders the tool calls of a turn as OpenAI fragments: for
// each call a header (index, id, type, name, empty arguments) and then the
// argument pieces; with Interleave all headers first and then the pieces
// round-robin.
func toolFragments(turn Turn, n int) []oaToolCall {
	perCall := make([][]oaToolCall, len(turn.ToolCalls))
	for i, tc := range turn.ToolCalls {
		var idx *int
		if !turn.NoIndex {
			v := i
			idx = &v
		}
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("call_%d_%d", n, i)
		}
		frags := tc.Fragments
		if frags <= 0 {
			frags = 3
		}
		list := []oaToolCall{{Index: idx, ID: id, Type: "function", Function: oaFunction{Name: tc.Name}}}
		if tc.Arguments != "" {
			for _, piece := range splitArgs(tc.Arguments, frags) {
				list = append(list, oaToolCall{Index: idx, Function: oaFunction{Arguments: piece}})
			}
		}
		perCall[i] = list
	}
	var out []oaToolCall
	if !turn.Interleave {
		for _, l := range perCall {
			out = append(out, l...)
		}
		return out
	}
	for i := 0; ; i++ {
		more := false
		for _, l := range perCall {
			if i < len(l) {
				out = append(out, l[i])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}
