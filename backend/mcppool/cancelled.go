package mcppool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
)

// What became of a request that ended without an answer, as the logger
// notes it (events.RPCEntry.Note).
const (
	noteCancelledByUser = "cancelledByUser" // the user pressed Stop
	noteTimedOut        = "timedOut"        // it ran past its time limit
	noteAbandoned       = "abandoned"       // MCP Desk no longer needed it (a restart, quitting)
	noteNoAnswer        = "noAnswer"        // the connection failed before an answer came
)

// endNote says why a request whose context ended was given up: the cause
// of the context, not its Go error text.
func endNote(ctx context.Context) string {
	cause := context.Cause(ctx)
	switch {
	case errors.Is(cause, ErrCancelled):
		return noteCancelledByUser
	case errors.Is(cause, ErrTimeout), errors.Is(cause, context.DeadlineExceeded):
		return noteTimedOut
	default:
		return noteAbandoned
	}
}

// cancelReason is the reason a notifications/cancelled gives the server,
// in words a person reading the server's log understands.
func cancelReason(note string) string {
	switch note {
	case noteCancelledByUser:
		return "The user stopped this request."
	case noteTimedOut:
		return "No answer came within the time limit."
	default:
		return "The client no longer needs this answer."
	}
}

// recordEnded notes in the logger that request id ended on our side before
// an answer came. Nothing was received, so the entry is Local and carries
// no message: the frontend words Note itself.
func (r *recorder) recordEnded(ctx context.Context, method, id string, elapsed time.Duration) {
	ms := float64(elapsed.Microseconds()) / 1000
	r.log.Add(events.RPCEntry{
		Server: r.server, Time: time.Now().UnixMilli(), Direction: events.Local,
		Kind: events.KindCancelled, Method: method, ID: id, LatencyMs: &ms, Note: endNote(ctx),
	})
}

// recordNoAnswer notes in the logger that request id failed on our side —
// the connection broke or could not be used — with the reason, redacted.
func (r *recorder) recordNoAnswer(method, id string, elapsed time.Duration, err error) {
	ms := float64(elapsed.Microseconds()) / 1000
	payload, _ := json.Marshal(map[string]string{"reason": r.redact.Redact(err.Error())})
	r.log.Add(events.RPCEntry{
		Server: r.server, Time: time.Now().UnixMilli(), Direction: events.Local,
		Kind: events.KindError, Method: method, ID: id, LatencyMs: &ms, Note: noteNoAnswer,
		Payload: string(payload),
	})
}

// maxEndedRequests bounds endedRequests: mcp-go sends its
// notifications/cancelled at once, so only the latest few are ever asked
// for.
const maxEndedRequests = 64

// endedRequests remembers why recent requests were cancelled, until the
// notifications/cancelled that names them is sent.
type endedRequests struct {
	mu    sync.Mutex
	notes map[string]string
	order []string
}

func (e *endedRequests) remember(id, note string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.notes == nil {
		e.notes = map[string]string{}
	}
	if len(e.order) >= maxEndedRequests {
		delete(e.notes, e.order[0])
		e.order = e.order[1:]
	}
	e.notes[id] = note
	e.order = append(e.order, id)
}

func (e *endedRequests) take(id string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	note, ok := e.notes[id]
	delete(e.notes, id)
	return note, ok
}

// explain gives a notifications/cancelled our reason in words instead of
// the Go error mcp-go puts there ("context canceled"). Other notifications
// pass unchanged.
func (e *endedRequests) explain(n mcp.JSONRPCNotification) mcp.JSONRPCNotification {
	if n.Method != string(mcp.MethodNotificationCancelled) {
		return n
	}
	fields := n.Params.AdditionalFields
	note, known := e.take(cancelledRequestID(fields["requestId"]))
	reason, _ := fields["reason"].(string)
	if !known && !isGoContextError(reason) {
		return n
	}
	fields = maps.Clone(fields)
	fields["reason"] = cancelReason(note)
	n.Params.AdditionalFields = fields
	return n
}

// cancelledRequestID returns the id a notifications/cancelled names, in
// the form requestID gives.
func cancelledRequestID(v any) string {
	switch id := v.(type) {
	case mcp.RequestId:
		return requestID(id)
	case *mcp.RequestId:
		if id != nil {
			return requestID(*id)
		}
		return ""
	case nil:
		return ""
	default:
		return fmt.Sprint(id)
	}
}

func isGoContextError(s string) bool {
	return s == context.Canceled.Error() || s == context.DeadlineExceeded.Error()
}
