//go:build linux && cgo

package procmem

/*
#include <malloc.h>
*/
import "C"

// trimCHeap returns the free pages of every glibc malloc arena, in the
// middle of an arena as well as at its top.
func trimCHeap() bool { return C.malloc_trim(0) == 1 }
