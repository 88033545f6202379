package websec

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestOriginOf(t *testing.T) {
	for _, c := range []struct {
		url, want string
	}{
		{"wails://wails/", "wails://wails"},
		{"wails://wails/index.html?x=1#y", "wails://wails"},
		{"WAILS://Wails/", "wails://wails"},
		{"wails://wails.localhost:34115/", "wails://wails.localhost:34115"},
		{"http://127.0.0.1:34115/assets/x.js", "http://127.0.0.1:34115"},
		{"http://example.com:80/", "http://example.com"},
		{"https://example.com:443/a", "https://example.com"},
		{"https://example.com:8443/a", "https://example.com:8443"},
		{"https://wails@evil.example/", "https://evil.example"},
		{"http://[::1]:8080/", "http://[::1]:8080"},
		{"blob:wails://wails/4f1c-uuid", "wails://wails"},
		{"blob:https://evil.example/uuid", "https://evil.example"},
	} {
		got, err := OriginOf(c.url)
		if err != nil || string(got) != c.want {
			t.Errorf("OriginOf(%q) = %q, %v; want %q", c.url, got, err, c.want)
		}
	}
	// No host: an opaque origin, never the app's.
	for _, u := range []string{
		"", "/relative", "about:blank", "about:srcdoc", "data:text/html,<h1>x</h1>", "javascript:alert(1)",
		"mailto:a@b.c", "file:///etc/passwd", "blob:", "blob:null/uuid", "blob:blob:wails://wails/x", "wails:///x",
		"http://exa mple.com/", "https://ex\x00ample.com/",
	} {
		if got, err := OriginOf(u); err == nil {
			t.Errorf("OriginOf(%q) = %q, want an error", u, got)
		}
	}
}

func TestHostOf(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://user:secret@Evil.Example/path?token=abc", "evil.example"},
		{"data:text/html,<script>", "data:"},
		{"javascript:alert(1)", "javascript:"},
		{"blob:https://evil.example/uuid", "evil.example"},
		{"%zz", "(unreadable URL)"},
	} {
		if got := HostOf(c.url); got != c.want {
			t.Errorf("HostOf(%q) = %q, want %q", c.url, got, c.want)
		}
	}
}

