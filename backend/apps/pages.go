package apps

import (
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"mcpdesk/backend/store"
	"mcpdesk/backend/websec"
)

// How a view reaches the screen. The window's webview (WebKitGTK on Linux,
// WKWebView on macOS, WebView2 on Windows) serves the app from one origin
// (wails://wails, or http://wails.localhost on Windows), and Wails v2 offers
// no second origin and no way to register one after the window exists. So
// a view gets a sandbox page of its own on the app's origin, under
// websec.ViewPath, that the app frames:
//
//   - the page is served with its view's Content-Security-Policy plus the
//     `sandbox allow-scripts` directive, and the host frames it with
//     sandbox="allow-scripts": it runs on an opaque origin of its own, so it
//     cannot read the app's DOM, storage or cookies, open windows, submit
//     forms or navigate the window (websec's navigation rule also keeps it
//     out of the main frame);
//   - it holds only MCP Desk's relay script. The view's HTML runs one frame
//     deeper, in an about:srcdoc frame, sandboxed again, under the same
//     policy (inherited, and repeated in a <meta>): on macOS Wails refuses
//     bridge messages from a frame whose address is not the app's, and on
//     Linux backend/webview's gate refuses every frame but the app's page;
//   - the relay passes JSON-RPC messages between the view and the app,
//     nothing else; the app checks each one (frontend views/host).
//
// The view's 'self' would be the app's own origin here, whose assets are
// not the view's: it is left out of every directive (a view is one
// document, its scripts and styles inline or from declared domains).

// ViewPath is where pages are served (websec.ViewPath).
const ViewPath = websec.ViewPath

// Page is one view ready to be framed.
type Page struct {
	// Token names the page in its path; unguessable, one per showing.
	Token  string
	Server string
	URI    string
	// Kind is the view's (KindApp, KindSkybridge).
	Kind string
	// Path is where the app frames it (ViewPath + Token).
	Path string
	// CSP is the policy the page and its view run under.
	CSP string
	// Allow is the iframe allow attribute for the declared permissions.
	Allow string
	html  string
	// url is the external page framed instead of html (KindUIURL).
	url string
	// storage is the view's localStorage when last shown (a JSON object of
	// strings; "" for none).
	storage string
}

// Pages keeps the pages being shown and serves them.
type Pages struct {
	mu sync.Mutex
	m  map[string]Page
}

// NewPages returns an empty set.
func NewPages() *Pages { return &Pages{m: map[string]Page{}} }

// Add makes a page for v and returns it.
func (ps *Pages) Add(v View) Page {
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)
	csp := withoutSelf(v.Policy.Header)
	p := Page{Token: token, Server: v.Server, URI: v.URI, Kind: v.Kind, Path: ViewPath + token, CSP: csp,
		Allow: AllowOf(v.Meta.Permissions), html: v.HTML, url: v.URL}
	ps.mu.Lock()
	ps.m[token] = p
	ps.mu.Unlock()
	return p
}

// Get returns the page named token, while it is shown.
func (ps *Pages) Get(token string) (Page, bool) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p, ok := ps.m[token]
	return p, ok
}

// Remove forgets a page (its view was torn down); later requests get 404.
func (ps *Pages) Remove(token string) {
	ps.mu.Lock()
	delete(ps.m, token)
	ps.mu.Unlock()
}

// ShowsExternal reports whether a page being shown frames an external page
// (MCP-UI text/uri-list) of origin: the window's navigation guard lets a
// subframe show that origin only then (websec.Policy.WithLiveFrames).
func (ps *Pages) ShowsExternal(origin websec.Origin) bool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, p := range ps.m {
		if p.url == "" {
			continue
		}
		if o, err := websec.OriginOf(p.url); err == nil && o == origin {
			return true
		}
	}
	return false
}

// MaxViewStorage bounds what a view keeps in its localStorage (what the
// store keeps with a tool call: the same limit).
const MaxViewStorage = store.MaxViewStorage

// CleanStorage checks a view's storage: a JSON object of strings, at most
// MaxViewStorage; it returns it as json.Marshal writes it (so nothing in it
// can end a script element).
func CleanStorage(items string) (string, error) {
	var m map[string]string
	if err := json.Unmarshal([]byte(items), &m); err != nil || m == nil {
		return "", fmt.Errorf("a view's storage must be a JSON object of strings")
	}
	b, _ := json.Marshal(m)
	if len(b) > MaxViewStorage {
		return "", fmt.Errorf("a view's storage is larger than %d KB", MaxViewStorage>>10)
	}
	return string(b), nil
}

// ErrNoPage is returned for a page that is not (or no longer) shown.
var ErrNoPage = errors.New("no such page")

// SetStorage gives the page named token the storage its view kept when it
// was last shown, before the page is loaded (checked by CleanStorage).
func (ps *Pages) SetStorage(token, items string) error {
	clean, err := CleanStorage(items)
	if err != nil {
		return err
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p, ok := ps.m[token]
	if !ok {
		return ErrNoPage
	}
	p.storage = clean
	ps.m[token] = p
	return nil
}

// Len is how many pages are kept.
func (ps *Pages) Len() int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return len(ps.m)
}

