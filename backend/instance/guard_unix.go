//go:build unix

package instance

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// defaultGuard keeps the socket in $XDG_RUNTIME_DIR/mcpdesk (a folder the
// session's user alone may enter, by the XDG spec), else in mcpdesk-UID in
// the temp folder — on macOS a per-user folder, on Linux /tmp, where
// another user could create that name first: the check then refuses it.
func defaultGuard() guard {
	dir := filepath.Join(os.TempDir(), "mcpdesk-"+strconv.Itoa(os.Getuid()))
	if rt := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		dir = filepath.Join(rt, "mcpdesk")
	}
	return guard{dir: dir, uid: os.Getuid(), owner: fileOwner, peer: peerUID}
}

func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, false
	}
	return int(st.Uid), true
}

func restrictSocket(path string) error { return os.Chmod(path, 0o600) }

// peerUIDOf runs get on the descriptor of a Unix-socket connection.
func peerUIDOf(c net.Conn, get func(fd int) (int, error)) (int, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return -1, errors.New("not a Unix-socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1, err
	}
	uid, gerr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { uid, gerr = get(int(fd)) }); err != nil {
		return -1, err
	}
	return uid, gerr
}