func mustPolicy(t *testing.T, o Options) *Policy {
	t.Helper()
	p, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The main frame shows the app's origin and nothing else; new windows
// never open.
func TestDecide(t *testing.T) {
	app := mustPolicy(t, Options{App: []string{"wails://wails"}})
	for _, c := range []struct {
		kind  Kind
		url   string
		allow bool
	}{
		{Navigate, "wails://wails/", true},
		{Navigate, "wails://wails/index.html#/chat", true},
		{MainFrameResponse, "wails://wails/", true},
		{MainFrameResponse, "blob:wails://wails/uuid", true}, // the app's own download
		{Navigate, "https://evil.example/login", false},
		{Navigate, "http://wails/", false},
		{Navigate, "wails://wails.evil.example/", false},
		{Navigate, "wails://evil/", false},
		{Navigate, "https://wails@evil.example/", false},
		{Navigate, "data:text/html,<h1>re-enter your key</h1>", false},
		{Navigate, "about:blank", false},
		{Navigate, "javascript:alert(1)", false},
		{Navigate, "file:///etc/passwd", false},
		{Navigate, "blob:https://evil.example/uuid", false},
		{MainFrameResponse, "https://evil.example/", false},
		{SubframeResponse, "wails://wails/", false}, // no frames without a registered frame origin
		{SubframeResponse, "https://evil.example/", false},
		{NewWindow, "wails://wails/", false},
		{NewWindow, "https://example.com/", false},
	} {
		d := app.Decide(c.kind, c.url)
		if d.Allow != c.allow || d.Kind != c.kind {
			t.Errorf("Decide(%s, %q) = %+v, want allow=%v", c.kind, c.url, d, c.allow)
		}
	}
	if d := app.Decide(Navigate, "https://user:pw@evil.example/p?token=1"); d.Host != "evil.example" {
		t.Errorf("the decision's host %q says more than the host", d.Host)
	}
}

// A widget origin (a later issue) may be shown by subframes only: the main
// frame still leaves the app for nothing.
func TestDecideFrameOrigin(t *testing.T) {
	p := mustPolicy(t, Options{App: []string{"wails://wails"}, Frames: []string{"mcpdesk-widget://w1"}})
	for _, c := range []struct {
		kind  Kind
		url   string
		allow bool
	}{
		{Navigate, "mcpdesk-widget://w1/index.html", true}, // the iframe's navigation; its frame is not known yet
		{SubframeResponse, "mcpdesk-widget://w1/index.html", true},
		{MainFrameResponse, "mcpdesk-widget://w1/index.html", false},
		{NewWindow, "mcpdesk-widget://w1/", false},
		{SubframeResponse, "mcpdesk-widget://w2/", false},
		{SubframeResponse, "wails://wails/", false},
		{MainFrameResponse, "wails://wails/", true},
		{Navigate, "https://evil.example/", false},
	} {
		if d := p.Decide(c.kind, c.url); d.Allow != c.allow {
			t.Errorf("Decide(%s, %q) = %v, want %v", c.kind, c.url, d.Allow, c.allow)
		}
	}
}

// The sandbox pages of MCP Apps views (issue 15) live under ViewPath of
// the app's origin: a subframe may show them, the main frame never, and
// nothing else of the app's origin may be framed.
func TestDecideViewPages(t *testing.T) {
	p := mustPolicy(t, Options{App: []string{"wails://wails"}, Views: []string{"wails://wails"}})
	for _, c := range []struct {
		kind  Kind
		url   string
		allow bool
	}{
		{SubframeResponse, "wails://wails/mcpdesk-view/abc123", true},
		{Navigate, "wails://wails/mcpdesk-view/abc123", true},
		{MainFrameResponse, "wails://wails/mcpdesk-view/abc123", false},
		{SubframeResponse, "wails://wails/mcpdesk-view/", false},
		{SubframeResponse, "wails://wails/", false},
		{SubframeResponse, "wails://wails/index.html", false},
		{SubframeResponse, "wails://wails/mcpdesk-view/../index.html", false},
		{SubframeResponse, "wails://wails/mcpdesk-view/..%2Findex.html", false},
		{SubframeResponse, "wails://wails/mcpdesk-view%2Fx", false},
		{SubframeResponse, "http://127.0.0.1:34115/mcpdesk-view/abc", false},
		{NewWindow, "wails://wails/mcpdesk-view/abc123", false},
		{Navigate, "about:srcdoc", true},
		{Navigate, "about:srcdoc?x", false},
		{Navigate, "about:blank", false},
		{MainFrameResponse, "about:srcdoc", false},
	} {
		if d := p.Decide(c.kind, c.url); d.Allow != c.allow {
			t.Errorf("Decide(%s, %q) = %v, want %v", c.kind, c.url, d.Allow, c.allow)
		}
	}
	got := directives(t, p.CSP())["frame-src"]
	if strings.Join(got, " ") != "wails://wails/mcpdesk-view/" {
		t.Errorf("frame-src = %q, want the view path of the app origin only", got)
	}
}

// An origin live reports may be shown in a subframe while it does; never
// in the main frame, never in a new window; without the hook, never.
func TestDecideLiveFrames(t *testing.T) {
	base := mustPolicy(t, Options{App: []string{"wails://wails"}, Views: []string{"wails://wails"}})
	shown := map[Origin]bool{"https://dash.example": true}
	p := base.WithLiveFrames(func(o Origin) bool { return shown[o] })
	for _, c := range []struct {
		policy *Policy
		kind   Kind
		url    string
		allow  bool
	}{
		{p, SubframeResponse, "https://dash.example/board", true},
		{p, Navigate, "https://dash.example/board", true},
		{p, MainFrameResponse, "https://dash.example/board", false},
		{p, NewWindow, "https://dash.example/board", false},
		{p, SubframeResponse, "https://other.example/", false},
		{p, SubframeResponse, "http://dash.example/", false},
		{base, SubframeResponse, "https://dash.example/board", false},
	} {
		if d := c.policy.Decide(c.kind, c.url); d.Allow != c.allow {
			t.Errorf("Decide(%s, %q) = %v, want %v", c.kind, c.url, d.Allow, c.allow)
		}
	}
	shown["https://dash.example"] = false
	if p.Decide(SubframeResponse, "https://dash.example/board").Allow {
		t.Error("a page no longer shown may still be framed")
	}
	if (*Policy)(nil).WithLiveFrames(nil) != nil {
		t.Error("no policy became one")
	}
}

func TestNewRejects(t *testing.T) {
	for name, o := range map[string]Options{
		"no app origin":           {},
		"app origin with a path":  {App: []string{"wails://wails/index.html"}},
		"opaque app origin":       {App: []string{"about:blank"}},
		"frame on the app origin": {App: []string{"wails://wails"}, Frames: []string{"wails://wails"}},
		"frame with a path":       {App: []string{"wails://wails"}, Frames: []string{"https://w.example/x"}},
		"frame with a quote":      {App: []string{"wails://wails"}, Frames: []string{"https://w.example'; script-src *"}},
		"connect with directive":  {App: []string{"wails://wails"}, Connect: []string{"ws://127.0.0.1:1; script-src *"}},
		"connect wildcard":        {App: []string{"wails://wails"}, Connect: []string{"*"}},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("%s: New(%+v) accepted it", name, o)
		}
	}
}