// Middleware serves the pages under ViewPath and passes everything else
// to next (for Wails' asset server, after websec's headers).
func (ps *Pages) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.URL.Path, ViewPath)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		ps.mu.Lock()
		p, found := ps.m[token]
		ps.mu.Unlock()
		if !found || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", p.CSP+"; sandbox allow-scripts")
		h.Set("Cache-Control", "no-store")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		_, _ = w.Write([]byte(relayPage(p)))
	})
}

// relayPage is the sandbox page: the relay script, with the view's HTML
// (its policy repeated in a <meta>) as JSON — json.Marshal escapes <, >
// and &, so nothing in it can end the script element.
func relayPage(p Page) string {
	view := struct {
		HTML  string `json:"html,omitempty"`
		URL   string `json:"url,omitempty"`
		Allow string `json:"allow"`
	}{URL: p.url, Allow: p.Allow}
	if p.url == "" {
		view.HTML = withMeta(p.html, p.CSP, p.Kind, p.storage)
	}
	data, _ := json.Marshal(view)
	return `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style></head><body>` +
		`<script type="application/json" id="view">` + string(data) + `</script><script>` + relayScript + `</script></body></html>`
}

// relayScript frames the view (about:srcdoc, sandboxed; or an MCP-UI
// external page, sandboxed the same and allowed by the page's frame-src
// alone) and passes
// messages: from the app (the parent) to the view and from the view to
// the app, matched by the sending window, never by origin (both are
// opaque).
const relayScript = `(() => {
  const data = JSON.parse(document.getElementById('view').textContent);
  const f = document.createElement('iframe');
  f.setAttribute('sandbox', 'allow-scripts');
  if (data.allow) f.setAttribute('allow', data.allow);
  f.setAttribute('title', 'view');
  if (data.url) f.src = data.url;
  else f.srcdoc = data.html;
  window.addEventListener('message', (e) => {
    if (e.source === window.parent && f.contentWindow) f.contentWindow.postMessage(e.data, '*');
    else if (e.source === f.contentWindow) window.parent.postMessage(e.data, '*');
  });
  document.body.append(f);
})();`

// openAIScript is the Apps SDK's window.openai, made of MCP Apps messages
// to the host: it does the view's ui/initialize, keeps the globals from
// the tool's input and result and the host context, and turns each call
// into the MCP Apps request the host already checks (tools/call,
// ui/message, ui/open-link, ui/request-display-mode); widget state goes
// as mcpdesk/widget-state. It has no power the view lacks: it runs in the
// view's own document.
//
//go:embed openai.js
var openAIScript string

// storageScript gives a view Web Storage of its own, in memory, from what
// it kept when last shown (a function of that object): on its opaque
// origin the browser's throws, and views that touch it at load would fail.
// It is the view's alone; the app's storage is another origin's.
//
//go:embed storage.js
var storageScript string

var doctype = regexp.MustCompile(`(?is)^\s*<!doctype[^>]*>`)

// withMeta puts csp in a <meta http-equiv> at the very start of the
// document (after its doctype, so the view keeps its rendering mode), then
// the in-memory storage script, and for an Apps SDK widget the
// window.openai script, so they run before any of the view's own.
func withMeta(doc, csp, kind, storage string) string {
	if storage == "" {
		storage = "{}"
	}
	// storage was checked by SetStorage: a JSON object, written by
	// json.Marshal, which escapes <, > and &.
	meta := `<meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(csp) + `">` +
		"<script>" + storageScript + "(" + storage + ");</script>"
	if kind == KindSkybridge {
		meta += "<script>" + openAIScript + "</script>"
	}
	if loc := doctype.FindStringIndex(doc); loc != nil {
		return doc[:loc[1]] + meta + doc[loc[1]:]
	}
	return meta + doc
}

// withoutSelf drops 'self' from every directive of csp (see above); a
// directive left empty becomes 'none'.
func withoutSelf(csp string) string {
	parts := strings.Split(csp, ";")
	for i, part := range parts {
		fields := strings.Fields(part)
		if len(fields) == 0 {
			continue
		}
		kept := slices.DeleteFunc(fields[1:], func(s string) bool { return s == "'self'" })
		if len(kept) == 0 {
			kept = []string{"'none'"}
		}
		parts[i] = strings.Join(append([]string{fields[0]}, kept...), " ")
	}
	return strings.Join(parts, "; ")
}

// permissionFeatures maps the specification's permissions to the iframe
// allow attribute's features.
var permissionFeatures = []struct{ key, feature string }{
	{"camera", "camera"},
	{"microphone", "microphone"},
	{"geolocation", "geolocation"},
	{"clipboardWrite", "clipboard-write"},
}

// AllowOf is the allow attribute for a resource's declared permissions:
// only those declared (present in the object), in a fixed order; unknown
// ones are ignored.
func AllowOf(perms map[string]any) string {
	var out []string
	for _, p := range permissionFeatures {
		if _, ok := perms[p.key]; ok {
			out = append(out, p.feature)
		}
	}
	return strings.Join(out, "; ")
}
