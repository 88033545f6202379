//go:build linux && (desktop || dev)

package webview

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
#include <stdlib.h>
#include "guard_linux.h"
*/
import "C"

import (
	"log/slog"
	"runtime/cgo"
	"sync"
	"sync/atomic"

	"mcpdesk/backend/websec"
)

// Guard keeps the window on the app's own pages at the lowest level
// there is: WebKit's navigation policy (Wails v2 does not expose it). It
// connects to the app's WebKitWebView's decide-policy signal, asks the
// websec.Policy about every navigation, response and new-window request,
// and ignores what the policy refuses, logging the target's host.
type Guard struct {
	policy *websec.Policy
	logger *slog.Logger
	handle cgo.Handle // how C callbacks find this guard; lives as long as the process
	once   sync.Once
	ready  chan struct{} // closed once a web view is watched

	// The bridge gate (gate.go): only the app's page reaches Go.
	gate      *gate
	script    *C.char // the gate's wrapper, for WebKit; lives as long as the process
	gateState atomic.Int32
	onBlocked atomic.Pointer[func(string)]
}

// New returns a guard asking p; nothing is hooked until Watch.
func New(p *websec.Policy, logger *slog.Logger) *Guard {
	g := &Guard{policy: p, logger: logger, ready: make(chan struct{})}
	g.gate = newGate(g.blocked)
	g.script = C.CString(g.gate.script())
	g.handle = cgo.NewHandle(g)
	return g
}

// OnBridgeBlocked is told of every message to the Go bindings that the gate
// refused (what it asked for, never its arguments) — e.g. to show it in the
// logger.
func (g *Guard) OnBridgeBlocked(f func(what string)) {
	if g != nil {
		g.onBlocked.Store(&f)
	}
}

// BridgeGated reports whether the bridge gate is in place and the app's
// page has announced itself through it: from then on no other frame
// reaches Go.
func (g *Guard) BridgeGated() bool {
	return g != nil && g.gate != nil && g.gateState.Load() == 1 && g.gate.isClosed()
}

func (g *Guard) blocked(what string) {
	g.logger.Warn("blocked a message to the Go bindings from a frame that is not the app's page", "what", what)
	if f := g.onBlocked.Load(); f != nil {
		(*f)(what)
	}
}

// Watching is closed once the guard watches the window.
func (g *Guard) Watching() <-chan struct{} { return g.ready }

// Watch hooks the app's web views that are not hooked yet, on the GTK
// main thread; safe from any goroutine and safe to repeat (startup, every
// domReady).
func (g *Guard) Watch() {
	if g == nil || g.policy == nil {
		return
	}
	C.navguard_watch(C.uintptr_t(g.handle), g.script)
}

// Reload reloads the app's page in the web views the guard watches, on
// the GTK main thread, below the page's own JavaScript (which may be the
// part that is stuck); safe from any goroutine.
func (g *Guard) Reload() {
	if g == nil || g.policy == nil {
		return
	}
	C.navguard_reload()
}

//export navguardDecide
func navguardDecide(h C.uintptr_t, kind C.int, uri *C.char) C.int {
	g := cgo.Handle(h).Value().(*Guard)
	d := g.policy.Decide(websec.Kind(kind), C.GoString(uri))
	if d.Allow {
		return 1
	}
	g.logger.Info("navigation blocked", "kind", d.Kind.String(), "host", d.Host)
	return 0
}

//export navguardIsAppPage
func navguardIsAppPage(h C.uintptr_t, uri *C.char) C.int {
	if cgo.Handle(h).Value().(*Guard).policy.IsAppPage(C.GoString(uri)) {
		return 1
	}
	return 0
}

//export navguardSearched
func navguardSearched(h C.uintptr_t, hooked C.int) {
	g := cgo.Handle(h).Value().(*Guard)
	if hooked > 0 {
		g.logger.Info("navigation guard watching the window", "views", int(hooked))
		g.once.Do(func() { close(g.ready) })
	}
}

//export ipcgateAdmit
func ipcgateAdmit(h C.uintptr_t, msg *C.char) *C.char {
	g := cgo.Handle(h).Value().(*Guard)
	pass, ok := g.gate.admit(C.GoString(msg))
	if !ok {
		return nil
	}
	return C.CString(pass) // freed by the C caller
}

//export ipcgateInstalled
func ipcgateInstalled(h C.uintptr_t, result C.int) {
	g := cgo.Handle(h).Value().(*Guard)
	switch result {
	case 1:
		g.gateState.Store(1)
		g.logger.Info("bridge gate in place: only the app's page reaches the Go bindings")
	case 0:
	case -1:
		g.gateState.Store(-1)
		g.logger.Warn("bridge gate not in place: this binary has no Wails window to hand messages to")
	default:
		g.gateState.Store(int32(result))
		g.logger.Warn("bridge gate not in place: Wails' message handler was not found", "result", int(result))
	}
}

// CanReload reports whether Reload works on this platform.
func (*Guard) CanReload() bool { return true }
