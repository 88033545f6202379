package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"mcpdesk/backend/llm/llmtest"
)

func TestOpenAIStreamsTextInOrder(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.RequireKey(testKey)
	srv.Script(llmtest.TextTurn("Hel", "lo", ", world", "!"))
	c, _ := newOpenAITest(t, srv)

	var rec recorder
	res, err := c.Stream(ctxT(t), userReq("gpt-4o-mini", "hi"), rec.on)
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if got, want := rec.texts(DeltaText), []string{"Hel", "lo", ", world", "!"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("text deltas = %q, want %q", got, want)
	}
	if rec.kinds() != "TTTT" {
		t.Fatalf("delta kinds = %s", rec.kinds())
	}
	if res.Content != "Hello, world!" || res.FinishReason != "stop" || res.Model != "gpt-4o-mini" {
		t.Fatalf("result = %+v", res)
	}
	if res.Usage.PromptTokens == 0 || res.Usage.CompletionTokens != 4 {
		t.Fatalf("usage = %+v", res.Usage)
	}

	got := srv.LastRequest()
	if got.Header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("Authorization header = %q", got.Header.Get("Authorization"))
	}
	if got.Path != "/v1/chat/completions" {
		t.Errorf("path = %q", got.Path)
	}
	var body openai.ChatCompletionRequest
	if err := got.Decode(&body); err != nil {
		t.Fatal(err)
	}
	if !body.Stream || body.StreamOptions == nil || !body.StreamOptions.IncludeUsage {
		t.Errorf("stream=%v stream_options=%+v", body.Stream, body.StreamOptions)
	}
	if body.Model != "gpt-4o-mini" || len(body.Messages) != 2 || body.Messages[0].Role != "system" || body.Messages[1].Content != "hi" {
		t.Errorf("body = %s", got.Raw)
	}
}

func TestOpenAIReasoningSeparated(t *testing.T) {
	for _, field := range []string{"reasoning_content", "reasoning"} {
		t.Run(field, func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			srv.Script(llmtest.Turn{ReasoningField: field, Reasoning: []string{"The user ", "wants 42."}, Text: []string{"4", "2"}})
			c, _ := newOpenAITest(t, srv)
			var rec recorder
			res, err := c.Stream(ctxT(t), userReq("deepseek-reasoner", "?"), rec.on)
			if err != nil {
				t.Fatal(err)
			}
			if rec.kinds() != "RRTT" {
				t.Fatalf("kinds = %s", rec.kinds())
			}
			if res.Reasoning != "The user wants 42." || res.Content != "42" {
				t.Fatalf("reasoning=%q content=%q", res.Reasoning, res.Content)
			}
		})
	}
}

func TestOpenAIThinkTags(t *testing.T) {
	cases := []struct {
		name               string
		chunks             []string
		reasoning, content string
	}{
		{"split tags", []string{"<th", "ink>\nPonder", "ing…</thi", "nk>\n\nThe answer", " is 42."}, "Pondering…", "The answer is 42."},
		{"whole", []string{"<think>a</think>b"}, "a", "b"},
		{"leading space", []string{"  ", "<think>", "x", "</think>", "\n", "y"}, "x", "y"},
		{"not a tag", []string{"<", "b>bold</b>"}, "", "<b>bold</b>"},
		{"think later is text", []string{"Hi <think>no</think>"}, "", "Hi <think>no</think>"},
		{"unterminated", []string{"<think>still thinking"}, "still thinking", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			srv.Script(llmtest.TextTurn(tc.chunks...))
			c, _ := newOpenAITest(t, srv)
			var rec recorder
			res, err := c.Stream(ctxT(t), userReq("qwen3", "?"), rec.on)
			if err != nil {
				t.Fatal(err)
			}
			if res.Reasoning != tc.reasoning || res.Content != tc.content {
				t.Fatalf("reasoning=%q content=%q", res.Reasoning, res.Content)
			}
			if got := strings.Join(rec.texts(DeltaReasoning), ""); got != tc.reasoning {
				t.Errorf("reasoning deltas = %q", got)
			}
			if got := strings.Join(rec.texts(DeltaText), ""); got != tc.content {
				t.Errorf("text deltas = %q", got)
			}
		})
	}
}

