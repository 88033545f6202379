package mcppool

import (
	"bytes"
	"io"
	"testing"
)

// FuzzReadMessage feeds random bytes, in random chunk sizes, through the
// stdio reader path — the line limiter under mcp-go's bufio line reader —
// with a random limit. It must never panic, never pass on more than limit
// bytes of one line, and deliver exactly the complete lines up to the
// first one longer than the limit, then fail with a MessageTooLargeError
// (or end with EOF when no line is too long).
//
// Seed corpus: testdata/fuzz/FuzzReadMessage. Run longer with
//
//	go test -run '^$' -fuzz FuzzReadMessage -fuzztime 1m ./backend/mcp/
func FuzzReadMessage(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"), uint16(64), uint8(0))
	f.Add([]byte("abc\r\nde\rf\n\n\r\n"), uint16(3), uint8(1))
	f.Add(bytes.Repeat([]byte("A"), 5000), uint16(100), uint8(7))
	f.Add([]byte("short\n"+string(bytes.Repeat([]byte("x"), 300))+"\nafter\n"), uint16(200), uint8(13))
	f.Add([]byte("partial"), uint16(10), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, limit16 uint16, chunk uint8) {
		limit := int64(limit16%4096) + 1
		want, wantTooLarge := expectedLines(data, limit)

		src := &chunkReader{data: data, size: int(chunk)%64 + 1}
		fails := 0
		l := &lineLimiter{r: src, limit: limit, fail: func() error { fails++; return &MessageTooLargeError{Limit: limit} }}
		out := &runWatcher{r: l}
		got, err := readLines(out)

		if out.maxRun > limit {
			t.Fatalf("passed on %d bytes of one line; the limit is %d", out.maxRun, limit)
		}
		if len(got) != len(want) {
			t.Fatalf("delivered %d lines, want %d\ngot  %q\nwant %q", len(got), len(want), got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("line %d is %q, want %q", i, got[i], want[i])
			}
		}
		_, tooLarge := isMessageTooLarge(err)
		switch {
		case tooLarge != wantTooLarge:
			t.Fatalf("error %v, want too large: %v", err, wantTooLarge)
		case !wantTooLarge && err != io.EOF:
			t.Fatalf("error %v, want EOF", err)
		case fails > 1:
			t.Fatalf("fail called %d times", fails)
		}
	})
}

// expectedLines is the reference: the complete lines of data up to the
// first line (complete or not) longer than limit, and whether there is one.
func expectedLines(data []byte, limit int64) ([]string, bool) {
	var lines []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return lines, int64(len(data)) > limit
		}
		if int64(i) > limit {
			return lines, true
		}
		lines = append(lines, string(data[:i+1]))
		data = data[i+1:]
	}
	return lines, false
}

// chunkReader returns data at most size bytes at a time.
type chunkReader struct {
	data []byte
	size int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.size)], c.data)
	c.data = c.data[n:]
	return n, nil
}

// runWatcher records the longest run of bytes without a newline that r
// returned.
type runWatcher struct {
	r      io.Reader
	run    int64
	maxRun int64
}

func (w *runWatcher) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	for _, b := range p[:n] {
		if b == '\n' {
			w.run = 0
			continue
		}
		w.run++
		w.maxRun = max(w.maxRun, w.run)
	}
	return n, err
}
