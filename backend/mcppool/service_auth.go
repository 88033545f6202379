package mcppool

import (
	"context"
	"maps"
	"sync"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/oauth"
)

// signInWait bounds how long a sign-in waits for the user in the browser.
const signInWait = 5 * time.Minute

// signInRuns numbers sign-ins and cancels one replaced by another.
type signInRuns struct {
	mu      sync.Mutex
	attempt int
	cancel  map[string]context.CancelFunc
}

// SignIn signs in to a remote server that asked for it: the system
// browser opens on its authorization server, and once the user approved
// the server reconnects. Each step is sent as an mcp:sign-in-step event
// (the OAuth debugger). A new SignIn for the same server replaces one
// still waiting; CancelSignIn stops it.
func (s *MCPPool) SignIn(id string) error {
	ctx, cancel := context.WithTimeout(s.pool.context(), signInWait)
	defer cancel()
	s.runs.mu.Lock()
	if prev := s.runs.cancel[id]; prev != nil {
		prev()
	}
	if s.runs.cancel == nil {
		s.runs.cancel = map[string]context.CancelFunc{}
	}
	s.runs.cancel[id] = cancel
	s.runs.attempt++
	attempt := s.runs.attempt
	s.runs.mu.Unlock()
	defer func() {
		s.runs.mu.Lock()
		delete(s.runs.cancel, id)
		s.runs.mu.Unlock()
	}()
	seq := 0
	var mu sync.Mutex
	return s.pool.SignIn(ctx, id, func(e oauth.Event) {
		mu.Lock()
		seq++
		n := seq
		mu.Unlock()
		s.pool.emit.Emit(events.SignInStep, stepPayload(id, attempt, n, e))
	})
}

// CancelSignIn stops waiting for a sign-in in the browser.
func (s *MCPPool) CancelSignIn(id string) {
	s.runs.mu.Lock()
	defer s.runs.mu.Unlock()
	if c := s.runs.cancel[id]; c != nil {
		c()
	}
}

// SignOut signs out of a remote server: its tokens are revoked where the
// server allows and deleted from the keychain.
func (s *MCPPool) SignOut(id string) error {
	ctx, cancel := context.WithTimeout(s.pool.context(), 30*time.Second)
	defer cancel()
	return s.pool.SignOut(ctx, id)
}

func stepPayload(server string, attempt, seq int, e oauth.Event) events.SignInStepPayload {
	p := events.SignInStepPayload{Server: server, Attempt: attempt, Seq: seq, Step: e.Step, Status: e.Status, Title: e.Title, Rule: e.Rule, Detail: e.Detail}
	if x := e.HTTP; x != nil {
		p.HTTP = &events.SignInHTTP{
			Method: x.Method, URL: x.URL, RequestBody: x.RequestBody, Status: x.Status, ResponseBody: x.ResponseBody, Error: x.Error,
			RequestHeaders: orEmpty(x.RequestHeaders), ResponseHeaders: orEmpty(x.ResponseHeaders),
		}
	}
	return p
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return maps.Clone(m)
}
