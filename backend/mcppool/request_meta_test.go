package mcppool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/mcpconfig"
)

// statelessServer is a Streamable HTTP server of revision 2026-07-28 as the
// conformance suite's fixtures are: no initialize, every request standing
// alone with its version in the header and in _meta, plain JSON answers. It
// records every request.
type statelessServer struct {
	// refuseFirst answers the first POST with -32022 listing the very
	// version it declared (the suite's request-metadata scenario).
	refuseFirst bool
	// tools is the tools/list answer.
	tools []map[string]any
	// call answers tools/call; nil answers with an empty text.
	call func(params map[string]any) map[string]any

	mu   sync.Mutex
	seen []seenRequest
}

// seenRequest is one POST the server received.
type seenRequest struct {
	Method string
	ID     json.RawMessage
	Params map[string]any
	Raw    json.RawMessage // params as sent
	Header http.Header
}

func (s *statelessServer) requests(method string) []seenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []seenRequest
	for _, r := range s.seen {
		if method == "" || r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

func (s *statelessServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &msg); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var params map[string]any
	_ = json.Unmarshal(msg.Params, &params)
	s.mu.Lock()
	first := len(s.seen) == 0
	s.seen = append(s.seen, seenRequest{Method: msg.Method, ID: msg.ID, Params: params, Raw: msg.Params, Header: r.Header.Clone()})
	s.mu.Unlock()
	if msg.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	answer := func(status int, v map[string]any) {
		v["jsonrpc"] = "2.0"
		v["id"] = msg.ID
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	version := r.Header.Get("MCP-Protocol-Version")
	meta, _ := params["_meta"].(map[string]any)
	switch {
	case first && s.refuseFirst:
		answer(http.StatusBadRequest, map[string]any{"error": map[string]any{"code": -32022, "message": "Unsupported protocol version",
			"data": map[string]any{"supported": []string{"2026-07-28"}, "requested": version}}})
		return
	case version != "2026-07-28" || meta == nil || meta[mcp.MetaKeyProtocolVersion] != version:
		answer(http.StatusBadRequest, map[string]any{"error": map[string]any{"code": -32020, "message": "bad version header or _meta"}})
		return
	}
	switch msg.Method {
	case "server/discover":
		answer(http.StatusOK, map[string]any{"result": map[string]any{
			"supportedVersions": []string{"2026-07-28"}, "capabilities": map[string]any{"tools": map[string]any{}},
			"_meta":      map[string]any{mcp.MetaKeyServerInfo: map[string]any{"name": "stateless", "version": "1.0.0"}},
			"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
		}})
	case "tools/list":
		tools := s.tools
		if tools == nil {
			tools = []map[string]any{}
		}
		answer(http.StatusOK, map[string]any{"result": map[string]any{"tools": tools, "resultType": "complete"}})
	case "tools/call":
		res := map[string]any{"content": []any{map[string]any{"type": "text", "text": ""}}, "resultType": "complete"}
		if s.call != nil {
			res = s.call(params)
		}
		answer(http.StatusOK, map[string]any{"result": res})
	default:
		answer(http.StatusNotFound, map[string]any{"error": map[string]any{"code": -32601, "message": "Method not found: " + msg.Method}})
	}
}

// connectStateless connects to s at revision 2026-07-28 the way the command
// line does.
func connectStateless(t *testing.T, s *statelessServer, e Elicitor) *Session {
	t.Helper()
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sess, err := Connect(ctx, mcpconfig.Server{ID: "s", Type: mcpconfig.HTTP, URL: ts.URL + "/mcp", ProtocolVersion: "2026-07-28"},
		ConnectOptions{Env: testEnv(), ClientInfo: mcp.Implementation{Name: "mcpdesk-test", Version: "1"}, Elicitor: e})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(sess.Close)
	return sess
}

// A server that refuses the first request's version while listing it gets
// the request again, at that version, and the connection is stateless
// (SEP-2575), not the initialize handshake it no longer has.
func TestConnectRetriesRefusedListedVersion(t *testing.T) {
	s := &statelessServer{refuseFirst: true}
	sess := connectStateless(t, s, nil)
	if sess.Protocol != "2026-07-28" || sess.Info.Name != "stateless" {
		t.Fatalf("protocol %q server %q; want 2026-07-28 and the discovered server", sess.Protocol, sess.Info.Name)
	}
	if _, err := sess.Client.ListTools(context.Background(), mcp.ListToolsRequest{}); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	all := s.requests("")
	var methods []string
	for _, r := range all {
		methods = append(methods, r.Method)
	}
	if got := strings.Join(methods, " "); got != "server/discover server/discover tools/list" {
		t.Fatalf("requests %q; want the refused server/discover sent again, then tools/list", got)
	}
	if !bytes.Equal(all[0].Raw, all[1].Raw) {
		t.Errorf("the retry changed the params:\n%s\n%s", all[0].Raw, all[1].Raw)
	}
	for _, r := range all {
		meta, _ := r.Params["_meta"].(map[string]any)
		if r.Header.Get("MCP-Protocol-Version") != "2026-07-28" || meta[mcp.MetaKeyProtocolVersion] != "2026-07-28" ||
			meta[mcp.MetaKeyClientCapabilities] == nil || meta[mcp.MetaKeyClientInfo] == nil {
			t.Errorf("%s: header %q _meta %v; want the version in both, capabilities and client info", r.Method, r.Header.Get("MCP-Protocol-Version"), meta)
		}
	}
}

// versionRetry sends a request again only for a -32022 refusal of the
// version the request declares while listing it, once; anything else passes
// through with its body intact.
func TestVersionRetry(t *testing.T) {
	refusal := func(supported ...string) string {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "error": map[string]any{"code": -32022, "message": "Unsupported protocol version",
			"data": map[string]any{"supported": supported, "requested": "2026-07-28"}}})
		return string(b)
	}
	big := `{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"` + strings.Repeat("x", maxVersionErrorBody) + `","data":{"supported":["2026-07-28"]}}}`
	cases := []struct {
		name        string
		method      string // HTTP method; POST when empty
		version     string // MCP-Protocol-Version sent
		status      int
		contentType string
		body        string // every answer's body
		wantPosts   int
	}{
		{"listed version", "", "2026-07-28", 400, "application/json", refusal("2026-07-28"), 2},
		{"listed among others", "", "2026-07-28", 400, "application/json; charset=utf-8", refusal("2025-11-25", "2026-07-28"), 2},
		{"not listed", "", "2026-07-28", 400, "application/json", refusal("2025-11-25"), 1},
		{"nothing listed", "", "2026-07-28", 400, "application/json", refusal(), 1},
		{"other error", "", "2026-07-28", 400, "application/json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad","data":{"supported":["2026-07-28"]}}}`, 1},
		{"not a 400", "", "2026-07-28", 500, "application/json", refusal("2026-07-28"), 1},
		{"not JSON", "", "2026-07-28", 400, "text/plain", refusal("2026-07-28"), 1},
		{"broken JSON", "", "2026-07-28", 400, "application/json", `{"error":`, 1},
		{"too long to read", "", "2026-07-28", 400, "application/json", big, 1},
		{"no version header", "", "", 400, "application/json", refusal("2026-07-28"), 1},
		{"GET", http.MethodGet, "2026-07-28", 400, "application/json", refusal("2026-07-28"), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var (
				mu     sync.Mutex
				n      int
				bodies []string
			)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				mu.Lock()
				n++
				bodies = append(bodies, string(b))
				mu.Unlock()
				w.Header().Set("Content-Type", c.contentType)
				w.WriteHeader(c.status)
				io.WriteString(w, c.body)
			}))
			defer ts.Close()
			hc := withVersionRetry(&http.Client{})
			method := c.method
			if method == "" {
				method = http.MethodPost
			}
			const sent = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`
			var body io.Reader
			if method == http.MethodPost {
				body = strings.NewReader(sent)
			}
			req, _ := http.NewRequest(method, ts.URL, body)
			if c.version != "" {
				req.Header.Set("MCP-Protocol-Version", c.version)
			}
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status || string(got) != c.body {
				t.Errorf("answer %d %.80q; want %d and the body as sent", resp.StatusCode, got, c.status)
			}
			mu.Lock()
			defer mu.Unlock()
			if n != c.wantPosts {
				t.Fatalf("%d requests; want %d", n, c.wantPosts)
			}
			for i, b := range bodies {
				if method == http.MethodPost && b != sent {
					t.Errorf("request %d body %q; want %q", i+1, b, sent)
				}
			}
		})
	}
}

