package mcppool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

func TestPoolStdioConnectsAndCalls(t *testing.T) {
	p, em := newTestPool(t, stdioServer("ours", "--instructions", "be nice"))
	st := waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	if st.Tools < 5 || st.ProtocolVersion == "" || st.ServerName == "" {
		t.Fatalf("status lacks details: %+v", st)
	}
	res, err := p.CallTool(context.Background(), "ours", "echo", map[string]any{"message": "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(res); !strings.Contains(got, "hi") {
		t.Fatalf("echo returned %q", got)
	}
	states := em.states("ours")
	if len(states) < 2 || states[0] != events.StateConnecting {
		t.Fatalf("want connecting then connected events, got %v", states)
	}
	// The naming table offers the tools under <server>__<tool>.
	if ref, ok := p.ToolTable().Lookup("ours__echo"); !ok || ref.Tool != "echo" || ref.Server != "ours" {
		t.Fatalf("naming table lookup: %+v %v", ref, ok)
	}
}

func TestPoolRemoteTransports(t *testing.T) {
	for _, kind := range []string{"http", "sse"} {
		t.Run(kind, func(t *testing.T) {
			url := startHTTPTestServer(t, kind)
			srv := mcpconfig.Server{ID: "remote", URL: url, Type: mcpconfig.Transport(kind)}
			p, _ := newTestPool(t, srv)
			st := waitState(t, p, "remote", events.StateConnected, 15*time.Second)
			if st.Transport != kind {
				t.Fatalf("transport %q, want %q", st.Transport, kind)
			}
			res, err := p.CallTool(context.Background(), "remote", "add", map[string]any{"a": 2, "b": 3})
			if err != nil {
				t.Fatal(err)
			}
			if got := resultText(res); !strings.Contains(got, "5") {
				t.Fatalf("add returned %q", got)
			}
		})
	}
}

// TestPoolProtocolRevisions checks that the same server is reachable on
// both revisions: negotiated (mcp-go prefers 2026-07-28 over stdio), and
// pinned to 2025-11-25.
func TestPoolProtocolRevisions(t *testing.T) {
	auto := stdioServer("auto")
	pinned := stdioServer("pinned")
	pinned.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	p, _ := newTestPool(t, auto, pinned)
	a := waitState(t, p, "auto", events.StateConnected, 15*time.Second)
	b := waitState(t, p, "pinned", events.StateConnected, 15*time.Second)
	if a.ProtocolVersion != mcp.LATEST_PROTOCOL_VERSION {
		t.Errorf("negotiated %q, want %q", a.ProtocolVersion, mcp.LATEST_PROTOCOL_VERSION)
	}
	if b.ProtocolVersion != mcp.LATEST_LEGACY_PROTOCOL_VERSION {
		t.Errorf("pinned server on %q, want %q", b.ProtocolVersion, mcp.LATEST_LEGACY_PROTOCOL_VERSION)
	}
	for _, id := range []string{"auto", "pinned"} {
		if _, err := p.CallTool(context.Background(), id, "echo", map[string]any{"message": id}); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}

func TestPoolCrashIsRestarted(t *testing.T) {
	p, em := newTestPool(t, stdioServer("crashy"))
	waitState(t, p, "crashy", events.StateConnected, 15*time.Second)

	// The crash tool exits the process mid-call.
	_, _ = p.CallTool(context.Background(), "crashy", "crash", nil)
	waitFor(t, time.Second, "status to leave connected", func() bool {
		st, _ := p.Status("crashy")
		return st.State == events.StateRestarting || st.State == events.StateFailed
	})
	// A call while it is down fails at once, saying why.
	_, err := p.CallTool(context.Background(), "crashy", "echo", map[string]any{"message": "x"})
	if err != nil && !errors.Is(err, ErrNotConnected) {
		t.Fatalf("call while down: want ErrNotConnected, got %v", err)
	}
	if err != nil && !strings.Contains(err.Error(), `"crashy"`) {
		t.Fatalf("error does not name the server: %v", err)
	}
	st := waitState(t, p, "crashy", events.StateConnected, 10*time.Second)
	if _, err := p.CallTool(context.Background(), "crashy", "echo", map[string]any{"message": "back"}); err != nil {
		t.Fatalf("after restart: %v", err)
	}
	var sawRestarting bool
	for _, s := range em.states("crashy") {
		sawRestarting = sawRestarting || s == events.StateRestarting
	}
	if !sawRestarting {
		t.Fatalf("no restarting state was emitted: %v (final %+v)", em.states("crashy"), st)
	}
}

func TestPoolFailureShowsStderr(t *testing.T) {
	p, _ := newTestPool(t, stdioServer("broken", "--stderr", "fatal: missing API_KEY", "--exit-after-start"))
	st := waitState(t, p, "broken", events.StateFailed, 15*time.Second)
	if !strings.Contains(st.Stderr, "missing API_KEY") {
		t.Fatalf("stderr not captured: %+v", st)
	}
	if !strings.Contains(st.Error, "exit") {
		t.Fatalf("error does not say the process exited: %q", st.Error)
	}
}

func TestPoolMissingProgram(t *testing.T) {
	p, _ := newTestPool(t, mcpconfig.Server{ID: "ghost", Command: "mcpdesk-no-such-program"})
	st := waitState(t, p, "ghost", events.StateFailed, 5*time.Second)
	if !strings.Contains(st.Error, "mcpdesk-no-such-program") || !strings.Contains(st.Error, "PATH") {
		t.Fatalf("error should name the program and the PATH searched: %q", st.Error)
	}
}

func TestPoolTimeoutAndConcurrency(t *testing.T) {
	srv := stdioServer("slow")
	srv.TimeoutMs = 300
	srv.MaxConcurrency = 1
	p, _ := newTestPool(t, srv)
	waitState(t, p, "slow", events.StateConnected, 15*time.Second)

	_, err := p.CallTool(context.Background(), "slow", "sleep", map[string]any{"ms": 5000})
	if err == nil || !strings.Contains(err.Error(), "did not answer within 300 ms") {
		t.Fatalf("want a timeout naming the limit, got %v", err)
	}

	// With one slot taken, a second call waits for it and gives up when its
	// own context ends.
	started := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = p.Do(context.Background(), "slow", func(ctx context.Context, s *Session) error {
			close(started)
			<-ctx.Done()
			return ctx.Err()
		})
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = p.CallTool(ctx, "slow", "echo", map[string]any{"message": "x"})
	if err == nil || !strings.Contains(err.Error(), "free call slot") {
		t.Fatalf("want a concurrency-limit error, got %v", err)
	}
	<-done
}

func TestPoolServerEnvAndExpansion(t *testing.T) {
	t.Setenv("MCPDESK_TEST_HOME", "/home/tester")
	srv := stdioServer("env")
	srv.Env = map[string]string{"GREETING": "hello from ${MCPDESK_TEST_HOME}"}
	p, _ := newTestPool(t, srv)
	waitState(t, p, "env", events.StateConnected, 15*time.Second)
	res, err := p.CallTool(context.Background(), "env", "env", map[string]any{"name": "GREETING"})
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(res); !strings.Contains(got, "hello from /home/tester") {
		t.Fatalf("env not passed/expanded: %q", got)
	}
}

func TestPoolEditsAreAppliedAndPersisted(t *testing.T) {
	p, _ := newTestPool(t)
	if err := p.SaveServer("", stdioServer("a")); err != nil {
		t.Fatal(err)
	}
	waitState(t, p, "a", events.StateConnected, 15*time.Second)
	if err := p.SetEnabled("a", false); err != nil {
		t.Fatal(err)
	}
	waitState(t, p, "a", events.StateDisabled, 5*time.Second)
	if err := p.SaveServer("", stdioServer("a")); err == nil {
		t.Fatal("a duplicate id was accepted")
	}
	renamed := stdioServer("b")
	if err := p.SaveServer("a", renamed); err != nil {
		t.Fatal(err)
	}
	waitState(t, p, "b", events.StateConnected, 15*time.Second)
	cfg, err := mcpconfig.Load(p.ConfigPath())
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 1 || cfg.Servers[0].ID != "b" {
		t.Fatalf("config on disk: %+v", cfg.Servers)
	}
	if err := p.RemoveServer("b"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Status("b"); err == nil {
		t.Fatal("removed server still has a status")
	}
}

// TestPoolKeepsGoodConfig edits the file on disk into something invalid:
// the running servers stay, the error is reported, and writes through the
// app are refused so the user's broken file is not overwritten.
func TestPoolKeepsGoodConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: []mcpconfig.Server{stdioServer("good")}}); err != nil {
		t.Fatal(err)
	}
	em := newRecordingEmitter()
	p := New(Options{ConfigPath: path, Env: testEnv(), Emitter: em, Watch: true})
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitState(t, p, "good", events.StateConnected, 15*time.Second)

	bad := []byte(`{"mcpServers": {"good": {"command": }}}`)
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	var msg string
	waitFor(t, 5*time.Second, "a config-error event", func() bool {
		for _, e := range em.all() {
			if ce, ok := e.payload.(events.ConfigErrorPayload); ok {
				msg = ce.Message
				return true
			}
		}
		return false
	})
	if !strings.Contains(msg, "1:") {
		t.Errorf("syntax error should carry line:column: %q", msg)
	}
	if st, _ := p.Status("good"); st.State != events.StateConnected {
		t.Fatalf("good server dropped after a bad edit: %+v", st)
	}
	if err := p.SaveServer("", stdioServer("other")); err == nil {
		t.Fatal("a write was accepted while the file on disk is broken")
	}
	if got, _ := os.ReadFile(path); string(got) != string(bad) {
		t.Fatal("the user's file was overwritten")
	}
}

