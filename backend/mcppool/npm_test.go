package mcppool

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// The official reference server, @modelcontextprotocol/server-everything,
// over all three transports: it speaks 2025-11-25 (TypeScript SDK).

func TestEverythingStdio(t *testing.T) {
	entry := npmServer(t, "server-everything")
	p, _ := newTestPool(t, mcpconfig.Server{ID: "everything", Command: "node", Args: []string{entry, "stdio"}})
	checkEverything(t, p)
}

func TestEverythingStreamableHTTP(t *testing.T) {
	base := startEverything(t, "streamableHttp")
	p, _ := newTestPool(t, mcpconfig.Server{ID: "everything", URL: base + "/mcp"})
	checkEverything(t, p)
}

func TestEverythingSSE(t *testing.T) {
	base := startEverything(t, "sse")
	p, _ := newTestPool(t, mcpconfig.Server{ID: "everything", URL: base + "/sse", Type: mcpconfig.SSE})
	checkEverything(t, p)
}

func checkEverything(t *testing.T, p *Pool) {
	t.Helper()
	st := waitState(t, p, "everything", events.StateConnected, 30*time.Second)
	if st.Tools < 12 || st.Resources == 0 || st.Prompts < 4 {
		t.Fatalf("counts: tools %d resources %d prompts %d", st.Tools, st.Resources, st.Prompts)
	}
	if st.ProtocolVersion != mcp.LATEST_LEGACY_PROTOCOL_VERSION {
		t.Errorf("protocol %q, want %q", st.ProtocolVersion, mcp.LATEST_LEGACY_PROTOCOL_VERSION)
	}
	res, err := p.CallTool(context.Background(), "everything", "echo", map[string]any{"message": "ping from mcpdesk"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resultText(res), "ping from mcpdesk") {
		t.Fatalf("echo: %q", resultText(res))
	}
	// A call to an unknown tool is a tool result with isError, not a Go error.
	res, err = p.CallTool(context.Background(), "everything", "no-such-tool", nil)
	if err == nil && (res == nil || !res.IsError) {
		t.Fatalf("unknown tool: want isError result or error, got %+v", res)
	}
	// Traffic of the handshake and listing is in the logger, both ways.
	var out, in bool
	for _, e := range p.Log().Entries() {
		if e.Method == "tools/list" {
			out = out || e.Direction == events.Outgoing
			in = in || (e.Direction == events.Incoming && e.LatencyMs != nil)
		}
	}
	if !out || !in {
		t.Fatalf("logger lacks tools/list request/response (out=%v in=%v)", out, in)
	}
}

// startEverything runs server-everything in an HTTP mode on a free port and
// returns its base URL once it answers.
func startEverything(t *testing.T, mode string) string {
	t.Helper()
	entry := npmServer(t, "server-everything")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("node", entry, mode)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	waitFor(t, 20*time.Second, "server-everything to listen on "+base, func() bool {
		resp, err := http.Get(base + "/")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return true
	})
	return base
}
