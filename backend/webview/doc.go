// Package webview reaches below Wails into the app's web view where Wails
// v2 offers no hook: on Linux it answers WebKitGTK's decide-policy signal,
// so that nothing — a sanitiser bypass, a script, a meta refresh — can take
// the window to another origin (backend/websec decides what is allowed;
// this package only carries the question). Elsewhere it does nothing yet,
// and the page's own guard and the CSP hold the window. It is built with
// the window (tags desktop or dev); it never imports the Wails runtime.
package webview