func TestPoolCloseLeavesNoChildren(t *testing.T) {
	// The shell starts a grandchild (sleep) in the server's process group;
	// stopping the server must take it down too.
	marker := filepath.Join(t.TempDir(), "marker")
	script := "sleep 300 & echo $! > " + marker + "; exec " + testServerBin
	p, _ := newTestPool(t,
		mcpconfig.Server{ID: "sh", Command: "/bin/sh", Args: []string{"-c", script}},
		stdioServer("plain"),
	)
	waitState(t, p, "sh", events.StateConnected, 15*time.Second)
	waitState(t, p, "plain", events.StateConnected, 15*time.Second)
	pids := []int{childPID(t, p, "sh"), childPID(t, p, "plain")}
	data, err := os.ReadFile(marker)
	if err != nil {
		t.Fatal(err)
	}
	var sleepPID int
	if _, err := fmt.Sscan(string(data), &sleepPID); err != nil {
		t.Fatal(err)
	}
	pids = append(pids, sleepPID)
	p.Close()
	for _, pid := range pids {
		if processAlive(pid) {
			t.Errorf("process %d survived Close", pid)
		}
	}
}

func childPID(t *testing.T, p *Pool, id string) int {
	t.Helper()
	c := p.conn(id)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == nil || c.sess.proc == nil {
		t.Fatalf("%s has no process", id)
	}
	return c.sess.proc.cmd.Process.Pid
}

