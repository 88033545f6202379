package mcppool

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/oauth"
	"mcpdesk/backend/usererr"
)

// conn supervises one configured server: it connects, lists what the server
// offers, watches for a crash, reconnects with backoff, and limits how many
// calls run at once. All fields behind mu.
type conn struct {
	pool   *Pool
	cfg    mcpconfig.Server
	sem    chan struct{}
	redact *Redactor // scrubs the server's secrets from errors and stderr

	mu         sync.Mutex
	sess       *Session
	status     events.ServerStatusPayload
	tools      []mcp.Tool
	resources  []mcp.Resource
	prompts    []mcp.Prompt
	subs       []string           // subscribed resource URIs, kept across restarts
	stopListen context.CancelFunc // closes a 2026-07-28 notification stream

	relists relists     // coalesces list_changed re-lists (relist.go)
	updates *updateGate // limits resource updates shown (flood.go)

	restart chan struct{}
	cancel  context.CancelFunc
	done    chan struct{}

	// settled is closed once the first start attempt has an outcome
	// (startwait.go); cause is why the next attempt starts (history.go).
	settled     chan struct{}
	settleOnce  sync.Once
	cause       string
	causeDetail string
}

// Backoff for automatic reconnects after a crash.
const (
	backoffMin      = 250 * time.Millisecond
	backoffMax      = 30 * time.Second
	maxAutoRestarts = 8
	// stableAfter: a connection that lived this long resets the backoff.
	stableAfter = 30 * time.Second
)

func backoff(attempt int) time.Duration {
	d := backoffMin << min(attempt-1, 10)
	return min(d, backoffMax)
}

func newConn(p *Pool, cfg mcpconfig.Server) *conn {
	n := cfg.MaxConcurrency
	if n <= 0 {
		n = mcpconfig.DefaultMaxConcurrency
	}
	c := &conn{
		pool:    p,
		cfg:     cfg,
		sem:     make(chan struct{}, n),
		restart: make(chan struct{}, 1),
		done:    make(chan struct{}),
		settled: make(chan struct{}),
		cause:   causeStart,
		redact:  NewRedactor(cfg.SecretValues()),
	}
	c.status = events.ServerStatusPayload{ID: cfg.ID, Transport: string(cfg.Effective()), State: events.StateDisabled}
	return c
}

// start runs the supervisor until stop. A disabled server only reports its
// state.
func (c *conn) start(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	c.cancel = cancel
	if !isEnabled(c.config()) {
		c.update(func(s *events.ServerStatusPayload) { s.State = events.StateDisabled })
		close(c.done)
		return
	}
	go c.run(ctx)
}

// stop ends the supervisor and its session and waits for both.
func (c *conn) stop() {
	c.cancel()
	<-c.done
}

// requestRestart asks the supervisor to reconnect now.
func (c *conn) requestRestart() {
	select {
	case c.restart <- struct{}{}:
	default:
	}
}

