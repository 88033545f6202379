package mcppool

import (
	"context"
	"encoding/json"
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
	"mcpdesk/backend/usererr"
)

// goErrorTexts are Go's own error strings and internal fields that must
// never reach the logger of a call that ended on our side.
var goErrorTexts = []string{"context canceled", "context deadline exceeded", "_transport"}

// callEntries returns the logger's entries about request id of server,
// and the notifications/cancelled that names it.
func callEntries(p *Pool, server, id string) (entries []events.RPCEntry, cancelled []events.RPCEntry) {
	for _, e := range p.Log().Entries() {
		if e.Server != server {
			continue
		}
		if e.ID == id {
			entries = append(entries, e)
		}
		if e.Method == string(mcp.MethodNotificationCancelled) && namesRequest(e.Payload, id) {
			cancelled = append(cancelled, e)
		}
	}
	return entries, cancelled
}

// namesRequest reports whether a notifications/cancelled payload names
// request id.
func namesRequest(payload, id string) bool {
	var msg struct {
		Params struct {
			RequestID any `json:"requestId"`
		} `json:"params"`
	}
	return json.Unmarshal([]byte(payload), &msg) == nil && fmt.Sprint(msg.Params.RequestID) == id
}

// TestLoggerShowsACallTheUserStopped stops a running tool call, over stdio
// (mcp-go sends notifications/cancelled) and over Streamable HTTP on
// 2025-11-25 (the pool sends it): the logger shows our cancellation, sent
// by us, with a reason in words, and the request's end as cancelled by the
// user — never an error received from the server, an internal field, or
// Go's "context canceled".
func TestLoggerShowsACallTheUserStopped(t *testing.T) {
	cases := []struct {
		name string
		srv  func(t *testing.T) mcpconfig.Server
	}{
		{"stdio", func(*testing.T) mcpconfig.Server { return stdioServer("slow") }},
		{"http", func(t *testing.T) mcpconfig.Server {
			return mcpconfig.Server{ID: "slow", URL: startHTTPTestServer(t, "http")}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := newTestPool(t, tc.srv(t))
			waitState(t, p, "slow", events.StateConnected, 15*time.Second)
			svc := NewService(p, nil)
			done := make(chan error, 1)
			go func() {
				_, err := svc.CallTool(ToolCallRequest{CallID: "stop-me", Server: "slow", Tool: "sleep", Arguments: map[string]any{"ms": 30000}})
				done <- err
			}()
			var reqID string
			waitFor(t, 10*time.Second, "the tools/call request in the logger", func() bool {
				for _, e := range p.Log().Entries() {
					if e.Method == "tools/call" && e.Kind == events.KindRequest {
						reqID = e.ID
						return true
					}
				}
				return false
			})
			if err := svc.CancelCall("stop-me"); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				if !errors.Is(err, ErrCancelled) {
					t.Fatalf("want a cancelled call, got %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the call did not end after CancelCall")
			}
			var entries, cancelled []events.RPCEntry
			waitFor(t, 10*time.Second, "notifications/cancelled naming the call", func() bool {
				entries, cancelled = callEntries(p, "slow", reqID)
				return len(cancelled) > 0
			})

			if len(cancelled) != 1 || cancelled[0].Direction != events.Outgoing || cancelled[0].Kind != events.KindNotification {
				t.Fatalf("want one notifications/cancelled sent by us, got %+v", cancelled)
			}
			var msg struct {
				Params struct {
					Reason string `json:"reason"`
				} `json:"params"`
			}
			if err := json.Unmarshal([]byte(cancelled[0].Payload), &msg); err != nil {
				t.Fatal(err)
			}
			if msg.Params.Reason != "The user stopped this request." {
				t.Fatalf("reason %q, want words", msg.Params.Reason)
			}

			var ended []events.RPCEntry
			for _, e := range entries {
				if e.Direction == events.Incoming {
					t.Errorf("a call we stopped is listed as received from the server: %+v", e)
				}
				if e.Kind == events.KindCancelled {
					ended = append(ended, e)
				}
			}
			if len(ended) != 1 || ended[0].Note != noteCancelledByUser || ended[0].Direction != events.Local ||
				ended[0].Method != "tools/call" || ended[0].LatencyMs == nil {
				t.Fatalf("want one entry noting the call was cancelled by the user, got %+v", ended)
			}
			for _, e := range p.Log().Entries() {
				for _, bad := range goErrorTexts {
					if strings.Contains(e.Payload, bad) {
						t.Errorf("the logger shows %q: %s %s %s", bad, e.Direction, e.Method, e.Payload)
					}
				}
			}
		})
	}
}

