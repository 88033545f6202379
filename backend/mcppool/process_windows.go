//go:build windows

package mcppool

import (
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// setProcessGroup starts the child in a new process group and without a
// console window of its own.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | 0x08000000, // CREATE_NO_WINDOW
		HideWindow:    true,
	}
}

// killGroup ends the child and its descendants. Windows has no SIGTERM, so
// a soft kill is a no-op (closing stdin came first); the hard kill ends the
// whole tree (npx.cmd → node) with taskkill, then the child itself.
func killGroup(cmd *exec.Cmd, hard bool) {
	if !hard || cmd.Process == nil {
		return
	}
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run()
	_ = cmd.Process.Kill()
}

// waitGroupGone has nothing to wait for on Windows: taskkill is synchronous.
func waitGroupGone(*exec.Cmd, time.Duration) {}

// setCommandLine makes the child get line as its command line, unquoted
// by os/exec (shellenv.BatchCommandLine quoted it for cmd.exe).
func setCommandLine(cmd *exec.Cmd, line string) {
	if line != "" {
		cmd.SysProcAttr.CmdLine = line
	}
}
