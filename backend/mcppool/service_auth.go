package mcppool

import (
	"context"
	"sync"
	"time"

	"mcpdesk/backend/oauth"
)

// signInWait bounds how long a sign-in waits for the user in the browser.
const signInWait = 5 * time.Minute

// signInRuns numbers sign-ins and cancels one replaced by another.
type signInRuns struct {
	mu     sync.Mutex
	cancel map[string]context.CancelFunc
	// next lets a step-by-step sign-in's waiting step run.
	next map[string]chan struct{}
}

// SignIn signs in to a remote server that asked for it: the system
// browser opens on its authorization server, and once the user approved
// the server reconnects. Each step is sent as an mcp:sign-in-step event
// (the OAuth debugger). A new SignIn for the same server replaces one
// still waiting; CancelSignIn stops it.
func (s *MCPPool) SignIn(id string) error { return s.signIn(id, false) }

// SignInStepByStep runs the sign-in as SignIn does, but waits before each
// step (an mcp:sign-in-step event with status "waiting" names it) until
// ContinueSignIn: the OAuth debugger's step by step.
func (s *MCPPool) SignInStepByStep(id string) error { return s.signIn(id, true) }

// ContinueSignIn lets the waiting step of a step-by-step sign-in run.
func (s *MCPPool) ContinueSignIn(id string) {
	s.runs.mu.Lock()
	next := s.runs.next[id]
	s.runs.mu.Unlock()
	if next != nil {
		select {
		case next <- struct{}{}:
		default:
		}
	}
}

func (s *MCPPool) signIn(id string, stepwise bool) error {
	ctx, cancel := context.WithTimeout(s.pool.context(), signInWait)
	defer cancel()
	s.runs.mu.Lock()
	if prev := s.runs.cancel[id]; prev != nil {
		prev()
	}
	if s.runs.cancel == nil {
		s.runs.cancel, s.runs.next = map[string]context.CancelFunc{}, map[string]chan struct{}{}
	}
	s.runs.cancel[id] = cancel
	next := make(chan struct{}, 1)
	s.runs.next[id] = next
	s.runs.mu.Unlock()
	defer func() {
		s.runs.mu.Lock()
		if s.runs.next[id] == next {
			delete(s.runs.cancel, id)
			delete(s.runs.next, id)
		}
		s.runs.mu.Unlock()
	}()
	var pause func(ctx context.Context, step string) error
	if stepwise {
		pause = func(ctx context.Context, step string) error {
			s.pool.emitStep(id, oauth.Event{Step: step, Status: "waiting", Title: "Next: " + step + " — press Continue"})
			select {
			case <-next:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return s.pool.SignIn(ctx, id, nil, pause)
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