// TestLoggerShowsACallThatTimedOut: a call past the server's time limit is
// noted as timed out, in words, not as Go's "context deadline exceeded".
func TestLoggerShowsACallThatTimedOut(t *testing.T) {
	srv := stdioServer("slow")
	srv.TimeoutMs = 300
	p, _ := newTestPool(t, srv)
	waitState(t, p, "slow", events.StateConnected, 15*time.Second)
	if _, err := p.CallTool(context.Background(), "slow", "sleep", map[string]any{"ms": 30000}); err == nil {
		t.Fatal("a call past its limit succeeded")
	}
	var ended, cancelled []events.RPCEntry
	waitFor(t, 10*time.Second, "the end of the call and notifications/cancelled", func() bool {
		ended, cancelled = nil, nil
		for _, e := range p.Log().Entries() {
			if e.Kind == events.KindCancelled {
				ended = append(ended, e)
			}
			if e.Method == string(mcp.MethodNotificationCancelled) {
				cancelled = append(cancelled, e)
			}
		}
		return len(ended) > 0 && len(cancelled) > 0
	})
	if ended[0].Note != noteTimedOut {
		t.Fatalf("note %q, want %q", ended[0].Note, noteTimedOut)
	}
	if !strings.Contains(cancelled[0].Payload, "No answer came within the time limit.") {
		t.Fatalf("reason not in words: %s", cancelled[0].Payload)
	}
	for _, e := range p.Log().Entries() {
		for _, bad := range goErrorTexts {
			if strings.Contains(e.Payload, bad) {
				t.Errorf("the logger shows %q: %s", bad, e.Payload)
			}
		}
	}
}

