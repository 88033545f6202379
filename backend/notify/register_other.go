//go:build !windows

package notify

// RegisterClickTarget does nothing here: a click on a freedesktop
// notification comes back over D-Bus (notify_dbus.go), and macOS has no
// click-back yet (notify_darwin.go).
func RegisterClickTarget(exe string) error { return nil }
