//go:build !(linux && cgo)

package procmem

// trimCHeap does nothing where the C heap is not glibc's: Windows' and
// macOS's allocators return free memory themselves.
func trimCHeap() bool { return false }
