package llm

import (
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"mcpdesk/backend/llm/llmtest"
)

func TestOllamaStreamsText(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(llmtest.TextTurn("The sky", " is", " blue."))
	c, _ := newOllamaTest(t, srv)
	var rec recorder
	res, err := c.Stream(ctxT(t), userReq("llama3.2", "why?"), rec.on)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.texts(DeltaText); !reflect.DeepEqual(got, []string{"The sky", " is", " blue."}) {
		t.Fatalf("deltas = %q", got)
	}
	if res.Content != "The sky is blue." || res.FinishReason != "stop" || res.Model != "llama3.2" {
		t.Fatalf("result = %+v", res)
	}
	got := srv.LastRequest()
	if got.Path != "/api/chat" {
		t.Errorf("path = %q", got.Path)
	}
	var body api.ChatRequest
	if err := got.Decode(&body); err != nil {
		t.Fatal(err)
	}
	if body.Stream == nil || !*body.Stream || body.Model != "llama3.2" || len(body.Messages) != 2 {
		t.Errorf("body = %s", got.Raw)
	}
}

func TestOllamaThinking(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(llmtest.Turn{Reasoning: []string{"Hmm, ", "Rayleigh."}, Text: []string{"Scattering."}})
	c, _ := newOllamaTest(t, srv)
	var rec recorder
	res, err := c.Stream(ctxT(t), userReq("qwen3:8b", "why?"), rec.on)
	if err != nil {
		t.Fatal(err)
	}
	if rec.kinds() != "RRT" || res.Reasoning != "Hmm, Rayleigh." || res.Content != "Scattering." {
		t.Fatalf("kinds=%s result=%+v", rec.kinds(), res)
	}
}

