package mcppool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
)

// recorder wraps a transport and writes every JSON-RPC message that crosses
// it, in both directions, to the RPCLog. It is transparent: wrap returns a
// value that implements the same optional interfaces as the inner transport
// (bidirectional requests, HTTP protocol headers, legacy-only, connection
// lost), because mcp-go's client changes behaviour on those assertions.
type recorder struct {
	inner  transport.Interface
	server string
	log    *RPCLog
	redact *Redactor
	// floods limits what the server sends unasked to the log (flood.go).
	floods *logFloods

	notifyMu sync.RWMutex
	onNotify func(mcp.JSONRPCNotification)

	// protocol is the negotiated revision of an HTTP transport ("" until
	// known, and for other transports).
	protocol atomic.Value
	// ended remembers why recent requests were cancelled (cancelled.go).
	ended endedRequests
}

// wrapTransport returns inner wrapped in a recorder for server.
func wrapTransport(inner transport.Interface, server string, log *RPCLog, redact *Redactor) transport.Interface {
	r := &recorder{inner: inner, server: server, log: log, redact: redact, floods: newLogFloods(server, log)}
	inner.SetNotificationHandler(r.handleNotification)

	bidir, isBidir := inner.(transport.BidirectionalInterface)
	httpConn, isHTTP := inner.(transport.HTTPConnection)
	switch {
	case isBidir && isHTTP:
		return &recorderBidirHTTP{recorderBidir{r, bidir}, httpConn}
	case isBidir:
		return &recorderBidir{r, bidir}
	case isHTTP:
		return &recorderHTTP{r, httpConn}
	default:
		return r
	}
}

func (r *recorder) record(dir events.Direction, kind events.RPCKind, method, id string, latency time.Duration, msg any) {
	e := events.RPCEntry{
		Server:    r.server,
		Time:      time.Now().UnixMilli(),
		Direction: dir,
		Kind:      kind,
		Method:    method,
		ID:        id,
	}
	if kind == events.KindResponse || kind == events.KindError {
		ms := float64(latency.Microseconds()) / 1000
		e.LatencyMs = &ms
	}
	// Serialising and redacting happen off the call path, in the logger.
	r.log.addLazy(e, func() string { return r.redact.Redact(serialise(msg)) })
}

// serialise returns msg as JSON text.
func serialise(msg any) string {
	switch m := msg.(type) {
	case json.RawMessage:
		return string(m)
	case *transport.JSONRPCResponse:
		// The result came off the wire and was decoded once already, so
		// it is valid JSON: it is quoted as it came, where json.Marshal
		// would scan and compact it again.
		if m != nil && m.Error == nil && len(m.Result) > 0 {
			id, err := json.Marshal(m.ID)
			if err == nil {
				var b strings.Builder
				b.Grow(len(m.Result) + len(id) + 40)
				b.WriteString(`{"jsonrpc":"2.0","id":`)
				b.Write(id)
				b.WriteString(`,"result":`)
				b.Write(m.Result)
				b.WriteByte('}')
				return b.String()
			}
		}
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return `{"error":"unserialisable message"}`
	}
	return string(b)
}

// Start starts the inner transport.
func (r *recorder) Start(ctx context.Context) error { return r.inner.Start(ctx) }

// SendRequest logs the request, forwards it, and logs the response.
func (r *recorder) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	id := requestID(req.ID)
	r.record(events.Outgoing, events.KindRequest, req.Method, id, 0, req)
	start := time.Now()
	resp, err := r.inner.SendRequest(ctx, req)
	elapsed := time.Since(start)
	if err != nil && ctx.Err() != nil {
		// mcp-go sends notifications/cancelled after this returns; its
		// reason is then given in words (cancelled.go).
		r.ended.remember(id, endNote(ctx))
		r.cancelOverLegacyHTTP(ctx, req)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		// Nothing came from the server: the request ended on our side.
		r.recordEnded(ctx, req.Method, id, elapsed)
	case err != nil:
		r.recordNoAnswer(req.Method, id, elapsed, err)
	case resp.Error != nil:
		r.record(events.Incoming, events.KindError, req.Method, id, elapsed, resp)
	default:
		r.record(events.Incoming, events.KindResponse, req.Method, id, elapsed, resp)
	}
	return resp, err
}

// SendNotification logs and forwards a client notification.
func (r *recorder) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	n = r.ended.explain(n)
	r.record(events.Outgoing, events.KindNotification, n.Method, "", 0, n)
	return r.inner.SendNotification(ctx, n)
}

