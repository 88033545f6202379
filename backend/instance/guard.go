package instance

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
)

// guard decides where the instance socket lives and who may use it. The
// socket is in a folder of its own — $XDG_RUNTIME_DIR/mcpdesk, else
// mcpdesk-UID in the temp folder (guard_unix.go) — created with mode 0700
// (by mkdir, not changed after, so there is no moment it is open) and
// checked before every use, by the first launch (to listen) and by later
// ones (to hand over): it must be a folder, not a link, belong to the user
// and let nobody else in. Every connection's other end must run as the
// same user (SO_PEERCRED, LOCAL_PEERCRED). A folder squatted by another
// user only costs the hand-over: Acquire reports why and the caller starts
// without it.
type guard struct {
	dir string // the socket folder
	// uid is the user we run as; below 0 (Windows) modes and owners are
	// not checked.
	uid int
	// owner returns who owns a file; nil checks no owner.
	owner func(fs.FileInfo) (uid int, ok bool)
	// peer returns who is at the other end of a connection; nil checks
	// nobody.
	peer func(net.Conn) (uid int, err error)
}

// socketPath returns the socket of data folder dataDir: a name made from
// the folder's path, in the socket folder.
func (g guard) socketPath(dataDir string) (string, error) {
	sum := sha256.Sum256([]byte(dataDir))
	p := filepath.Join(g.dir, hex.EncodeToString(sum[:8])+".sock")
	if len(p) > maxSocketPath {
		return "", fmt.Errorf("socket path %s is longer than the %d bytes a Unix socket allows", p, maxSocketPath)
	}
	return p, nil
}

// listen creates the socket folder if needed, checks it, and listens on
// the socket of dataDir, readable and writable by the user only.
func (g guard) listen(dataDir string) (net.Listener, string, error) {
	path, err := g.socketPath(dataDir)
	if err != nil {
		return nil, "", err
	}
	if err := os.Mkdir(g.dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, "", fmt.Errorf("create the socket folder: %w", err)
	}
	if err := g.checkDir(g.dir); err != nil {
		return nil, "", err
	}
	// The caller holds the data folder's lock: a socket left here is from
	// a process that is gone.
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, "", err
	}
	// Nobody else can enter the folder; the socket's own mode says the
	// same once more.
	if err := restrictSocket(path); err != nil {
		ln.Close()
		return nil, "", fmt.Errorf("restrict %s: %w", path, err)
	}
	return ln, path, nil
}

// checkDir refuses a socket folder that is not a folder, not the user's,
// or open to others.
func (g guard) checkDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("socket folder: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder but %s; MCP Desk will not use it — remove it", dir, describeType(fi.Mode()))
	}
	if g.owner != nil {
		if uid, ok := g.owner(fi); !ok || uid != g.uid {
			return fmt.Errorf("%s belongs to user %d, not to you (user %d); MCP Desk will not use it — remove it", dir, uid, g.uid)
		}
	}
	if perm := fi.Mode().Perm(); g.uid >= 0 && perm != 0o700 {
		return fmt.Errorf("%s has mode %04o, not 0700, so other users could reach the socket in it; MCP Desk will not use it — remove it (it is created again)", dir, perm)
	}
	return nil
}

// checkPeer refuses a connection whose other end runs as another user.
func (g guard) checkPeer(c net.Conn) error {
	if g.peer == nil {
		return nil
	}
	uid, err := g.peer(c)
	if err != nil {
		return fmt.Errorf("check who is at the other end of the socket: %w", err)
	}
	if uid != g.uid {
		return fmt.Errorf("the other end of the socket runs as user %d, not as you (user %d)", uid, g.uid)
	}
	return nil
}

func describeType(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a file"
	default:
		return "a special file"
	}
}