// The retry happens once: a server that keeps refusing gets two requests
// and the client its refusal.
func TestVersionRetryOnce(t *testing.T) {
	var n int
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"no","data":{"supported":["2026-07-28"]}}}`)
	}))
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{}`))
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	resp, err := withVersionRetry(&http.Client{}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if n != 2 || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("%d requests, answer %d; want 2 and the 400", n, resp.StatusCode)
	}
}

// slowFirst is an authorizer's transport whose first request takes longer
// than mcp-go's own 5 s bound on the server/discover probe, as a sign-in
// at the browser or a refresh on a loaded machine does.
type slowFirst struct {
	base  http.RoundTripper
	delay time.Duration
	once  sync.Once
}

func (s *slowFirst) RoundTrip(r *http.Request) (*http.Response, error) {
	s.once.Do(func() {
		select {
		case <-time.After(s.delay):
		case <-r.Context().Done():
		}
	})
	return s.base.RoundTrip(r)
}

// A remote server whose authorizer takes longer than 5 s on the first
// round trip (the sign-in happens inside it) is still discovered at
// 2026-07-28: the probe is bounded by the handshake's deadline, so the
// client does not take the server for a legacy one and send initialize.
func TestSlowSignInDoesNotFallBackToInitialize(t *testing.T) {
	t.Parallel()
	s := &statelessServer{}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	auth := func(_ mcpconfig.Server, base http.RoundTripper) http.RoundTripper {
		return &slowFirst{base: base, delay: 5500 * time.Millisecond}
	}
	sess, err := Connect(ctx, mcpconfig.Server{ID: "s", Type: mcpconfig.HTTP, URL: ts.URL + "/mcp", ProtocolVersion: "2026-07-28"},
		ConnectOptions{Env: testEnv(), ClientInfo: mcp.Implementation{Name: "mcpdesk-test", Version: "1"}, Auth: auth})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(sess.Close)
	if sess.Protocol != "2026-07-28" {
		t.Errorf("protocol %q; want 2026-07-28", sess.Protocol)
	}
	for _, r := range s.requests("") {
		if r.Method == "initialize" {
			t.Errorf("the client sent initialize after a slow discover probe")
		}
	}
}
