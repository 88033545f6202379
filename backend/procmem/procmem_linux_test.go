//go:build linux && cgo

package procmem

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"mcpdesk/backend/procmem/internal/cheap"
)

// privateDirty is the memory this process wrote itself, in bytes, as
// mem-bench.sh reads it.
func privateDirty(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skipf("no smaps_rollup: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "Private_Dirty:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no Private_Dirty line")
	return 0
}

// Freed C memory below a block still in use stays dirty until Release.
func TestReleaseReturnsFreedCHeapPages(t *testing.T) {
	runtime.LockOSThread() // one thread: one malloc arena
	defer runtime.UnlockOSThread()
	const blocks, size = 128, 64 << 10 // 8 MiB in blocks under glibc's mmap threshold
	b := cheap.Fill(blocks, size)
	defer b.FreeLast()
	b.FreeAllButLast()
	held := privateDirty(t)
	f := Release()
	after := privateDirty(t)
	if !f.CReturned {
		t.Errorf("malloc_trim returned nothing")
	}
	if freed := held - after; freed < 4<<20 {
		t.Errorf("Release handed back %d KiB of the 8 MiB freed below a block in use", freed>>10)
	}
}

var sink [][]byte

func TestReleaseReturnsGoHeap(t *testing.T) {
	sink = make([][]byte, 64)
	for i := range sink {
		sink[i] = make([]byte, 64<<10)
	}
	sink = nil // 4 MiB of garbage
	if f := Release(); f.GoBytes < 1<<20 {
		t.Errorf("the Go heap returned %d KiB after 4 MiB became garbage", f.GoBytes>>10)
	}
}
