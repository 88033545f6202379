// Package childproc keeps the app's own file descriptors out of the
// programs it starts: MCP servers, the login shell that reads the user's
// environment, the file manager and the browser.
//
// Go opens its own descriptors close-on-exec, but the C libraries under the
// window do not all do so: WebKitGTK and GLib keep a few open without the
// flag, and Wails v2 answers every request of the window's page through a
// pipe it opens without it (pkg/assetserver/webview, responsewriter_linux.go).
// A child started while such a pipe is open keeps its write end for as long
// as it runs, so the page never sees that response end: a window started
// together with its MCP servers stayed blank in about one start in eleven
// here, until it was reloaded. And a server, which may be hostile, should
// not hold any of the app's descriptors at all.
//
// Launch marks every descriptor above standard error close-on-exec
// (Isolate), then starts the child; Start and Run wrap it. The child
// inherits its standard streams and what os/exec passes on purpose
// (ExtraFiles), nothing else. The asset server's pipes cannot slip in
// between: Middleware keeps requests of the window from opening one while
// a child is being started. A descriptor some library opens in that moment
// still could; the window of that race is the fork's instead of the
// child's whole life.
package childproc

import (
	"net/http"
	"os/exec"
	"sync"
	"time"
)

// starting is held for writing while a child is being started and for
// reading while the asset server answers a request.
var starting sync.RWMutex

// launchWait is how long Launch waits for the window's requests in flight:
// a response larger than a pipe's buffer is written only as fast as the
// window reads it, and the window must never wait for a child to start.
// After that, the child starts anyway.
var launchWait = 200 * time.Millisecond

// Launch isolates the app's descriptors and runs start, which starts a
// child process (exec.Cmd's Start, or a library call that does).
func Launch(start func() error) error {
	if holdStarting() {
		defer starting.Unlock()
	}
	Isolate()
	return start()
}

// holdStarting takes starting for writing within launchWait and reports
// whether it did.
func holdStarting() bool {
	deadline := time.Now().Add(launchWait)
	for !starting.TryLock() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// Start isolates the app's descriptors, then starts cmd.
func Start(cmd *exec.Cmd) error { return Launch(cmd.Start) }

// Run isolates the app's descriptors, then runs cmd to its end.
func Run(cmd *exec.Cmd) error {
	if err := Start(cmd); err != nil {
		return err
	}
	return cmd.Wait()
}

// Middleware wraps the window's asset server (Wails' AssetServer
// Middleware): no request opens its response pipe while a child is being
// started.
func Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		starting.RLock()
		defer starting.RUnlock()
		next.ServeHTTP(w, r)
	})
}