// TestPoolKilledServerComesBack kills a connected stdio server from outside,
// as the OOM killer or a user would: the pool notices within a second, a
// call made while it is down fails with a message naming the server, and
// the server is restarted by itself.
func TestPoolKilledServerComesBack(t *testing.T) {
	p, _ := newTestPool(t, stdioServer("victim"))
	waitState(t, p, "victim", events.StateConnected, 15*time.Second)
	pid := childPID(t, p, "victim")
	proc, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := proc.Kill(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, time.Second, "status to leave connected after SIGKILL", func() bool {
		st, _ := p.Status("victim")
		return st.State == events.StateRestarting || st.State == events.StateFailed
	})
	if _, err := p.CallTool(context.Background(), "victim", "echo", map[string]any{"message": "x"}); err != nil {
		if !errors.Is(err, ErrNotConnected) || !strings.Contains(err.Error(), `"victim"`) {
			t.Fatalf("call while down: %v", err)
		}
	}
	st := waitState(t, p, "victim", events.StateConnected, 10*time.Second)
	if newPID := childPID(t, p, "victim"); newPID == pid {
		t.Fatalf("still the old process %d: %+v", pid, st)
	}
	res, err := p.CallTool(context.Background(), "victim", "echo", map[string]any{"message": "back"})
	if err != nil || !strings.Contains(resultText(res), "back") {
		t.Fatalf("after restart: %v %v", res, err)
	}
}

// TestPoolFailureHidesSecrets starts a server that prints its key on
// stderr and exits: the stderr and error shown to the user are scrubbed.
func TestPoolFailureHidesSecrets(t *testing.T) {
	const key = "sk-test-0123456789abcdef"
	srv := stdioServer("leaky", "--stderr", "rejected API key ${API_KEY}", "--exit-after-start")
	srv.Env = map[string]string{"API_KEY": key}
	p, em := newTestPool(t, srv)
	st := waitState(t, p, "leaky", events.StateFailed, 15*time.Second)
	if !strings.Contains(st.Stderr, "rejected API key [redacted]") {
		t.Fatalf("stderr not shown or not scrubbed: %q", st.Stderr)
	}
	for _, e := range em.all() {
		if s, ok := e.payload.(events.ServerStatusPayload); ok && (strings.Contains(s.Stderr, key) || strings.Contains(s.Error, key)) {
			t.Fatalf("the key reached a status event: %+v", s)
		}
	}
}
