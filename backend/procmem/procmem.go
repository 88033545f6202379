// Package procmem hands the memory a process has freed back to the
// operating system: the Go heap's free pages, and on Linux the free pages
// of the C heap (glibc's malloc), where GTK, WebKit's client side and
// SQLite allocate.
//
// Neither hands them back by itself soon. Go's scavenger returns free
// pages over minutes; glibc returns only the free memory at the top of
// each arena, so a page freed below one still in use stays in the
// process's dirty memory for good. After start-up, MCP Desk's C heap
// held 1.6 MiB of such pages (3 alternating runs of the idle app, see
// build/scripts/mem-bench.sh).
package procmem

import "runtime/debug"

// Figures are what Release handed back.
type Figures struct {
	// GoBytes is what the Go heap returned; CReturned tells whether the C
	// heap returned anything (glibc does not say how much).
	GoBytes   uint64
	CReturned bool
}

// Release runs a garbage collection and returns the free pages of the Go
// heap and of the C heap. It takes a few milliseconds: call it once work
// has settled, not on a hot path.
func Release() Figures {
	before := released()
	debug.FreeOSMemory()
	f := Figures{GoBytes: released() - before}
	f.CReturned = trimCHeap()
	return f
}
