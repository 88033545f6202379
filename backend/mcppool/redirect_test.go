package mcppool

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// TestRedirectKeepsHeadersHome: a remote server that redirects to another
// host (here: another port) never gets the request there — Go would carry
// X-Api-Key along (it drops only Authorization and cookies) and re-post the
// body on a 307 — while a redirect within the same server still connects.
func TestRedirectKeepsHeadersHome(t *testing.T) {
	var elsewhere atomic.Int32
	var sawKey atomic.Value
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		sawKey.Store(r.Header.Get("X-Api-Key"))
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	t.Cleanup(evil.Close)

	s := server.NewMCPServer("moved", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("ping", mcp.WithDescription("pong")), func(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("pong"), nil
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(s))
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, evil.URL+"/mcp", http.StatusTemporaryRedirect)
	})
	front := httptest.NewServer(mux)
	t.Cleanup(func() { front.CloseClientConnections(); front.Close() })

	headers := map[string]string{"X-Api-Key": "k-0123456789abcdef"}
	p, _ := newTestPool(t,
		mcpconfig.Server{ID: "away", Type: mcpconfig.HTTP, URL: front.URL + "/away", Headers: headers},
		mcpconfig.Server{ID: "same", Type: mcpconfig.HTTP, URL: front.URL + "/old", Headers: headers},
	)
	waitState(t, p, "same", events.StateConnected, 30*time.Second)
	st := waitState(t, p, "away", events.StateFailed, 30*time.Second)
	if n := elsewhere.Load(); n != 0 {
		t.Fatalf("the other host got %d requests (X-Api-Key %q); want none", n, sawKey.Load())
	}
	if !strings.Contains(st.Error, "redirected the request to") || !strings.Contains(st.Error, "another") {
		t.Errorf("status error %q does not say the redirect was refused", st.Error)
	}
}