func (c *conn) run(ctx context.Context) {
	defer close(c.done)
	attempt := 0    // consecutive failed attempts since the last good connection
	everUp := false // connected at least once in this run
	for {
		c.recordAttempt()
		if attempt == 0 {
			c.update(func(s *events.ServerStatusPayload) {
				s.State, s.Error, s.Stderr, s.Attempt, s.NextRetryMs = events.StateConnecting, "", "", 0, 0
			})
		}
		hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
		c.pool.signIns.clear(c.cfg.ID)
		sess, err := c.pool.dialer.dial(hctx, c.config())
		cancel()
		if ctx.Err() != nil {
			if sess != nil {
				sess.Close()
			}
			c.update(func(s *events.ServerStatusPayload) { s.State = events.StateDisabled })
			return
		}
		if err != nil {
			attempt++
			var de *DialError
			stderr := ""
			if errors.As(err, &de) {
				stderr = de.Stderr
			}
			if c.stopForGood(err, stderr) {
				if !c.waitRestart(ctx, 0) {
					return
				}
				attempt, everUp = 0, false
				continue
			}
			// A server that never came up is a configuration problem for the
			// user to fix; one that crashed after working is restarted.
			if !everUp || attempt > maxAutoRestarts {
				c.update(func(s *events.ServerStatusPayload) {
					s.State, s.Error, s.Stderr, s.Attempt, s.NextRetryMs = events.StateFailed, err.Error(), stderr, 0, 0
					s.Problem = startProblem(err, c.cfg, c.redact)
				})
				c.pool.logger.Warn("mcp server failed", "server", c.cfg.ID, "err", c.redact.Redact(err.Error()))
				if !c.waitRestart(ctx, 0) {
					return
				}
				attempt, everUp = 0, false
				continue
			}
			delay := backoff(attempt)
			c.update(func(s *events.ServerStatusPayload) {
				s.State, s.Error, s.Stderr, s.Attempt, s.NextRetryMs = events.StateRestarting, err.Error(), stderr, attempt, delay.Milliseconds()
			})
			c.setCause(causeRetry, err.Error())
			if !c.waitRestart(ctx, delay) {
				return
			}
			continue
		}

		everUp = true
		up := time.Now()
		c.setSession(ctx, sess)
		select {
		case <-ctx.Done():
			c.clearSession()
			sess.Close()
			c.update(func(s *events.ServerStatusPayload) { s.State = events.StateDisabled })
			return
		case <-c.restart:
			c.setCause(causeUserRestart, "")
			c.clearSession()
			c.update(func(s *events.ServerStatusPayload) { s.State = events.StateRestarting; s.Error = "" })
			sess.Close()
			attempt = 0
		case <-sess.Lost():
			c.clearSession()
			why := sess.RedactError(sess.LostReason())
			sess.Close()
			if c.stopForGood(why, sess.Stderr()) {
				if !c.waitRestart(ctx, 0) {
					return
				}
				attempt, everUp = 0, false
				continue
			}
			if time.Since(up) > stableAfter {
				attempt = 0
			}
			attempt++
			delay := backoff(attempt)
			c.pool.logger.Warn("mcp server connection lost", "server", c.cfg.ID, "err", c.redact.Redact(why.Error()), "retry_in", delay)
			c.update(func(s *events.ServerStatusPayload) {
				s.State, s.Error, s.Stderr, s.Attempt, s.NextRetryMs = events.StateRestarting, why.Error(), sess.Stderr(), attempt, delay.Milliseconds()
			})
			c.setCause(causeConnectionLost, why.Error())
			if !c.waitRestart(ctx, delay) {
				return
			}
		}
	}
}

// waitRestart waits for d (forever when d is 0), a restart request, or the
// end of ctx; it reports false when ctx ended.
func (c *conn) waitRestart(ctx context.Context, d time.Duration) bool {
	var timer <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-ctx.Done():
		c.update(func(s *events.ServerStatusPayload) { s.State = events.StateDisabled })
		return false
	case <-c.restart:
		c.setCause(causeUserRestart, "")
		return true
	case <-timer:
		return true
	}
}

// setSession installs a fresh session, lists what the server offers and
// reports the server connected.
func (c *conn) setSession(ctx context.Context, sess *Session) {
	c.mu.Lock()
	c.sess = sess
	c.mu.Unlock()
	listErr := c.refresh(ctx, sess, true, true, true)
	c.openSubscriptions(ctx, sess)
	c.pool.logger.Info("mcp server connected", "server", c.cfg.ID, "transport", sess.Transport, "protocol", sess.Protocol)
	c.pool.signIns.clear(c.cfg.ID)
	// A (re)started server may serve other views: read them again, so a
	// changed one is noticed (its hash is kept across).
	c.pool.viewsOfServerChanged(c.cfg.ID)
	signIn := c.pool.signInStatus(c.cfg.ID)
	if c.pool.signIns.setFresh(c.cfg.ID, false) {
		c.pool.emitStep(c.cfg.ID, oauth.Event{Step: oauth.StepRequest, Status: "ok", Title: "First authenticated request: the server answered initialize",
			Rule: "MCP authorization §Access Token Usage: Authorization: Bearer on every request", Detail: "protocol " + sess.Protocol + ", server " + sess.Info.Name})
	}
	c.update(func(s *events.ServerStatusPayload) {
		s.State = events.StateConnected
		s.SignIn = signIn
		s.ProtocolVersion = sess.Protocol
		s.ServerName = sess.Info.Name
		s.ServerVersion = sess.Info.Version
		s.CanSubscribe = sess.Capabilities.Resources != nil && sess.Capabilities.Resources.Subscribe
		s.Error, s.Stderr, s.Attempt, s.NextRetryMs = "", "", 0, 0
		if listErr != nil {
			s.Error = listErr.Error()
		}
	})
}

func (c *conn) clearSession() {
	c.mu.Lock()
	c.sess = nil
	if c.stopListen != nil {
		c.stopListen()
		c.stopListen = nil
	}
	c.mu.Unlock()
}

