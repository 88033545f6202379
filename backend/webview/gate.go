package webview

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
)

// The bridge gate. On Linux, Wails v2 carries every call from the page to
// Go through one WebKit script message handler, "external", which WebKitGTK
// exposes to every frame of the window — also to a sandboxed widget iframe
// on an opaque origin — without saying which frame sent a message (Wails
// checks the top page's address instead; GHSA-r5j2-ghh9-2jqw, fixed in
// Wails v2.17.1, which the Go proxy here does not serve). A server's widget
// could call any bound method.
//
// The gate closes that: a script WebKit runs at document start in the top
// frame only — never in a subframe — wraps the bridge so that each message
// the app's own page sends starts with a secret made at launch, and the
// handler that replaces Wails' own passes on only messages that carry it.
// A frame that is not the app's page (a widget, a frame inside it, an
// about:blank it made) never sees the secret: it is cross-origin to the
// top page, and the script never runs in it.
//
// Until the first page announces itself through the wrapper ("hello"),
// messages pass as before (the page loaded before the gate was hooked in;
// no widget can exist yet). From then on, only tagged messages pass.
type gate struct {
	secret string
	// onBlocked is told of every refused message: the Go method it named
	// (a binding call) or its kind, never its arguments.
	onBlocked func(what string)

	mu       sync.Mutex
	closed   bool // a page announced itself: untagged messages are refused
	refused  int
	accepted int
}

const helloMessage = "mcpdesk:ipc-hello"

func newGate(onBlocked func(string)) *gate {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("webview: no randomness for the bridge secret: %v", err))
	}
	return &gate{secret: "mcpdesk-" + hex.EncodeToString(b) + ":", onBlocked: onBlocked}
}

// admit answers one message from the page: the message to hand to Wails
// (without the secret), or ok false to drop it.
func (g *gate) admit(msg string) (string, bool) {
	rest, tagged := strings.CutPrefix(msg, g.secret)
	g.mu.Lock()
	if tagged {
		if rest == helloMessage {
			g.closed = true
			g.mu.Unlock()
			return "", false
		}
		g.accepted++
		g.mu.Unlock()
		return rest, true
	}
	if !g.closed {
		g.mu.Unlock()
		return msg, true
	}
	g.refused++
	g.mu.Unlock()
	if g.onBlocked != nil {
		g.onBlocked(describeMessage(msg))
	}
	return "", false
}

// isClosed reports whether the app's page has announced itself.
func (g *gate) isClosed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

// describeMessage names what a refused message asked for, for the log:
// the bound method of a call ("C{"name":"pkg.Service.Method",…}"), else
// the kind of runtime message; never its arguments.
func describeMessage(msg string) string {
	if strings.HasPrefix(msg, "C{") {
		const key = `"name":"`
		if i := strings.Index(msg, key); i >= 0 {
			name := msg[i+len(key):]
			if j := strings.IndexByte(name, '"'); j >= 0 && j <= 120 {
				return "call " + name[:j]
			}
		}
		return "call"
	}
	if msg == "" {
		return "empty message"
	}
	return fmt.Sprintf("runtime message %q", msg[:1])
}

// script is the wrapper WebKit runs at document start in the top frame.
// window.webkit itself cannot be replaced (WebKit makes it
// non-configurable), and the handler object it hands out is made anew from
// time to time (an own property set on it is soon gone), so the wrapper
// replaces the messageHandlers accessor of the top realm's WebKitNamespace
// prototype: page code sees a frozen { external: { postMessage } } that
// tags each message and posts it through the native handler, looked up
// afresh each time through the original accessor. Then it announces
// itself. Run twice (the page was loaded before the gate was hooked, then
// reloaded) it does nothing the second time.
func (g *gate) script() string {
	return fmt.Sprintf(`(() => {
  if (window.top !== window) return;
  const mark = Symbol.for('mcpdesk.ipcGate');
  if (window[mark]) return;
  const ns = window.webkit;
  const proto = ns && Object.getPrototypeOf(ns);
  const desc = proto && Object.getOwnPropertyDescriptor(proto, 'messageHandlers');
  if (!desc || typeof desc.get !== 'function' || !desc.configurable) return;
  const native = desc.get;
  const secret = %q;
  const send = (m) => native.call(window.webkit).external.postMessage(secret + String(m));
  const handlers = Object.freeze({ external: Object.freeze({ postMessage: send }) });
  Object.defineProperty(proto, 'messageHandlers', { get: () => handlers, configurable: false, enumerable: true });
  if (window.webkit.messageHandlers.external.postMessage !== send) return;
  Object.defineProperty(window, mark, { value: true });
  send(%q);
})();`, g.secret, helloMessage)
}
