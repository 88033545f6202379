//go:build !windows

package shellenv

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

// pathSeparators are the characters that make a program name a path.
const pathSeparators = "/"

func keyEqual(a, b string) bool { return a == b }

// execExts is unused outside Windows.
func execExts([]string) []string { return nil }

// findExecutable returns path if it is an executable regular file.
func findExecutable(path string, _ []string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return "", ErrNotExecutable
	}
	return path, nil
}

// prepareShell runs the login shell in a session of its own, so that an
// interactive shell cannot take over the terminal the app was started
// from (and get it stopped with SIGTTOU), and makes a timeout kill
// everything the rc files started.
func prepareShell(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 500 * time.Millisecond
}

// commandLine is the identity outside Windows.
func commandLine(resolved string, args []string) (Command, error) {
	return Command{Path: resolved, Args: args}, nil
}
