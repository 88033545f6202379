package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseScript(t *testing.T) {
	turns, err := ParseScript([]byte(`[
	  {"toolCalls": [{"name": "echo", "arguments": {"message": "hi"}, "fragments": 2},
	                 {"id": "c2", "name": "sum", "arguments": "{\"a\":1}"}], "interleave": true},
	  {"text": ["a", "b"], "textRepeat": {"chunk": "x", "count": 3}, "delayMs": 1.5, "usage": {"prompt": 3, "completion": 4}},
	  {"status": 429, "headers": {"Retry-After": "2"}, "forModel": "fake-2"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 3 {
		t.Fatalf("turns = %d", len(turns))
	}
	tc := turns[0].ToolCalls
	if !turns[0].Interleave || len(tc) != 2 || tc[0].Arguments != `{"message":"hi"}` || tc[0].Fragments != 2 ||
		tc[1].ID != "c2" || tc[1].Arguments != `{"a":1}` {
		t.Errorf("turn 1 = %+v", turns[0])
	}
	if got := strings.Join(turns[1].Text, ""); got != "abxxx" || turns[1].Delay != 1500*time.Microsecond ||
		turns[1].Usage == nil || turns[1].Usage.Completion != 4 {
		t.Errorf("turn 2 = %+v", turns[1])
	}
	if turns[2].Status != 429 || turns[2].Headers["Retry-After"] != "2" || turns[2].ForModel != "fake-2" {
		t.Errorf("turn 3 = %+v", turns[2])
	}

	// One object is a one-turn script; typos and nameless calls are errors.
	if turns, err := ParseScript([]byte(`{"text": ["hi"]}`)); err != nil || len(turns) != 1 {
		t.Errorf("single turn: %v %v", turns, err)
	}
	for _, bad := range []string{`[{"txt": ["hi"]}]`, `[{"toolCalls": [{"arguments": {}}]}]`, `[{"status": 42}]`, `nope`} {
		if _, err := ParseScript([]byte(bad)); err == nil {
			t.Errorf("ParseScript(%s) = nil error", bad)
		}
	}
}

func TestStandaloneServer(t *testing.T) {
	var mu sync.Mutex
	var logged []string
	srv, err := StartWith(Options{Logf: func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, f)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.SetModels("fake-1")

	// Turns can be queued over HTTP.
	resp, err := http.Post(srv.URL+"/_script", "application/json", strings.NewReader(`[{"text": ["Hel", "lo"]}]`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || srv.Pending() != 1 {
		t.Fatalf("POST /_script: status %d, pending %d", resp.StatusCode, srv.Pending())
	}

	req, _ := http.NewRequest("POST", srv.BaseURL()+"/chat/completions", strings.NewReader(chatBody))
	req.Header.Set("Authorization", "Bearer sk-standalone")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"content":"Hel"`) || !strings.HasSuffix(string(body), "data: [DONE]\n\n") {
		t.Fatalf("stream = %s", body)
	}

	// An unscripted request is logged, not a panic.
	resp, err = http.Post(srv.BaseURL()+"/chat/completions", "application/json", strings.NewReader(chatBody))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	mu.Lock()
	n := len(logged)
	mu.Unlock()
	if resp.StatusCode != 500 || n != 1 {
		t.Errorf("unscripted: status %d, %d log lines", resp.StatusCode, n)
	}

	resp, err = http.Get(srv.URL + "/_requests")
	if err != nil {
		t.Fatal(err)
	}
	var reqs []RecordedRequest
	err = json.NewDecoder(resp.Body).Decode(&reqs)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(reqs) != 2 || reqs[0].Header["Authorization"][0] != "Bearer sk-standalone" || !strings.Contains(string(reqs[0].Body), `"gpt-4o-mini"`) {
		t.Errorf("/_requests = %+v", reqs)
	}
	resp, err = http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"id":"fake-1"`) {
		t.Errorf("/v1/models = %s", b)
	}
}
