package mcppool

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool/mcptest"
)

// Tests of the protections against a server that exhausts memory or CPU
// (issue 11, point 4), against the hostile server (./hostileserver,
// mode_limits.go) and the test server as real subprocesses, through the
// real pool.

var (
	limitsHostileOnce sync.Once
	limitsHostileBin  string
	limitsHostileErr  error
	// limitsHostileCleanup removes the built server; TestMain calls it.
	limitsHostileCleanup = func() {}
)

// hostileBin builds the hostile server once per test binary.
func hostileBin(t testing.TB) string {
	t.Helper()
	limitsHostileOnce.Do(func() {
		var cleanup func()
		limitsHostileBin, cleanup, limitsHostileErr = mcptest.BuildHostileServer()
		if cleanup != nil {
			limitsHostileCleanup = cleanup
		}
	})
	if limitsHostileErr != nil {
		t.Fatal(limitsHostileErr)
	}
	return limitsHostileBin
}

func hostileServer(t testing.TB, id, modes string, env map[string]string) mcpconfig.Server {
	return mcpconfig.Server{ID: id, Command: hostileBin(t), Args: []string{"--mode", modes}, Env: env}
}

// statesSince returns the states emitted for id from the n-th on.
func statesSince(em *recordingEmitter, id string, n int) []events.ServerState {
	all := em.states(id)
	if n > len(all) {
		return nil
	}
	return all[n:]
}

// rssSampler samples the test process's resident memory until stop.
type rssSampler struct {
	stop chan struct{}
	done chan struct{}
	peak int64
}

func sampleRSS() *rssSampler {
	s := &rssSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			s.peak = max(s.peak, vmRSS())
			select {
			case <-s.stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return s
}

// Stop ends sampling and returns the peak seen.
func (s *rssSampler) Stop() int64 {
	close(s.stop)
	<-s.done
	return max(s.peak, vmRSS())
}

// vmRSS reads VmRSS of this process in bytes (Linux; 0 elsewhere).
func vmRSS() int64 { return procStatus("VmRSS") }

// procStatus reads a kB field of /proc/self/status in bytes.
func procStatus(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// expectStoppedForGood checks a server stopped for a message past limit:
// failed with the clear status and problem code, and still failed a while
// later — no automatic restart — with no connecting or restarting since.
func expectStoppedForGood(t *testing.T, p *Pool, em *recordingEmitter, id string, limit int64) {
	t.Helper()
	st := waitState(t, p, id, events.StateFailed, 30*time.Second)
	want := fmt.Sprintf("sent a message larger than %s (limit: maxMessageBytes)", formatSize(limit))
	if !strings.Contains(st.Error, want) {
		t.Fatalf("status error %q, want it to say %q", st.Error, want)
	}
	if st.Problem == nil || st.Problem.Code != "messageTooLarge" || st.Problem.Limit != limit {
		t.Fatalf("status problem %+v, want messageTooLarge with limit %d", st.Problem, limit)
	}
	// The status is set before its event is emitted: count the states
	// seen once the failed one has arrived too.
	waitFor(t, 10*time.Second, "the failed state's event", func() bool {
		all := em.states(id)
		return len(all) > 0 && all[len(all)-1] == events.StateFailed
	})
	seen := len(em.states(id))
	// An automatic restart would come after backoffMin (250 ms); wait
	// well past it. (Not a timing assertion: a protected server never
	// changes state here, however slow the machine.)
	time.Sleep(8 * backoffMin)
	if st, _ := p.Status(id); st.State != events.StateFailed {
		t.Fatalf("state %s after the failure, want it to stay failed", st.State)
	}
	if later := statesSince(em, id, seen); len(later) > 0 {
		t.Fatalf("states after the failure: %v, want none (no restart loop)", later)
	}
}

// TestHugeLineStopsServer: a stdio server writing a 2 GB line without a
// newline is stopped once its line passes the limit (32 MB): the status
// says so, the server is not restarted until the user asks, its process
// is gone, and the app's memory stays within limit + 200 MB meanwhile.
func TestHugeLineStopsServer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	const limit = mcpconfig.DefaultMaxMessageBytes
	const bound = limit + 200<<20
	cases := []struct {
		mode    string
		trigger bool // the line comes when the tool is called (else at connect)
	}{
		{mode: "huge-line", trigger: true},
		{mode: "huge-line-at-connect"},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			srv := hostileServer(t, "huge", tc.mode, nil)
			srv.TimeoutMs = 20_000
			debug.FreeOSMemory()
			base := vmRSS()
			rss := sampleRSS()
			p, em := newTestPool(t, srv)
			var pid int
			if tc.trigger {
				waitState(t, p, "huge", events.StateConnected, 15*time.Second)
				pid = childPID(t, p, "huge")
				_, err := p.CallTool(context.Background(), "huge", "huge-line", nil)
				if err == nil || !strings.Contains(err.Error(), "sent a message larger than 32 MB") {
					t.Fatalf("call error %v, want the message-size error", err)
				}
			}
			expectStoppedForGood(t, p, em, "huge", limit)
			peak := rss.Stop()
			t.Logf("RSS: %d MB before, peak %d MB (+%d MB) while the line arrived; bound +%d MB",
				base>>20, peak>>20, (peak-base)>>20, bound>>20)
			if peak-base > bound {
				t.Fatalf("RSS grew by %d MB while the line arrived; bound %d MB", (peak-base)>>20, bound>>20)
			}
			if pid != 0 {
				waitFor(t, 15*time.Second, "the server process to be gone", func() bool { return !mcptest.ProcessAlive(pid) })
			}
			if !tc.trigger {
				return
			}
			// The user's Restart connects again.
			if err := p.Restart("huge"); err != nil {
				t.Fatal(err)
			}
			st := waitState(t, p, "huge", events.StateConnected, 15*time.Second)
			if st.Error != "" || st.Problem != nil {
				t.Fatalf("after Restart the status still says %q %+v", st.Error, st.Problem)
			}
		})
	}
}

