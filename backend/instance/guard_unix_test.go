//go:build unix

package instance

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// testGuard is the real guard with the socket folder under a fresh
// runtime folder.
func testGuard(t *testing.T) guard {
	t.Helper()
	g := defaultGuard()
	rt, err := os.MkdirTemp("", "mcpdesk-g")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	g.dir = filepath.Join(rt, "mcpdesk")
	return g
}

func TestSocketAndFolderModes(t *testing.T) {
	g := testGuard(t)
	dir := t.TempDir()
	l, err := acquire(dir, nil, g)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	fi, err := os.Lstat(g.dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("socket folder %s: %v %v, want a folder with mode 0700", g.dir, fi.Mode(), err)
	}
	if uid, _ := fileOwner(fi); uid != os.Getuid() {
		t.Errorf("socket folder owned by %d", uid)
	}
	path, _ := g.socketPath(dir)
	fi, err = os.Lstat(path)
	if err != nil || fi.Mode().Type() != fs.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket %s: %v %v, want a socket with mode 0600", path, fi.Mode(), err)
	}
}

// TestUnsafeFolderRefused: a socket folder that is a link, a file, open to
// others or someone else's is refused — by the first launch (no socket)
// and by a later one (no hand-over) — with an error that says why.
func TestUnsafeFolderRefused(t *testing.T) {
	cases := []struct {
		name  string
		plant func(t *testing.T, g *guard)
		want  string
	}{
		{"world-writable", func(t *testing.T, g *guard) { mkdirMode(t, g.dir, 0o777) }, "mode 0777, not 0700"},
		{"group-readable", func(t *testing.T, g *guard) { mkdirMode(t, g.dir, 0o750) }, "mode 0750, not 0700"},
		{"symlink", func(t *testing.T, g *guard) {
			if err := os.Symlink(t.TempDir(), g.dir); err != nil {
				t.Fatal(err)
			}
		}, "is not a folder but a symbolic link"},
		{"file", func(t *testing.T, g *guard) {
			if err := os.WriteFile(g.dir, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "is not a folder but a file"},
		{"another user's", func(t *testing.T, g *guard) {
			mkdirMode(t, g.dir, 0o700)
			if os.Getuid() == 0 {
				// Root can make it really someone else's.
				if err := os.Chown(g.dir, 65534, 65534); err != nil {
					t.Fatal(err)
				}
				return
			}
			// Otherwise: we are someone else.
			g.uid = os.Getuid() + 1
		}, "belongs to user"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := testGuard(t)
			c.plant(t, &g)
			dir := t.TempDir()
			_, err := acquire(dir, nil, g)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), g.dir) {
				t.Fatalf("acquire: %v, want an error naming %s and saying %q", err, g.dir, c.want)
			}
			if p, _ := g.socketPath(dir); fileExists(p) {
				t.Errorf("a socket was made at %s", p)
			}
			// The data folder's lock was given back.
			good := testGuard(t)
			l, err := acquire(dir, nil, good)
			if err != nil {
				t.Fatalf("after the refusal: %v", err)
			}
			l.Close()
		})
	}
}

// TestHandOverRefusesUnsafeFolder: a later launch does not hand its
// arguments to a socket in a folder that became unsafe.
func TestHandOverRefusesUnsafeFolder(t *testing.T) {
	g := testGuard(t)
	dir := t.TempDir()
	l, err := acquire(dir, nil, g)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	got := make(chan Request, 4)
	l.Serve(func(r Request) { got <- r })
	if err := os.Chmod(g.dir, 0o777); err != nil {
		t.Fatal(err)
	}
	_, err = acquire(dir, []string{"--quick-chat"}, g)
	if err == nil || errors.Is(err, ErrRunning) || !strings.Contains(err.Error(), "not 0700") {
		t.Fatalf("hand-over through a world-writable folder: %v", err)
	}
	// Nothing was handed over: the next request through a safe folder is
	// the first one the holder hears of.
	if err := os.Chmod(g.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := acquire(dir, []string{"second"}, g); !errors.Is(err, ErrRunning) {
		t.Fatalf("hand-over through the safe folder: %v", err)
	}
	if r := <-got; len(r.Args) != 1 || r.Args[0] != "second" {
		t.Fatalf("the holder heard %v first", r.Args)
	}
}

// TestPeerOfAnotherUserRefused: the holder reads nothing from a connection
// whose other end runs as another user, and a launch does not talk to a
// holder that runs as another user.
func TestPeerOfAnotherUserRefused(t *testing.T) {
	g := testGuard(t)
	var mu sync.Mutex
	strangers := 1 // the first connection comes from someone else
	g.peer = func(c net.Conn) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		if strangers > 0 {
			strangers--
			return os.Getuid() + 1, nil
		}
		return peerUID(c) // the real check
	}
	dir := t.TempDir()
	l, err := acquire(dir, nil, g)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	got := make(chan Request, 4)
	l.Serve(func(r Request) { got <- r })
	path, _ := g.socketPath(dir)
	plain := defaultGuard()
	plain.dir = g.dir
	if err := send(plain, path, []byte(`{"args":["from a stranger"]}`+"\n")); err == nil {
		t.Fatal("a connection from another user was answered")
	}
	if err := send(plain, path, []byte(`{"args":["from me"]}`+"\n")); err != nil {
		t.Fatalf("a connection from the same user: %v", err)
	}
	if r := <-got; len(r.Args) != 1 || r.Args[0] != "from me" {
		t.Fatalf("the holder heard %v first", r.Args)
	}

	// The other way round: the holder is someone else.
	liar := plain
	liar.peer = func(net.Conn) (int, error) { return os.Getuid() + 1, nil }
	err = send(liar, path, []byte(`{"args":["secret"]}`+"\n"))
	if err == nil || !strings.Contains(err.Error(), "runs as user") {
		t.Fatalf("handing over to another user's process: %v", err)
	}
}

// TestPeerUIDIsReal checks the real peer lookup on a real connection.
func TestPeerUIDIsReal(t *testing.T) {
	g := testGuard(t)
	ln, path, err := g.listen(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan struct{})
	go func() {
		defer close(served)
		if c, err := ln.Accept(); err == nil {
			defer c.Close()
			if uid, err := peerUID(c); err != nil || uid != os.Getuid() {
				t.Errorf("server side: peer uid %d, %v", uid, err)
			}
		}
	}()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	if uid, err := peerUID(c); err != nil || uid != os.Getuid() {
		t.Errorf("client side: peer uid %d, %v; want %d", uid, err, os.Getuid())
	}
	c.Close()
	<-served
}

func mkdirMode(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