func TestIsAppPage(t *testing.T) {
	p := mustPolicy(t, Options{App: []string{"wails://wails"}})
	for u, want := range map[string]bool{
		"wails://wails/":                   true,
		"wails://wails/#/chat":             true,
		"inspector://inspector/Main.html":  false,
		"about:blank":                      false,
		"blob:wails://wails/uuid":          false,
		"http://127.0.0.1:34115/":          false,
		"wails://wails.localhost:34115/xy": false,
	} {
		if got := p.IsAppPage(u); got != want {
			t.Errorf("IsAppPage(%q) = %v, want %v", u, got, want)
		}
	}
}

// directives parses a CSP into directive → sources.
func directives(t *testing.T, csp string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, d := range strings.Split(csp, ";") {
		f := strings.Fields(d)
		if len(f) == 0 {
			t.Fatalf("empty directive in %q", csp)
		}
		if _, dup := out[f[0]]; dup {
			t.Fatalf("directive %s twice in %q", f[0], csp)
		}
		out[f[0]] = f[1:]
	}
	return out
}

func TestCSP(t *testing.T) {
	want := map[string]string{
		"default-src":     "'self'",
		"script-src":      "'self'",
		"style-src":       "'self'",
		"img-src":         "'self' data: blob:",
		"media-src":       "'self' data: blob:",
		"font-src":        "'self' data:",
		"connect-src":     "'self'",
		"object-src":      "'none'",
		"base-uri":        "'none'",
		"form-action":     "'none'",
		"frame-src":       "'none'",
		"frame-ancestors": "'none'",
	}
	csp := mustPolicy(t, Options{App: []string{"wails://wails"}}).CSP()
	got := directives(t, csp)
	if len(got) != len(want) {
		t.Errorf("CSP has %d directives, want %d: %s", len(got), len(want), csp)
	}
	for k, v := range want {
		if strings.Join(got[k], " ") != v {
			t.Errorf("%s = %q, want %q", k, strings.Join(got[k], " "), v)
		}
	}
	for _, bad := range []string{"unsafe-inline", "unsafe-eval", "unsafe-hashes", "wasm-unsafe-eval", "*", "http:", "https:"} {
		for k, srcs := range got {
			for _, s := range srcs {
				if strings.Trim(s, "'") == strings.Trim(bad, "'") {
					t.Errorf("%s allows %s", k, bad)
				}
			}
		}
	}

	// The dev server's websocket, and the seam for widget frames: only
	// connect-src and frame-src change.
	dev := directives(t, mustPolicy(t, Options{
		App: []string{"wails://wails"}, Connect: []string{"ws://127.0.0.1:34115"}, Frames: []string{"mcpdesk-widget://w1"},
	}).CSP())
	for k, v := range want {
		g := strings.Join(dev[k], " ")
		switch k {
		case "connect-src":
			v = "'self' ws://127.0.0.1:34115"
		case "frame-src":
			v = "mcpdesk-widget://w1"
		}
		if g != v {
			t.Errorf("with a dev socket and a widget frame: %s = %q, want %q", k, g, v)
		}
	}
}

func TestMiddleware(t *testing.T) {
	p := mustPolicy(t, Options{App: []string{"wails://wails"}})
	h := p.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><title>x</title>"))
	}))
	for _, path := range []string{"/", "/index.html", "/assets/index.js", "/missing"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if got := rec.Header().Get("Content-Security-Policy"); got != p.CSP() {
			t.Errorf("%s: Content-Security-Policy %q, want %q", path, got, p.CSP())
		}
		if got := rec.Header().Get("Referrer-Policy"); got != "no-referrer" {
			t.Errorf("%s: Referrer-Policy %q", path, got)
		}
	}
}
