//go:build !windows

package mcptest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ProcessAlive reports whether pid exists and is not a zombie. A killed
// process whose parent died lingers as a zombie until init reaps it; it is
// gone for every purpose a test cares about.
func ProcessAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the parenthesised command name, which may hold spaces.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	fields := strings.Fields(s)
	return len(fields) < 1 || fields[0] != "Z"
}
