//go:build !windows && !linux

package mcppool

import "syscall"

// setParentDeathSignal does nothing where the kernel has no parent-death
// signal; Close still stops every child.
func setParentDeathSignal(*syscall.SysProcAttr) {}
