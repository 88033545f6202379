package mcppool

import (
	"slices"
	"sync"
	"time"
)

// StartRecord is one start of a server: when, why, and for an automatic
// restart the error that caused it. The frontend words Cause itself.
type StartRecord struct {
	// Time is when the attempt began, in Unix milliseconds.
	Time int64 `json:"time"`
	// Cause says why the server was (re)started.
	Cause string `json:"cause" ts_type:"'start'|'userRestart'|'configChanged'|'enabled'|'retry'|'connectionLost'"`
	// Detail is the error behind an automatic restart, with the server's
	// secrets redacted; empty otherwise.
	Detail string `json:"detail,omitempty"`
}

// The causes of a start.
const (
	causeStart          = "start"          // the app started, or the server was added
	causeUserRestart    = "userRestart"    // the user pressed Restart
	causeConfigChanged  = "configChanged"  // its settings changed
	causeEnabled        = "enabled"        // the user turned it on
	causeRetry          = "retry"          // an automatic retry after a failed attempt
	causeConnectionLost = "connectionLost" // an automatic restart after the connection dropped
)

// maxStartRecords is how many starts are kept per server; a server that
// keeps crashing does not grow the history without bound.
const maxStartRecords = 20

// maxStartDetail bounds the error text kept with one record.
const maxStartDetail = 1 << 10

// startHistory keeps the recent starts of every server by id, so that a
// restart caused by a settings change (a new conn) keeps what came before.
type startHistory struct {
	mu   sync.Mutex
	byID map[string][]StartRecord
}

func (h *startHistory) add(id string, r StartRecord) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byID == nil {
		h.byID = map[string][]StartRecord{}
	}
	list := append(h.byID[id], r)
	if over := len(list) - maxStartRecords; over > 0 {
		list = slices.Delete(list, 0, over)
	}
	h.byID[id] = list
}

// get returns the starts of id, newest first.
func (h *startHistory) get(id string) []StartRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := slices.Clone(h.byID[id])
	slices.Reverse(out)
	if out == nil {
		out = []StartRecord{}
	}
	return out
}

func (h *startHistory) forget(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.byID, id)
}

// setCause says why the next start attempt happens; detail is the error
// behind an automatic restart.
func (c *conn) setCause(cause, detail string) {
	c.mu.Lock()
	c.cause = cause
	c.causeDetail = clipText(c.redact.Redact(detail), maxStartDetail)
	c.mu.Unlock()
}

// recordAttempt adds the attempt about to begin to the server's history.
func (c *conn) recordAttempt() {
	c.mu.Lock()
	r := StartRecord{Time: time.Now().UnixMilli(), Cause: c.cause, Detail: c.causeDetail}
	// Until told otherwise, a further attempt is an automatic retry.
	c.cause, c.causeDetail = causeRetry, ""
	c.mu.Unlock()
	c.pool.history.add(c.cfg.ID, r)
}
