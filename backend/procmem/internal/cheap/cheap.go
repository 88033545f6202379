// Package cheap fills and frees the C heap for procmem's tests (cgo cannot
// be used in a _test.go file).
package cheap

/*
#include <stdlib.h>
*/
import "C"

import "unsafe"

// Blocks are C heap blocks.
type Blocks []unsafe.Pointer

// Fill allocates n blocks of size bytes and writes every page of them, so
// they count as the process's dirty memory.
func Fill(n, size int) Blocks {
	b := make(Blocks, n)
	for i := range b {
		b[i] = C.malloc(C.size_t(size))
		page := unsafe.Slice((*byte)(b[i]), size)
		for j := 0; j < size; j += 4096 {
			page[j] = 1
		}
	}
	return b
}

// FreeAllButLast frees every block but the last, which keeps the freed
// ones below the top of the heap, where free alone hands nothing back.
func (b Blocks) FreeAllButLast() {
	for _, p := range b[:len(b)-1] {
		C.free(p)
	}
}

// FreeLast frees the last block.
func (b Blocks) FreeLast() { C.free(b[len(b)-1]) }
