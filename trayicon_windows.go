//go:build windows

package main

import _ "embed"

//go:embed build/windows/icon.ico
var iconICO []byte

// trayIcon is the tray's icon: Windows wants an ICO.
func trayIcon() []byte { return iconICO }
