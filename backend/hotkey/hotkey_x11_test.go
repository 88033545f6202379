//go:build linux

package hotkey

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// xvfb starts a private X server (Xvfb is a test dependency, see
// build/scripts/deps.sh) and returns its display name.
func xvfb(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Fatal("Xvfb is needed for this test (apt-get install xvfb)")
	}
	for n := 140; n < 200; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); err == nil {
			continue
		}
		display := fmt.Sprintf(":%d", n)
		cmd := exec.Command(bin, display, "-screen", "0", "640x480x24", "-nolisten", "tcp", "-noreset")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		for i := 0; i < 100; i++ {
			if _, err := os.Stat(filepath.Join("/tmp/.X11-unix", fmt.Sprintf("X%d", n))); err == nil {
				if c, err := xgb.NewConnDisplay(display); err == nil {
					c.Close()
					return display
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("Xvfb on %s did not start", display)
	}
	t.Fatal("no free X display")
	return ""
}

// press types keys (keysyms held in order, then released) with XTEST, as
// a keyboard would.
func press(t *testing.T, display string, keysyms ...xproto.Keysym) {
	t.Helper()
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := xtest.Init(c); err != nil {
		t.Fatal(err)
	}
	root := xproto.Setup(c).DefaultScreen(c).Root
	var codes []xproto.Keycode
	for _, s := range keysyms {
		code, err := keycodeOf(c, s)
		if err != nil {
			t.Fatal(err)
		}
		codes = append(codes, code)
	}
	for _, code := range codes {
		if err := xtest.FakeInputChecked(c, xproto.KeyPress, byte(code), 0, root, 0, 0, 0).Check(); err != nil {
			t.Fatal(err)
		}
	}
	for i := len(codes) - 1; i >= 0; i-- {
		if err := xtest.FakeInputChecked(c, xproto.KeyRelease, byte(codes[i]), 0, root, 0, 0, 0).Check(); err != nil {
			t.Fatal(err)
		}
	}
	_, _ = xproto.GetInputFocus(c).Reply() // flush
}

const (
	controlL = 0xffe3
	altL     = 0xffe9
	shiftL   = 0xffe1
)

func TestShortcutOnX11(t *testing.T) {
	t.Setenv("XDG_SESSION_TYPE", "x11")
	display := xvfb(t)
	fired := make(chan struct{}, 8)
	h, err := Register(display, func() { fired <- struct{}{} })
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	press(t, display, controlL, altL, keysymSpace)
	select {
	case <-fired:
	case <-time.After(5 * time.Second):
		t.Fatal("Ctrl+Alt+Space did not reach the handler")
	}
	// Other combinations are not ours.
	press(t, display, controlL, shiftL, keysymSpace)
	press(t, display, keysymSpace)
	select {
	case <-fired:
		t.Fatal("a different key combination fired the shortcut")
	case <-time.After(300 * time.Millisecond):
	}

	// Held by us: another application cannot take it, and we say so when
	// it is the other way round.
	if _, err := Register(display, func() {}); !errors.Is(err, ErrTaken) {
		t.Fatalf("second Register: %v, want ErrTaken", err)
	}
	h.Close()
	h.Close()
	h2, err := Register(display, func() { fired <- struct{}{} })
	if err != nil {
		t.Fatalf("Register after Close: %v", err)
	}
	defer h2.Close()
	press(t, display, controlL, altL, keysymSpace)
	select {
	case <-fired:
	case <-time.After(5 * time.Second):
		t.Fatal("the shortcut did not work again after Close and Register")
	}
}

func TestWaylandSaysWhy(t *testing.T) {
	t.Setenv("XDG_SESSION_TYPE", "wayland")
	if _, err := Register("", func() {}); err == nil || !strings.Contains(err.Error(), "Wayland") {
		t.Fatalf("Register on Wayland: %v", err)
	}
}
