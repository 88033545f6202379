package mcppool

import (
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
	"testing/iotest"
)

// The buffer keeps the last max bytes of what it reads, in order, however
// the reads are cut.
func TestTailBufferReadFromKeepsTheTail(t *testing.T) {
	src := strings.Repeat("0123456789", 1000) // 10,000 bytes
	b := newTailBuffer(4096)
	n, err := b.ReadFrom(iotest.HalfReader(strings.NewReader(src)))
	if err != nil || n != int64(len(src)) {
		t.Fatalf("ReadFrom = %d, %v; want %d, nil", n, err, len(src))
	}
	if got := b.String(); got != src[len(src)-4096:] {
		t.Fatalf("kept %d bytes ending %q; want the last 4096", len(got), got[max(0, len(got)-20):])
	}
}

// A read error other than EOF is returned with what was read before it.
func TestTailBufferReadFromReturnsReadErrors(t *testing.T) {
	boom := errors.New("boom")
	b := newTailBuffer(100)
	n, err := b.ReadFrom(io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) || n != 3 || b.String() != "abc" {
		t.Fatalf("ReadFrom = %d, %v, %q; want 3, boom, abc", n, err, b.String())
	}
}

// os/exec copies a child's stderr into the buffer through ReadFrom (not a
// 32 KB buffer of its own): a reader that counts its calls sees them.
func TestChildStderrIsReadThroughReadFrom(t *testing.T) {
	b := &countingTail{tailBuffer: newTailBuffer(1 << 10)}
	cmd := exec.Command("sh", "-c", "printf 'line one\\nline two\\n' >&2")
	cmd.Stderr = b
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if b.readFroms != 1 || b.String() != "line one\nline two\n" {
		t.Fatalf("ReadFrom calls %d, held %q", b.readFroms, b.String())
	}
}

type countingTail struct {
	*tailBuffer
	readFroms int
}

func (c *countingTail) ReadFrom(r io.Reader) (int64, error) {
	c.readFroms++
	return c.tailBuffer.ReadFrom(r)
}
