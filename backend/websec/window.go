package websec

import (
	"net"
	"strings"
)

// AppOrigin is where Wails serves the app's pages in the window.
const AppOrigin = "wails://wails"

// ForWindow is the window's navigation rule and CSP. A
// development build (dev) also serves the page to a browser from the dev
// server at devServer ("127.0.0.1:34115"): its websocket carries the
// bindings, and with an external frontend dev server (`wails dev`) the
// window's pages come from wails://wails.localhost:PORT.
func ForWindow(dev bool, devServer string) (*Policy, error) {
	o := Options{App: []string{AppOrigin}, Views: []string{AppOrigin}}
	if dev && devServer != "" {
		if host, port, err := net.SplitHostPort(devServer); err == nil && host != "" && port != "" {
			o.App = append(o.App, "wails://wails.localhost:"+port)
			o.Connect = append(o.Connect, "ws://"+devServer)
			// A browser on the dev server shows views from it.
			o.Views = append(o.Views, "wails://wails.localhost:"+port, "http://"+devServer)
		}
	}
	return New(o)
}

// DevServerAddr is the dev server's address of a development build: its
// -devserver flag, else the devserver environment variable (as Wails reads
// them).
func DevServerAddr(args []string, getenv func(string) string) string {
	for i, a := range args {
		for _, name := range []string{"-devserver", "--devserver"} {
			if a == name && i+1 < len(args) {
				return args[i+1]
			}
			if v, ok := strings.CutPrefix(a, name+"="); ok {
				return v
			}
		}
	}
	return getenv("devserver")
}
