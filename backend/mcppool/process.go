package mcppool

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"

	"mcpdesk/backend/childproc"
)

// process is one running stdio server: the child, its pipes, and the tail of
// its standard error. The child runs in its own process group so that
// stopping it also stops what it spawned (npx → node, uvx → python).
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *tailBuffer

	done    chan struct{} // closed when the child has exited and been reaped
	exitErr error         // valid after done is closed
	stopMu  sync.Mutex
	stopped bool
}

// processSpec is everything needed to start a stdio server.
type processSpec struct {
	Path string   // resolved executable
	Args []string // arguments, without argv[0]
	// CmdLine, when set, is the whole command line, passed as it is
	// (Windows: a batch file run through cmd.exe); Args are then ignored.
	CmdLine string
	Env     []string // the complete environment
	Dir     string   // working directory; "" for the app's
}

// Grace periods for stopping a child: first its stdin is closed and it may
// exit by itself, then it is sent SIGTERM, then SIGKILL.
const (
	stdinGrace = 2 * time.Second
	termGrace  = 2 * time.Second
)

// startProcess starts spec as a child process with piped stdio.
func startProcess(spec processSpec) (*process, error) {
	cmd := exec.Command(spec.Path, spec.Args...)
	cmd.Env = spec.Env
	cmd.Dir = spec.Dir
	setProcessGroup(cmd)
	setCommandLine(cmd, spec.CmdLine)
	// A grandchild that keeps stderr open must not keep Wait from returning.
	cmd.WaitDelay = time.Second

	p := &process{cmd: cmd, stderr: newTailBuffer(16 << 10), done: make(chan struct{})}
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("create stdin pipe: %w", err)
	}
	if p.stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, fmt.Errorf("create stdout pipe: %w", err)
	}
	// os/exec copies stderr through a goroutine and Wait waits for it, so
	// the tail is complete once done is closed.
	cmd.Stderr = p.stderr
	if err := childproc.Start(cmd); err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.Path, err)
	}
	go func() {
		p.exitErr = cmd.Wait()
		// A server that exits may leave children behind in its group.
		killGroup(cmd, true)
		waitGroupGone(cmd, time.Second)
		close(p.done)
	}()
	return p, nil
}

// Done is closed when the child has exited.
func (p *process) Done() <-chan struct{} { return p.done }

// ExitError describes how the child ended, once Done is closed.
func (p *process) ExitError() error {
	select {
	case <-p.done:
	default:
		return nil
	}
	var exit *exec.ExitError
	switch {
	case p.exitErr == nil:
		return errors.New("server process exited")
	case errors.As(p.exitErr, &exit):
		return fmt.Errorf("server process exited: %w", exit) // "exit status 1"
	default:
		return fmt.Errorf("server process exited: %w", p.exitErr)
	}
}

// Stop ends the child as the MCP spec asks for stdio: close its stdin, wait,
// then SIGTERM its group, wait, then SIGKILL. It returns when the child has
// been reaped. Safe to call more than once.
func (p *process) Stop() {
	p.stopMu.Lock()
	if p.stopped {
		p.stopMu.Unlock()
		<-p.done
		return
	}
	p.stopped = true
	p.stopMu.Unlock()

	_ = p.stdin.Close()
	if p.wait(stdinGrace) {
		return
	}
	killGroup(p.cmd, false)
	if p.wait(termGrace) {
		return
	}
	killGroup(p.cmd, true)
	<-p.done
}

func (p *process) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu   sync.Mutex
	max  int
	data []byte
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

// Write appends p, dropping the oldest bytes beyond the limit.
func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.data = append(b.data, p...)
	if over := len(b.data) - b.max; over > 0 {
		b.data = append(b.data[:0], b.data[over:]...)
	}
	return len(p), nil
}

// ReadFrom copies r to the buffer until EOF. os/exec copies a child's
// stderr with io.Copy, which uses this instead of a 32 KB buffer of its own,
// held for as long as the server runs.
func (b *tailBuffer) ReadFrom(r io.Reader) (int64, error) {
	buf := make([]byte, 4<<10)
	var n int64
	for {
		k, err := r.Read(buf)
		if k > 0 {
			_, _ = b.Write(buf[:k])
			n += int64(k)
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// String returns what the buffer holds.
func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.data)
}