// TestEndNote: the cause of a context, not its error text, says who ended
// a request; a chat's Stop wraps ErrCancelled.
func TestEndNote(t *testing.T) {
	chatStop := fmt.Errorf("stopped by the user: %w", ErrCancelled)
	cases := []struct {
		name  string
		cause error // nil: a plain cancel
		want  string
	}{
		{"stop in the Tools tab", ErrCancelled, noteCancelledByUser},
		{"stop in a chat", chatStop, noteCancelledByUser},
		{"time limit", &timeoutError{server: "late", timeout: time.Second}, noteTimedOut},
		{"deadline", context.DeadlineExceeded, noteTimedOut},
		{"restart or quit", nil, noteAbandoned},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(tc.cause)
			if got := endNote(ctx); got != tc.want {
				t.Fatalf("endNote = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSaveServerReportsTheFirstStart: adding a server answers with the
// outcome of its first start — connected, or failed with a reason the UI
// can word — not with "connecting" while the failure follows a moment
// later. Enabling a server does the same.
func TestSaveServerReportsTheFirstStart(t *testing.T) {
	notExec := filepath.Join(t.TempDir(), "not-executable")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name        string
		spec        ServerSpec
		wantState   events.ServerState
		wantProblem string
		wantProgram string
	}{
		{"works", ServerSpec{ID: "good", Type: "stdio", Command: testServerBin, Enabled: true}, events.StateConnected, "", ""},
		{"program missing", ServerSpec{ID: "broken", Type: "stdio", Command: "no-such-program-mcpdesk", Enabled: true},
			events.StateFailed, problemProgramNotFound, "no-such-program-mcpdesk"},
		{"not executable", ServerSpec{ID: "noexec", Type: "stdio", Command: notExec, Enabled: true},
			events.StateFailed, problemProgramNotExecutable, notExec},
		{"exits at start", ServerSpec{ID: "quitter", Type: "stdio", Command: testServerBin, Args: []string{"--exit-after-start"}, Enabled: true},
			events.StateFailed, string(usererr.ServerExitedWithStatus), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := newTestPool(t)
			svc := NewService(p, nil)
			view, err := svc.SaveServer("", tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			st := view.Status
			if st.State != tc.wantState {
				t.Fatalf("state %s (error %q), want %s", st.State, st.Error, tc.wantState)
			}
			if tc.wantState == events.StateConnected && st.Tools == 0 {
				t.Fatalf("connected without its tools listed: %+v", st)
			}
			if tc.wantProblem == "" {
				if st.Problem != nil {
					t.Fatalf("problem %+v on a good start", st.Problem)
				}
				return
			}
			if st.Error == "" || st.Problem == nil || st.Problem.Code != tc.wantProblem || st.Problem.Program != tc.wantProgram {
				t.Fatalf("want problem %s (%s), got %+v (error %q)", tc.wantProblem, tc.wantProgram, st.Problem, st.Error)
			}

			// Turned off and on again, it answers the same way.
			if _, err := svc.SetEnabled(tc.spec.ID, false); err != nil {
				t.Fatal(err)
			}
			view, err = svc.SetEnabled(tc.spec.ID, true)
			if err != nil {
				t.Fatal(err)
			}
			if view.Status.State != tc.wantState || view.Status.Problem == nil || view.Status.Problem.Code != tc.wantProblem {
				t.Fatalf("enabled: %+v", view.Status)
			}
		})
	}
}

// TestStartHistory: every start is kept with its cause, newest first.
func TestStartHistory(t *testing.T) {
	p, _ := newTestPool(t, stdioServer("ours"))
	waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	svc := NewService(p, nil)
	if err := svc.Restart("ours"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 15*time.Second, "the restart", func() bool {
		h := p.history.get("ours")
		st, _ := p.Status("ours")
		return len(h) == 2 && st.State == events.StateConnected
	})
	spec := specFromConfig(stdioServer("ours"))
	spec.TimeoutMs = 5000
	if _, err := svc.SaveServer("ours", spec); err != nil {
		t.Fatal(err)
	}
	h := p.history.get("ours")
	var causes []string
	for _, r := range h {
		causes = append(causes, r.Cause)
		if r.Time == 0 {
			t.Fatalf("a start without a time: %+v", r)
		}
	}
	if strings.Join(causes, ",") != "configChanged,userRestart,start" {
		t.Fatalf("causes %v", causes)
	}
	if err := svc.RemoveServer("ours"); err != nil {
		t.Fatal(err)
	}
	if h := p.history.get("ours"); len(h) != 0 {
		t.Fatalf("a removed server keeps its history: %+v", h)
	}
}

// TestServerDetail: the detail of a server carries what it declared, its
// instructions, its standard error and its starts; a failed one carries
// its standard error and no capabilities.
func TestServerDetail(t *testing.T) {
	p, _ := newTestPool(t,
		stdioServer("ours", "--instructions", "Use **echo** first.", "--stderr", "hello from stderr"),
		stdioServer("quitter", "--exit-after-start", "--stderr", "cannot start: missing config"))
	waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	waitState(t, p, "quitter", events.StateFailed, 15*time.Second)
	svc := NewService(p, nil)

	d, err := svc.ServerDetail("ours")
	if err != nil {
		t.Fatal(err)
	}
	if d.Capabilities == nil || !d.Capabilities.Tools || !d.Capabilities.Resources || !d.Capabilities.Prompts {
		t.Fatalf("capabilities %+v", d.Capabilities)
	}
	if d.Instructions != "Use **echo** first." || !strings.Contains(d.Stderr, "hello from stderr") {
		t.Fatalf("instructions %q, stderr %q", d.Instructions, d.Stderr)
	}
	if len(d.Starts) != 1 || d.Starts[0].Cause != causeStart || d.Spec.ID != "ours" || d.Status.Tools == 0 {
		t.Fatalf("detail %+v", d)
	}

	d, err = svc.ServerDetail("quitter")
	if err != nil {
		t.Fatal(err)
	}
	if d.Capabilities != nil || !strings.Contains(d.Stderr, "cannot start: missing config") || d.Status.Problem == nil {
		t.Fatalf("failed server's detail %+v", d)
	}
	if _, err := svc.ServerDetail("nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Fatalf("unknown server: %v", err)
	}
}

// TestCapabilitiesOfAHostileServer: the names of a server's experimental
// and extension capabilities are bounded in number and length.
func TestCapabilitiesOfAHostileServer(t *testing.T) {
	exp := map[string]any{}
	for i := range 500 {
		exp[fmt.Sprintf("%04d-%s", i, strings.Repeat("x", 5000))] = map[string]any{}
	}
	caps := capabilitiesOf(mcp.ServerCapabilities{Experimental: exp, Extensions: map[string]any{"io.example/ext": map[string]any{}}})
	if len(caps.Experimental) != maxCapabilityNames {
		t.Fatalf("%d names kept, want %d", len(caps.Experimental), maxCapabilityNames)
	}
	for _, n := range caps.Experimental {
		if len(n) > maxCapabilityName+64 {
			t.Fatalf("a name of %d bytes kept", len(n))
		}
	}
	if caps.Tools || caps.Resources || caps.Prompts {
		t.Fatalf("capabilities it did not declare: %+v", caps)
	}
}

// TestStartHistoryHidesSecrets: the error kept with an automatic restart
// has the server's secrets redacted, and is bounded.
func TestStartHistoryHidesSecrets(t *testing.T) {
	const secret = "ghp_history0123456789secret"
	p := New(Options{Env: testEnv()})
	c := newConn(p, mcpconfig.Server{ID: "gh", Command: "x", Env: map[string]string{"GITHUB_TOKEN": secret}})
	c.setCause(causeConnectionLost, "connection lost: server said "+secret+strings.Repeat(" and more", 1000))
	c.recordAttempt()
	h := p.history.get("gh")
	if len(h) != 1 || h[0].Cause != causeConnectionLost {
		t.Fatalf("history %+v", h)
	}
	if strings.Contains(h[0].Detail, secret) || !strings.Contains(h[0].Detail, redactedPlaceholder) {
		t.Fatalf("the secret is kept: %q", h[0].Detail)
	}
	if len(h[0].Detail) > maxStartDetail+64 {
		t.Fatalf("%d bytes kept", len(h[0].Detail))
	}
	// The next attempt, unless told otherwise, is a retry with no detail.
	c.recordAttempt()
	if h := p.history.get("gh"); h[0].Cause != causeRetry || h[0].Detail != "" {
		t.Fatalf("next attempt %+v", h[0])
	}
}