// TestMessageLimitEveryTransport: the test server's big tool answers a
// result just under the server's limit (1 MB) on every transport; one
// just over it stops the server with the clear status.
func TestMessageLimitEveryTransport(t *testing.T) {
	const limit = 1 << 20
	for _, kind := range []string{"stdio", "http", "sse"} {
		t.Run(kind, func(t *testing.T) {
			srv := stdioServer("big")
			if kind != "stdio" {
				srv = mcpconfig.Server{ID: "big", Type: mcpconfig.Transport(kind), URL: startHTTPTestServer(t, kind)}
			}
			srv.MaxMessageBytes = limit
			p, em := newTestPool(t, srv)
			waitState(t, p, "big", events.StateConnected, 15*time.Second)
			res, err := p.CallTool(context.Background(), "big", "big", map[string]any{"bytes": limit - 4096})
			if err != nil {
				t.Fatalf("a result under the limit: %v", err)
			}
			if n := len(resultText(res)); n != limit-4096 {
				t.Fatalf("a result under the limit came back with %d bytes", n)
			}
			_, err = p.CallTool(context.Background(), "big", "big", map[string]any{"bytes": limit + 1})
			if err == nil {
				t.Fatal("a result over the limit came back")
			}
			expectStoppedForGood(t, p, em, "big", limit)
		})
	}
}

