package mcppool

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
)

// readLines reads r as mcp-go's stdio transport does (bufio, ReadString
// at "\n") and returns the complete lines and the error that ended it.
func readLines(r io.Reader) ([]string, error) {
	br := bufio.NewReader(r)
	var lines []string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return lines, err
		}
		lines = append(lines, line)
	}
}

func TestLineLimiter(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		limit   int64
		want    []string
		tooLong bool
	}{
		{name: "lines within the limit", in: "abc\nde\n\n", limit: 3, want: []string{"abc\n", "de\n", "\n"}},
		{name: "a line of exactly the limit", in: "abcd\nx\n", limit: 4, want: []string{"abcd\n", "x\n"}},
		{name: "one byte over", in: "ab\nabcde\nx\n", limit: 4, want: []string{"ab\n"}, tooLong: true},
		{name: "CR counts, LF does not", in: "abc\r\nabcd\r\n", limit: 4, want: []string{"abc\r\n"}, tooLong: true},
		{name: "lone CRs do not end a line", in: "a\rb\rc\n", limit: 4, want: nil, tooLong: true},
		{name: "no newline at all", in: strings.Repeat("A", 100), limit: 10, tooLong: true},
		{name: "partial last line within limit", in: "ab\ncd", limit: 4, want: []string{"ab\n"}},
		{name: "empty", in: "", limit: 1},
	}
	for _, tc := range cases {
		for _, chunked := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/chunked=%v", tc.name, chunked), func(t *testing.T) {
				var src io.Reader = strings.NewReader(tc.in)
				if chunked {
					src = iotest.OneByteReader(src)
				}
				fails := 0
				l := &lineLimiter{r: src, limit: tc.limit, fail: func() error { fails++; return &MessageTooLargeError{Limit: tc.limit} }}
				lines, err := readLines(l)
				if fmt.Sprint(lines) != fmt.Sprint(tc.want) {
					t.Errorf("lines %q, want %q", lines, tc.want)
				}
				_, tooLong := isMessageTooLarge(err)
				if tooLong != tc.tooLong || (!tc.tooLong && err != io.EOF) {
					t.Errorf("error %v, want too long: %v", err, tc.tooLong)
				}
				if want := map[bool]int{true: 1, false: 0}[tc.tooLong]; fails != want {
					t.Errorf("fail called %d times, want %d", fails, want)
				}
				// The error sticks.
				if n, err2 := l.Read(make([]byte, 8)); tc.tooLong && (n != 0 || err2 == nil) {
					t.Errorf("after the error Read returned %d, %v", n, err2)
				}
			})
		}
	}
}

// TestLineLimiterBoundsMemory: a reader that reads a line without end
// through the limiter holds no more than the limit, however long the line.
func TestLineLimiterBoundsMemory(t *testing.T) {
	const limit = 1 << 20
	endless := iotest.OneByteReader(&repeatReader{b: 'A'}) // never ends
	var read int64
	counting := readerFunc(func(p []byte) (int, error) { n, err := endless.Read(p); read += int64(n); return n, err })
	l := &lineLimiter{r: counting, limit: limit, fail: func() error { return &MessageTooLargeError{Limit: limit} }}
	line, err := bufio.NewReader(l).ReadString('\n')
	if _, ok := isMessageTooLarge(err); !ok {
		t.Fatalf("error %v, want a MessageTooLargeError", err)
	}
	if int64(len(line)) > limit || read > limit+1 {
		t.Fatalf("held a line of %d bytes after reading %d; the limit is %d", len(line), read, limit)
	}
}

type repeatReader struct{ b byte }

