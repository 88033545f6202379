//go:build !linux || !(desktop || dev)

package webview

import (
	"log/slog"

	"mcpdesk/backend/websec"
)

// Guard is WebKit's navigation policy hook on Linux (guard_linux.go).
// Elsewhere — Windows' WebView2, macOS' WKWebView, and builds without a
// window (tests, bindings) — it does nothing yet: there the page's own
// guard (frontend/src/lib/util/navguard.ts) and the CSP hold the window.
type Guard struct{ ready chan struct{} }

// New returns a guard that does nothing.
func New(*websec.Policy, *slog.Logger) *Guard {
	g := &Guard{ready: make(chan struct{})}
	close(g.ready)
	return g
}

// Watch does nothing here.
func (*Guard) Watch() {}

// Watching is closed at once: there is nothing to wait for.
func (g *Guard) Watching() <-chan struct{} { return g.ready }

// Reload does nothing here; the caller falls back to the page's own reload.
func (*Guard) Reload() {}

// OnBridgeBlocked does nothing here: on macOS Wails itself refuses messages
// from a frame whose address is not the app's (a widget runs in an
// about:srcdoc frame), and WebView2 does not pass messages of subframes to
// Wails' handler at all.
func (*Guard) OnBridgeBlocked(func(string)) {}

// BridgeGated reports false: there is no gate of ours here (see
// OnBridgeBlocked for what holds instead).
func (*Guard) BridgeGated() bool { return false }

// CanReload reports whether Reload works on this platform.
func (*Guard) CanReload() bool { return false }
