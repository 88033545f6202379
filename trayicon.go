//go:build !windows

package main

import _ "embed"

// trayIcon is the tray's icon: a 64 px PNG of the app icon (panels scale
// it; the full 1024 px one would cross D-Bus as 4 MiB of pixels).
//
//go:embed build/trayicon.png
var trayPNG []byte

func trayIcon() []byte { return trayPNG }
