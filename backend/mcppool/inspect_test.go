package mcppool

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// progressFor returns the progress events emitted for callID.
func (r *recordingEmitter) progressFor(callID string) []events.ProgressPayload {
	var out []events.ProgressPayload
	for _, e := range r.all() {
		if p, ok := e.payload.(events.ProgressPayload); ok && p.CallID == callID {
			out = append(out, p)
		}
	}
	return out
}

func TestInspectorToolCallProgressAndTimeoutReset(t *testing.T) {
	for _, pinned := range []string{"", mcp.LATEST_LEGACY_PROTOCOL_VERSION} {
		t.Run("protocol="+pinned, func(t *testing.T) {
			srv := stdioServer("ours")
			srv.ProtocolVersion = pinned
			// The call takes longer than the timeout, but its progress
			// notifications keep restarting the limit (SPEC A6).
			srv.TimeoutMs = 400
			p, em := newTestPool(t, srv)
			waitState(t, p, "ours", events.StateConnected, 15*time.Second)
			svc := NewService(p, nil)
			out, err := svc.CallTool(ToolCallRequest{CallID: "call-1", Server: "ours", Tool: "sleep", Arguments: map[string]any{"ms": 1000}})
			if err != nil {
				t.Fatal(err)
			}
			if got := resultText(&out.Result); !strings.Contains(got, "slept") || out.DurationMs < 900 {
				t.Fatalf("result %q after %.0f ms", got, out.DurationMs)
			}
			waitFor(t, 2*time.Second, "progress events", func() bool { return len(em.progressFor("call-1")) >= 5 })
			last := em.progressFor("call-1")
			if pr := last[len(last)-1]; pr.Progress <= 0 {
				t.Fatalf("progress payload: %+v", pr)
			}
		})
	}
}

func TestInspectorCancelSendsCancelled(t *testing.T) {
	p, _ := newTestPool(t, stdioServer("ours"))
	waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	svc := NewService(p, nil)
	done := make(chan error, 1)
	go func() {
		_, err := svc.CallTool(ToolCallRequest{CallID: "stop-me", Server: "ours", Tool: "sleep", Arguments: map[string]any{"ms": 30000}})
		done <- err
	}()
	waitFor(t, 5*time.Second, "the call to be running", func() bool {
		p.calls.mu.Lock()
		defer p.calls.mu.Unlock()
		return p.calls.running["stop-me"] != nil
	})
	time.Sleep(100 * time.Millisecond)
	if err := svc.CancelCall("stop-me"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, ErrCancelled) || !strings.Contains(err.Error(), "ours › sleep") {
			t.Fatalf("want a cancelled error naming the call, got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not end after CancelCall")
	}
	waitFor(t, 2*time.Second, "notifications/cancelled in the logger", func() bool {
		for _, e := range p.Log().Entries() {
			if e.Method == "notifications/cancelled" && e.Direction == events.Outgoing {
				return true
			}
		}
		return false
	})
	// The server is still usable, and Stop of a finished call is harmless.
	if _, err := p.CallTool(context.Background(), "ours", "echo", map[string]any{"message": "still here"}); err != nil {
		t.Fatal(err)
	}
	if err := svc.CancelCall("stop-me"); err != nil {
		t.Fatal(err)
	}
}

