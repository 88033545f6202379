//go:build darwin

package hotkey

import "errors"

// Register: MCP Desk has no global shortcut on macOS yet.
func Register(string, func()) (*Hotkey, error) {
	return nil, errors.New("no global shortcut on macOS yet: use the tray or bind `mcpdesk --quick-chat`")
}
