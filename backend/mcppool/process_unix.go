//go:build !windows

package mcppool

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup puts the child in a new process group of its own.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

// killGroup signals the child's whole process group: SIGKILL when hard,
// else SIGTERM. A group that no longer exists is not an error.
func killGroup(cmd *exec.Cmd, hard bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if hard {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

// waitGroupGone waits, at most d, until no process of the child's group is
// left: a SIGKILLed member may briefly linger before the kernel reaps it.
func waitGroupGone(cmd *exec.Cmd, d time.Duration) {
	if cmd.Process == nil {
		return
	}
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(-cmd.Process.Pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// setCommandLine does nothing: only Windows passes a command line.
func setCommandLine(*exec.Cmd, string) {}