func TestInspectorListsReadsAndPages(t *testing.T) {
	p, _ := newTestPool(t, stdioServer("ours", "--resources", "120", "--page-size", "50"))
	waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	svc := NewService(p, nil)

	tools, err := svc.ListTools("ours")
	if err != nil || len(tools) < 8 {
		t.Fatalf("tools: %d %v", len(tools), err)
	}
	var seen []string
	cursor, pages := "", 0
	for {
		page, err := svc.ListResources("ours", cursor)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, r := range page.Resources {
			seen = append(seen, r.URI)
		}
		if page.NextCursor == "" {
			break
		}
		cursor = string(page.NextCursor)
	}
	if len(seen) != 122 || pages != 3 {
		t.Fatalf("paged %d resources in %d pages, want 122 in 3", len(seen), pages)
	}
	read, err := svc.ReadResource("ours", "test://generated/0077")
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := read.Contents[0].(mcp.TextResourceContents); !ok || tc.Text != "content of test://generated/0077" {
		t.Fatalf("read: %+v", read.Contents)
	}
	templates, err := svc.ListResourceTemplates("ours", "")
	if err != nil || len(templates.ResourceTemplates) == 0 {
		t.Fatalf("templates: %+v %v", templates, err)
	}
	prompts, err := svc.ListPrompts("ours")
	if err != nil || len(prompts) != 1 || prompts[0].Name != "greet" {
		t.Fatalf("prompts: %+v %v", prompts, err)
	}
	got, err := svc.GetPrompt("ours", "greet", map[string]string{"name": "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := got.Messages[0].Content.(mcp.TextContent); !ok || !strings.Contains(tc.Text, "Ada") {
		t.Fatalf("prompt messages: %+v", got.Messages)
	}
	if _, err := svc.ListTools("nope"); err == nil {
		t.Fatal("unknown server accepted")
	}
}

// TestInspectorListChanged adds a tool at run time: the pool re-lists and
// tells the UI which list changed.
func TestInspectorListChanged(t *testing.T) {
	p, em := newTestPool(t, stdioServer("ours"))
	st := waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	if _, err := p.CallTool(context.Background(), "ours", "add_tool", map[string]any{"name": "fresh"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "a list-changed event for tools", func() bool {
		for _, e := range em.all() {
			if lc, ok := e.payload.(events.ListChangedPayload); ok && lc.Server == "ours" && lc.Kind == events.ListTools {
				return true
			}
		}
		return false
	})
	tools, _ := p.Tools("ours")
	if len(tools) != st.Tools+1 {
		t.Fatalf("tools after list_changed: %d, before %d", len(tools), st.Tools)
	}
}

// TestEverythingInspector runs the inspector surface against the reference
// server over stdio: the long-running operation reports progress, and its
// resources and prompts read.
func TestEverythingInspector(t *testing.T) {
	entry := npmServer(t, "server-everything")
	p, em := newTestPool(t, mcpconfig.Server{ID: "everything", Command: "node", Args: []string{entry, "stdio"}})
	waitState(t, p, "everything", events.StateConnected, 30*time.Second)
	svc := NewService(p, nil)
	out, err := svc.CallTool(ToolCallRequest{CallID: "lro", Server: "everything", Tool: "trigger-long-running-operation",
		Arguments: map[string]any{"duration": 1, "steps": 4}})
	if err != nil || out.Result.IsError {
		t.Fatalf("long-running operation: %+v %v", out, err)
	}
	waitFor(t, 2*time.Second, "progress from server-everything", func() bool { return len(em.progressFor("lro")) >= 3 })
	if pr := em.progressFor("lro"); pr[len(pr)-1].Total != 4 {
		t.Fatalf("progress total: %+v", pr)
	}
	page, err := svc.ListResources("everything", "")
	if err != nil || len(page.Resources) == 0 {
		t.Fatalf("resources: %v", err)
	}
	if _, err := svc.ReadResource("everything", page.Resources[0].URI); err != nil {
		t.Fatal(err)
	}
	prompts, err := svc.ListPrompts("everything")
	if err != nil || len(prompts) < 3 {
		t.Fatalf("prompts: %d %v", len(prompts), err)
	}
	res, err := svc.GetPrompt("everything", "args-prompt", map[string]string{"city": "Paris", "state": "Texas"})
	if err != nil || len(res.Messages) == 0 {
		t.Fatalf("args-prompt: %+v %v", res, err)
	}
	// Completions: the first argument narrows the second.
	ref := CompletionRef{Kind: "prompt", Name: "completable-prompt"}
	c, err := svc.Complete("everything", ref, "department", "S", nil)
	if err != nil || !slices.Equal(c.Values, []string{"Sales", "Support"}) {
		t.Fatalf("department completions: %+v %v", c, err)
	}
	c, err = svc.Complete("everything", ref, "name", "", map[string]string{"department": "Engineering"})
	if err != nil || !slices.Equal(c.Values, []string{"Alice", "Bob", "Charlie"}) {
		t.Fatalf("name completions: %+v %v", c, err)
	}
	if _, err := svc.Complete("everything", CompletionRef{Kind: "tool"}, "x", "", nil); err == nil {
		t.Fatal("a bad reference was accepted")
	}
}

// TestInspectorLogLevel: on 2025-11-25 the level is a logging/setLevel
// request, and the server then holds back messages below it; the messages
// it sends are in the JSON-RPC logger.
func TestInspectorLogLevel(t *testing.T) {
	srv := stdioServer("ours")
	srv.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	p, _ := newTestPool(t, srv)
	waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	svc := NewService(p, nil)
	if err := svc.SetLogLevel("ours", "loud"); err == nil || !strings.Contains(err.Error(), "debug, info") {
		t.Fatalf("bad level: %v", err)
	}
	if err := svc.SetLogLevel("ours", "warning"); err != nil {
		t.Fatal(err)
	}
	for _, level := range []string{"info", "error"} {
		if _, err := p.CallTool(context.Background(), "ours", "log", map[string]any{"message": "at " + level, "level": level}); err != nil {
			t.Fatal(err)
		}
	}
	var sawSet, sawError, sawInfo bool
	scan := func() bool {
		sawSet, sawError, sawInfo = false, false, false
		for _, e := range p.Log().Entries() {
			sawSet = sawSet || (e.Method == "logging/setLevel" && e.Direction == events.Outgoing)
			if e.Method == "notifications/message" {
				sawError = sawError || strings.Contains(e.Payload, "at error")
				sawInfo = sawInfo || strings.Contains(e.Payload, "at info")
			}
		}
		return sawError
	}
	// Notifications are handled off the reader; give the error one a moment.
	waitFor(t, 5*time.Second, "the error-level log message", scan)
	scan()
	if !sawSet || !sawError || sawInfo {
		t.Fatalf("setLevel sent %v, error message logged %v, info message (below the level) logged %v", sawSet, sawError, sawInfo)
	}
}

// TestToolSelection turns a tool off and on: the server is not restarted,
// the naming table offered to models follows, the config on disk keeps the
// choice, and the token estimate moves.
func TestToolSelection(t *testing.T) {
	p, _ := newTestPool(t, stdioServer("ours"))
	waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	pid := childPID(t, p, "ours")
	svc := NewService(p, nil)
	before, err := svc.ToolSelection("ours")
	if err != nil || before.Enabled != before.Total || before.EstimatedTokens == 0 {
		t.Fatalf("before: %+v %v", before, err)
	}
	after, err := svc.SetToolEnabled("ours", "echo", false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(after.Disabled, []string{"echo"}) || after.Enabled != before.Total-1 || after.EstimatedTokens >= before.EstimatedTokens {
		t.Fatalf("after disabling echo: %+v (before %+v)", after, before)
	}
	if _, ok := p.ToolTable().Lookup("ours__echo"); ok {
		t.Fatal("a disabled tool is still offered to models")
	}
	if childPID(t, p, "ours") != pid {
		t.Fatal("disabling a tool restarted the server")
	}
	cfg, err := mcpconfig.Load(p.ConfigPath())
	if err != nil || !slices.Equal(cfg.Servers[0].DenyTools, []string{"echo"}) {
		t.Fatalf("config on disk: %+v %v", cfg, err)
	}
	// The inspector can still call it.
	if _, err := p.CallTool(context.Background(), "ours", "echo", map[string]any{"message": "still callable"}); err != nil {
		t.Fatal(err)
	}
	back, err := svc.SetToolEnabled("ours", "echo", true)
	if err != nil || len(back.Disabled) != 0 || back.EstimatedTokens != before.EstimatedTokens {
		t.Fatalf("re-enabled: %+v %v", back, err)
	}
	if _, ok := p.ToolTable().Lookup("ours__echo"); !ok {
		t.Fatal("a re-enabled tool is not offered")
	}
}

// TestInspectorCancelOverHTTP stops a call on a Streamable HTTP server on
// 2025-11-25, where mcp-go sends nothing: the pool sends
// notifications/cancelled itself, once, naming the request.
func TestInspectorCancelOverHTTP(t *testing.T) {
	url := startHTTPTestServer(t, "http")
	p, _ := newTestPool(t, mcpconfig.Server{ID: "remote", URL: url})
	st := waitState(t, p, "remote", events.StateConnected, 15*time.Second)
	if st.ProtocolVersion != mcp.LATEST_LEGACY_PROTOCOL_VERSION {
		t.Fatalf("Streamable HTTP with the listening stream negotiated %s", st.ProtocolVersion)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := p.CallToolTracked(context.Background(), "http-stop", "remote", "sleep", map[string]any{"ms": 30000})
		done <- err
	}()
	waitFor(t, 5*time.Second, "the call to be running", func() bool {
		p.calls.mu.Lock()
		defer p.calls.mu.Unlock()
		return p.calls.running["http-stop"] != nil
	})
	time.Sleep(100 * time.Millisecond)
	p.CancelCall("http-stop")
	select {
	case err := <-done:
		if !errors.Is(err, ErrCancelled) {
			t.Fatalf("want cancelled, got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not end")
	}
	var reqID string
	for _, e := range p.Log().Entries() {
		if e.Method == "tools/call" && e.Direction == events.Outgoing {
			reqID = e.ID
		}
	}
	waitFor(t, 3*time.Second, "notifications/cancelled for the call", func() bool {
		n := 0
		for _, e := range p.Log().Entries() {
			if e.Method == "notifications/cancelled" && e.Direction == events.Outgoing && strings.Contains(e.Payload, `"requestId":`+reqID) {
				n++
			}
		}
		return n == 1
	})
}
