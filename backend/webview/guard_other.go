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

// CanReload reports whether Reload works on this platform.
func (*Guard) CanReload() bool { return false }
