package mcppool

import (
	"sync"
	"time"

	"mcpdesk/backend/events"
)

// Coalesced re-lists. A server says its tools, resources or prompts changed
// with a list_changed notification; the pool then lists that kind again.
// A server may send a storm of them, so per server and kind at most one
// re-list runs and at most one waits, and re-lists start at most every
// relistGap: 100,000 notifications in a second cost a handful of re-lists,
// and the last change is always listed.

// relistGap is the least time between the starts of two re-lists of one
// kind of one server.
const relistGap = 500 * time.Millisecond

// relists is the re-list state of one server's kinds.
type relists struct {
	mu    sync.Mutex
	kinds map[events.ListKind]*relistState
	// started counts re-lists started, for tests.
	started int
}

type relistState struct {
	running bool      // a re-list loop runs for the kind
	pending bool      // another change arrived since it started listing
	last    time.Time // when the last re-list started
}

// relist asks for kind to be listed again: now when no re-list of it runs,
// else once more when the running one is done. It never blocks: it is
// called on the transport's reader goroutine, which listing needs to read.
func (c *conn) relist(kind events.ListKind) {
	r := &c.relists
	r.mu.Lock()
	if r.kinds == nil {
		r.kinds = map[events.ListKind]*relistState{}
	}
	st := r.kinds[kind]
	if st == nil {
		st = &relistState{}
		r.kinds[kind] = st
	}
	if st.running {
		st.pending = true
		r.mu.Unlock()
		return
	}
	st.running = true
	r.mu.Unlock()
	go c.relistLoop(kind, st)
}

// relistLoop lists kind until no change is pending.
func (c *conn) relistLoop(kind events.ListKind, st *relistState) {
	r := &c.relists
	ctx := c.pool.context()
	for {
		r.mu.Lock()
		wait := relistGap - time.Since(st.last)
		r.mu.Unlock()
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				r.mu.Lock()
				st.running, st.pending = false, false
				r.mu.Unlock()
				return
			}
		}
		r.mu.Lock()
		st.last, st.pending = time.Now(), false
		r.started++
		r.mu.Unlock()

		c.relistOnce(kind)

		r.mu.Lock()
		if !st.pending {
			st.running = false
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
	}
}

// relistOnce lists kind of the current session and tells the UI.
func (c *conn) relistOnce(kind events.ListKind) {
	c.mu.Lock()
	sess := c.sess
	c.mu.Unlock()
	if sess == nil {
		return // a new session lists everything when it is set
	}
	err := c.refresh(c.pool.context(), sess, kind == events.ListTools, kind == events.ListResources, kind == events.ListPrompts)
	c.update(func(s *events.ServerStatusPayload) {
		s.Error = ""
		if err != nil {
			s.Error = err.Error()
		}
	})
	c.pool.emit.Emit(events.ListChanged, events.ListChangedPayload{Server: c.cfg.ID, Kind: kind})
}

// relistIdle reports whether no re-list runs or waits, and how many were
// started (for tests).
func (c *conn) relistIdle() (idle bool, started int) {
	r := &c.relists
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, st := range r.kinds {
		if st.running {
			return false, r.started
		}
	}
	return true, r.started
}