func TestOpenAIInterleavedToolCalls(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.Turn{
		Interleave: true,
		ToolCalls: []llmtest.ToolCall{
			{ID: "call_A", Name: "get_weather", Arguments: `{"city":"Paris","unit":"celsius"}`, Fragments: 4},
			{ID: "call_B", Name: "get_time", Arguments: `{"tz":"Europe/Paris"}`, Fragments: 2},
		},
	})
	c, _ := newOpenAITest(t, srv)
	var rec recorder
	res, err := c.Stream(ctxT(t), userReq("gpt-4o", "weather and time?"), rec.on)
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{
		{ID: "call_A", Name: "get_weather", Arguments: `{"city":"Paris","unit":"celsius"}`},
		{ID: "call_B", Name: "get_time", Arguments: `{"tz":"Europe/Paris"}`},
	}
	if !reflect.DeepEqual(res.ToolCalls, want) {
		t.Fatalf("tool calls = %+v", res.ToolCalls)
	}
	if res.FinishReason != "tool_calls" {
		t.Errorf("finish = %q", res.FinishReason)
	}
	// Deltas carry the call index; the first delta of each call has its id and name.
	seen := map[int]bool{}
	for _, d := range rec.deltas {
		if d.Kind != DeltaToolCall {
			t.Fatalf("unexpected delta %+v", d)
		}
		if !seen[d.Index] {
			seen[d.Index] = true
			if d.ID != want[d.Index].ID || d.Name != want[d.Index].Name {
				t.Errorf("first delta of call %d = %+v", d.Index, d)
			}
		}
	}
	if len(seen) != 2 {
		t.Errorf("indexes seen = %v", seen)
	}
}

