//go:build linux || freebsd || openbsd || netbsd

package hotkey

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"sync"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

const (
	keysymSpace = 0x0020
	mods        = xproto.ModMaskControl | xproto.ModMask1 // Ctrl+Alt
)

var quietOnce sync.Once

// ignored are the lock modifiers a grab must also cover: Caps Lock
// (Lock) and Num Lock (usually Mod2).
var ignored = []uint16{0, xproto.ModMaskLock, xproto.ModMask2, xproto.ModMaskLock | xproto.ModMask2}

// Register grabs Ctrl+Alt+Space on the X display named display ("" for
// $DISPLAY) and calls fn, on its own goroutine, at every press.
func Register(display string, fn func()) (*Hotkey, error) {
	if os.Getenv("XDG_SESSION_TYPE") == "wayland" || (display == "" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") != "") {
		return nil, errors.New("a Wayland session lets no application have a global shortcut")
	}
	// xgb narrates to stderr ("Could not get authority info…"); what
	// matters reaches the caller as an error.
	quietOnce.Do(func() { xgb.Logger = log.New(io.Discard, "", 0) })
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		return nil, fmt.Errorf("no X display: %w", err)
	}
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	code, err := keycodeOf(conn, keysymSpace)
	if err != nil {
		conn.Close()
		return nil, err
	}
	for i, m := range ignored {
		err := xproto.GrabKeyChecked(conn, true, root, mods|m, code, xproto.GrabModeAsync, xproto.GrabModeAsync).Check()
		if err != nil {
			for _, back := range ignored[:i] {
				_ = xproto.UngrabKeyChecked(conn, code, root, mods|back).Check()
			}
			conn.Close()
			var access xproto.AccessError
			if errors.As(err, &access) {
				return nil, ErrTaken
			}
			return nil, fmt.Errorf("grab %s: %w", Label, err)
		}
	}
	var once sync.Once
	go func() {
		for {
			ev, xerr := conn.WaitForEvent()
			if ev == nil && xerr == nil {
				return // closed
			}
			if k, ok := ev.(xproto.KeyPressEvent); ok && k.Detail == code {
				fn()
			}
		}
	}()
	// Close gives the grabs back and waits for the server to confirm
	// before disconnecting: a disconnect alone releases them only when
	// the server gets round to it, so a Register right after Close (a
	// restart of quick chat) could find the shortcut still taken.
	release := func() {
		for _, m := range ignored {
			_ = xproto.UngrabKeyChecked(conn, code, root, mods|m).Check()
		}
		conn.Close()
	}
	return &Hotkey{close: func() { once.Do(release) }}, nil
}

// keycodeOf finds the key that produces keysym without modifiers.
func keycodeOf(conn *xgb.Conn, keysym xproto.Keysym) (xproto.Keycode, error) {
	setup := xproto.Setup(conn)
	first, last := setup.MinKeycode, setup.MaxKeycode
	m, err := xproto.GetKeyboardMapping(conn, first, byte(last-first+1)).Reply()
	if err != nil {
		return 0, fmt.Errorf("keyboard mapping: %w", err)
	}
	per := int(m.KeysymsPerKeycode)
	for i := 0; per > 0 && i*per < len(m.Keysyms); i++ {
		if m.Keysyms[i*per] == keysym {
			return first + xproto.Keycode(i), nil
		}
	}
	return 0, fmt.Errorf("no key produces keysym %#x", keysym)
}
