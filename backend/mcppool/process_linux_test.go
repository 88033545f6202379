package mcppool

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A stdio server holds its own pipes and nothing else of the app: not a
// descriptor some library opened without close-on-exec (Wails' asset
// pipes, WebKit's), which would keep the window's page loading for as long
// as the server runs, and which a hostile server must not get.
func TestAServerInheritsNoDescriptorOfTheApp(t *testing.T) {
	var leaky [2]int
	if err := unix.Pipe(leaky[:]); err != nil {
		t.Fatal(err)
	}
	defer unix.Close(leaky[0])
	defer unix.Close(leaky[1])

	p, err := startProcess(processSpec{Path: "/bin/sh", Args: []string{"-c", "ls -1 /proc/$$/fd"}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(p.stdout)
	<-p.Done()
	held := strings.Fields(string(out))
	if len(held) < 3 {
		t.Fatalf("the server listed %q, want at least its standard streams", out)
	}
	for _, fd := range leaky {
		for _, h := range held {
			if h == strconv.Itoa(fd) {
				t.Fatalf("the server holds the app's descriptor %d (it holds %v)", fd, held)
			}
		}
	}
}
