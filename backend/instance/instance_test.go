package instance

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a second process: with MCPDESK_INSTANCE_CHILD
// set it takes the lock of that folder and waits to be killed.
func TestMain(m *testing.M) {
	// Sockets go to a runtime folder of the tests' own (the child inherits it).
	if os.Getenv("MCPDESK_INSTANCE_CHILD") == "" {
		rt, err := os.MkdirTemp("", "mcpdesk-rt")
		if err != nil {
			panic(err)
		}
		os.Setenv("XDG_RUNTIME_DIR", rt)
		code := m.Run()
		os.RemoveAll(rt)
		os.Exit(code)
	}
	if dir := os.Getenv("MCPDESK_INSTANCE_CHILD"); dir != "" {
		l, err := Acquire(dir, nil)
		if err != nil {
			os.Stdout.WriteString("error " + err.Error() + "\n")
			os.Exit(2)
		}
		got := make(chan Request, 1)
		l.Serve(func(r Request) { got <- r })
		os.Stdout.WriteString("locked\n")
		r := <-got
		os.Stdout.WriteString("got " + strings.Join(r.Args, " ") + "\n")
		time.Sleep(time.Hour)
	}
	os.Exit(m.Run())
}

func TestSecondLaunchHandsOver(t *testing.T) {
	dir := t.TempDir()
	first, err := Acquire(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	// A launch before the first one serves is kept, not lost.
	if _, err := Acquire(dir, []string{"--quick-chat"}); !errors.Is(err, ErrRunning) {
		t.Fatalf("second Acquire: %v, want ErrRunning", err)
	}
	got := make(chan Request, 4)
	first.Serve(func(r Request) { got <- r })
	select {
	case r := <-got:
		if len(r.Args) != 1 || r.Args[0] != "--quick-chat" {
			t.Fatalf("handed over %v", r.Args)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the first instance never heard of the second launch")
	}
	if _, err := Acquire(dir, nil); !errors.Is(err, ErrRunning) {
		t.Fatalf("third Acquire: %v", err)
	}
	select {
	case r := <-got:
		if len(r.Args) != 0 {
			t.Fatalf("handed over %v", r.Args)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("third launch not heard")
	}
	// Released: the next launch is the first again.
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Acquire(dir, nil)
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	again.Close()
}

func TestOtherFoldersAreIndependent(t *testing.T) {
	a, err := Acquire(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Acquire(t.TempDir(), nil)
	if err != nil {
		t.Fatalf("a second data folder must get its own window: %v", err)
	}
	b.Close()
}

// A holder killed with SIGKILL leaves its socket file behind; the lock is
// gone with it, and the next launch starts normally.
func TestKilledHolderReleases(t *testing.T) {
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run", "^$")
	child.Env = append(os.Environ(), "MCPDESK_INSTANCE_CHILD="+dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.HasPrefix(string(buf[:n]), "locked") {
		t.Fatalf("child: %q", buf[:n])
	}
	// Held by the child: a launch here is handed over to it.
	if _, err := Acquire(dir, []string{"hello"}); !errors.Is(err, ErrRunning) {
		t.Fatalf("Acquire while the child holds the lock: %v", err)
	}
	n, _ = out.Read(buf)
	if !strings.Contains(string(buf[:n]), "got hello") {
		t.Fatalf("child did not get the request: %q", buf[:n])
	}
	_ = child.Process.Kill()
	_ = child.Wait()
	sock, err := defaultGuard().socketPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("expected the killed child's socket file to remain: %v", err)
	}
	l, err := Acquire(dir, nil)
	if err != nil {
		t.Fatalf("after the holder died: %v", err)
	}
	l.Close()
}

func TestLongFolderGetsAShortSocket(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if p, err := defaultGuard().socketPath(dir); err != nil || len(p) > maxSocketPath || !strings.HasPrefix(p, os.Getenv("XDG_RUNTIME_DIR")) {
		t.Fatalf("socket path %q, %v", p, err)
	}
	if _, err := Acquire(dir, nil); !errors.Is(err, ErrRunning) {
		t.Fatalf("second: %v", err)
	}
}
