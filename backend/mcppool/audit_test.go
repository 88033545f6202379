package mcppool

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usage"
)

// Every call of the Tools tab reaches the audit log, approved by the user,
// however it ends.
func TestToolsTabCallsAreAudited(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ledger := usage.New(usage.Options{Store: st})
	p, _ := newTestPool(t, stdioServer("ours"))
	waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	svc := NewService(p, nil, WithAudit(ledger))

	if _, err := svc.CallTool(ToolCallRequest{CallID: "a", Server: "ours", Tool: "echo", Arguments: map[string]any{"message": "hello"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CallTool(ToolCallRequest{CallID: "b", Server: "ours", Tool: "fail"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CallTool(ToolCallRequest{CallID: "c", Server: "nope", Tool: "echo"}); err == nil {
		t.Fatal("a call to an unknown server succeeded")
	}
	done := make(chan error, 1)
	go func() {
		_, err := svc.CallTool(ToolCallRequest{CallID: "d", Server: "ours", Tool: "sleep", Arguments: map[string]any{"ms": 30000}})
		done <- err
	}()
	waitFor(t, 5*time.Second, "the sleep to run", func() bool {
		p.calls.mu.Lock()
		defer p.calls.mu.Unlock()
		return p.calls.running["d"] != nil
	})
	// Long enough to be measured in whole milliseconds.
	time.Sleep(20 * time.Millisecond)
	if err := svc.CancelCall("d"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, ErrCancelled) {
		t.Fatalf("cancelled call: %v", err)
	}

	page, err := ledger.Audit(context.Background(), usage.AuditQuery{Source: store.AuditTools})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 4 {
		t.Fatalf("%d entries: %+v", page.Total, page.Entries)
	}
	byTool := map[string]store.AuditEntry{}
	for _, e := range page.Entries {
		byTool[e.Server+"/"+e.Tool] = e
		if e.Approval != "user" || e.Source != "tools" || e.ConversationID != 0 {
			t.Errorf("entry %+v", e)
		}
	}
	if e := byTool["ours/echo"]; e.Status != store.AuditOK || e.Output != "Echo: hello" || e.Arguments != `{"message":"hello"}` {
		t.Errorf("echo %+v", e)
	}
	if e := byTool["ours/fail"]; e.Status != store.AuditError || e.Output != "this tool always fails" || e.Arguments != "{}" {
		t.Errorf("fail %+v", e)
	}
	if e := byTool["nope/echo"]; e.Status != store.AuditError || !strings.Contains(e.Error, "nope") {
		t.Errorf("unknown server %+v", e)
	}
	if e := byTool["ours/sleep"]; e.Status != store.AuditCancelled || e.DurationMs <= 0 {
		t.Errorf("sleep %+v", e)
	}
}

func TestAuditEntryStatus(t *testing.T) {
	req := ToolCallRequest{Server: "s", Tool: "t"}
	for _, c := range []struct {
		res  *mcp.CallToolResult
		err  error
		want string
	}{
		{&mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("x")}}, nil, store.AuditOK},
		{&mcp.CallToolResult{IsError: true}, nil, store.AuditError},
		{nil, nil, store.AuditError},
		{nil, &timeoutError{server: "s", timeout: time.Second}, store.AuditTimeout},
		{nil, ErrCancelled, store.AuditCancelled},
		{nil, context.Canceled, store.AuditCancelled},
		{nil, errors.New("broken pipe"), store.AuditError},
	} {
		if e := auditEntry(req, c.res, time.Second, c.err); e.Status != c.want {
			t.Errorf("%v / %v: %s, want %s", c.res, c.err, e.Status, c.want)
		}
	}
	if err := error(&timeoutError{server: "x", timeout: 2 * time.Second}); !errors.Is(err, ErrTimeout) ||
		err.Error() != `server "x" did not answer within 2 s (the limit restarts with each progress notification)` {
		t.Errorf("timeoutError %v", err)
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{
		mcp.NewTextContent("a"), mcp.NewImageContent("AAAA", "image/png"),
		mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "file:///x", Text: "body"}),
	}}
	if got := ResultText(res); got != "a\n[image image/png]\n[resource file:///x]\nbody" {
		t.Errorf("ResultText = %q", got)
	}
	if got := ResultText(&mcp.CallToolResult{StructuredContent: map[string]any{"sum": 3}}); got != `{"sum":3}` {
		t.Errorf("structured ResultText = %q", got)
	}
}
