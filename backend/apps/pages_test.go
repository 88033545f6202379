package apps

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func servePage(t *testing.T, ps *Pages, method, path string) *httptest.ResponseRecorder {
	t.Helper()
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("app asset")) })
	rec := httptest.NewRecorder()
	ps.Middleware(next).ServeHTTP(rec, httptest.NewRequest(method, "wails://wails"+path, nil))
	return rec
}

// A hostile view's HTML ends the script element and tries to run in the
// relay page itself: it must stay a JSON string for the srcdoc frame.
const hostileHTML = `<!DOCTYPE html><html><head><script>parent.pwned=1</script></head><body></script><script>alert(1)</script><!-- </body></html>`

func TestPageIsServedSandboxedUnderItsOwnPolicy(t *testing.T) {
	ps := NewPages()
	v := View{Server: "s1", URI: "ui://x/app", HTML: hostileHTML, Policy: Build(&CSP{ConnectDomains: []string{"https://api.example.com"}}),
		Meta: ResourceMeta{Permissions: map[string]any{"camera": map[string]any{}, "bogus": true}}}
	p := ps.Add(v)
	if len(p.Token) < 32 || p.Path != ViewPath+p.Token {
		t.Fatalf("page %+v", p)
	}
	if other := ps.Add(v); other.Token == p.Token {
		t.Fatal("two showings share a token")
	}

	rec := servePage(t, ps, http.MethodGet, p.Path)
	if rec.Code != 200 {
		t.Fatalf("status %d", rec.Code)
	}
	csp := rec.Header().Get("Content-Security-Policy")
	if !strings.HasSuffix(csp, "; sandbox allow-scripts") || !strings.Contains(csp, "connect-src https://api.example.com") {
		t.Errorf("CSP %q", csp)
	}
	if strings.Contains(csp, "'self'") {
		t.Errorf("CSP keeps 'self', which here is the app's own origin: %q", csp)
	}
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-src 'none'") || !strings.Contains(csp, "form-action 'none'") {
		t.Errorf("CSP lost a restriction: %q", csp)
	}
	for k, want := range map[string]string{"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"} {
		if got := rec.Header().Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}

	body := rec.Body.String()
	// Exactly the relay's two script elements: the view's markup is data.
	if n := len(regexp.MustCompile(`(?i)<script`).FindAllString(body, -1)); n != 2 {
		t.Fatalf("the page has %d script elements, want 2 (the data and the relay):\n%s", n, body)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="view">(.*?)</script>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no view data in %s", body)
	}
	var data struct{ HTML, Allow string }
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatal(err)
	}
	wantHTML := `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="` + strings.ReplaceAll(p.CSP, "'", "&#39;") + `"><script>` + storageScript + `({});</script><html><head><script>parent.pwned=1</script>`
	if !strings.HasPrefix(data.HTML, wantHTML) || !strings.HasSuffix(data.HTML, hostileHTML[len("<!DOCTYPE html>"):]) {
		t.Errorf("view HTML as framed:\n%s\nwant prefix:\n%s", data.HTML, wantHTML)
	}
	if data.Allow != "camera" {
		t.Errorf("allow = %q, want only the declared and known camera", data.Allow)
	}
	if !strings.Contains(body, `f.setAttribute('sandbox', 'allow-scripts')`) || !strings.Contains(body, "f.srcdoc = data.html") {
		t.Error("the relay does not frame the view sandboxed in srcdoc")
	}
}

func TestPagesRefuseWhatTheyDoNotKeep(t *testing.T) {
	ps := NewPages()
	p := ps.Add(View{HTML: "<p>x</p>", Policy: Build(nil)})
	if rec := servePage(t, ps, http.MethodPost, p.Path); rec.Code != 404 {
		t.Errorf("POST: %d", rec.Code)
	}
	for _, path := range []string{ViewPath, ViewPath + "nope", ViewPath + p.Token + "/x", ViewPath + strings.ToUpper(p.Token)} {
		if rec := servePage(t, ps, http.MethodGet, path); rec.Code != 404 {
			t.Errorf("GET %s: %d", path, rec.Code)
		}
	}
	if rec := servePage(t, ps, http.MethodGet, "/index.html"); rec.Body.String() != "app asset" {
		t.Errorf("other paths do not reach the app's assets: %q", rec.Body.String())
	}
	ps.Remove(p.Token)
	if rec := servePage(t, ps, http.MethodGet, p.Path); rec.Code != 404 || ps.Len() != 0 {
		t.Errorf("after Remove: %d, %d kept", rec.Code, ps.Len())
	}
}