func (r *repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.b
	}
	return len(p), nil
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestLimitedTransport: JSON bodies are limited by their size, event
// streams by the size of one event, and the first body past the limit
// trips the session's limit once.
func TestLimitedTransport(t *testing.T) {
	const limit = 1000
	event := func(n int) string { return "event: message\ndata: " + strings.Repeat("x", n) + "\n\n" }
	cases := []struct {
		name        string
		contentType string
		body        string
		announce    bool // send Content-Length
		tooLarge    bool
	}{
		{name: "json within", contentType: "application/json", body: strings.Repeat("j", limit), tooLarge: false},
		{name: "json over", contentType: "application/json", body: strings.Repeat("j", limit+1), tooLarge: true},
		{name: "json announced over", contentType: "application/json", body: strings.Repeat("j", 5000), announce: true, tooLarge: true},
		{name: "error body over", contentType: "text/plain", body: strings.Repeat("e", 5000), tooLarge: true},
		{name: "many small events", contentType: "text/event-stream", body: strings.Repeat(event(900), 50)},
		{name: "CRLF events", contentType: "text/event-stream; charset=utf-8", body: strings.Repeat(strings.ReplaceAll(event(900), "\n", "\r\n"), 20)},
		{name: "one event over", contentType: "text/event-stream", body: event(100) + event(limit), tooLarge: true},
		{name: "event without end", contentType: "text/event-stream", body: "data: " + strings.Repeat("x", 5000), tooLarge: true},
		{name: "many data lines in one event", contentType: "text/event-stream", body: strings.Repeat("data: "+strings.Repeat("x", 100)+"\n", 20) + "\n", tooLarge: true},
		{name: "blank lines of CRs separate events", contentType: "text/event-stream", body: strings.Repeat("data: "+strings.Repeat("x", 600)+"\n\r\r\n", 5)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.contentType)
				if tc.announce {
					w.Header().Set("Content-Length", fmt.Sprint(len(tc.body)))
				}
				for i := 0; i < len(tc.body); i += 100 {
					_, _ = io.WriteString(w, tc.body[i:min(i+100, len(tc.body))])
					if f, ok := w.(http.Flusher); ok && !tc.announce {
						f.Flush()
					}
				}
			}))
			defer srv.Close()
			var mu sync.Mutex
			var tripped []error
			m := newMessageLimit(limit, func(err error) { mu.Lock(); tripped = append(tripped, err); mu.Unlock() })
			resp, err := m.httpClient(nil).Get(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			mu.Lock()
			defer mu.Unlock()
			if !tc.tooLarge {
				if err != nil || string(got) != tc.body || len(tripped) != 0 {
					t.Fatalf("read %d of %d bytes, err %v, tripped %v", len(got), len(tc.body), err, tripped)
				}
				return
			}
			if _, ok := isMessageTooLarge(err); !ok {
				t.Fatalf("error %v, want a MessageTooLargeError", err)
			}
			if len(tripped) != 1 || m.tripped() == nil {
				t.Fatalf("tripped %v", tripped)
			}
			// Of the message that passed the limit, no more than the limit
			// was passed on (an event stream's earlier events are whole).
			partial := got
			if strings.HasPrefix(tc.contentType, "text/event-stream") {
				if i := strings.LastIndex(string(got), "\n\n"); i >= 0 {
					partial = got[i+2:]
				}
			}
			if len(partial) > limit {
				t.Fatalf("passed %d bytes of the message through, more than the limit %d", len(partial), limit)
			}
		})
	}
}

func TestMessageTooLargeError(t *testing.T) {
	cases := map[int64]string{
		32 << 20: "sent a message larger than 32 MB (limit: maxMessageBytes)",
		64 << 10: "sent a message larger than 64 KB (limit: maxMessageBytes)",
		1 << 30:  "sent a message larger than 1 GB (limit: maxMessageBytes)",
		1500:     "sent a message larger than 1500 bytes (limit: maxMessageBytes)",
	}
	for limit, want := range cases {
		if got := (&MessageTooLargeError{Limit: limit}).Error(); got != want {
			t.Errorf("%d: %q, want %q", limit, got, want)
		}
	}
	wrapped := fmt.Errorf("initialize: %w", &MessageTooLargeError{Limit: 1})
	if e, ok := isMessageTooLarge(wrapped); !ok || e.Limit != 1 {
		t.Fatalf("not found in %v", wrapped)
	}
	if _, ok := isMessageTooLarge(errors.New("sent a message larger than 32 MB")); ok {
		t.Fatal("matched by text")
	}
}

