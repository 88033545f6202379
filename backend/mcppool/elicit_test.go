package mcppool

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// answeringEmitter records events and answers every elicitation the way a
// user at the dialog would, through the desk.
type answeringEmitter struct {
	*recordingEmitter
	desk   func() *ElicitationDesk
	answer func(events.ElicitationPayload) (events.ElicitationAction, map[string]any)

	mu    sync.Mutex
	asked []events.ElicitationPayload
}

func (a *answeringEmitter) Emit(name events.Name, payload any) {
	a.recordingEmitter.Emit(name, payload)
	if q, ok := payload.(events.ElicitationPayload); ok {
		a.mu.Lock()
		a.asked = append(a.asked, q)
		a.mu.Unlock()
		action, content := a.answer(q)
		go func() { _ = a.desk().Answer(q.ID, action, content) }()
	}
}

func elicitPool(t *testing.T, srv mcpconfig.Server, answer func(events.ElicitationPayload) (events.ElicitationAction, map[string]any)) (*Pool, *answeringEmitter) {
	t.Helper()
	em := &answeringEmitter{recordingEmitter: newRecordingEmitter(), answer: answer}
	desk := NewElicitationDesk(em, 0)
	em.desk = func() *ElicitationDesk { return desk }
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: []mcpconfig.Server{srv}}); err != nil {
		t.Fatal(err)
	}
	p := New(Options{ConfigPath: path, Env: testEnv(), Emitter: em, Elicitor: desk})
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	waitState(t, p, srv.ID, events.StateConnected, 30*time.Second)
	return p, em
}

// TestElicitationEverything: server-everything (TypeScript SDK, 2025-11-25)
// sends elicitation/create mid-call; the answer, with the schema's
// defaults filled in, reaches the tool.
func TestElicitationEverything(t *testing.T) {
	entry := npmServer(t, "server-everything")
	p, em := elicitPool(t, mcpconfig.Server{ID: "everything", Command: "node", Args: []string{entry, "stdio"}},
		func(q events.ElicitationPayload) (events.ElicitationAction, map[string]any) {
			return "accept", FillDefaults(q.RequestedSchema, map[string]any{"name": "Ada Lovelace"})
		})
	res, err := p.CallTool(context.Background(), "everything", "trigger-elicitation-request", nil)
	if err != nil {
		t.Fatal(err)
	}
	text := resultText(res)
	for _, want := range []string{"Ada Lovelace", "It was a dark and stormy night.", "42"} {
		if !strings.Contains(text, want) {
			t.Errorf("the tool did not receive %q: %s", want, text)
		}
	}
	if len(em.asked) != 1 || em.asked[0].Mode != "form" || em.asked[0].Server != "everything" || em.asked[0].TimeoutMs != ElicitationTimeout.Milliseconds() {
		t.Fatalf("questions: %+v", em.asked)
	}
	var done bool
	for _, e := range em.all() {
		if d, ok := e.payload.(events.ElicitationDonePayload); ok && d.ID == em.asked[0].ID && d.Action == "accept" {
			done = true
		}
	}
	if !done {
		t.Fatal("no elicitation-done event")
	}
}

// TestElicitationURLMode: the pool declares URL-mode elicitation, so
// server-everything offers trigger-url-elicitation; its question reaches the
// desk as mode "url" with the full URL, and a decline goes back to the tool.
func TestElicitationURLMode(t *testing.T) {
	entry := npmServer(t, "server-everything")
	p, em := elicitPool(t, mcpconfig.Server{ID: "everything", Command: "node", Args: []string{entry, "stdio"}},
		func(q events.ElicitationPayload) (events.ElicitationAction, map[string]any) { return "decline", nil })
	tools, _ := p.Tools("everything")
	var listed bool
	for _, tl := range tools {
		listed = listed || tl.Name == "trigger-url-elicitation"
	}
	if !listed {
		t.Fatal("server-everything does not offer trigger-url-elicitation: URL mode not declared")
	}
	const url = "https://example.com/authorize?state=abc&scope=read%20write"
	res, err := p.CallTool(context.Background(), "everything", "trigger-url-elicitation", map[string]any{"url": url})
	if err != nil {
		t.Fatal(err)
	}
	if len(em.asked) != 1 || em.asked[0].Mode != "url" || em.asked[0].URL != url {
		t.Fatalf("questions: %+v", em.asked)
	}
	if text := resultText(res); !strings.Contains(text, "decline") {
		t.Fatalf("the tool did not see the decline: %s", text)
	}
}

// TestElicitationBothRevisions asks two questions in sequence during one
// call of our test server: as server-initiated requests on 2025-11-25, and
// as input_required results retried with the answers (multi-round trip) on
// 2026-07-28.
func TestElicitationBothRevisions(t *testing.T) {
	for _, pinned := range []string{"", mcp.LATEST_LEGACY_PROTOCOL_VERSION} {
		t.Run("protocol="+pinned, func(t *testing.T) {
			srv := stdioServer("ours")
			srv.ProtocolVersion = pinned
			p, em := elicitPool(t, srv, func(q events.ElicitationPayload) (events.ElicitationAction, map[string]any) {
				if strings.Contains(q.Message, "sure") {
					return "decline", nil
				}
				return "accept", FillDefaults(q.RequestedSchema, map[string]any{"name": "Ada"})
			})
			st, _ := p.Status("ours")
			if pinned == "" && st.ProtocolVersion != mcp.LATEST_PROTOCOL_VERSION {
				t.Fatalf("negotiated %s", st.ProtocolVersion)
			}
			res, err := p.CallTool(context.Background(), "ours", "confirm", map[string]any{"action": "deploy"})
			if err != nil {
				t.Fatal(err)
			}
			want := `confirming deploy: who=accept{"name":"Ada","team":"core"} sure=decline`
			if got := resultText(res); got != want {
				t.Fatalf("protocol %s: got %q, want %q", st.ProtocolVersion, got, want)
			}
			if len(em.asked) != 2 {
				t.Fatalf("asked %d questions, want 2", len(em.asked))
			}
		})
	}
}

func TestElicitationDeskTimeoutAndTakeOnce(t *testing.T) {
	em := newRecordingEmitter()
	desk := NewElicitationDesk(em, 50*time.Millisecond)
	req := mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "name?", RequestedSchema: map[string]any{"type": "object"}}}
	res, err := desk.Elicit(context.Background(), "s", req)
	if err != nil || res.Action != mcp.ElicitationResponseActionCancel {
		t.Fatalf("timeout should answer cancel: %+v %v", res, err)
	}
	// An answer after the timeout is refused, as is a bad action.
	if err := desk.Answer("elicit-1", "accept", nil); err == nil {
		t.Fatal("a late answer was taken")
	}
	go func() {
		waitFor(t, time.Second, "the question", func() bool { return len(em.all()) >= 3 })
		if err := desk.Answer("elicit-2", "maybe", nil); err == nil {
			t.Error("a bad action was taken")
		}
		_ = desk.Answer("elicit-2", "decline", nil)
		if err := desk.Answer("elicit-2", "accept", nil); err == nil {
			t.Error("a second answer was taken")
		}
	}()
	desk.timeout = 5 * time.Second
	res, err = desk.Elicit(context.Background(), "s", req)
	if err != nil || res.Action != mcp.ElicitationResponseActionDecline {
		t.Fatalf("answer: %+v %v", res, err)
	}
}
