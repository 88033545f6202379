package websec

import (
	"strings"
	"testing"
)

func TestDevServerAddr(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "devserver" {
				return v
			}
			return ""
		}
	}
	for _, c := range []struct {
		args []string
		env  string
		want string
	}{
		{[]string{"-devserver", "127.0.0.1:34115"}, "", "127.0.0.1:34115"},
		{[]string{"--data-dir", "/d", "-devserver=127.0.0.1:1"}, "", "127.0.0.1:1"},
		{[]string{"--devserver", "localhost:9"}, "", "localhost:9"},
		{nil, "127.0.0.1:5", "127.0.0.1:5"},
		{[]string{"-devserver"}, "", ""},
		{nil, "", ""},
	} {
		if got := DevServerAddr(c.args, env(c.env)); got != c.want {
			t.Errorf("DevServerAddr(%q, devserver=%q) = %q, want %q", c.args, c.env, got, c.want)
		}
	}
}

// The production window may show wails://wails only; a development build
// also its dev server's window origin and websocket — and nothing else.
func TestWebPolicy(t *testing.T) {
	prod, err := ForWindow(false, "127.0.0.1:34115")
	if err != nil {
		t.Fatal(err)
	}
	if !prod.Decide(MainFrameResponse, "wails://wails/").Allow || prod.Decide(MainFrameResponse, "wails://wails.localhost:34115/").Allow {
		t.Error("production: want wails://wails only")
	}
	if strings.Contains(prod.CSP(), "ws:") {
		t.Errorf("production CSP allows a websocket: %s", prod.CSP())
	}
	dev, err := ForWindow(true, "127.0.0.1:34115")
	if err != nil {
		t.Fatal(err)
	}
	if !dev.Decide(MainFrameResponse, "wails://wails.localhost:34115/").Allow || dev.Decide(Navigate, "http://127.0.0.1:34115/").Allow {
		t.Error("dev: want wails://wails.localhost:34115 and no http page")
	}
	if !strings.Contains(dev.CSP(), "connect-src 'self' ws://127.0.0.1:34115;") {
		t.Errorf("dev CSP: %s", dev.CSP())
	}
	// A dev server address without a host adds nothing (and does not fail).
	if p, err := ForWindow(true, ":34115"); err != nil || strings.Contains(p.CSP(), "ws:") {
		t.Errorf("dev without a host: %v, %v", p, err)
	}
}
