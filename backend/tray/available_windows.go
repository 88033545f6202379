//go:build windows

package tray

// Available: Windows always has a notification area.
func (t *Tray) Available() bool { return t != nil }

func canStart() error { return nil }
