//go:build unix

package childproc

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// markListed sets close-on-exec on each descriptor above standard error
// that dir (/proc/self/fd, /dev/fd) lists.
func markListed(dir string) {
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	names, _ := f.Readdirnames(-1)
	self := int(f.Fd())
	for _, name := range names {
		fd, err := strconv.Atoi(name)
		if err != nil || fd <= 2 || fd == self {
			continue
		}
		_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC)
	}
	_ = f.Close()
}