func TestWithoutSelfAndMeta(t *testing.T) {
	got := withoutSelf("default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.example; base-uri 'self'")
	want := "default-src 'none'; script-src 'unsafe-inline' https://cdn.example; base-uri 'none'"
	if got != want {
		t.Errorf("withoutSelf = %q, want %q", got, want)
	}
	if got := withMeta("<p>hi", "a 'b'", KindApp, ""); got != `<meta http-equiv="Content-Security-Policy" content="a &#39;b&#39;"><script>`+storageScript+`({});</script><p>hi` {
		t.Errorf("withMeta without doctype = %q", got)
	}
	if got := withMeta("  <!doctype html >\n<p>", "x", KindApp, ""); !strings.HasPrefix(got, "  <!doctype html ><meta") {
		t.Errorf("withMeta after doctype = %q", got)
	}
}

// An Apps SDK widget gets window.openai before any script of its own; an
// MCP Apps view does not.
func TestSkybridgeGetsWindowOpenAI(t *testing.T) {
	got := withMeta("<!doctype html><script>widget()</script>", "x", KindSkybridge, "")
	meta, shim, own := strings.Index(got, "<meta"), strings.Index(got, "window, 'openai'"), strings.Index(got, "widget()")
	if meta < 0 || shim < meta || own < shim {
		t.Errorf("order: meta %d, window.openai %d, widget %d", meta, shim, own)
	}
	if strings.Contains(openAIScript, "</script") || strings.Contains(storageScript, "</script") {
		t.Error("the window.openai script would end its element")
	}
	if app := withMeta("<script>v()</script>", "x", KindApp, ""); strings.Contains(app, "openai") {
		t.Error("an MCP Apps view got window.openai")
	}
}

func TestAllowOf(t *testing.T) {
	all := map[string]any{"clipboardWrite": map[string]any{}, "geolocation": map[string]any{}, "microphone": map[string]any{}, "camera": map[string]any{}, "usb": map[string]any{}}
	if got := AllowOf(all); got != "camera; microphone; geolocation; clipboard-write" {
		t.Errorf("AllowOf(all) = %q", got)
	}
	if got := AllowOf(nil); got != "" {
		t.Errorf("AllowOf(nil) = %q", got)
	}
}

// A view's kept storage reaches its page before it loads, as a JSON object
// of strings that cannot end the script element; anything else is refused.
func TestPageStorage(t *testing.T) {
	ps := NewPages()
	p := ps.Add(View{Server: "s", URI: "ui://a/v", Kind: KindApp, HTML: "<p>v", Policy: Build(nil)})
	if err := ps.SetStorage(p.Token, `{"note":"</script><script>alert(1)</script>"}`); err != nil {
		t.Fatal(err)
	}
	got, _ := ps.Get(p.Token)
	html := withMeta(got.html, got.CSP, got.Kind, got.storage)
	if strings.Contains(html, "</script><script>alert") || !strings.Contains(html, `\u003c/script\u003e`) {
		t.Errorf("the storage could end its script element: %s", html)
	}
	for _, bad := range []string{`[]`, `{"a":1}`, `null`, `not json`, `{"a":"` + strings.Repeat("x", MaxViewStorage) + `"}`} {
		if ps.SetStorage(p.Token, bad) == nil {
			t.Errorf("storage %.30q accepted", bad)
		}
	}
	if err := ps.SetStorage("no-such-page", `{}`); !errors.Is(err, ErrNoPage) {
		t.Errorf("storage given to a page that does not exist: %v", err)
	}
}
