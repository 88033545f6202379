//go:build !windows && !linux

package mcp

import "syscall"

// setParentDeathSignal does nothing where the kernel has no parent-death
// signal; Close still stops every child.
func setParentDeathSignal(*syscall.SysProcAttr) {}
