//go:build windows

package hotkey

import "unsafe"

func unsafePointer(m *msg) unsafe.Pointer { return unsafe.Pointer(m) }
