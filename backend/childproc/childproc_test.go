//go:build unix

package childproc

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// The child: reports which of the descriptors named in CHILDPROC_PROBE it
// holds open.
func TestMain(m *testing.M) {
	if probe := os.Getenv("CHILDPROC_PROBE"); probe != "" {
		var open []string
		for _, s := range strings.Split(probe, ",") {
			fd, _ := strconv.Atoi(s)
			if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil {
				open = append(open, s)
			}
		}
		fmt.Print(strings.Join(open, ","))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// leakyPipe opens a pipe the way Wails' asset server does: without
// close-on-exec.
func leakyPipe(t *testing.T) [2]int {
	t.Helper()
	var p [2]int
	if err := unix.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(p[0]); unix.Close(p[1]) })
	return p
}

// probeCmd is the test binary as a child that reports which descriptors
// of p it holds, on out.
func probeCmd(p [2]int) (cmd *exec.Cmd, out *strings.Builder) {
	cmd = exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("CHILDPROC_PROBE=%d,%d", p[0], p[1]))
	out = &strings.Builder{}
	cmd.Stdout = out
	return cmd, out
}

// probe starts the probe with start and returns the descriptors of p it
// still holds.
func probe(t *testing.T, p [2]int, start func(*exec.Cmd) error) string {
	t.Helper()
	cmd, out := probeCmd(p)
	if err := start(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestAChildInheritsNoneOfTheAppsDescriptors(t *testing.T) {
	p := leakyPipe(t)
	// Without Isolate the child holds both ends: the test can fail.
	if got, want := probe(t, p, (*exec.Cmd).Start), fmt.Sprintf("%d,%d", p[0], p[1]); got != want {
		t.Fatalf("plain exec: the child holds %q, want %q (the probe is broken)", got, want)
	}
	if got := probe(t, p, Start); got != "" {
		t.Fatalf("childproc.Start: the child holds descriptors %s of the app", got)
	}
	// The app's own use of them is untouched.
	if _, err := unix.Write(p[1], []byte("x")); err != nil {
		t.Fatalf("write after Isolate: %v", err)
	}
	buf := make([]byte, 1)
	if n, err := unix.Read(p[0], buf); n != 1 || err != nil {
		t.Fatalf("read after Isolate: %d %v", n, err)
	}
}

func TestRunIsolatesToo(t *testing.T) {
	cmd, out := probeCmd(leakyPipe(t))
	if err := Run(cmd); err != nil {
		t.Fatal(err)
	}
	if out.String() != "" {
		t.Fatalf("childproc.Run: the child holds descriptors %s of the app", out.String())
	}
}

// The fallback for kernels without close_range: the listing of the
// process's descriptors.
func TestMarkListed(t *testing.T) {
	dir := "/proc/self/fd"
	if _, err := os.Stat(dir); err != nil {
		dir = "/dev/fd"
	}
	p := leakyPipe(t)
	markListed(dir)
	for _, fd := range p {
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		if err != nil || flags&unix.FD_CLOEXEC == 0 {
			t.Fatalf("descriptor %d: flags %d, %v; want close-on-exec", fd, flags, err)
		}
	}
}
