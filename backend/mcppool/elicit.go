package mcppool

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
)

// Elicitor answers a server's elicitation/create (SPEC A10) on the user's
// behalf: the window asks in a dialog, the command line answers from a flag
// or the terminal. mcp-go routes both protocol revisions here: a
// server-initiated request on 2025-11-25, and an input_required result of
// the multi-round-trip flow on 2026-07-28.
type Elicitor interface {
	Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)
}

// elicitHandler adapts an Elicitor to one server's mcp-go client.
type elicitHandler struct {
	server string
	e      Elicitor
}

func (h elicitHandler) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return h.e.Elicit(ctx, h.server, req)
}

// ElicitationTimeout is how long a question waits for the user before it is
// answered "cancel".
const ElicitationTimeout = 5 * time.Minute

// ElicitationDesk is the window's Elicitor: it publishes each question as an
// event and waits for Answer. An answer is taken once; a later one, or one
// for a question that timed out, is refused.
type ElicitationDesk struct {
	emit    events.Emitter
	timeout time.Duration
	seq     atomic.Uint64

	mu      sync.Mutex
	pending map[string]chan mcp.ElicitationResponse
}

// NewElicitationDesk returns a desk publishing through emit; timeout 0
// means ElicitationTimeout.
func NewElicitationDesk(emit events.Emitter, timeout time.Duration) *ElicitationDesk {
	if timeout <= 0 {
		timeout = ElicitationTimeout
	}
	return &ElicitationDesk{emit: emit, timeout: timeout, pending: map[string]chan mcp.ElicitationResponse{}}
}

// Elicit asks the user and waits for the answer, the timeout, or the end of
// the call that asked.
func (d *ElicitationDesk) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	id := fmt.Sprintf("elicit-%d", d.seq.Add(1))
	ch := make(chan mcp.ElicitationResponse, 1)
	d.mu.Lock()
	d.pending[id] = ch
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.pending, id)
		d.mu.Unlock()
	}()
	mode := req.Params.Mode
	if mode == "" {
		mode = mcp.ElicitationModeForm
	}
	d.emit.Emit(events.Elicitation, events.ElicitationPayload{
		ID: id, Server: server, Mode: mode, Message: req.Params.Message,
		RequestedSchema: req.Params.RequestedSchema, URL: req.Params.URL, TimeoutMs: d.timeout.Milliseconds(),
	})
	timer := time.NewTimer(d.timeout)
	defer timer.Stop()
	var resp mcp.ElicitationResponse
	select {
	case resp = <-ch:
	case <-timer.C:
		resp = mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionCancel}
	case <-ctx.Done():
		d.emit.Emit(events.ElicitationDone, events.ElicitationDonePayload{ID: id, Action: events.ElicitCancel})
		return nil, ctx.Err()
	}
	d.emit.Emit(events.ElicitationDone, events.ElicitationDonePayload{ID: id, Action: events.ElicitationAction(resp.Action)})
	return &mcp.ElicitationResult{ElicitationResponse: resp}, nil
}

// ErrNoSuchElicitation is returned for an answer nobody waits for.
var ErrNoSuchElicitation = errors.New("this question is no longer waiting for an answer")

// Answer resolves question id with action (accept, decline or cancel) and,
// for accept, the content.
func (d *ElicitationDesk) Answer(id string, action events.ElicitationAction, content map[string]any) error {
	resp := mcp.ElicitationResponse{Action: mcp.ElicitationResponseAction(action)}
	switch resp.Action {
	case mcp.ElicitationResponseActionAccept:
		if content == nil {
			content = map[string]any{}
		}
		resp.Content = content
	case mcp.ElicitationResponseActionDecline, mcp.ElicitationResponseActionCancel:
	default:
		return fmt.Errorf("answer must be accept, decline or cancel, not %q", action)
	}
	d.mu.Lock()
	ch, ok := d.pending[id]
	delete(d.pending, id)
	d.mu.Unlock()
	if !ok {
		return ErrNoSuchElicitation
	}
	ch <- resp
	return nil
}
