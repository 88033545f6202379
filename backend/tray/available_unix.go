//go:build linux || freebsd || openbsd || netbsd

package tray

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/godbus/dbus/v5"
)

// watcher is the D-Bus name of the service that shows tray items.
const watcher = "org.kde.StatusNotifierWatcher"

// Available reports whether a panel shows tray items now: whether a
// StatusNotifierWatcher runs on the session bus. It is asked when the
// window closes, so a panel started later counts.
func (t *Tray) Available() bool {
	if t == nil {
		return false
	}
	conn, err := dbus.SessionBus()
	if err != nil {
		return false
	}
	var has bool
	if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, watcher).Store(&has); err != nil {
		return false
	}
	return has
}

// canStart: the item lives on the session bus, so there must be one (the
// systray library would crash on quitting without it). A desktop session
// names its bus; without one, D-Bus would launch a private bus that no
// panel watches and that outlives us, so there is no tray then.
func canStart() error {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		if _, err := os.Stat(filepath.Join(os.Getenv("XDG_RUNTIME_DIR"), "bus")); os.Getenv("XDG_RUNTIME_DIR") == "" || err != nil {
			return errors.New("no D-Bus session bus")
		}
	}
	_, err := dbus.SessionBus()
	return err
}
