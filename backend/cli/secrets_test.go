package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"mcpdesk/backend/mcpconfig"
)

type requestKey struct{}

// TestCLIRedactsExpandedSecrets runs `mcpdesk inspect` and `mcpdesk
// servers` against servers that read their secrets from the environment
// with ${VAR} and quote them back in every way: a refused connection
// quoting the URL, an error body echoing a header, a JSON-RPC error
// echoing the query, a server printing its token on stderr. Nothing the
// command prints may hold the real values.
func TestCLIRedactsExpandedSecrets(t *testing.T) {
	secrets := map[string]string{"MCPDESK_T_KEY": "clikey-4Rt8Wq", "MCPDESK_T_TOK": "clitok-2Hs7Zn"}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	s := server.NewMCPServer("echo", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("leak"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r, _ := ctx.Value(requestKey{}).(*http.Request)
		return nil, fmt.Errorf("refusing a request with api_key=%s", r.URL.Query().Get("api_key"))
	})
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(s, server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
		return context.WithValue(ctx, requestKey{}, r)
	})))
	mux.HandleFunc("/deny", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no entry for "+r.Header.Get("X-Api-Key"), http.StatusInternalServerError)
	})
	ts := httptest.NewServer(mux)
	defer func() { ts.CloseClientConnections(); ts.Close() }()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/mcp?api_key=${MCPDESK_T_KEY}"
	ln.Close()

	ctx := context.Background()
	cases := []struct {
		name string
		args []string
		want string // the redacted quote, proving the secret was there
	}{
		{"refused URL", []string{"inspect", "--url", refused, "--method", "ping"}, "api_key=[redacted]"},
		{"echoed header", []string{"inspect", "--url", ts.URL + "/deny", "--header", "X-Api-Key: ${MCPDESK_T_TOK}", "--method", "ping"},
			"no entry for [redacted]"},
		{"JSON-RPC error", []string{"inspect", "--url", ts.URL + "/mcp?api_key=${MCPDESK_T_KEY}", "--method", "tools/call", "--tool-name", "leak"},
			"api_key=[redacted]"},
		{"stderr", []string{"inspect", "-e", "GITHUB_TOKEN=${MCPDESK_T_TOK}", "--method", "ping", "--",
			testServerBin, "--stderr", "token ${MCPDESK_T_TOK}", "--exit-after-start"}, "token [redacted]"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		code, out, errOut := run(t, ctx, append([]string{"--data-dir", dir}, c.args...)...)
		if code != exitFail || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", c.name, code, errOut, c.want)
		}
		for name, v := range secrets {
			if strings.Contains(out+errOut, v) {
				t.Errorf("%s: the output shows the value of %s:\n%s%s", c.name, name, out, errOut)
			}
		}
	}

	cfg := filepath.Join(dir, "mcp.config.json")
	if err := mcpconfig.WriteFile(cfg, &mcpconfig.Config{Servers: []mcpconfig.Server{
		{ID: "refused", Type: mcpconfig.HTTP, URL: refused},
		{ID: "echo", Command: testServerBin, Env: map[string]string{"GITHUB_TOKEN": "${MCPDESK_T_TOK}"},
			Args: []string{"--stderr", "token ${MCPDESK_T_TOK}", "--exit-after-start"}},
	}}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, ctx, "servers", "--config", cfg)
	if code != exitFail || !strings.Contains(out, "api_key=[redacted]") || !strings.Contains(out, "token [redacted]") {
		t.Errorf("servers: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	for name, v := range secrets {
		if strings.Contains(out+errOut, v) {
			t.Errorf("servers: the output shows the value of %s:\n%s%s", name, out, errOut)
		}
	}
}
