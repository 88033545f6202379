package llmtest

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

const chatBody = `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"stream":true,"stream_options":{"include_usage":true}}`

func TestOpenAISSEBytes(t *testing.T) {
	srv := NewOpenAI(t)
	srv.Script(Turn{
		Text:       []string{"Hi"},
		KeepAlives: 1,
		ToolCalls:  []ToolCall{{ID: "call_1", Name: "echo", Arguments: `{"a":1}`, Fragments: 2}},
		Usage:      &Usage{Prompt: 9, Completion: 4, Cached: 2, Reasoning: 1},
	})
	resp := post(t, srv.BaseURL()+"/chat/completions", chatBody)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	got, _ := io.ReadAll(resp.Body)
	head := `{"id":"chatcmpl-llmtest1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","system_fingerprint":"fp_llmtest","choices":[{"index":0,"delta":`
	want := "data: " + head + `{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}` + "\n\n" +
		": keep-alive\n\n" +
		"data: " + head + `{"content":"Hi"},"logprobs":null,"finish_reason":null}],"usage":null}` + "\n\n" +
		"data: " + head + `{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"echo","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null}` + "\n\n" +
		"data: " + head + `{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\""}}]},"logprobs":null,"finish_reason":null}],"usage":null}` + "\n\n" +
		"data: " + head + `{"tool_calls":[{"index":0,"function":{"arguments":":1}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}` + "\n\n" +
		"data: " + head + `{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}` + "\n\n" +
		`data: {"id":"chatcmpl-llmtest1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","system_fingerprint":"fp_llmtest","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13,"prompt_tokens_details":{"cached_tokens":2,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":1,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}` + "\n\n" +
		"data: [DONE]\n\n"
	if string(got) != want {
		t.Fatalf("stream bytes differ.\n got: %s\nwant: %s", got, want)
	}
}

func TestOpenAINoUsageWithoutStreamOptions(t *testing.T) {
	srv := NewOpenAI(t)
	srv.Script(TextTurn("x"))
	resp := post(t, srv.BaseURL()+"/chat/completions", `{"model":"m","messages":[],"stream":true}`)
	got, _ := io.ReadAll(resp.Body)
	if strings.Contains(string(got), `"usage"`) || !strings.HasSuffix(string(got), "data: [DONE]\n\n") {
		t.Fatalf("body = %s", got)
	}
}

func TestOllamaNDJSON(t *testing.T) {
	srv := NewOllama(t)
	srv.Script(Turn{Reasoning: []string{"hm"}, Text: []string{"Hi"}, ToolCalls: []ToolCall{{Name: "echo", Arguments: `{"a":1}`}},
		Usage: &Usage{Prompt: 5, Completion: 3}})
	resp := post(t, srv.BaseURL()+"/api/chat", `{"model":"llama3.2","messages":[]}`)
	if ct := resp.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("Content-Type = %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	want := []string{
		`{"model":"llama3.2","created_at":"2025-01-01T00:00:00.02Z","message":{"role":"assistant","content":"","thinking":"hm"},"done":false}`,
		`{"model":"llama3.2","created_at":"2025-01-01T00:00:00.04Z","message":{"role":"assistant","content":"Hi"},"done":false}`,
		`{"model":"llama3.2","created_at":"2025-01-01T00:00:00.06Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"index":0,"name":"echo","arguments":{"a":1}}}]},"done":false}`,
		`{"model":"llama3.2","created_at":"2025-01-01T00:00:00.08Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":4883583458,"load_duration":1334875,"prompt_eval_count":5,"prompt_eval_duration":342546000,"eval_count":3,"eval_duration":4535599000}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestOllamaTagsAndVersion(t *testing.T) {
	srv := NewOllama(t)
	srv.SetModels("b:latest", "a:latest")
	resp, err := http.Get(srv.URL + "/api/tags")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"name":"a:latest"`) || strings.Index(string(b), "a:latest") > strings.Index(string(b), "b:latest") {
		t.Errorf("tags = %s", b)
	}
	resp, err = http.Get(srv.URL + "/api/version")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != `{"version":"0.34.2"}` {
		t.Errorf("version = %s", b)
	}
}

func TestErrorTurnAndRecording(t *testing.T) {
	srv := NewOpenAI(t)
	srv.Script(RateLimited("3"))
	resp := post(t, srv.BaseURL()+"/chat/completions", chatBody)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" {
		t.Fatalf("status=%d headers=%v", resp.StatusCode, resp.Header)
	}
	r := srv.LastRequest()
	if r.Method != "POST" || r.Path != "/v1/chat/completions" || r.Body["model"] != "gpt-4o-mini" || len(r.Messages()) != 1 {
		t.Errorf("recorded = %+v", r)
	}
	if srv.Pending() != 0 {
		t.Errorf("pending = %d", srv.Pending())
	}
}

