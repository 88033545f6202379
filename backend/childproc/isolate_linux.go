package childproc

import (
	"math"

	"golang.org/x/sys/unix"
)

// Isolate marks every descriptor above standard error close-on-exec: one
// close_range(2) call (Linux 5.11), or one fcntl per open descriptor on
// older kernels.
func Isolate() {
	if unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	markListed("/proc/self/fd")
}
