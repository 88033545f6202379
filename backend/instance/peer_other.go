//go:build unix && !linux && !darwin && !freebsd && !solaris

package instance

import (
	"fmt"
	"net"
	"runtime"
)

// peerUID: on the other Unix systems (OpenBSD, NetBSD, DragonFly, AIX)
// golang.org/x/sys offers no way to read a socket peer's credentials, so
// no hand-over is trusted there: the caller refuses it, and a second
// launch starts a window of its own. (MCP Desk ships for Linux, macOS and
// Windows; this keeps the package building elsewhere, and safe.)
func peerUID(net.Conn) (int, error) {
	return -1, fmt.Errorf("%s offers no way to tell who is at the other end of a socket; the hand-over is refused", runtime.GOOS)
}
