//go:build !windows

package main

import (
	"bytes"
	"image/png"
	"testing"
)

// The window and tray icons stay small: GTK keeps the window icon decoded
// (width × height × 4 bytes) for the window's life, and the tray's crosses
// D-Bus as pixels.
func TestIconsAreSmall(t *testing.T) {
	for _, c := range []struct {
		name string
		png  []byte
		max  int
	}{{"window icon", icon, 256}, {"tray icon", trayIcon(), 64}} {
		cfg, err := png.DecodeConfig(bytes.NewReader(c.png))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if cfg.Width > c.max || cfg.Height > c.max || cfg.Width != cfg.Height {
			t.Errorf("%s is %d×%d px, want square and at most %d px", c.name, cfg.Width, cfg.Height, c.max)
		}
	}
}