func TestOllamaThinkTagsInContent(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(llmtest.TextTurn("<think>", "plan", "</think>", "\n\nanswer"))
	c, _ := newOllamaTest(t, srv)
	res, err := c.Stream(ctxT(t), userReq("deepseek-r1", "?"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reasoning != "plan" || res.Content != "answer" {
		t.Fatalf("result = %+v", res)
	}
}

func TestOllamaToolCalls(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(llmtest.Turn{ToolCalls: []llmtest.ToolCall{
		{Name: "get_weather", Arguments: `{"city":"Paris","days":2}`},
		{ID: "call_xyz", Name: "get_time", Arguments: `{}`},
		{Name: "ping"},
	}})
	c, _ := newOllamaTest(t, srv)
	var rec recorder
	res, err := c.Stream(ctxT(t), userReq("llama3.2", "weather?"), rec.on)
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{
		{ID: "call_0", Name: "get_weather", Arguments: `{"city":"Paris","days":2}`},
		{ID: "call_xyz", Name: "get_time", Arguments: `{}`},
		{ID: "call_2", Name: "ping", Arguments: `{}`},
	}
	if !reflect.DeepEqual(res.ToolCalls, want) {
		t.Fatalf("tool calls = %+v", res.ToolCalls)
	}
	if res.FinishReason != "tool_calls" {
		t.Errorf("finish = %q", res.FinishReason)
	}
	if rec.kinds() != "CCC" || rec.deltas[0].Name != "get_weather" || rec.deltas[0].ID != "call_0" || rec.deltas[1].Index != 1 {
		t.Errorf("deltas = %+v", rec.deltas)
	}
}

func TestOllamaUsage(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(llmtest.Turn{Text: []string{"ok"}, Usage: &llmtest.Usage{Prompt: 26, Completion: 298, Cached: 20}})
	c, _ := newOllamaTest(t, srv)
	res, err := c.Stream(ctxT(t), userReq("llama3.2", "hi"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Usage{PromptTokens: 26, CompletionTokens: 298, CachedTokens: 20}); res.Usage != want {
		t.Fatalf("usage = %+v", res.Usage)
	}
}

func TestOllamaModelNotFound(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(llmtest.OllamaModelNotFound("llama9"))
	c, _ := newOllamaTest(t, srv)
	_, err := c.Stream(ctxT(t), userReq("llama9", "hi"), nil)
	e := mustKind(t, err, KindModelNotFound)
	if e.Status != 404 || e.Retryable() || !strings.Contains(e.Message, "ollama pull llama9") {
		t.Errorf("error = %+v", e)
	}
}

func TestOllamaStreamCut(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(llmtest.Turn{Text: []string{"Once", " upon", " a time"}, CutAfter: 2})
	c, _ := newOllamaTest(t, srv)
	res, err := c.Stream(ctxT(t), userReq("llama3.2", "story"), nil)
	e := mustKind(t, err, KindInterrupted)
	if res.Content != "Once upon" || !e.Partial || e.Retryable() {
		t.Fatalf("content=%q err=%+v", res.Content, e)
	}
}

func TestOllamaStreamCutBeforeContent(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(llmtest.Turn{Text: []string{"x"}, CutAfter: llmtest.CutImmediately})
	c, _ := newOllamaTest(t, srv)
	_, err := c.Stream(ctxT(t), userReq("llama3.2", "hi"), nil)
	if e := mustKind(t, err, KindInterrupted); e.Partial || !e.Retryable() {
		t.Fatalf("err = %+v", e)
	}
}

func TestOllamaErrorLineInStream(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(llmtest.Turn{StreamError: "llama runner process has terminated: exit status 2"})
	c, _ := newOllamaTest(t, srv)
	_, err := c.Stream(ctxT(t), userReq("llama3.2", "hi"), nil)
	e := mustKind(t, err, KindServer)
	if !strings.Contains(e.Detail, "runner process") {
		t.Errorf("detail = %q", e.Detail)
	}

	srv.Script(llmtest.Turn{Text: []string{"par", "tial"}, StreamError: "out of memory"})
	res, err := c.Stream(ctxT(t), userReq("llama3.2", "hi"), nil)
	if e := mustKind(t, err, KindInterrupted); res.Content != "partial" || !e.Partial {
		t.Errorf("content=%q err=%+v", res.Content, e)
	}
}

func TestOllamaHTTPErrors(t *testing.T) {
	cases := []struct {
		turn llmtest.Turn
		kind ErrorKind
	}{
		{llmtest.ErrorTurn(401, `{"error":"unauthorized"}`), KindAuth},
		{llmtest.ErrorTurn(400, `{"error":"input length exceeds the context length"}`), KindContextLength},
		{llmtest.ErrorTurn(500, `{"error":"llama runner process no longer running"}`), KindServer},
		{llmtest.ErrorTurn(429, `{"error":"too many requests"}`), KindRateLimit},
	}
	for _, tc := range cases {
		t.Run(string(tc.kind), func(t *testing.T) {
			srv := llmtest.NewOllama(t)
			srv.Script(tc.turn)
			c, _ := newOllamaTest(t, srv)
			_, err := c.Stream(ctxT(t), userReq("llama3.2", "hi"), nil)
			mustKind(t, err, tc.kind)
		})
	}
}

func TestOllamaCancel(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(llmtest.Turn{Text: []string{"one", " two"}, Delay: time.Minute})
	c, _ := newOllamaTest(t, srv)
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	res, err := c.Stream(ctx, userReq("llama3.2", "hi"), func(Delta) { cancel() })
	if e := mustKind(t, err, KindCancelled); res.Content != "one" || !e.Partial {
		t.Fatalf("content=%q err=%+v", res.Content, e)
	}
}

func TestOllamaUnreachable(t *testing.T) {
	c, err := New(Config{Type: TypeOllama, BaseURL: llmtest.UnreachableURL(t), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Stream(ctxT(t), userReq("llama3.2", "hi"), nil)
	if e := mustKind(t, err, KindUnreachable); !strings.Contains(e.Message, "Ollama") {
		t.Errorf("message = %q", e.Message)
	}
}

func TestOllamaModelsAndProbe(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.SetModels("qwen3:8b", "llama3.2:latest")
	c, _ := newOllamaTest(t, srv)
	models, err := c.Models(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(models) != 2 || models[0].ID != "llama3.2:latest" || models[1].ID != "qwen3:8b" {
		t.Fatalf("models = %+v", models)
	}
	v, err := ProbeOllama(ctxT(t), srv.URL+"/", nil)
	if err != nil || v != "0.34.2" {
		t.Fatalf("ProbeOllama = %q, %v", v, err)
	}
	if _, err := ProbeOllama(ctxT(t), llmtest.UnreachableURL(t), nil); err == nil {
		t.Error("ProbeOllama on a closed port succeeded")
	}
}

func TestOllamaRequestShape(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(llmtest.TextTurn("ok"))
	c, _ := newOllamaTest(t, srv, func(c *Config) {
		c.BaseURL = srv.URL + "/v1" // a pasted OpenAI-style URL still works
		c.APIKey = "ollama-proxy-token-123"
	})
	temp := float32(0.5)
	req := Request{
		Model:       "llava",
		Temperature: &temp,
		MaxTokens:   64,
		Tools: []ToolDef{{Name: "get_weather", Description: "Weather",
			Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"City"}},"required":["city"]}`)}},
		Messages: []Message{
			{Role: RoleUser, Content: "look", Images: []Image{{MIMEType: "image/png", Data: "iVBORw0KGgo="}}},
			{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_9", Name: "get_weather", Arguments: `{"city":"Oslo"}`}}},
			{Role: RoleTool, ToolCallID: "call_9", Content: "rain"},
		},
	}
	if _, err := c.Stream(ctxT(t), req, nil); err != nil {
		t.Fatal(err)
	}
	got := srv.LastRequest()
	if got.Header.Get("Authorization") != "Bearer ollama-proxy-token-123" {
		t.Errorf("Authorization = %q", got.Header.Get("Authorization"))
	}
	var body api.ChatRequest
	if err := got.Decode(&body); err != nil {
		t.Fatalf("decode: %v\n%s", err, got.Raw)
	}
	if body.Options["temperature"] != 0.5 || body.Options["num_predict"] != float64(64) {
		t.Errorf("options = %v", body.Options)
	}
	if len(body.Tools) != 1 || body.Tools[0].Function.Name != "get_weather" || body.Tools[0].Function.Parameters.Properties.Len() != 1 {
		t.Errorf("tools = %s", got.Raw)
	}
	if len(body.Messages) != 3 || len(body.Messages[0].Images) != 1 || string(body.Messages[0].Images[0][:4]) != "\x89PNG" {
		t.Errorf("image not sent as bytes: %s", got.Raw)
	}
	call := body.Messages[1].ToolCalls[0]
	if call.Function.Name != "get_weather" || call.Function.Arguments.String() != `{"city":"Oslo"}` {
		t.Errorf("assistant call = %+v", call)
	}
	if m := body.Messages[2]; m.Role != "tool" || m.ToolName != "get_weather" || m.ToolCallID != "call_9" || m.Content != "rain" {
		t.Errorf("tool message = %+v", m)
	}
}
