package webview

import (
	"strings"
	"testing"
)

func TestGatePassesUntaggedOnlyUntilThePageAnnouncesItself(t *testing.T) {
	var blocked []string
	g := newGate(func(what string) { blocked = append(blocked, what) })

	// Before the page's hello: as Wails without the gate.
	if got, ok := g.admit(`C{"name":"settings.Service.Prefs","args":[],"callbackID":"1"}`); !ok || !strings.HasPrefix(got, "C{") {
		t.Fatalf("before hello: %q %v, want passed unchanged", got, ok)
	}
	if g.isClosed() {
		t.Fatal("closed before hello")
	}
	// The hello is consumed, not handed to Wails.
	if got, ok := g.admit(g.secret + helloMessage); ok || got != "" {
		t.Fatalf("hello: %q %v, want consumed", got, ok)
	}
	if !g.isClosed() {
		t.Fatal("not closed after hello")
	}
	// Tagged: passed without the secret.
	if got, ok := g.admit(g.secret + "domready"); !ok || got != "domready" {
		t.Fatalf("tagged: %q %v", got, ok)
	}
	// Untagged, or tagged with another secret: refused and reported by
	// method name, never with the arguments.
	call := `C{"name":"settings.Service.SaveUIState","args":["k","secret-arg"],"callbackID":"x"}`
	for _, msg := range []string{call, "mcpdesk-00:" + call, strings.ToUpper(g.secret) + call, g.secret[:len(g.secret)-1] + call} {
		if got, ok := g.admit(msg); ok {
			t.Fatalf("untagged %q passed as %q", msg[:20], got)
		}
	}
	if len(blocked) != 4 || blocked[0] != "call settings.Service.SaveUIState" {
		t.Fatalf("blocked = %q", blocked)
	}
	for _, b := range blocked {
		if strings.Contains(b, "secret-arg") {
			t.Fatalf("the report carries the arguments: %q", b)
		}
	}
}

func TestGateSecretsDifferAndTheScriptCarriesIt(t *testing.T) {
	a, b := newGate(nil), newGate(nil)
	if a.secret == b.secret || len(a.secret) < 40 {
		t.Fatalf("secrets %q %q", a.secret, b.secret)
	}
	s := a.script()
	if !strings.Contains(s, a.secret) || !strings.Contains(s, "window.top !== window") || !strings.Contains(s, helloMessage) {
		t.Fatalf("script: %s", s)
	}
}

func TestDescribeMessage(t *testing.T) {
	for in, want := range map[string]string{
		`C{"name":"a.B.C","args":[1]}`: "call a.B.C",
		`C{"args":[1]}`:                "call",
		"":                             "empty message",
		"EE{}":                         `runtime message "E"`,
	} {
		if got := describeMessage(in); got != want {
			t.Errorf("describeMessage(%q) = %q, want %q", in, got, want)
		}
	}
}
