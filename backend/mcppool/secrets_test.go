package mcppool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// lockedBuffer is a bytes.Buffer safe for the concurrent writes of a
// logger.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type httpRequestKey struct{}

// echoCredentialsServer is a real Streamable HTTP MCP server whose tool
// whoami reports the credentials it was sent, and whose /deny endpoint
// fails every request with a body that echoes them — as careless servers
// and proxies do.
func echoCredentialsServer(t *testing.T) *httptest.Server {
	t.Helper()
	s := server.NewMCPServer("echo-credentials", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("whoami", mcp.WithDescription("Reports the credentials of the request.")),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r, _ := ctx.Value(httpRequestKey{}).(*http.Request)
			if r == nil {
				return mcp.NewToolResultError("no request in context"), nil
			}
			return mcp.NewToolResultText(fmt.Sprintf("key=%s auth=%s x=%s",
				r.URL.Query().Get("api_key"), r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"))), nil
		})
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(s, server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
		return context.WithValue(ctx, httpRequestKey{}, r)
	})))
	mux.HandleFunc("/deny", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad request to "+r.URL.String()+" with "+r.Header.Get("Authorization"), http.StatusInternalServerError)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	return ts
}

// closedPort returns an address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestExpandedSecretsNeverShown configures servers whose URL, headers, env
// and arguments read secrets from the environment with ${VAR}, makes each
// of them fail or echo the secret in every way we know, and checks that the
// real values reach none of: the status (error and stderr), the events,
// the JSON-RPC log, errors returned to callers and the app's log. The
// servers do receive the real values.
func TestExpandedSecretsNeverShown(t *testing.T) {
	secrets := map[string]string{
		"MCPDESK_T_URLKEY": "urlkey-Zq81xv0A",
		"MCPDESK_T_TOKEN":  "bearertok-9Lw2mQ",
		"MCPDESK_T_HDRKEY": "hdrkey-77Pk3c",
		"MCPDESK_T_ENVTOK": "envtok-Vx4Nn2",
		"MCPDESK_T_ARGTOK": "argtok-Yb6Ue1",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	ts := echoCredentialsServer(t)
	servers := []mcpconfig.Server{
		{ID: "remote", Type: mcpconfig.HTTP, URL: ts.URL + "/mcp?api_key=${MCPDESK_T_URLKEY}",
			Headers: map[string]string{"Authorization": "Bearer ${MCPDESK_T_TOKEN}", "X-Api-Key": "${MCPDESK_T_HDRKEY}"}},
		{ID: "denied", Type: mcpconfig.HTTP, URL: ts.URL + "/deny?api_key=${MCPDESK_T_URLKEY}",
			Headers: map[string]string{"X-Api-Key": "${MCPDESK_T_HDRKEY}"}},
		{ID: "refused", Type: mcpconfig.HTTP, URL: "http://" + closedPort(t) + "/mcp?api_key=${MCPDESK_T_URLKEY}"},
		{ID: "stdio-env", Command: testServerBin, Env: map[string]string{"GITHUB_TOKEN": "${MCPDESK_T_ENVTOK}"},
			Args: []string{"--stderr", "starting with token ${MCPDESK_T_ENVTOK}", "--exit-after-start"}},
		{ID: "stdio-arg", Command: testServerBin, Args: []string{"--stderr", "--token=${MCPDESK_T_ARGTOK}", "--exit-after-start"}},
		{ID: "stdio-live", Command: testServerBin, Env: map[string]string{"GITHUB_TOKEN": "${MCPDESK_T_ENVTOK}"}},
	}
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: servers}); err != nil {
		t.Fatal(err)
	}
	var logged lockedBuffer
	em := newRecordingEmitter()
	p := New(Options{ConfigPath: path, Env: testEnv(), Emitter: em,
		Logger: slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)

	leaks := func(where, text string) {
		t.Helper()
		for name, v := range secrets {
			if strings.Contains(text, v) {
				t.Errorf("%s shows the value of %s:\n%s", where, name, text)
			}
		}
	}
	// Each failure quotes a secret; the status shows where it was.
	for _, c := range []struct{ id, field, want string }{
		{"denied", "error", "api_key=" + redactedPlaceholder},
		{"refused", "error", "api_key=" + redactedPlaceholder},
		{"stdio-env", "stderr", "starting with token " + redactedPlaceholder},
		{"stdio-arg", "stderr", "--token=" + redactedPlaceholder},
	} {
		st := waitState(t, p, c.id, events.StateFailed, 20*time.Second)
		got := st.Error
		if c.field == "stderr" {
			got = st.Stderr
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: %s %q, want it to contain %q", c.id, c.field, got, c.want)
		}
		leaks(c.id+" status", st.Error+"\n"+st.Stderr)
	}

	// The servers get the real values.
	waitState(t, p, "remote", events.StateConnected, 20*time.Second)
	waitState(t, p, "stdio-live", events.StateConnected, 20*time.Second)
	ctx := context.Background()
	res, err := p.CallTool(ctx, "remote", "whoami", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resultText(res), "key=urlkey-Zq81xv0A auth=Bearer bearertok-9Lw2mQ x=hdrkey-77Pk3c"; got != want {
		t.Fatalf("whoami = %q, want %q", got, want)
	}
	res, err = p.CallTool(ctx, "stdio-live", "env", map[string]any{"name": "GITHUB_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(res); got != "envtok-Vx4Nn2" {
		t.Fatalf("env GITHUB_TOKEN = %q", got)
	}

	// The remote server goes away: the call fails quoting the URL, and
	// mcp-go's own listener logs the same.
	ts.CloseClientConnections()
	ts.Close()
	_, err = p.CallTool(ctx, "remote", "whoami", nil)
	if err == nil || !strings.Contains(err.Error(), "api_key="+redactedPlaceholder) {
		t.Errorf("call to a stopped server: %v, want an error quoting the redacted URL", err)
	} else {
		leaks("call error", err.Error())
	}
	waitFor(t, 20*time.Second, "mcp-go to log that it cannot reopen the stream (quoting the URL)", func() bool {
		for _, line := range strings.Split(logged.String(), "\n") {
			if strings.Contains(line, "failed to listen") && strings.Contains(line, "api_key=") {
				return true
			}
		}
		return false
	})

	entries := p.Log().Entries()
	var rpc strings.Builder
	for _, e := range entries {
		rpc.WriteString(e.Payload + "\n")
	}
	if !strings.Contains(rpc.String(), redactedPlaceholder) {
		t.Errorf("the JSON-RPC log redacted nothing; the tool results echoed secrets:\n%s", rpc.String())
	}
	leaks("JSON-RPC log", rpc.String())
	for _, e := range em.all() {
		b, _ := json.Marshal(e.payload)
		leaks("event "+string(e.name), string(b))
	}
	for _, st := range p.Servers() {
		leaks("status of "+st.Config.ID, st.Status.Error+"\n"+st.Status.Stderr)
	}
	leaks("app log", logged.String())
}
