package mcppool

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool/mcptest"
	"mcpdesk/backend/shellenv"
)

// testServerBin is our own MCP test server (./testserver), built once.
var testServerBin string

func TestMain(m *testing.M) {
	bin, cleanup, err := mcptest.BuildServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testServerBin = bin
	code := m.Run()
	code = contractLog.Exit(code, os.Stderr)
	cleanup()
	limitsHostileCleanup()
	os.Exit(code)
}

func npmServer(t testing.TB, pkg string) string { return mcptest.NPMServer(t, pkg) }

// recordingEmitter keeps every event for assertions.
type recordingEmitter struct {
	mu     sync.Mutex
	events []recorded
	notify chan struct{}
}

type recorded struct {
	name    events.Name
	payload any
}

func newRecordingEmitter() *recordingEmitter {
	return &recordingEmitter{notify: make(chan struct{}, 1)}
}

func (r *recordingEmitter) Emit(name events.Name, payload any) {
	contractLog.Check(name, payload)
	r.mu.Lock()
	r.events = append(r.events, recorded{name, payload})
	r.mu.Unlock()
	select {
	case r.notify <- struct{}{}:
	default:
	}
}

func (r *recordingEmitter) all() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.events...)
}

// states returns the server-status states emitted for id, in order.
func (r *recordingEmitter) states(id string) []events.ServerState {
	var out []events.ServerState
	for _, e := range r.all() {
		if st, ok := e.payload.(events.ServerStatusPayload); ok && e.name == events.ServerStatus && st.ID == id {
			out = append(out, st.State)
		}
	}
	return out
}

func testEnv() Environment { return shellenv.NewProvider(false) }

// newTestPool writes cfg to a temp config file and starts a pool on it.
func newTestPool(t testing.TB, servers ...mcpconfig.Server) (*Pool, *recordingEmitter) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	if len(servers) > 0 {
		if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: servers}); err != nil {
			t.Fatal(err)
		}
	}
	em := newRecordingEmitter()
	p := New(Options{ConfigPath: path, Env: testEnv(), Emitter: em})
	if err := p.Start(context.Background()); err != nil {
		t.Fatalf("start pool: %v", err)
	}
	t.Cleanup(p.Close)
	return p, em
}

// waitState waits until server id reaches want, failing after d.
func waitState(t testing.TB, p *Pool, id string, want events.ServerState, d time.Duration) events.ServerStatusPayload {
	t.Helper()
	deadline := time.Now().Add(d)
	var st events.ServerStatusPayload
	for time.Now().Before(deadline) {
		st, _ = p.Status(id)
		if st.State == want {
			return st
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("server %q: want state %s within %s, have %s (error %q, stderr %q)", id, want, d, st.State, st.Error, st.Stderr)
	return st
}

func stdioServer(id string, args ...string) mcpconfig.Server {
	return mcpconfig.Server{ID: id, Command: testServerBin, Args: args}
}

// startHTTPTestServer runs the test server with an HTTP transport and
// returns its URL.
func startHTTPTestServer(t testing.TB, transport string, args ...string) string {
	t.Helper()
	cmd := exec.Command(testServerBin, append([]string{"--transport", transport, "--addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := readLineTimeout(stdout, 10*time.Second)
	if err != nil {
		t.Fatalf("test server did not start: %v", err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "LISTENING ")
	if !ok {
		t.Fatalf("unexpected first line from test server: %q", line)
	}
	go io.Copy(io.Discard, stdout)
	return url
}

func readLineTimeout(r io.Reader, d time.Duration) (string, error) {
	ch := make(chan string, 1)
	errCh := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(r).ReadString('\n')
		if err != nil {
			errCh <- err
			return
		}
		ch <- line
	}()
	select {
	case l := <-ch:
		return l, nil
	case err := <-errCh:
		return "", err
	case <-time.After(d):
		return "", fmt.Errorf("timeout after %s", d)
	}
}

// waitFor polls cond until it holds or d passes.
func waitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out after %s waiting for %s", d, what)
}

// resultText joins the text content of a tool result.
func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := mcp.AsTextContent(c); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// Every event the tests record is checked against the contract
// (events.Validate); TestMain fails the package on any problem.
var contractLog events.Checked
