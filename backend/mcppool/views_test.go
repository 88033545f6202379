package mcppool

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"mcpdesk/backend/apps"
	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usage"
	"mcpdesk/backend/usererr"
)

// A view of the test server's MCP Apps set: read once, framed as a
// sandbox page with its declared domain, and able to call only the tools
// its server offers to views — each call, run or refused, audited as the
// view's.
func TestViewsOpenServeAndCallOnlyAppTools(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ledger := usage.New(usage.Options{Store: st})
	p, _ := newTestPool(t, stdioServer("apps", "--apps"), stdioServer("other"))
	waitState(t, p, "apps", events.StateConnected, 15*time.Second)
	waitState(t, p, "other", events.StateConnected, 15*time.Second)
	svc := NewService(p, nil, WithAudit(ledger))

	// MCP Desk told the server it renders views: in its first message
	// (initialize, or 2026-07-28's server/discover with the capabilities in
	// _meta).
	declared := false
	for _, e := range p.Log().Entries() {
		if e.Server == "apps" && (e.Method == "initialize" || e.Method == "server/discover") && e.Direction == events.Outgoing &&
			strings.Contains(e.Payload, `"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}`) {
			declared = true
		}
	}
	if !declared {
		t.Error("the first message does not declare the MCP Apps extension")
	}

	page, err := svc.OpenView("apps", "ui://counter/view.html")
	if err != nil {
		t.Fatal(err)
	}
	if page.Server != "apps" || !strings.HasPrefix(page.Path, "/mcpdesk-view/") || len(page.Hash) != 64 || page.PreviousHash != "" {
		t.Fatalf("page %+v", page)
	}
	if strings.Join(page.Domains.Connect, ",") != "https://api.counter.example" || !strings.Contains(page.CSP, "connect-src https://api.counter.example") {
		t.Errorf("declared domain: %+v, CSP %q", page.Domains, page.CSP)
	}
	if !page.PrefersBorder {
		t.Error("prefersBorder lost")
	}

	// The page is served by the pool's pages, with the view inside.
	rec := httptest.NewRecorder()
	p.ViewPages().Middleware(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequest("GET", "wails://wails"+page.Path, nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "counter_add") || !strings.HasSuffix(rec.Header().Get("Content-Security-Policy"), "sandbox allow-scripts") {
		t.Fatalf("served %d %q", rec.Code, rec.Header().Get("Content-Security-Policy"))
	}

	// A tool for views runs on the view's server.
	out, err := svc.CallToolFromView(ViewToolCall{UserApproved: true, Token: page.Token, CallID: "v1", Tool: "counter_add", Arguments: map[string]any{"count": 41}})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Result.StructuredContent.(map[string]any)["count"]; got != float64(42) {
		t.Errorf("counter_add: %v", got)
	}
	// A tool only for the model, a tool of another server, a gone view:
	// refused before any server sees them.
	var ue *usererr.Error
	if _, err := svc.CallToolFromView(ViewToolCall{UserApproved: true, Token: page.Token, CallID: "v2", Tool: "model_only"}); !errors.As(err, &ue) || ue.Code != usererr.ViewToolNotForApp {
		t.Errorf("model_only: %v", err)
	}
	if _, err := svc.CallToolFromView(ViewToolCall{UserApproved: true, Token: page.Token, CallID: "v3", Tool: "no_such_tool"}); !errors.As(err, &ue) || ue.Code != usererr.ViewNoSuchTool {
		t.Errorf("unknown tool: %v", err)
	}

	// An Apps SDK widget: its own kind, served with window.openai; it may
	// call the widget-accessible board_add, not show_board (no
	// openai/widgetAccessible).
	board, err := svc.OpenView("apps", "ui://widget/board.html")
	if err != nil || board.Kind != "apps-sdk" || page.Kind != "mcp-app" {
		t.Fatalf("board %+v (%v), counter kind %q", board, err, page.Kind)
	}
	rec = httptest.NewRecorder()
	p.ViewPages().Middleware(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequest("GET", "wails://wails"+board.Path, nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "openai:set_globals") {
		t.Fatalf("the widget's page (%d) lacks window.openai", rec.Code)
	}
	if _, err := svc.CallToolFromView(ViewToolCall{UserApproved: true, Token: board.Token, CallID: "b1", Tool: "board_add", Arguments: map[string]any{"card": "x"}}); err != nil {
		t.Errorf("board_add from its widget: %v", err)
	}
	if _, err := svc.CallToolFromView(ViewToolCall{UserApproved: true, Token: board.Token, CallID: "b2", Tool: "show_board"}); !errors.As(err, &ue) || ue.Code != usererr.ViewToolNotForApp {
		t.Errorf("show_board from its widget: %v", err)
	}
	svc.CloseView(board.Token)

	// An MCP-UI resource from a result: a page of its own, its calls on its server.
	card, err := svc.OpenEmbeddedView("apps", EmbeddedUI{URI: "ui://card/1", MIMEType: "text/html", Text: "<button>vote</button>"})
	if err != nil || card.Kind != "mcp-ui" || !strings.Contains(card.CSP, "connect-src 'none'") {
		t.Fatalf("card %+v (%v)", card, err)
	}
	if _, err := svc.CallToolFromView(ViewToolCall{UserApproved: true, Token: card.Token, CallID: "c1", Tool: "card_vote", Arguments: map[string]any{"choice": "yes"}}); err != nil {
		t.Errorf("card_vote from the card: %v", err)
	}
	if _, err := svc.OpenEmbeddedView("nobody", EmbeddedUI{URI: "ui://card/1", MIMEType: "text/html", Text: "<p>"}); err == nil {
		t.Error("a UI of a server that does not exist was opened")
	}
	ext, err := svc.OpenEmbeddedView("apps", EmbeddedUI{URI: "ui://page/1", MIMEType: "text/uri-list", Text: "https://dash.example/b"})
	if err != nil || ext.Kind != "mcp-ui-url" || ext.URL != "https://dash.example/b" || !p.ViewPages().ShowsExternal("https://dash.example") {
		t.Fatalf("external page %+v (%v)", ext, err)
	}
	svc.CloseView(ext.Token)
	svc.CloseView(card.Token)

	svc.CloseView(page.Token)
	if _, err := svc.CallToolFromView(ViewToolCall{UserApproved: true, Token: page.Token, CallID: "v4", Tool: "counter_add"}); !errors.As(err, &ue) || ue.Code != usererr.ViewGone {
		t.Errorf("after CloseView: %v", err)
	}
	rec = httptest.NewRecorder()
	p.ViewPages().Middleware(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequest("GET", "wails://wails"+page.Path, nil))
	if rec.Code != 404 {
		t.Errorf("a closed page is still served: %d", rec.Code)
	}

	audit, err := ledger.Audit(context.Background(), usage.AuditQuery{Source: store.AuditView})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range audit.Entries {
		if e.Server != "apps" {
			t.Errorf("a view's call is logged on server %q", e.Server)
		}
		got[e.Tool] = e.Status
	}
	want := map[string]string{"counter_add": store.AuditOK, "model_only": store.AuditDeclined, "no_such_tool": store.AuditDeclined}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("audit of %s: %q, want %q (all: %v)", k, got[k], v, got)
		}
	}

	// The logger shows the view's policy and the refusals, in the view lane.
	var opened, blocked bool
	for _, e := range p.Log().Entries() {
		switch {
		case e.Note == "viewOpened" && strings.Contains(e.Payload, "connect-src https://api.counter.example"):
			opened = true
		case e.Note == "blocked" && e.Method == "tools/call model_only" && strings.Contains(e.Payload, `visibility lacks \"app\"`):
			blocked = true
		}
	}
	if !opened || !blocked {
		t.Errorf("logger: view opened %v, refusal %v", opened, blocked)
	}
	svc.LogViewMessage(again0(t, svc), true, `{"jsonrpc":"2.0","method":"ui/notifications/tool-input","params":{"arguments":{}}}`)
	found := false
	for _, e := range p.Log().Entries() {
		if e.Direction == events.HostToView && e.Method == "ui/notifications/tool-input" && e.Kind == events.KindNotification && e.Server == "apps" {
			found = true
		}
	}
	if !found {
		t.Error("a message to the view is not in the view lane")
	}

	// counter_add and the Apps SDK's board_add are for views only, and
	// board_reset is private: never counted as offered to models.
	sel, err := p.ToolSelection("apps")
	if err != nil || sel.ViewOnly != 3 || sel.Enabled != sel.Total-3 {
		t.Errorf("selection %+v %v: want counter_add, board_add and board_reset counted as not for models", sel, err)
	}

	// Shown again, the view is the cached one: same hash, nothing changed.
	again, err := svc.OpenView("apps", "ui://counter/view.html")
	if err != nil || again.Hash != page.Hash || again.PreviousHash != "" || again.Token == page.Token {
		t.Errorf("again: %+v %v", again, err)
	}
	if _, err := svc.OpenView("apps", "test://hello"); err == nil {
		t.Error("a resource that is not ui:// was opened as a view")
	}
}

