package instance

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerUID returns the user of the process at the other end of c
// (SO_PEERCRED: the credentials it had when it connected or listened).
func peerUID(c net.Conn) (int, error) {
	return peerUIDOf(c, func(fd int) (int, error) {
		cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
		if err != nil {
			return -1, err
		}
		return int(cred.Uid), nil
	})
}