// SetNotificationHandler sets the handler that receives server
// notifications after they are logged.
func (r *recorder) SetNotificationHandler(h func(mcp.JSONRPCNotification)) {
	r.notifyMu.Lock()
	r.onNotify = h
	r.notifyMu.Unlock()
}

func (r *recorder) handleNotification(n mcp.JSONRPCNotification) {
	if r.floods.allow(n.Method) {
		r.record(events.Incoming, events.KindNotification, n.Method, "", 0, n)
	}
	r.notifyMu.RLock()
	h := r.onNotify
	r.notifyMu.RUnlock()
	if h != nil {
		h(n)
	}
}

// Close closes the inner transport.
func (r *recorder) Close() error {
	r.floods.stop()
	return r.inner.Close()
}

// GetSessionId returns the inner transport's session id.
func (r *recorder) GetSessionId() string { return r.inner.GetSessionId() }

// SetConnectionLostHandler forwards to transports that report a lost
// connection (legacy SSE).
func (r *recorder) SetConnectionLostHandler(h func(error)) {
	if s, ok := r.inner.(interface{ SetConnectionLostHandler(func(error)) }); ok {
		s.SetConnectionLostHandler(h)
	}
}

// RequiresLegacyProtocol forwards the inner transport's answer, so that a
// Streamable HTTP transport with continuous listening stays on 2025-11-25.
func (r *recorder) RequiresLegacyProtocol() bool {
	l, ok := r.inner.(interface{ RequiresLegacyProtocol() bool })
	return ok && l.RequiresLegacyProtocol()
}

type recorderBidir struct {
	*recorder
	bidir transport.BidirectionalInterface
}

// SetRequestHandler logs server→client requests and the client's answers.
func (r *recorderBidir) SetRequestHandler(h transport.RequestHandler) {
	if h == nil {
		r.bidir.SetRequestHandler(nil)
		return
	}
	r.bidir.SetRequestHandler(func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		id := requestID(req.ID)
		if !r.floods.allow(req.Method) {
			return h(ctx, req) // neither it nor its answer is logged
		}
		r.record(events.Incoming, events.KindRequest, req.Method, id, 0, req)
		start := time.Now()
		resp, err := h(ctx, req)
		elapsed := time.Since(start)
		switch {
		case err != nil:
			r.record(events.Outgoing, events.KindError, req.Method, id, elapsed,
				map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"message": err.Error()}})
		case resp != nil && resp.Error != nil:
			r.record(events.Outgoing, events.KindError, req.Method, id, elapsed, resp)
		case resp != nil:
			r.record(events.Outgoing, events.KindResponse, req.Method, id, elapsed, resp)
		}
		return resp, err
	})
}

type recorderHTTP struct {
	*recorder
	http transport.HTTPConnection
}

// SetProtocolVersion forwards the negotiated version to the HTTP transport.
func (r *recorderHTTP) SetProtocolVersion(v string) {
	r.protocol.Store(v)
	r.http.SetProtocolVersion(v)
}

type recorderBidirHTTP struct {
	recorderBidir
	http transport.HTTPConnection
}

// SetProtocolVersion forwards the negotiated version to the HTTP transport.
func (r *recorderBidirHTTP) SetProtocolVersion(v string) {
	r.protocol.Store(v)
	r.http.SetProtocolVersion(v)
}

// requestID is the id as the message carries it: 7 or "abc", without the
// type prefix of RequestId.String.
func requestID(id mcp.RequestId) string {
	if id.IsNil() {
		return ""
	}
	return fmt.Sprint(id.Value())
}

// cancelOverLegacyHTTP tells a Streamable HTTP server on 2025-11-25 that a
// request was cancelled (SPEC A14). mcp-go sends notifications/cancelled
// itself over stdio, and on 2026-07-28 closing the request's stream is the
// cancellation; on the older HTTP revision nothing would reach the server.
func (r *recorder) cancelOverLegacyHTTP(ctx context.Context, req transport.JSONRPCRequest) {
	if _, isHTTP := r.inner.(transport.HTTPConnection); !isHTTP {
		return
	}
	v, _ := r.protocol.Load().(string)
	if v == "" || mcp.IsModernProtocol(v) || req.Method == string(mcp.MethodInitialize) {
		return
	}
	n := mcp.JSONRPCNotification{
		JSONRPC: mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{
			Method: string(mcp.MethodNotificationCancelled),
			Params: mcp.NotificationParams{AdditionalFields: map[string]any{"requestId": req.ID, "reason": cancelReason(endNote(ctx))}},
		},
	}
	sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_ = r.SendNotification(sendCtx, n)
}