// again0 shows the counter view once more and returns its token.
func again0(t *testing.T, svc *MCPPool) string {
	t.Helper()
	page, err := svc.OpenView("apps", "ui://counter/view.html")
	if err != nil {
		t.Fatal(err)
	}
	return page.Token
}

// The official MCP Apps example server (@modelcontextprotocol/ext-apps'
// basic-server-vanillajs, pinned in testdata/npm): its tool names a view,
// and the view reads as one, under the specification's default policy.
func TestViewOfTheOfficialExampleServer(t *testing.T) {
	entry := npmServer(t, "server-basic-vanillajs")
	p, _ := newTestPool(t, mcpconfig.Server{ID: "basic", Command: "node", Args: []string{entry, "--stdio"}})
	waitState(t, p, "basic", events.StateConnected, 30*time.Second)
	svc := NewService(p, nil)
	tools, err := svc.ListTools("basic")
	if err != nil {
		t.Fatal(err)
	}
	var uri string
	for _, tl := range tools {
		if tl.Name == "get-time" {
			uri = apps.UIOf(tl.Tool).ResourceURI
		}
	}
	if uri != "ui://get-time/mcp-app.html" {
		t.Fatalf("get-time's view: %q", uri)
	}
	page, err := svc.OpenView("basic", uri)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(page.CSP, "default-src 'none'; script-src 'unsafe-inline'") || len(page.Domains.Connect)+len(page.Domains.Resource) != 0 {
		t.Errorf("policy %q, domains %+v", page.CSP, page.Domains)
	}
	rec := httptest.NewRecorder()
	p.ViewPages().Middleware(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequest("GET", "wails://wails"+page.Path, nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "get-time-btn") {
		t.Fatalf("served %d, %d bytes", rec.Code, rec.Body.Len())
	}
}

// A server that serves other HTML behind a view's URI after a restart: the
// view is read again and its page says it changed (the previous hash).
func TestViewChangedAfterRestartIsNoticed(t *testing.T) {
	rev := filepath.Join(t.TempDir(), "rev")
	if err := os.WriteFile(rev, []byte("1"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, _ := newTestPool(t, stdioServer("apps", "--apps", "--view-rev-file", rev))
	waitState(t, p, "apps", events.StateConnected, 15*time.Second)
	svc := NewService(p, nil)
	first, err := svc.OpenView("apps", "ui://counter/view.html")
	if err != nil || first.PreviousHash != "" {
		t.Fatalf("first: %+v %v", first, err)
	}
	if err := os.WriteFile(rev, []byte("2"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Cached until the server restarts (or says it changed).
	if same, _ := svc.OpenView("apps", "ui://counter/view.html"); same.Hash != first.Hash {
		t.Fatal("the view was read again without a reason")
	}
	if err := svc.Restart("apps"); err != nil {
		t.Fatal(err)
	}
	// Once the server is back, the view is read again.
	var changed ViewPage
	waitFor(t, 15*time.Second, "the view to be read again after the restart", func() bool {
		v, err := svc.OpenView("apps", "ui://counter/view.html")
		changed = v
		return err == nil && v.Hash != first.Hash
	})
	if changed.PreviousHash != first.Hash {
		t.Errorf("after the restart: hash %s previous %s, want a new hash and previous %s", changed.Hash[:8], changed.PreviousHash, first.Hash[:8])
	}
}

// savePicker answers the save dialog with a path (or "" for cancel).
type savePicker struct{ path, title, name string }

func (s *savePicker) OpenFile(string) (string, error)   { return "", nil }
func (s *savePicker) OpenFolder(string) (string, error) { return "", nil }
func (s *savePicker) SaveFile(title, name string) (string, error) {
	s.title, s.name = title, name
	return s.path, nil
}

// A file a view offers is written where the user says, under a clean
// name; cancelled, nothing is written; a gone view offers nothing.
func TestSaveViewFile(t *testing.T) {
	p, _ := newTestPool(t, stdioServer("apps", "--apps"))
	waitState(t, p, "apps", events.StateConnected, 15*time.Second)
	dir := t.TempDir()
	picker := &savePicker{path: filepath.Join(dir, "out.csv")}
	svc := NewService(p, picker)
	page, err := svc.OpenView("apps", "ui://counter/view.html")
	if err != nil {
		t.Fatal(err)
	}
	got, err := svc.SaveViewFile(page.Token, ViewFile{URI: "ui://counter/../../report.csv", MIMEType: "text/csv", Text: "count\n5\n"})
	if err != nil || got != picker.path || picker.name != "report.csv" || !strings.Contains(picker.title, "apps") {
		t.Fatalf("saved %q (%v); offered name %q, title %q", got, err, picker.name, picker.title)
	}
	if b, _ := os.ReadFile(picker.path); string(b) != "count\n5\n" {
		t.Errorf("written %q", b)
	}
	picker.path = ""
	if got, err := svc.SaveViewFile(page.Token, ViewFile{URI: "ui://x/y.txt", Text: "no"}); got != "" || err != nil {
		t.Errorf("cancelled: %q %v", got, err)
	}
	svc.CloseView(page.Token)
	var ue *usererr.Error
	if _, err := svc.SaveViewFile(page.Token, ViewFile{URI: "ui://x/y.txt", Text: "no"}); !errors.As(err, &ue) || ue.Code != usererr.ViewGone {
		t.Errorf("a gone view: %v", err)
	}
}

// A view's message names itself: the logger lists a bounded name.
func TestViewMessageNamesAreBounded(t *testing.T) {
	p, _ := newTestPool(t, stdioServer("apps", "--apps"))
	waitState(t, p, "apps", events.StateConnected, 15*time.Second)
	svc := NewService(p, nil)
	page, err := svc.OpenView("apps", "ui://counter/view.html")
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("é", 500)
	svc.LogViewMessage(page.Token, false, `{"type":"`+long+`","messageId":"`+long+`"}`)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, e := range p.Log().Entries() {
			if e.Direction == events.ViewToHost && strings.HasPrefix(e.Method, "éé") {
				if len(e.Method) > maxViewMethod+len("…") || len(e.ID) > maxViewMethod || !utf8.ValidString(e.Method) || !utf8.ValidString(e.ID) {
					t.Fatalf("listed as %d bytes (id %d)", len(e.Method), len(e.ID))
				}
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the message was not logged")
}