// refresh re-lists the chosen kinds, checking capabilities first: listing
// something the server did not declare fails with "method not found".
func (c *conn) refresh(ctx context.Context, sess *Session, tools, resources, prompts bool) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	var errs []error
	caps := sess.Capabilities
	if tools {
		var list []mcp.Tool
		if caps.Tools != nil {
			var err error // bounded (lists.go): a cut list is kept
			if list, err = c.listTools(ctx, sess); err != nil {
				errs = append(errs, fmt.Errorf("tools/list: %w", err))
			}
		}
		c.mu.Lock()
		c.tools = list
		c.mu.Unlock()
		c.pool.toolsChanged()
	}
	if resources {
		var list []mcp.Resource
		if caps.Resources != nil {
			var err error
			if list, err = c.listResources(ctx, sess); err != nil {
				errs = append(errs, fmt.Errorf("resources/list: %w", err))
			}
		}
		c.mu.Lock()
		c.resources = list
		c.mu.Unlock()
	}
	if prompts {
		var list []mcp.Prompt
		if caps.Prompts != nil {
			var err error
			if list, err = c.listPrompts(ctx, sess); err != nil {
				errs = append(errs, fmt.Errorf("prompts/list: %w", err))
			}
		}
		c.mu.Lock()
		c.prompts = list
		c.mu.Unlock()
	}
	c.mu.Lock()
	c.status.Tools, c.status.Resources, c.status.Prompts = len(c.tools), len(c.resources), len(c.prompts)
	c.mu.Unlock()
	return sess.RedactError(errors.Join(errs...))
}

// handleNotification reacts to list changes by re-listing that kind,
// coalesced (relist.go): a storm of notifications costs a few re-lists.
func (c *conn) handleNotification(n mcp.JSONRPCNotification) {
	switch n.Method {
	case string(mcp.MethodNotificationToolsListChanged):
		c.relist(events.ListTools)
	case string(mcp.MethodNotificationResourcesListChanged):
		c.pool.viewsOfServerChanged(c.cfg.ID)
		c.relist(events.ListResources)
	case string(mcp.MethodNotificationPromptsListChanged):
		c.relist(events.ListPrompts)
	case string(mcp.MethodNotificationProgress):
		c.pool.calls.progress(n)
	case string(mcp.MethodNotificationResourceUpdated):
		c.resourceUpdated(n)
	}
}

// update changes the status under the lock and publishes it.
// Error and stderr text can quote a server's secrets (a URL with a token,
// a server printing its key): they are scrubbed before anyone sees them.
func (c *conn) update(f func(*events.ServerStatusPayload)) {
	c.mu.Lock()
	prevErr, prevProblem := c.status.Error, c.status.Problem
	f(&c.status)
	if c.status.Error != prevErr && c.status.Problem == prevProblem {
		c.status.Problem = nil // it named the previous error
	}
	c.status.Error = clipText(c.redact.Redact(c.status.Error), maxStatusError)
	c.status.Stderr = c.redact.Redact(c.status.Stderr)
	st := c.status
	c.mu.Unlock()
	if st.State != events.StateConnecting {
		c.settleOnce.Do(func() { close(c.settled) })
	}
	c.pool.emit.Emit(events.ServerStatus, st)
}

// snapshot returns the current status.
func (c *conn) snapshot() events.ServerStatusPayload {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

// timeout is how long one request to the server may take: its own
// timeoutMs, else the pool's default (read on every request, so a new
// default applies at once).
func (c *conn) timeout() time.Duration {
	if c.cfg.TimeoutMs > 0 {
		return time.Duration(c.cfg.TimeoutMs) * time.Millisecond
	}
	return c.pool.DefaultTimeout()
}

// ErrNotConnected is returned by calls to a server that is not connected.
var ErrNotConnected = errors.New("server is not connected")

// acquire waits for a free call slot and the current session.
func (c *conn) acquire(ctx context.Context) (*Session, func(), error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, fmt.Errorf("server %q: waiting for a free call slot (limit %d): %w", c.cfg.ID, cap(c.sem), ctx.Err())
	}
	release := func() { <-c.sem }
	c.mu.Lock()
	sess, st := c.sess, c.status
	c.mu.Unlock()
	if sess == nil {
		release()
		code := usererr.CallServerNotRunning
		switch st.State {
		case events.StateRestarting, events.StateConnecting:
			code = usererr.CallServerStarting
		case events.StateDisabled:
			code = usererr.CallServerDisabled
		}
		return nil, nil, usererr.Wrap(ErrNotConnected, code, usererr.Params{"server": c.cfg.ID})
	}
	return sess, release, nil
}

func isEnabled(s mcpconfig.Server) bool { return s.Enabled == nil || *s.Enabled }
