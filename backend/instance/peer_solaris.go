//go:build solaris

package instance

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerUID returns the effective user of the process at the other end of c
// (getpeerucred(3C); illumos too).
func peerUID(c net.Conn) (int, error) {
	return peerUIDOf(c, func(fd int) (int, error) {
		uc, err := unix.GetPeerUcred(uintptr(fd))
		if err != nil {
			return -1, err
		}
		return uc.Geteuid(), nil
	})
}