func TestOpenAIToolCallsWithoutIndex(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.Turn{
		NoIndex: true,
		Text:    []string{"Checking."},
		ToolCalls: []llmtest.ToolCall{
			{ID: "call_1", Name: "a", Arguments: `{"x":1}`},
			{ID: "call_2", Name: "b", Arguments: `{"y":"ü"}`, Fragments: 5},
			{ID: "call_3", Name: "c"},
		},
	})
	c, _ := newOpenAITest(t, srv)
	res, err := c.Stream(ctxT(t), userReq("gpt-4o", "go"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{
		{ID: "call_1", Name: "a", Arguments: `{"x":1}`},
		{ID: "call_2", Name: "b", Arguments: `{"y":"ü"}`},
		{ID: "call_3", Name: "c", Arguments: `{}`},
	}
	if !reflect.DeepEqual(res.ToolCalls, want) || res.Content != "Checking." {
		t.Fatalf("result = %+v", res)
	}
}

func TestOpenAIToolCallFragmentsWithoutID(t *testing.T) {
	// A provider that sends neither index nor id: everything belongs to one call.
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.Turn{Events: []string{
		`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"type":"function","function":{"name":"look","arguments":"{\"q\":"}}]},"finish_reason":null}]}`,
		`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"\"go\"}"}}]},"finish_reason":null}]}`,
		`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
	}})
	c, _ := newOpenAITest(t, srv)
	res, err := c.Stream(ctxT(t), userReq("m", "go"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{{ID: "call_0", Name: "look", Arguments: `{"q":"go"}`}}
	if !reflect.DeepEqual(res.ToolCalls, want) || res.FinishReason != "tool_calls" {
		t.Fatalf("result = %+v", res)
	}
}

func TestOpenAIUsageChunk(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.Turn{Text: []string{"ok"}, Usage: &llmtest.Usage{Prompt: 1200, Completion: 34, Cached: 1024, Reasoning: 12}})
	c, _ := newOpenAITest(t, srv)
	res, err := c.Stream(ctxT(t), userReq("o4-mini", "hi"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Usage{PromptTokens: 1200, CompletionTokens: 34, CachedTokens: 1024, ReasoningTokens: 12}
	if res.Usage != want {
		t.Fatalf("usage = %+v, want %+v", res.Usage, want)
	}
}

func TestOpenAIKeepAliveComments(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.Turn{KeepAlives: 400, Text: []string{"still ", "here"}})
	c, _ := newOpenAITest(t, srv)
	res, err := c.Stream(ctxT(t), userReq("gpt-4o", "hi"), nil)
	if err != nil {
		t.Fatalf("400 keep-alive comments killed the stream: %v", err)
	}
	if res.Content != "still here" {
		t.Fatalf("content = %q", res.Content)
	}
}

func TestOpenAIAuthErrorNamesProviderAndHidesKey(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	body := llmtest.OpenAIErrorBody(
		"Incorrect API key provided: "+testKey+". Header was Authorization: Bearer "+testKey,
		"invalid_request_error", "invalid_api_key")
	srv.Script(llmtest.ErrorTurn(401, body))
	c, logs := newOpenAITest(t, srv)

	res, err := c.Stream(ctxT(t), userReq("gpt-4o", "hi"), nil)
	e := mustKind(t, err, KindAuth)
	if res == nil {
		t.Fatal("nil result")
	}
	if e.Status != 401 || e.Retryable() {
		t.Errorf("status=%d retryable=%v", e.Status, e.Retryable())
	}
	if !strings.Contains(e.Message, "OpenAI") || !strings.Contains(e.Message, "401") || !strings.Contains(e.Message, "Settings") {
		t.Errorf("message = %q", e.Message)
	}
	if !strings.Contains(e.Detail, "Incorrect API key provided") {
		t.Errorf("detail lost the provider's words: %q", e.Detail)
	}
	assertNoSecret(t, "Error()", err.Error())
	assertNoSecret(t, "Message", e.Message)
	assertNoSecret(t, "Detail", e.Detail)
	assertNoSecret(t, "%+v", fmt.Sprintf("%+v", err))
	assertNoSecret(t, "unwrapped", errors.Unwrap(err).Error())
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) {
		t.Fatal("the go-openai error is not reachable with errors.As")
	}
	assertNoSecret(t, "APIError", apiErr.Error())
	assertNoSecret(t, "logs", logs.String())
	if !strings.Contains(logs.String(), "llm call failed") {
		t.Errorf("failure was not logged: %s", logs.String())
	}
}

func TestOpenAIMissingKeyMessage(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.RequireKey("sk-needed-0123456789")
	c, _ := newOpenAITest(t, srv, func(c *Config) { c.APIKey = "" })
	_, err := c.Stream(ctxT(t), userReq("gpt-4o", "hi"), nil)
	e := mustKind(t, err, KindAuth)
	if !strings.Contains(e.Message, "needs an API key") {
		t.Errorf("message = %q", e.Message)
	}
	if h := srv.AllRequests()[0].Header.Get("Authorization"); h != "" {
		t.Errorf("sent Authorization %q without a key", h)
	}
}

func TestOpenAIModelNotFound(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.ErrorTurn(404, llmtest.OpenAIErrorBody(
		"The model `gpt-9` does not exist or you do not have access to it.", "invalid_request_error", "model_not_found")))
	c, _ := newOpenAITest(t, srv)
	_, err := c.Stream(ctxT(t), userReq("gpt-9", "hi"), nil)
	e := mustKind(t, err, KindModelNotFound)
	if e.Retryable() || e.Status != 404 || !strings.Contains(e.Message, `"gpt-9"`) {
		t.Errorf("error = %+v", e)
	}
}

func TestOpenAIModelNotFoundAs400(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.ErrorTurn(400, llmtest.OpenAIErrorBody("Model Not Exist", "invalid_request_error", "invalid_request_error")))
	c, _ := newOpenAITest(t, srv)
	_, err := c.Stream(ctxT(t), userReq("deepseek-chatt", "hi"), nil)
	mustKind(t, err, KindModelNotFound)
}

func TestOpenAIContextLength(t *testing.T) {
	bodies := map[string]string{
		"code": llmtest.OpenAIErrorBody("This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
			"invalid_request_error", "context_length_exceeded"),
		"message only": llmtest.OpenAIErrorBody("prompt is too long: 210000 tokens > 200000 maximum", "invalid_request_error", ""),
		"plain body":   "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 5000 context length exceeded",
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.NewOpenAI(t)
			srv.Script(llmtest.ErrorTurn(400, body))
			c, _ := newOpenAITest(t, srv)
			_, err := c.Stream(ctxT(t), userReq("gpt-4o", "long"), nil)
			e := mustKind(t, err, KindContextLength)
			if e.Retryable() || !strings.Contains(e.Message, "too long") {
				t.Errorf("error = %+v", e)
			}
		})
	}
}

func TestOpenAIQuotaIsNotRetryable(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.ErrorTurn(429, llmtest.OpenAIErrorBody(
		"You exceeded your current quota, please check your plan and billing details.", "insufficient_quota", "insufficient_quota")))
	c, _ := newOpenAITest(t, srv)
	_, err := c.Stream(ctxT(t), userReq("gpt-4o", "hi"), nil)
	if e := mustKind(t, err, KindQuota); e.Retryable() {
		t.Error("quota must not be retried")
	}
}

func TestOpenAIServerErrorAndHTMLBody(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.ErrorTurn(502, "<html><body><h1>502 Bad Gateway</h1></body></html>"))
	c, _ := newOpenAITest(t, srv)
	_, err := c.Stream(ctxT(t), userReq("gpt-4o", "hi"), nil)
	e := mustKind(t, err, KindServer)
	if !e.Retryable() || e.Status != 502 || strings.Contains(e.Error(), "<html>") {
		t.Errorf("error = %+v (%v)", e, e)
	}
}

func TestOpenAIUnreachable(t *testing.T) {
	base := llmtest.UnreachableURL(t)
	c, err := New(Config{Type: TypeOpenAI, Provider: "LM Studio", BaseURL: base + "/v1", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Stream(ctxT(t), userReq("local-model", "hi"), nil)
	e := mustKind(t, err, KindUnreachable)
	host := strings.TrimPrefix(base, "http://")
	if !e.Retryable() || !strings.Contains(e.Message, host) || !strings.Contains(e.Message, "LM Studio") {
		t.Errorf("error = %+v", e)
	}
	if _, err := c.Models(ctxT(t)); KindOf(err) != KindUnreachable {
		t.Errorf("Models error = %v", err)
	}
}

func TestOpenAICancelKeepsPartialText(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.Turn{Text: []string{"first", " second", " third"}, Delay: time.Minute})
	c, _ := newOpenAITest(t, srv)
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	res, err := c.Stream(ctx, userReq("gpt-4o", "hi"), func(d Delta) { cancel() })
	e := mustKind(t, err, KindCancelled)
	if res.Content != "first" || !e.Partial || e.Retryable() {
		t.Fatalf("content=%q error=%+v", res.Content, e)
	}
}

func TestOpenAIStreamCut(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.Turn{Text: []string{"Hello", " wor", "ld"}, CutAfter: 2})
	c, _ := newOpenAITest(t, srv)
	var rec recorder
	res, err := c.Stream(ctxT(t), userReq("gpt-4o", "hi"), rec.on)
	e := mustKind(t, err, KindInterrupted)
	if res.Content != "Hello wor" || !e.Partial || e.Retryable() {
		t.Fatalf("content=%q error=%+v", res.Content, e)
	}
	if !strings.Contains(e.Message, "partial") {
		t.Errorf("message = %q", e.Message)
	}
}

func TestOpenAIStreamCutBeforeContentIsRetryable(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.Turn{Text: []string{"never"}, CutAfter: llmtest.CutImmediately})
	c, _ := newOpenAITest(t, srv)
	res, err := c.Stream(ctxT(t), userReq("gpt-4o", "hi"), nil)
	e := mustKind(t, err, KindInterrupted)
	if res.Content != "" || e.Partial || !e.Retryable() {
		t.Fatalf("content=%q error=%+v", res.Content, e)
	}
}

func TestOpenAIStreamEndsWithoutFinish(t *testing.T) {
	// A proxy closed the body cleanly in the middle: no finish_reason, no [DONE].
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.Turn{Body: "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hal\"},\"finish_reason\":null}]}\n\n"})
	c, _ := newOpenAITest(t, srv)
	res, err := c.Stream(ctxT(t), userReq("m", "hi"), nil)
	mustKind(t, err, KindInterrupted)
	if res.Content != "Hal" {
		t.Fatalf("content = %q", res.Content)
	}
}

func TestOpenAIErrorEventInStream(t *testing.T) {
	t.Run("before content", func(t *testing.T) {
		srv := llmtest.NewOpenAI(t)
		srv.Script(llmtest.Turn{StreamError: "Upstream provider is overloaded", StreamErrorCode: 502})
		c, _ := newOpenAITest(t, srv)
		_, err := c.Stream(ctxT(t), userReq("gpt-4o", "hi"), nil)
		e := mustKind(t, err, KindServer)
		if !e.Retryable() || !strings.Contains(e.Detail, "overloaded") {
			t.Errorf("error = %+v", e)
		}
	})
	t.Run("context length before content", func(t *testing.T) {
		srv := llmtest.NewOpenAI(t)
		srv.Script(llmtest.Turn{StreamError: "This model's maximum context length is 8192 tokens", StreamErrorCode: "context_length_exceeded"})
		c, _ := newOpenAITest(t, srv)
		_, err := c.Stream(ctxT(t), userReq("gpt-4o", "hi"), nil)
		mustKind(t, err, KindContextLength)
	})
	t.Run("after content", func(t *testing.T) {
		srv := llmtest.NewOpenAI(t)
		srv.Script(llmtest.Turn{Text: []string{"Par", "tial"}, StreamError: "Internal error"})
		c, _ := newOpenAITest(t, srv)
		res, err := c.Stream(ctxT(t), userReq("gpt-4o", "hi"), nil)
		e := mustKind(t, err, KindInterrupted)
		if res.Content != "Partial" || !e.Partial || !strings.Contains(e.Detail, "Internal error") {
			t.Errorf("content=%q error=%+v", res.Content, e)
		}
	})
	t.Run("after keep-alive comments", func(t *testing.T) {
		// go-openai loses an error event that follows comment lines; the
		// client must still fail cleanly.
		srv := llmtest.NewOpenAI(t)
		srv.Script(llmtest.Turn{KeepAlives: 3, StreamError: "overloaded"})
		c, _ := newOpenAITest(t, srv)
		_, err := c.Stream(ctxT(t), userReq("gpt-4o", "hi"), nil)
		if e := mustKind(t, err, KindServer); !e.Retryable() {
			t.Errorf("error = %+v", e)
		}
	})
}

func TestOpenAIRequestShape(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.TextTurn("done"))
	c, _ := newOpenAITest(t, srv)
	temp := float32(0.3)
	req := Request{
		Model:       "gpt-4o",
		Temperature: &temp,
		MaxTokens:   256,
		Tools: []ToolDef{
			{Name: "get_weather", Description: "Weather for a city", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)},
			{Name: "ping", Description: "No arguments"},
		},
		Messages: []Message{
			{Role: RoleUser, Content: "What is in this picture, and the weather?", Images: []Image{{MIMEType: "image/jpeg", Data: "AAEC"}}},
			{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}, {ID: "call_2", Name: "ping"}}},
			{Role: RoleTool, ToolCallID: "call_1", Content: `{"temp":21}`},
			{Role: RoleTool, ToolCallID: "call_2", Content: "pong"},
		},
	}
	if _, err := c.Stream(ctxT(t), req, nil); err != nil {
		t.Fatal(err)
	}
	got := srv.LastRequest()
	var body openai.ChatCompletionRequest
	if err := got.Decode(&body); err != nil {
		t.Fatalf("decode %s: %v", got.Raw, err)
	}
	if body.MaxTokens != 256 || body.Temperature != 0.3 {
		t.Errorf("max_tokens=%d temperature=%v", body.MaxTokens, body.Temperature)
	}
	if len(body.Tools) != 2 || body.Tools[0].Type != "function" || body.Tools[0].Function.Name != "get_weather" {
		t.Fatalf("tools = %s", got.Raw)
	}
	tools := got.Tools()
	params := tools[1]["function"].(map[string]any)["parameters"].(map[string]any)
	if params["type"] != "object" {
		t.Errorf("tool without schema got parameters %v", params)
	}
	msgs := got.Messages()
	parts, ok := msgs[0]["content"].([]any)
	if !ok || len(parts) != 2 {
		t.Fatalf("user content = %v", msgs[0]["content"])
	}
	img := parts[1].(map[string]any)
	if img["type"] != "image_url" || img["image_url"].(map[string]any)["url"] != "data:image/jpeg;base64,AAEC" {
		t.Errorf("image part = %v", img)
	}
	calls := msgs[1]["tool_calls"].([]any)
	first := calls[0].(map[string]any)
	if first["id"] != "call_1" || first["type"] != "function" || first["function"].(map[string]any)["arguments"] != `{"city":"Paris"}` {
		t.Errorf("assistant tool call = %v", first)
	}
	if calls[1].(map[string]any)["function"].(map[string]any)["arguments"] != "{}" {
		t.Errorf("empty arguments not sent as {}: %v", calls[1])
	}
	if msgs[2]["role"] != "tool" || msgs[2]["tool_call_id"] != "call_1" || msgs[2]["content"] != `{"temp":21}` {
		t.Errorf("tool message = %v", msgs[2])
	}
}

func TestOpenAIReasoningModelParameters(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.TextTurn("ok"))
	c, _ := newOpenAITest(t, srv)
	temp := float32(0.2)
	req := userReq("o4-mini", "hi")
	req.Temperature, req.MaxTokens = &temp, 1000
	if _, err := c.Stream(ctxT(t), req, nil); err != nil {
		t.Fatal(err)
	}
	b := srv.LastRequest().Body
	if b["max_completion_tokens"] != float64(1000) || b["max_tokens"] != nil || b["temperature"] != nil {
		t.Errorf("body = %s", srv.LastRequest().Raw)
	}
}

func TestOpenAIZeroTemperatureIsSent(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.TextTurn("ok"))
	c, _ := newOpenAITest(t, srv)
	zero := float32(0)
	req := userReq("gpt-4o", "hi")
	req.Temperature = &zero
	if _, err := c.Stream(ctxT(t), req, nil); err != nil {
		t.Fatal(err)
	}
	if v, ok := srv.LastRequest().Body["temperature"].(float64); !ok || v > 0.001 {
		t.Errorf("temperature = %v", srv.LastRequest().Body["temperature"])
	}
}

func TestOpenAIModels(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.RequireKey(testKey)
	srv.SetModels("gpt-4o", "chatgpt-4o-latest", "o3")
	c, _ := newOpenAITest(t, srv)
	models, err := c.Models(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range models {
		ids = append(ids, m.ID)
	}
	if !reflect.DeepEqual(ids, []string{"chatgpt-4o-latest", "gpt-4o", "o3"}) || models[0].OwnedBy != "llmtest" {
		t.Fatalf("models = %+v", models)
	}
	if p := srv.AllRequests()[0].Path; p != "/v1/models" {
		t.Errorf("path = %q", p)
	}

	bad, _ := newOpenAITest(t, srv, func(c *Config) { c.APIKey = "sk-wrong-0123456789" })
	if _, err := bad.Models(ctxT(t)); KindOf(err) != KindAuth {
		t.Errorf("Models with a bad key: %v", err)
	}
}

func TestOpenAIAzure(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.RequireKey(testKey)
	srv.Script(llmtest.TextTurn("hi from azure"))
	c, _ := newOpenAITest(t, srv, func(c *Config) {
		c.Provider, c.Azure, c.BaseURL = "", true, srv.URL
	})
	res, err := c.Stream(ctxT(t), userReq("my-gpt-4o.deploy", "hi"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Content != "hi from azure" {
		t.Fatalf("content = %q", res.Content)
	}
	got := srv.LastRequest()
	if got.Path != "/openai/deployments/my-gpt-4o.deploy/chat/completions?api-version="+DefaultAzureAPIVersion {
		t.Errorf("path = %q", got.Path)
	}
	if got.Header.Get("api-key") != testKey || got.Header.Get("Authorization") != "" {
		t.Errorf("auth headers = %v", got.Header)
	}

	c2, _ := newOpenAITest(t, srv, func(c *Config) {
		c.Azure, c.BaseURL, c.AzureAPIVersion = true, srv.URL, "2025-01-01-preview"
	})
	srv.Script(llmtest.ErrorTurn(401, ""))
	_, err = c2.Stream(ctxT(t), userReq("d", "hi"), nil)
	mustKind(t, err, KindAuth)
	if p := srv.LastRequest().Path; !strings.HasSuffix(p, "api-version=2025-01-01-preview") {
		t.Errorf("path = %q", p)
	}
}

func TestOpenAICustomHeaders(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.TextTurn("ok"))
	c, logs := newOpenAITest(t, srv, func(c *Config) {
		c.Headers = map[string]string{"HTTP-Referer": "https://mcpdesk.example", "X-Title": "MCP Desk"}
	})
	if _, err := c.Stream(ctxT(t), userReq("openai/gpt-4o", "hi"), nil); err != nil {
		t.Fatal(err)
	}
	h := srv.LastRequest().Header
	if h.Get("HTTP-Referer") != "https://mcpdesk.example" || h.Get("X-Title") != "MCP Desk" || h.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("headers = %v", h)
	}
	assertNoSecret(t, "debug logs", logs.String())
}

func TestOpenAIModelsNotFoundBlamesBaseURL(t *testing.T) {
	// Anything that answers 404 text for /v1/models, here the Ollama fake.
	srv := llmtest.NewOllama(t)
	c, _ := newOpenAITest(t, srv, func(c *Config) { c.BaseURL = srv.URL + "/v1" })
	_, err := c.Models(ctxT(t))
	e := mustKind(t, err, KindBadRequest)
	if !strings.Contains(e.Message, "base URL") {
		t.Errorf("message = %q", e.Message)
	}
}

// The shape a ChatService test uses: the model calls a tool, gets the
// result, then answers.
func TestScriptedToolRoundTrip(t *testing.T) {
	for _, flavour := range []string{"openai", "ollama"} {
		t.Run(flavour, func(t *testing.T) {
			var srv *llmtest.Server
			var c Client
			if flavour == "openai" {
				srv = llmtest.NewOpenAI(t)
				c, _ = newOpenAITest(t, srv)
			} else {
				srv = llmtest.NewOllama(t)
				c, _ = newOllamaTest(t, srv)
			}
			srv.Script(
				llmtest.ToolTurn(llmtest.Call("echo", `{"message":"hi"}`)),
				llmtest.Turn{Text: []string{"The tool said ", "hi."}, Check: func(r llmtest.Request) error {
					msgs := r.Messages()
					last := msgs[len(msgs)-1]
					if last["role"] != "tool" || last["content"] != "hi" {
						return fmt.Errorf("last message = %v", last)
					}
					return nil
				}},
			)
			req := Request{Model: "m", Tools: []ToolDef{{Name: "echo", Parameters: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}}}`)}},
				Messages: []Message{{Role: RoleUser, Content: "echo hi"}}}
			res, err := c.Stream(ctxT(t), req, nil)
			if err != nil || len(res.ToolCalls) != 1 || res.ToolCalls[0].Name != "echo" {
				t.Fatalf("first turn: %+v %v", res, err)
			}
			call := res.ToolCalls[0]
			req.Messages = append(req.Messages,
				Message{Role: RoleAssistant, Content: res.Content, ToolCalls: res.ToolCalls},
				Message{Role: RoleTool, ToolCallID: call.ID, Content: "hi"})
			res, err = c.Stream(ctxT(t), req, nil)
			if err != nil || res.Content != "The tool said hi." {
				t.Fatalf("second turn: %+v %v", res, err)
			}
			if n := len(srv.Requests()); n != 2 || srv.Pending() != 0 {
				t.Errorf("requests=%d pending=%d", n, srv.Pending())
			}
		})
	}
}
