//go:build darwin || freebsd

package instance

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerUID returns the user of the process at the other end of c
// (LOCAL_PEERCRED, what getpeereid(3) reads).
func peerUID(c net.Conn) (int, error) {
	return peerUIDOf(c, func(fd int) (int, error) {
		cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		if err != nil {
			return -1, err
		}
		return int(cred.Uid), nil
	})
}
