// Package hotkey registers the global shortcut that opens quick chat
// (SPEC F2): Ctrl+Alt+Space, wherever the platform lets an application
// have one.
//
//   - Linux/BSD on X11: a passive key grab on the root window (pure-Go X11
//     client, github.com/jezek/xgb), with the Caps Lock and Num Lock
//     variants so the shortcut works whatever their state.
//   - Wayland: applications cannot grab keys; Register says so, and the
//     user binds `mcpdesk --quick-chat` in the desktop's keyboard settings.
//   - Windows: RegisterHotKey.
//   - macOS: not yet (Register says so).
package hotkey

import "errors"

// Label is the shortcut as the user reads it.
const Label = "Ctrl+Alt+Space"

// ErrTaken means another application holds the shortcut already.
var ErrTaken = errors.New(Label + " is already taken by another application")

// Hotkey is a registered shortcut; Close gives it back.
type Hotkey struct {
	close func()
}

// Close unregisters the shortcut. Closing nil or twice is a no-op.
func (h *Hotkey) Close() {
	if h != nil && h.close != nil {
		h.close()
		h.close = nil
	}
}