func TestTaskPollInterval(t *testing.T) {
	ms := func(n int64) *int64 { return &n }
	cases := []struct {
		in   *int64
		want time.Duration
	}{
		{nil, taskPoll},
		{ms(0), taskPoll},
		{ms(-5), taskPoll},
		{ms(1), taskPollFloor},
		{ms(249), taskPollFloor},
		{ms(250), 250 * time.Millisecond},
		{ms(2000), 2 * time.Second},
		{ms(1 << 62), time.Hour},
	}
	for _, tc := range cases {
		if got := taskPollInterval(tc.in); got != tc.want {
			t.Errorf("taskPollInterval(%v) = %s, want %s", tc.in, got, tc.want)
		}
		if got := taskPollInterval(tc.in); got < taskPollFloor {
			t.Errorf("below the floor: %s", got)
		}
	}
}

// TestFloodGate: a burst passes, then what is held back is counted and
// reported once, and nothing is lost from the count.
func TestFloodGate(t *testing.T) {
	reports := make(chan int, 10)
	g := newFloodGate(50, 200, 20*time.Millisecond, func(n int) { reports <- n })
	start := time.Now()
	passed := 0
	const sent = 10000
	for range sent {
		if g.allow() {
			passed++
		}
	}
	elapsed := time.Since(start)
	// The bucket refills at 50 a second while the loop runs.
	if most := 200 + int(elapsed.Seconds()*50) + 1; passed < 200 || passed > most {
		t.Fatalf("passed %d of %d in %s, want 200 … %d", passed, sent, elapsed, most)
	}
	select {
	case n := <-reports:
		if n+passed != sent {
			t.Fatalf("reported %d held back and passed %d, of %d", n, passed, sent)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("held messages were never reported")
	}
	g.stop()
	for range 1000 {
		g.allow()
	}
	select {
	case n := <-reports:
		t.Fatalf("a stopped gate reported %d", n)
	case <-time.After(100 * time.Millisecond):
	}
}

// TestProgressGateShowsLatest: of a flood of progress, few are shown, the
// last one always is (after the bucket refills), and each shown one says
// how many were skipped before it.
func TestProgressGateShowsLatest(t *testing.T) {
	var mu sync.Mutex
	var shown []events.ProgressPayload
	pg := newProgressGate(func(p events.ProgressPayload) { mu.Lock(); shown = append(shown, p); mu.Unlock() })
	defer pg.stop()
	const sent = 5000
	for i := 1; i <= sent; i++ {
		pg.offer(events.ProgressPayload{CallID: "c", Progress: float64(i), Total: sent})
	}
	waitFor(t, 10*time.Second, "the latest progress", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(shown) > 0 && shown[len(shown)-1].Progress == sent
	})
	mu.Lock()
	defer mu.Unlock()
	if len(shown) > 50 {
		t.Fatalf("showed %d of %d", len(shown), sent)
	}
	last := shown[len(shown)-1]
	if last.Dropped+len(shown) != sent {
		t.Fatalf("showed %d, the last says %d skipped; %d were sent", len(shown), last.Dropped, sent)
	}
	for i := 1; i < len(shown); i++ {
		if shown[i].Progress <= shown[i-1].Progress {
			t.Fatalf("shown out of order: %v then %v", shown[i-1].Progress, shown[i].Progress)
		}
	}
}

// TestRPCLogBoundsAFlood: entries queued faster than the logger settles
// them are bounded by its capacity, and a payload cut to the size limit
// does not keep the whole payload alive.
func TestRPCLogBoundsAFlood(t *testing.T) {
	l := NewRPCLog(100, 0, nil)
	defer l.Close()
	computed := 0
	var mu sync.Mutex
	payload := func() string { mu.Lock(); computed++; mu.Unlock(); return "{}" }
	l.settleMu.Lock() // the logger falls behind while the flood arrives
	for range 10000 {
		l.addLazy(events.RPCEntry{Method: "n"}, payload)
	}
	l.mu.Lock()
	queued := len(l.queued)
	l.mu.Unlock()
	l.settleMu.Unlock()
	if queued > 100 {
		t.Fatalf("%d entries queued, capacity 100", queued)
	}
	if got := len(l.Entries()); got != 100 {
		t.Fatalf("%d entries held, want the capacity, 100", got)
	}
	mu.Lock()
	if computed > 100 {
		t.Fatalf("computed %d payloads for a ring of 100", computed)
	}
	mu.Unlock()

	big := strings.Repeat("x", 4*maxPayloadBytes)
	l.Add(events.RPCEntry{Method: "big", Payload: big})
	entries := l.Entries()
	e := entries[len(entries)-1]
	if !e.Truncated || len(e.Payload) != maxPayloadBytes {
		t.Fatalf("payload of %d bytes, truncated %v", len(e.Payload), e.Truncated)
	}
	if unsafeSameData(e.Payload, big) {
		t.Fatal("the cut payload shares the whole payload's memory")
	}
}

