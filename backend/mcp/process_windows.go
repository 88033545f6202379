//go:build windows

package mcp

import "os/exec"

// setProcessGroup is a no-op on Windows; children are ended with the job.
func setProcessGroup(cmd *exec.Cmd) {}

// killGroup ends the child. Windows has no SIGTERM, so a soft kill is a
// no-op and the hard kill ends the process.
func killGroup(cmd *exec.Cmd, hard bool) {
	if hard && cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
