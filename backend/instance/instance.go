// Package instance keeps one MCP Desk window per data folder (SPEC F2): the
// first launch takes a lock in the data folder and listens on a local
// socket beside it; a later launch hands its arguments to the first one
// (which brings its window forward, or opens quick chat) and exits.
//
// The lock is an OS file lock, so it is released however the holder ends —
// a crash leaves no stale "already running". The socket is a Unix-domain
// socket (also on Windows 10 and later).
package instance

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
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
	lockName   = "mcpdesk.lock"
	socketName = "mcpdesk.sock"
	// Unix socket paths are limited to about 104–108 bytes.
	maxSocketPath = 100
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
	requests chan Request

	mu      sync.Mutex
	handler func(Request)
	closed  bool
}

// Acquire takes the instance lock of dir. When another process holds it,
// args are handed to that process and ErrRunning is returned; an error
// that is not ErrRunning means neither worked (and says why).
func Acquire(dir string, args []string) (*Lock, error) {
	f, err := tryLock(filepath.Join(dir, lockName))
	if errors.Is(err, errLocked) {
		if err := handOver(socketPath(dir), Request{Args: args}); err != nil {
			return nil, fmt.Errorf("another MCP Desk holds %s but does not answer: %w", filepath.Join(dir, lockName), err)
		}
		return nil, ErrRunning
	}
	if err != nil {
		return nil, fmt.Errorf("instance lock: %w", err)
	}
	path := socketPath(dir)
	// We hold the lock: a socket file left here is from a process that
	// is gone.
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		f.unlock()
		return nil, fmt.Errorf("instance socket %s: %w", path, err)
	}
	l := &Lock{file: f, listener: ln, path: path, requests: make(chan Request, 8)}
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

// handOver sends r to the process listening at path and waits for its
// acknowledgement, retrying while that process is starting.
func handOver(path string, r Request) error {
	msg, err := json.Marshal(r)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(handOverWait)
	for {
		err = send(path, append(msg, '\n'))
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func send(path string, msg []byte) error {
	c, err := net.DialTimeout("unix", path, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
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

// socketPath is the socket beside the lock, or one in the temp folder
// named after the data folder when that path would be too long.
func socketPath(dir string) string {
	p := filepath.Join(dir, socketName)
	if len(p) <= maxSocketPath {
		return p
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(os.TempDir(), "mcpdesk-"+hex.EncodeToString(sum[:6])+".sock")
}