func TestRequireKey(t *testing.T) {
	srv := NewOpenAI(t)
	srv.RequireKey("sk-1")
	resp := post(t, srv.BaseURL()+"/chat/completions", chatBody)
	if resp.StatusCode != 401 {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	if len(srv.Requests()) != 0 || len(srv.AllRequests()) != 1 {
		t.Errorf("rejected request counted as a chat turn")
	}
}

func TestCutAfter(t *testing.T) {
	srv := NewOpenAI(t)
	srv.Script(Turn{Text: []string{"a", "b", "c"}, CutAfter: 1})
	resp := post(t, srv.BaseURL()+"/chat/completions", chatBody)
	got, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Fatalf("body ended cleanly: %s", got)
	}
	if !strings.Contains(string(got), `"content":"a"`) || strings.Contains(string(got), `"content":"b"`) {
		t.Errorf("body = %s", got)
	}
}

// fakeT records Errorf calls instead of failing the real test.
type fakeT struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

func TestUnscriptedRequestFailsTheTest(t *testing.T) {
	ft := &fakeT{TB: t}
	srv := NewOpenAI(ft)
	resp := post(t, srv.BaseURL()+"/chat/completions", chatBody)
	if resp.StatusCode != 500 || len(ft.errs) != 1 {
		t.Fatalf("status=%d errs=%v", resp.StatusCode, ft.errs)
	}
}

func TestCheckAndRepeat(t *testing.T) {
	ft := &fakeT{TB: t}
	srv := NewOpenAI(ft)
	srv.Repeat(Turn{Text: []string{"again"}, Check: func(r Request) error {
		if r.Body["model"] != "gpt-4o-mini" {
			return fmt.Errorf("model = %v", r.Body["model"])
		}
		return nil
	}})
	for i := 0; i < 3; i++ {
		resp := post(t, srv.BaseURL()+"/chat/completions", chatBody)
		io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("status = %d", resp.StatusCode)
		}
	}
	resp := post(t, srv.BaseURL()+"/chat/completions", `{"model":"other"}`)
	if resp.StatusCode != 400 || len(ft.errs) != 1 {
		t.Fatalf("status=%d errs=%v", resp.StatusCode, ft.errs)
	}
}

func TestDelayStopsWhenClientLeaves(t *testing.T) {
	srv := NewOpenAI(t)
	srv.Script(Turn{Text: []string{"a", "b"}, Delay: time.Hour})
	resp := post(t, srv.BaseURL()+"/chat/completions", chatBody)
	r := bufio.NewReader(resp.Body)
	if _, err := r.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close() // the handler must return, or srv.Close would hang
}

func TestSplitArgs(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 100} {
		s := `{"text":"héllo wörld ✓"}`
		parts := splitArgs(s, n)
		if strings.Join(parts, "") != s {
			t.Fatalf("n=%d parts=%q", n, parts)
		}
		for _, p := range parts {
			if !utf8.ValidString(p) {
				t.Fatalf("n=%d split a rune: %q", n, parts)
			}
		}
	}
}

func TestUnreachableURL(t *testing.T) {
	u := UnreachableURL(t)
	if _, err := http.Get(u); err == nil {
		t.Fatalf("something answered at %s", u)
	}
}

// Turns for a model go to that model's requests whatever order they come
// in; a turn for any model goes to the first request that has none of its
// own queued before it.
func TestForModel(t *testing.T) {
	ft := &fakeT{TB: t}
	srv := NewOpenAI(ft)
	srv.Script(Turn{ForModel: "b", Text: []string{"for b"}}, Turn{ForModel: "a", Text: []string{"for a"}},
		Turn{Text: []string{"for any"}}, Turn{ForModel: "b", Text: []string{"b again"}})
	ask := func(model string) string {
		resp := post(t, srv.BaseURL()+"/chat/completions", `{"model":"`+model+`","messages":[{"role":"user","content":"hi"}],"stream":true}`)
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	for _, step := range []struct{ model, want string }{{"a", "for a"}, {"a", "for any"}, {"b", "for b"}, {"b", "b again"}} {
		if got := ask(step.model); !strings.Contains(got, `"content":"`+step.want+`"`) {
			t.Errorf("model %s got %s, want %q", step.model, got, step.want)
		}
	}
	// Nothing is left for c: the request fails the test, as with no turns.
	srv.Script(Turn{ForModel: "a", Text: []string{"late a"}})
	if resp := post(t, srv.BaseURL()+"/chat/completions", `{"model":"c"}`); resp.StatusCode != 500 || len(ft.errs) != 1 || srv.Pending() != 1 {
		t.Errorf("status=%d errs=%v pending=%d", resp.StatusCode, ft.errs, srv.Pending())
	}
}