// TestHugeResultHostile: the hostile server's results just under and just
// over the limit; the one under is kept whole for the caller and cut to
// the logger's own limit in the JSON-RPC log, marked truncated.
func TestHugeResultHostile(t *testing.T) {
	const limit = 1 << 20
	srv := hostileServer(t, "results", "huge-result", map[string]string{"HOSTILE_LIMIT_BYTES": strconv.Itoa(limit)})
	srv.MaxMessageBytes = limit
	p, em := newTestPool(t, srv)
	waitState(t, p, "results", events.StateConnected, 15*time.Second)
	res, err := p.CallTool(context.Background(), "results", "result-under", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(resultText(res)); n != limit-4096 {
		t.Fatalf("result of %d bytes, want %d", n, limit-4096)
	}
	waitFor(t, 10*time.Second, "the result in the log", func() bool {
		for _, e := range p.Log().Entries() {
			if e.Kind == events.KindResponse && e.Method == "tools/call" && e.Server == "results" {
				if !e.Truncated || len(e.Payload) > maxPayloadBytes {
					t.Fatalf("logged payload of %d bytes, truncated %v", len(e.Payload), e.Truncated)
				}
				return true
			}
		}
		return false
	})
	if _, err := p.CallTool(context.Background(), "results", "result-over", nil); err == nil {
		t.Fatal("a result over the limit came back")
	}
	expectStoppedForGood(t, p, em, "results", limit)
}

// startHostileHTTP runs the hostile server over Streamable HTTP.
func startHostileHTTP(t *testing.T, modes string, env ...string) string {
	t.Helper()
	cmd := exec.Command(hostileBin(t), "--transport", "http", "--mode", modes)
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := readLineTimeout(stdout, 10*time.Second)
	if err != nil {
		t.Fatalf("hostile server did not start: %v", err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "LISTENING ")
	if !ok {
		t.Fatalf("unexpected first line: %q", line)
	}
	return url
}

// TestHugeHTTPBodies: over Streamable HTTP, a JSON body and a single SSE
// event past the limit stop the server with the clear status.
func TestHugeHTTPBodies(t *testing.T) {
	const limit = 1 << 20
	for _, tool := range []string{"huge-json", "huge-sse"} {
		t.Run(tool, func(t *testing.T) {
			url := startHostileHTTP(t, "huge-http", "HOSTILE_HUGE_BYTES="+strconv.Itoa(256<<20))
			srv := mcpconfig.Server{ID: "remote", Type: mcpconfig.HTTP, URL: url, MaxMessageBytes: limit, TimeoutMs: 20_000}
			p, em := newTestPool(t, srv)
			waitState(t, p, "remote", events.StateConnected, 15*time.Second)
			_, err := p.CallTool(context.Background(), "remote", tool, nil)
			if err == nil || !strings.Contains(err.Error(), "sent a message larger than 1 MB") {
				t.Fatalf("call error %v, want the message-size error", err)
			}
			expectStoppedForGood(t, p, em, "remote", limit)
		})
	}
}

// callJSON calls a tool that answers structured content and decodes it.
func callJSON(t testing.TB, p *Pool, server, tool string, out any) {
	t.Helper()
	res, err := p.CallTool(context.Background(), server, tool, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v (%s)", tool, err, b)
	}
}

type stormStatus struct {
	Sent      int  `json:"sent"`
	Done      bool `json:"done"`
	ToolsList int  `json:"toolsList"`
}

// TestListChangedStorm: 100,000 tools/list_changed in about a second cost
// a handful of re-lists, and the pool still answers afterwards.
func TestListChangedStorm(t *testing.T) {
	p, _ := newTestPool(t, hostileServer(t, "storm", "list-changed-storm", nil))
	waitState(t, p, "storm", events.StateConnected, 15*time.Second)
	var before stormStatus
	callJSON(t, p, "storm", "storm-status", &before)
	if _, err := p.CallTool(context.Background(), "storm", "list-changed-storm", map[string]any{"count": 100000}); err != nil {
		t.Fatal(err)
	}
	var st stormStatus
	waitFor(t, 60*time.Second, "the storm to end", func() bool {
		callJSON(t, p, "storm", "storm-status", &st)
		return st.Done
	})
	if st.Sent != 100000 {
		t.Fatalf("the storm sent %d", st.Sent)
	}
	// Its answer comes after every notification of the storm: the pool
	// has read them all and still answers a call.
	res, err := p.CallTool(context.Background(), "storm", "ping", nil)
	if err != nil || resultText(res) != "pong" {
		t.Fatalf("ping after the storm: %v %v", res, err)
	}
	c := p.conn("storm")
	waitFor(t, 30*time.Second, "the re-lists to finish", func() bool { idle, _ := c.relistIdle(); return idle })
	_, started := c.relistIdle()
	callJSON(t, p, "storm", "storm-status", &st)
	relists := st.ToolsList - before.ToolsList
	t.Logf("100,000 list_changed: %d re-lists started, %d tools/list requests", started, relists)
	if relists > 10 || started > 10 {
		t.Fatalf("%d tools/list for 100,000 list_changed (%d re-lists started); want a handful (≤ 10)", relists, started)
	}
	if relists < 1 {
		t.Fatal("the storm was never listed")
	}
}

// TestLogFlood: 10,000 log messages at once reach the logger within the
// flood limit, with a marker entry saying how many were dropped; none is
// unaccounted for.
func TestLogFlood(t *testing.T) {
	const sent = 10000
	p, _ := newTestPool(t, hostileServer(t, "flood", "log-flood", nil))
	waitState(t, p, "flood", events.StateConnected, 15*time.Second)
	start := time.Now()
	if _, err := p.CallTool(context.Background(), "flood", "log-flood", map[string]any{"count": sent}); err != nil {
		t.Fatal(err)
	}
	var logged, dropped, markers int
	waitFor(t, 15*time.Second, "every log message logged or counted as dropped", func() bool {
		logged, dropped, markers = 0, 0, 0
		for _, e := range p.Log().Entries() {
			if e.Server != "flood" || e.Method != "notifications/message" {
				continue
			}
			if e.Dropped > 0 {
				markers++
				dropped += e.Dropped
				if !strings.Contains(e.Payload, `"dropped":`) {
					t.Fatalf("marker payload %s", e.Payload)
				}
			} else {
				logged++
			}
		}
		return logged+dropped == sent
	})
	elapsed := time.Since(start)
	t.Logf("%d log messages: %d logged, %d dropped in %d markers, over %s", sent, logged, dropped, markers, elapsed.Round(time.Millisecond))
	if most := logBurst + int(elapsed.Seconds()*logRate) + 1; logged > most {
		t.Fatalf("logged %d of %d in %s; the limit allows %d", logged, sent, elapsed, most)
	}
	if markers == 0 || markers > int(elapsed/logReportEvery)+2 {
		t.Fatalf("%d markers in %s", markers, elapsed)
	}
}

// TestProgressFlood: 10,000 progress notifications of one call reach the
// progress bar within the flood limit; the latest is shown, saying how
// many were skipped.
func TestProgressFlood(t *testing.T) {
	const sent = 10000
	p, em := newTestPool(t, hostileServer(t, "flood", "progress-flood", nil))
	waitState(t, p, "flood", events.StateConnected, 15*time.Second)
	start := time.Now()
	// The server pauses after the flood, so the latest progress held back
	// is shown before the call ends.
	res, _, err := p.CallToolTracked(context.Background(), "pflood", "flood", "progress-flood", map[string]any{"count": sent, "pauseMs": 1000})
	if err != nil || res.IsError {
		t.Fatalf("%v %v", res, err)
	}
	elapsed := time.Since(start)
	var shown []events.ProgressPayload
	for _, e := range em.all() {
		if pr, ok := e.payload.(events.ProgressPayload); ok && e.name == events.Progress && pr.CallID == "pflood" {
			shown = append(shown, pr)
		}
	}
	t.Logf("%d progress notifications: %d shown in %s", sent, len(shown), elapsed.Round(time.Millisecond))
	if most := progressBurst + 2*int(elapsed.Seconds()*progressRate) + 2; len(shown) == 0 || len(shown) > most {
		t.Fatalf("showed %d of %d progress notifications in %s; the limit allows %d", len(shown), sent, elapsed, most)
	}
	last := shown[len(shown)-1]
	if last.Progress != sent || last.Dropped+len(shown) != sent {
		t.Fatalf("the last progress shown is %v with %d skipped, after %d shown; want %d with the rest skipped", last.Progress, last.Dropped, len(shown), sent)
	}
}

// TestTaskPollFloor: a task that asks to be polled every millisecond is
// polled no faster than every 250 ms.
func TestTaskPollFloor(t *testing.T) {
	srv := hostileServer(t, "tasks", "task-fast-poll", nil)
	srv.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION // tasks are a 2025-11-25 feature here
	p, _ := newTestPool(t, srv)
	waitState(t, p, "tasks", events.StateConnected, 15*time.Second)
	res, took, err := p.CallToolTracked(context.Background(), "task", "tasks", "slow-task", map[string]any{"ms": 2000})
	if err != nil || resultText(res) != "done" {
		t.Fatalf("%v %v", res, err)
	}
	res, err = p.CallTool(context.Background(), "tasks", "task-polls", nil)
	if err != nil {
		t.Fatal(err)
	}
	polls, _ := strconv.Atoi(resultText(res))
	most := int(took/taskPollFloor) + 2
	t.Logf("a %s task asking for 1 ms polls was polled %d times (at most %d allowed)", took.Round(time.Millisecond), polls, most)
	if polls < 1 || polls > most {
		t.Fatalf("polled %d times in %s; at most %d at one poll per %s", polls, took, most, taskPollFloor)
	}
}

// TestResourceUpdateFlood: of a flood of resources/updated, the UI hears
// about the subscribed resource within the flood limit, and never about a
// resource nobody subscribed to.
func TestResourceUpdateFlood(t *testing.T) {
	const sent = 10000
	p, em := newTestPool(t, hostileServer(t, "upd", "update-flood", nil))
	waitState(t, p, "upd", events.StateConnected, 15*time.Second)
	if err := p.Subscribe(context.Background(), "upd", "flood://r"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := p.CallTool(context.Background(), "upd", "update-flood", map[string]any{"count": sent, "pauseMs": 1000}); err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	counts := map[string]int{}
	for _, e := range em.all() {
		if u, ok := e.payload.(events.ResourceUpdatedPayload); ok && e.name == events.ResourceUpdated && u.Server == "upd" {
			counts[u.URI]++
		}
	}
	t.Logf("%d updates of each of two resources in %s: %v reported", sent, elapsed.Round(time.Millisecond), counts)
	if counts["flood://other"] != 0 {
		t.Fatalf("reported %d updates of a resource nobody subscribed to", counts["flood://other"])
	}
	if most := updateBurst + int(elapsed.Seconds()*updateRate) + 2; counts["flood://r"] < 2 || counts["flood://r"] > most {
		t.Fatalf("reported %d of %d updates in %s; want 2 … %d", counts["flood://r"], sent, elapsed, most)
	}
}

// TestEndlessToolList: a server whose tools/list pages never end is
// listed up to the page bound; the pool keeps what it has, connects, and
// says the list was cut.
func TestEndlessToolList(t *testing.T) {
	p, _ := newTestPool(t, hostileServer(t, "endless", "endless-list", nil))
	st := waitState(t, p, "endless", events.StateConnected, 30*time.Second)
	if !strings.Contains(st.Error, "tools list was cut: more than 100 pages") {
		t.Fatalf("status error %q, want it to say the list was cut", st.Error)
	}
	tools, _ := p.Tools("endless")
	if len(tools) == 0 || len(tools) > maxListItems {
		t.Fatalf("%d tools kept", len(tools))
	}
	res, err := p.CallTool(context.Background(), "endless", "list-pages", nil)
	if err != nil {
		t.Fatal(err)
	}
	if pages, _ := strconv.Atoi(resultText(res)); pages > maxListPages {
		t.Fatalf("%d pages asked for; the bound is %d", pages, maxListPages)
	}
}

// TestHugeInstructions: a server's instructions, which the model reads
// with every request, are cut to maxInstructions.
func TestHugeInstructions(t *testing.T) {
	p, _ := newTestPool(t, hostileServer(t, "talky", "huge-instructions", nil))
	waitState(t, p, "talky", events.StateConnected, 15*time.Second)
	got := p.Instructions("talky")
	if len(got) < maxInstructions/2 || len(got) > maxInstructions+64 || !strings.Contains(got, "(cut: ") {
		t.Fatalf("instructions of %d bytes (ends %q); bound %d", len(got), got[max(0, len(got)-40):], maxInstructions)
	}
}

// TestStatusErrorBounded: a status error quoting something huge (here a
// 100 KB command name) is cut to maxStatusError.
func TestStatusErrorBounded(t *testing.T) {
	p, _ := newTestPool(t, mcpconfig.Server{ID: "long", Command: strings.Repeat("x", 100_000)})
	st := waitState(t, p, "long", events.StateFailed, 15*time.Second)
	if len(st.Error) > maxStatusError+64 || !strings.Contains(st.Error, "(cut: ") {
		t.Fatalf("status error of %d bytes; bound %d", len(st.Error), maxStatusError)
	}
}
