package mcppool

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
)

// Flood limits. What a server sends unasked — notifications, and requests
// to the client — is shown to the user: log messages and the rest in the
// JSON-RPC logger, progress in the running call's progress bar. A server
// could send them as fast as a pipe carries them, so each stream passes a
// token bucket: a burst goes through, then a sustained rate; what is held
// back is counted and shown as "N dropped".
//
// The rates:
//   - logger: per server and method, bursts of 200, then 50 a second; the
//     count of what was held back is logged as one marker entry at most
//     once a second. Beyond 16 methods a server's methods share one bucket.
//   - progress: per call, bursts of 5, then 10 a second; the latest
//     progress is always shown (held back, it is shown when the bucket
//     refills), with the count of the notifications skipped.
//
// Handling is not limited, only showing: a list_changed still triggers its
// (coalesced) re-list, and every progress notification still restarts its
// call's timeout.
const (
	logBurst        = 200
	logRate         = 50
	logReportEvery  = time.Second
	logMaxMethods   = 16
	progressBurst   = 5
	progressRate    = 10
	progressEvery   = time.Second / progressRate
	otherMethodsKey = "*"
)

// floodGate is a token bucket that counts what it holds back and reports
// the count from a timer, at most every `every`, once the flood holds some
// back. Safe for concurrent use.
type floodGate struct {
	rate   float64 // tokens per second
	burst  float64
	every  time.Duration
	report func(held int) // called on a timer goroutine; nil: only count

	mu      sync.Mutex
	tokens  float64
	last    time.Time
	held    int
	timer   *time.Timer
	stopped bool
}

func newFloodGate(rate, burst float64, every time.Duration, report func(held int)) *floodGate {
	return &floodGate{rate: rate, burst: burst, every: every, report: report, tokens: burst}
}

// allow reports whether a message may pass now; one that may not is
// counted as held back.
func (g *floodGate) allow() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	if !g.last.IsZero() {
		g.tokens = min(g.burst, g.tokens+now.Sub(g.last).Seconds()*g.rate)
	}
	g.last = now
	if g.tokens >= 1 {
		g.tokens--
		return true
	}
	g.held++
	if g.timer == nil && !g.stopped && g.report != nil {
		g.timer = time.AfterFunc(g.every, g.flush)
	}
	return false
}

// flush reports what was held back since the last report.
func (g *floodGate) flush() {
	g.mu.Lock()
	held := g.held
	g.held, g.timer = 0, nil
	stopped := g.stopped
	g.mu.Unlock()
	if held > 0 && !stopped {
		g.report(held)
	}
}

// stop ends reporting; what is held back is no longer reported.
func (g *floodGate) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopped = true
	if g.timer != nil {
		g.timer.Stop()
		g.timer = nil
	}
}

// logFloods limits what one session's server sends unasked to the logger:
// a gate per method, each reporting a marker entry.
type logFloods struct {
	server string
	log    *RPCLog

	mu    sync.Mutex
	gates map[string]*floodGate
}

func newLogFloods(server string, log *RPCLog) *logFloods {
	return &logFloods{server: server, log: log, gates: map[string]*floodGate{}}
}

// allow reports whether a message of method may be logged now.
func (f *logFloods) allow(method string) bool {
	f.mu.Lock()
	key := method
	if _, ok := f.gates[key]; !ok && len(f.gates) >= logMaxMethods {
		key = otherMethodsKey
	}
	g := f.gates[key]
	if g == nil {
		g = newFloodGate(logRate, logBurst, logReportEvery, func(held int) { f.marker(key, held) })
		f.gates[key] = g
	}
	f.mu.Unlock()
	return g.allow()
}

// marker logs that held messages of method were not logged.
func (f *logFloods) marker(method string, held int) {
	shown := method
	if method == otherMethodsKey {
		shown = "(other methods)"
	}
	f.log.Add(events.RPCEntry{
		Server:    f.server,
		Time:      time.Now().UnixMilli(),
		Direction: events.Incoming,
		Kind:      events.KindNotification,
		Method:    shown,
		Dropped:   held,
		Payload:   fmt.Sprintf(`{"dropped":%d,"method":%q,"reason":"more than %d a second (bursts of %d) from this server"}`, held, shown, logRate, logBurst),
	})
}

// stop ends the gates' reports.
func (f *logFloods) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, g := range f.gates {
		g.stop()
	}
}

// progressGate limits the progress shown for one call: the latest held
// back is shown when the bucket refills. Showing happens under its lock,
// so progress is never shown out of order.
type progressGate struct {
	gate *floodGate
	show func(events.ProgressPayload)

	mu      sync.Mutex
	latest  *events.ProgressPayload // held back, not yet shown
	dropped int                     // skipped so far in this call
}

func newProgressGate(show func(events.ProgressPayload)) *progressGate {
	pg := &progressGate{show: show}
	pg.gate = newFloodGate(progressRate, progressBurst, progressEvery, func(int) {
		pg.mu.Lock()
		defer pg.mu.Unlock()
		if p := pg.latest; p != nil {
			pg.latest = nil
			p.Dropped = pg.dropped
			pg.show(*p)
		}
	})
	return pg
}

// offer shows p now, with the count skipped so far, or holds it back as
// the latest. A held one that a later one replaces before it is shown
// counts as skipped.
func (pg *progressGate) offer(p events.ProgressPayload) {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.latest != nil {
		pg.dropped++
		pg.latest = nil
	}
	if !pg.gate.allow() {
		pg.latest = &p
		return
	}
	p.Dropped = pg.dropped
	pg.show(p)
}

func (pg *progressGate) stop() { pg.gate.stop() }

// Resource updates: a server's notifications/resources/updated reach the
// UI only for resources the user subscribed to, in bursts of 20, then 5 a
// second; a URI held back is reported once when the bucket refills, so the
// last change of every resource is always reported.
const (
	updateBurst = 20
	updateRate  = 5
	updateEvery = time.Second / updateRate
)

// updateGate limits the resource updates of one server.
type updateGate struct {
	gate *floodGate
	emit func(uri string)

	mu      sync.Mutex
	pending map[string]bool // held back, not yet reported
}

func newUpdateGate(emit func(uri string)) *updateGate {
	u := &updateGate{emit: emit, pending: map[string]bool{}}
	u.gate = newFloodGate(updateRate, updateBurst, updateEvery, func(int) {
		u.mu.Lock()
		defer u.mu.Unlock()
		for uri := range u.pending {
			u.emit(uri)
		}
		clear(u.pending)
	})
	return u
}

// offer reports uri now, or once when the bucket refills.
func (u *updateGate) offer(uri string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.gate.allow() {
		u.pending[uri] = true
		return
	}
	delete(u.pending, uri)
	u.emit(uri)
}

// resourceUpdated publishes a notifications/resources/updated of a
// subscribed resource, within the flood limit.
func (c *conn) resourceUpdated(n mcp.JSONRPCNotification) {
	uri, _ := n.Params.AdditionalFields["uri"].(string)
	c.mu.Lock()
	if uri == "" || !slices.Contains(c.subs, uri) {
		c.mu.Unlock()
		return
	}
	if c.updates == nil {
		c.updates = newUpdateGate(func(uri string) { c.pool.emitResourceUpdated(c.cfg.ID, uri) })
	}
	u := c.updates
	c.mu.Unlock()
	u.offer(uri)
}
