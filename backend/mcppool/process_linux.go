package mcppool

import "syscall"

// setParentDeathSignal makes the kernel kill a stdio server if the app dies
// without a chance to stop it (SIGKILL, a crash).
func setParentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
