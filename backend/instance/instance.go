// Package instance keeps one MCP Desk window per data folder (SPEC F2): the
// first launch takes a lock in the data folder and listens on a local
// socket beside it; a later launch hands its arguments to the first one
// (which brings its window forward, or opens quick chat) and exits.
//
// The lock is an OS file lock, so it is released however the holder ends —
// a crash leaves no stale "already running". The socket is a Unix-domain
// socket (also on Windows 10 and later) in a folder of the user's own
// (see guard.go): only the user's own processes can hand anything over.
package instance

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// ErrRunning is returned by Acquire when another process holds the data
// folder; the request was handed to it.
var ErrRunning = errors.New("MCP Desk is already running with this data folder; its window was brought forward")

const (
	lockName = "mcpdesk.lock"
	// Unix socket paths are limited to about 104–108 bytes.
	maxSocketPath = 104
	// How long a second launch waits for the first one to answer: the
	// first may have taken the lock a moment before it listens.
	handOverWait = 3 * time.Second
)

// Request is what a later launch hands over.
type Request struct {
	Args []string `json:"args"`
}

// Lock is the held instance lock of one data folder.
type Lock struct {
	file     lockFile
	listener net.Listener
	path     string
	guard    guard
	requests chan Request

	mu      sync.Mutex
	handler func(Request)
	closed  bool
}

// Acquire takes the instance lock of dir. When another process holds it,
// args are handed to that process and ErrRunning is returned; an error
// that is not ErrRunning means neither worked (and says why).
//
// The socket lives in a folder only the user can enter (guard.go); a
// folder that is not the user's own, or that others may enter, is refused
// with an error that says so — the caller then starts without the
// hand-over rather than trust it.
func Acquire(dir string, args []string) (*Lock, error) {
	return acquire(dir, args, defaultGuard())
}

func acquire(dir string, args []string, g guard) (*Lock, error) {
	f, err := tryLock(filepath.Join(dir, lockName))
	if errors.Is(err, errLocked) {
		if err := handOver(g, dir, Request{Args: args}); err != nil {
			return nil, fmt.Errorf("another MCP Desk holds %s but does not answer: %w", filepath.Join(dir, lockName), err)
		}
		return nil, ErrRunning
	}
	if err != nil {
		return nil, fmt.Errorf("instance lock: %w", err)
	}
	ln, path, err := g.listen(dir)
	if err != nil {
		f.unlock()
		return nil, fmt.Errorf("instance socket: %w", err)
	}
	l := &Lock{file: f, listener: ln, path: path, guard: g, requests: make(chan Request, 8)}
	go l.accept()
	return l, nil
}

// Serve passes every request handed over by a later launch — also those
// that arrived before Serve was called — to handle, one at a time.
func (l *Lock) Serve(handle func(Request)) {
	l.mu.Lock()
	start := l.handler == nil
	l.handler = handle
	l.mu.Unlock()
	if !start {
		return
	}
	go func() {
		for r := range l.requests {
			l.mu.Lock()
			h := l.handler
			l.mu.Unlock()
			h(r)
		}
	}()
}

// Close stops listening and releases the lock.
func (l *Lock) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	l.mu.Unlock()
	err := l.listener.Close()
	_ = os.Remove(l.path)
	l.file.unlock()
	return err
}

func (l *Lock) accept() {
	defer close(l.requests)
	for {
		c, err := l.listener.Accept()
		if err != nil {
			return
		}
		if err := l.guard.checkPeer(c); err != nil {
			// Not the user's own process: not a word is read.
			c.Close()
			continue
		}
		r, ok := readRequest(c)
		if ok {
			select {
			case l.requests <- r:
			default: // a burst of launches: one is enough to act on
			}
		}
	}
}

// readRequest reads one JSON line and acknowledges it.
func readRequest(c net.Conn) (Request, bool) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil {
		return Request{}, false
	}
	var r Request
	if json.Unmarshal(line, &r) != nil {
		return Request{}, false
	}
	_, _ = c.Write([]byte("ok\n"))
	return r, true
}

// handOver sends r to the process listening for data folder dir and waits
// for its acknowledgement, retrying while that process is starting. The
// socket's folder and the listening process must be the user's own.
func handOver(g guard, dir string, r Request) error {
	msg, err := json.Marshal(r)
	if err != nil {
		return err
	}
	path, err := g.socketPath(dir)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(handOverWait)
	for {
		err = send(g, path, append(msg, '\n'))
		var refused untrusted
		if err == nil || errors.As(err, &refused) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// untrusted is a refusal to talk to the socket, which waiting cannot
// change.
type untrusted struct{ error }

func (u untrusted) Unwrap() error { return u.error }

func send(g guard, path string, msg []byte) error {
	if err := g.checkDir(filepath.Dir(path)); err != nil {
		return untrusted{err}
	}
	c, err := net.DialTimeout("unix", path, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := g.checkPeer(c); err != nil {
		return untrusted{fmt.Errorf("%s: %w", path, err)}
	}
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write(msg); err != nil {
		return err
	}
	ack, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if ack != "ok\n" {
		return fmt.Errorf("unexpected answer %q", ack)
	}
	return nil
}
