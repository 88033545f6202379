package mcppool

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	"mcpdesk/backend/events"
	"mcpdesk/backend/httpguard"
	"mcpdesk/backend/mcpconfig"
)

// The message size limit. mcp-go reads a stdio line and an HTTP body
// without a limit, so a server could make the app hold gigabytes. Every
// stream from a server is therefore read through a limiter: a stdio line,
// a JSON body and one event of an event stream may each be at most the
// server's maxMessageBytes (32 MB by default). A server that sends more is
// stopped with a MessageTooLargeError and not restarted automatically: it
// would only do it again.
//
// The limiters hold no data themselves; they stop the stream before the
// reader above them (mcp-go's bufio line reader) has buffered more than
// the limit of one message.

// MessageTooLargeError says a server sent a message larger than its limit.
type MessageTooLargeError struct {
	// Limit is the server's limit in bytes.
	Limit int64
}

func (e *MessageTooLargeError) Error() string {
	return fmt.Sprintf("sent a message larger than %s (limit: maxMessageBytes)", formatSize(e.Limit))
}

// messageLimitOf is the message size limit of srv.
func messageLimitOf(srv mcpconfig.Server) int64 {
	if srv.MaxMessageBytes > 0 {
		return int64(srv.MaxMessageBytes)
	}
	return mcpconfig.DefaultMaxMessageBytes
}

// formatSize writes n bytes for people: "32 MB", "64 KB", "1500 bytes".
func formatSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// messageLimit enforces one session's limit on every stream from its
// server. The first stream past the limit trips it: trip hears the error
// once, and every limiter of the session fails from then on.
type messageLimit struct {
	max  int64
	trip func(error)

	once sync.Once
	mu   sync.Mutex
	err  *MessageTooLargeError
}

func newMessageLimit(max int64, trip func(error)) *messageLimit {
	return &messageLimit{max: max, trip: trip}
}

// fail trips the limit and returns the error to report.
func (m *messageLimit) fail() error {
	m.once.Do(func() {
		e := &MessageTooLargeError{Limit: m.max}
		m.mu.Lock()
		m.err = e
		m.mu.Unlock()
		if m.trip != nil {
			m.trip(e)
		}
	})
	return m.tripped()
}

// tripped returns the error once the limit was passed, else nil.
func (m *messageLimit) tripped() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err == nil {
		return nil
	}
	return m.err
}

// lines wraps a stdio server's standard output. A line longer than the
// limit closes the pipe, so the server's next write fails rather than
// blocks.
func (m *messageLimit) lines(r io.ReadCloser) io.Reader {
	return &lineLimiter{r: r, limit: m.max, fail: func() error { err := m.fail(); _ = r.Close(); return err }}
}

// lineLimiter passes a stream of newline-terminated messages through and
// fails it when a line grows past limit bytes (not counting its "\n"; a
// "\r" before it counts, as mcp-go's reader splits at "\n" only). What it
// returns never holds more than limit bytes of one line: the Read that
// would pass the limit returns the bytes up to the end of the previous
// line, with the error.
type lineLimiter struct {
	r     io.Reader
	limit int64
	fail  func() error // called once, at the first line past the limit

	run int64 // bytes of the current line so far
	err error // sticky
}

func (l *lineLimiter) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	buf := p[:n]
	for i := 0; i < len(buf); {
		j := bytes.IndexByte(buf[i:], '\n')
		seg := len(buf) - i
		if j >= 0 {
			seg = j
		}
		if l.run+int64(seg) > l.limit {
			l.err = l.fail()
			return i, l.err
		}
		if j < 0 {
			l.run += int64(seg)
			break
		}
		l.run = 0
		i += j + 1
	}
	return n, err
}

// httpClient returns the client the session's HTTP transport uses: its
// response bodies are limited, a JSON body by its total size and an event
// stream by the size of one event, and it follows no redirect to another
// host (the server's headers, often a token, would go along).
func (m *messageLimit) httpClient(base http.RoundTripper) *http.Client {
	if base == nil {
		base = http.DefaultTransport
	}
	return &http.Client{
		Transport:     &limitedTransport{base: base, limit: m},
		CheckRedirect: httpguard.SameHostRedirects(nil),
	}
}

// limitedTransport limits the bodies of the responses base returns.
type limitedTransport struct {
	base  http.RoundTripper
	limit *messageLimit
}