// unsafeSameData reports whether a starts inside b's memory.
func unsafeSameData(a, b string) bool {
	pa, pb := uintptr(unsafe.Pointer(unsafe.StringData(a))), uintptr(unsafe.Pointer(unsafe.StringData(b)))
	return pa >= pb && pa < pb+uintptr(len(b))
}

func TestListBounded(t *testing.T) {
	type item struct{ S string }
	pager := func(pages, perPage, size int, repeat bool) func(context.Context, mcp.Cursor) ([]item, mcp.Cursor, error) {
		return func(_ context.Context, cursor mcp.Cursor) ([]item, mcp.Cursor, error) {
			n := 0
			fmt.Sscanf(string(cursor), "p%d", &n)
			got := make([]item, perPage)
			for i := range got {
				got[i] = item{strings.Repeat("x", size)}
			}
			next := mcp.Cursor("")
			switch {
			case repeat:
				next = "p1"
			case n+1 < pages:
				next = mcp.Cursor(fmt.Sprintf("p%d", n+1))
			}
			return got, next, nil
		}
	}
	cases := []struct {
		name   string
		pages  int
		per    int
		size   int
		repeat bool
		limit  int64 // 0: 64 KB
		want   int
		cut    string
	}{
		{name: "a few pages", pages: 3, per: 10, size: 5, want: 30},
		{name: "too many pages", pages: 1000, per: 1, size: 5, want: maxListPages, cut: "more than 100 pages"},
		{name: "too many items", pages: 50, per: 1000, size: 1, limit: 1 << 20, want: maxListItems, cut: "more than 10000 tools"},
		{name: "too many bytes", pages: 10, per: 10, size: 10_000, want: 6, cut: "larger than 64 KB in all"},
		{name: "repeated cursor", pages: 0, per: 2, size: 1, repeat: true, want: 4, cut: "repeated the page cursor"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			limit := cmp.Or(tc.limit, 64<<10)
			got, err := listBounded(context.Background(), "tools", limit, pager(tc.pages, tc.per, tc.size, tc.repeat))
			if len(got) != tc.want {
				t.Errorf("kept %d items, want %d", len(got), tc.want)
			}
			if tc.cut == "" && err != nil || tc.cut != "" && (err == nil || !strings.Contains(err.Error(), tc.cut)) {
				t.Errorf("error %v, want %q", err, tc.cut)
			}
		})
	}
}

func TestClipText(t *testing.T) {
	if got := clipText("short", 10); got != "short" {
		t.Fatalf("%q", got)
	}
	long := strings.Repeat("é", 3000) // 2 bytes each
	got := clipText(long, maxStatusError)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "… (cut: 6000 bytes in all)") || len(got) > maxStatusError+40 {
		t.Fatalf("clipped to %d bytes, valid %v, ends %q", len(got), utf8.ValidString(got), got[len(got)-30:])
	}
}

// TestProgressMessageBounded: a progress message is cut to
// maxProgressMessage before it is shown.
func TestProgressMessageBounded(t *testing.T) {
	em := newRecordingEmitter()
	cs := newCalls(em)
	if err := cs.add("c", &runningCall{touch: func() {}}); err != nil {
		t.Fatal(err)
	}
	defer cs.remove("c")
	cs.publish(events.ProgressPayload{CallID: "c", Progress: 1, Message: strings.Repeat("m", 100_000)})
	var got []events.ProgressPayload
	for _, e := range em.all() {
		if p, ok := e.payload.(events.ProgressPayload); ok {
			got = append(got, p)
		}
	}
	if len(got) != 1 || len(got[0].Message) > maxProgressMessage+64 {
		t.Fatalf("shown %d progress, message of %d bytes; bound %d", len(got), len(got[0].Message), maxProgressMessage)
	}
}
