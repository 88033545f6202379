package mcppool

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/usererr"
)

// ErrCancelled is the cause of a call the user stopped.
var ErrCancelled error = usererr.New(usererr.CallCancelled, nil)

// ErrTimeout is matched (errors.Is) by the error of a call its server did
// not answer within the server's time limit.
var ErrTimeout = errors.New("tool call timed out")

// timeoutError says which server ran past which limit; it is ErrTimeout.
type timeoutError struct {
	server  string
	timeout time.Duration
}

func (e *timeoutError) Error() string        { return usererr.English(e.UserError()) }
func (e *timeoutError) Is(target error) bool { return target == ErrTimeout }

// UserError names the timeout for the UI (usererr.Coded).
func (e *timeoutError) UserError() (usererr.Code, usererr.Params) {
	return usererr.CallTimeout, usererr.Params{"server": e.server, "timeout": e.timeout}
}

// calls tracks the tool calls that carry a caller-chosen id: Stop finds
// them by it, and their progress notifications (the id is also the
// progress token) are published and keep their timeout from firing.
type calls struct {
	emit events.Emitter

	mu      sync.Mutex
	running map[string]*runningCall
}

type runningCall struct {
	cancel context.CancelCauseFunc
	touch  func() // called on each progress notification
	// observe, when set, hears each progress notification shown too.
	observe func(events.ProgressPayload)
	// gate limits the progress shown (flood.go).
	gate *progressGate
}

func newCalls(emit events.Emitter) *calls {
	return &calls{emit: emit, running: map[string]*runningCall{}}
}

func (cs *calls) add(id string, rc *runningCall) error {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if _, dup := cs.running[id]; dup {
		return fmt.Errorf("a call with id %q is already running", id)
	}
	rc.gate = newProgressGate(func(p events.ProgressPayload) { cs.show(id, rc, p) })
	cs.running[id] = rc
	return nil
}

func (cs *calls) remove(id string) {
	cs.mu.Lock()
	rc := cs.running[id]
	delete(cs.running, id)
	cs.mu.Unlock()
	if rc != nil {
		rc.gate.stop()
	}
}

// cancel stops the call with id; it reports whether one was running.
func (cs *calls) cancel(id string) bool {
	cs.mu.Lock()
	rc := cs.running[id]
	cs.mu.Unlock()
	if rc == nil {
		return false
	}
	rc.cancel(ErrCancelled)
	return true
}

// progress publishes a notifications/progress for a tracked call, within
// the flood limit, and resets that call's timeout (SPEC A6). Progress for
// other tokens is ignored.
func (cs *calls) progress(n mcp.JSONRPCNotification) {
	f := n.Params.AdditionalFields
	p := events.ProgressPayload{CallID: fmt.Sprint(f["progressToken"])}
	p.Progress, _ = f["progress"].(float64)
	p.Total, _ = f["total"].(float64)
	p.Message, _ = f["message"].(string)
	cs.mu.Lock()
	rc := cs.running[p.CallID]
	cs.mu.Unlock()
	if rc == nil {
		return
	}
	rc.touch()
	rc.gate.offer(p)
}

// publish reports progress of a tracked call — to the UI and to the call's
// observer — and restarts its timeout. Progress of other calls is ignored.
func (cs *calls) publish(p events.ProgressPayload) {
	cs.mu.Lock()
	rc := cs.running[p.CallID]
	cs.mu.Unlock()
	if rc == nil {
		return
	}
	rc.touch()
	cs.show(p.CallID, rc, p)
}

// show reports p to the UI and the call's observer, while rc is the
// running call id.
func (cs *calls) show(id string, rc *runningCall, p events.ProgressPayload) {
	cs.mu.Lock()
	current := cs.running[id] == rc
	cs.mu.Unlock()
	if !current {
		return
	}
	p.Message = clipText(p.Message, maxProgressMessage)
	cs.emit.Emit(events.Progress, p)
	if rc.observe != nil {
		rc.observe(p)
	}
}

// CallToolTracked calls a tool under callID: CancelCall(callID) stops it
// (mcp-go then tells the server with notifications/cancelled), its progress
// is published as events, and its timeout restarts with every progress
// notification. It returns the result and how long the call took.
func (p *Pool) CallToolTracked(ctx context.Context, callID, server, tool string, args map[string]any) (*mcp.CallToolResult, time.Duration, error) {
	return p.callToolTracked(ctx, callID, server, tool, args, nil)
}

func (p *Pool) callToolTracked(ctx context.Context, callID, server, tool string, args map[string]any,
	observe func(events.ProgressPayload)) (*mcp.CallToolResult, time.Duration, error) {
	if callID == "" {
		return nil, 0, errors.New("a call id is required")
	}
	c := p.conn(server)
	if c == nil {
		return nil, 0, unknownServer(server)
	}
	sess, release, err := c.acquire(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer release()

	timeout := c.timeout()
	errTimeout := &timeoutError{server: server, timeout: timeout}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(timeout, func() { cancel(errTimeout) })
	defer timer.Stop()
	if err := p.calls.add(callID, &runningCall{cancel: cancel, touch: func() { timer.Reset(timeout) }, observe: observe}); err != nil {
		return nil, 0, err
	}
	defer p.calls.remove(callID)

	if args == nil {
		args = map[string]any{}
	}
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{
		Name: tool, Arguments: args, Meta: &mcp.Meta{ProgressToken: callID},
	}}
	start := time.Now()
	var res *mcp.CallToolResult
	if c.taskRequired(tool) && !mcp.IsModernProtocol(sess.Protocol) {
		n := 0
		res, err = callAsTask(ctx, sess, req, func(msg string) { n++; p.calls.status(callID, n, msg) })
	} else {
		res, err = sess.Client.CallTool(ctx, req)
	}
	elapsed := time.Since(start)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
			return nil, elapsed, cause
		}
		return nil, elapsed, sess.RedactError(withLostReason(err, sess))
	}
	return sess.scrubResult(res), elapsed, nil
}

// CancelCall stops a call started with CallToolTracked. Stopping a call
// that already ended is not an error: the user may press Stop just as the
// result arrives.
func (p *Pool) CancelCall(callID string) { p.calls.cancel(callID) }