// RoundTrip sends req through base and wraps the response body.
func (t *limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	m := t.limit
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "text/event-stream" {
		resp.Body = &eventLimiter{body: resp.Body, limit: m.max, fail: m.fail, blank: true}
		return resp, nil
	}
	if resp.ContentLength > m.max {
		// Announced too large: fail at the first read, reading nothing.
		resp.Body = &bodyLimiter{body: resp.Body, limit: m.max, fail: m.fail, err: m.fail()}
		return resp, nil
	}
	resp.Body = &bodyLimiter{body: resp.Body, limit: m.max, fail: m.fail}
	return resp, nil
}

// bodyLimiter fails a body longer than limit bytes.
type bodyLimiter struct {
	body  io.ReadCloser
	limit int64
	fail  func() error

	n   int64
	err error
}

func (b *bodyLimiter) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.body.Read(p)
	if b.n+int64(n) > b.limit {
		b.err = b.fail()
		return 0, b.err
	}
	b.n += int64(n)
	return n, err
}

func (b *bodyLimiter) Close() error { return b.body.Close() }

// eventLimiter fails an event stream one of whose events — the lines up
// to a blank line, as mcp-go's reader splits them — is longer than limit
// bytes. A line is blank when it holds nothing but "\r" before its "\n".
type eventLimiter struct {
	body  io.ReadCloser
	limit int64
	fail  func() error

	run   int64 // bytes of the current event so far
	blank bool  // the current line holds only "\r" so far
	err   error
}

func (e *eventLimiter) Read(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.body.Read(p)
	buf := p[:n]
	for i := 0; i < len(buf); {
		j := bytes.IndexByte(buf[i:], '\n')
		seg := buf[i:]
		if j >= 0 {
			seg = buf[i : i+j]
		}
		e.blank = e.blank && onlyCR(seg)
		e.run += int64(len(seg))
		if e.run > e.limit {
			e.err = e.fail()
			return i, e.err
		}
		if j < 0 {
			break
		}
		if e.blank {
			e.run = 0 // the event ended
		} else {
			e.run++ // its "\n"
		}
		e.blank = true
		i += j + 1
	}
	return n, err
}

func (e *eventLimiter) Close() error { return e.body.Close() }

func onlyCR(b []byte) bool {
	for _, c := range b {
		if c != '\r' {
			return false
		}
	}
	return true
}

// isMessageTooLarge reports whether err says a server passed its limit.
func isMessageTooLarge(err error) (*MessageTooLargeError, bool) {
	var e *MessageTooLargeError
	ok := errors.As(err, &e)
	return e, ok
}

// stopForGood handles a failure after which the server must not be
// restarted automatically — one that sent a message past its limit: it
// reports the server failed, with a problem the UI words itself, and
// reports true. The supervisor then waits for the user's Restart.
func (c *conn) stopForGood(err error, stderr string) bool {
	if c.needsSignInNow(err) {
		return true
	}
	tooLarge, ok := isMessageTooLarge(err)
	if !ok {
		return false
	}
	msg := err.Error()
	c.pool.logger.Warn("mcp server stopped: message too large; press Restart to try again",
		"server", c.cfg.ID, "limit_bytes", tooLarge.Limit)
	c.update(func(s *events.ServerStatusPayload) {
		s.State, s.Error, s.Stderr, s.Attempt, s.NextRetryMs = events.StateFailed, msg, stderr, 0, 0
		s.Problem = &events.ServerProblem{Code: problemMessageTooLarge, Limit: tooLarge.Limit}
	})
	return true
}

// problemMessageTooLarge is the events.ServerProblem code of a
// MessageTooLargeError.
const problemMessageTooLarge = "messageTooLarge"

// withLostReason explains a request that failed because its session was
// stopped for a message past the limit: the caller reads why.
func withLostReason(err error, s *Session) error {
	if err == nil || s == nil {
		return err
	}
	select {
	case <-s.lost:
	default:
		return err
	}
	if tooLarge, ok := isMessageTooLarge(s.why); ok {
		if _, already := isMessageTooLarge(err); !already {
			return fmt.Errorf("server %q %w", s.ServerID, tooLarge)
		}
	}
	return err
}

// Bounds of server-supplied text the pool passes on: a status error can
// quote a server's error message, a progress message is shown in the
// progress bar up to 10 times a second, and instructions go to the model.
const (
	maxStatusError     = 4 << 10
	maxProgressMessage = 1 << 10
	// maxInstructions bounds a server's instructions, which the chat gives
	// the model with every request.
	maxInstructions = 64 << 10
)

// clipText returns s cut to max bytes at a character boundary, with a
// note of the cut at the end (so up to about 40 bytes more).
func clipText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.Clone(s[:cut]) + fmt.Sprintf("… (cut: %d bytes in all)", len(s))
}
