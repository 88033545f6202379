// Package websec holds the rules that keep the app's window its own: the
// origins a page of the window may navigate to (enforced by WebKit's
// navigation policy, see backend/webview) and the
// Content-Security-Policy the app's pages are served with.
//
// Server content is rendered inside the app's own page, so a sanitiser
// bypass must find neither a way to run script (the CSP) nor a way to
// replace the app with a page of the server's choosing (the navigation
// rule). Both are built from one Policy so that a later sandbox for server
// widgets — an iframe on a distinct origin — is allowed in one place, for
// subframes only, without loosening anything for the app's main frame.
package websec

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Origin is a URL's scheme, host and port ("wails://wails",
// "http://127.0.0.1:34115"): lowercase, without a default port.
type Origin string

// OriginOf returns the origin of rawURL. A blob: URL has the origin of the
// page that made it. URLs without a host (data:, about:, javascript:,
// mailto:, file:) have an opaque origin, which is an error: such a URL is
// never one of the app's.
func OriginOf(rawURL string) (Origin, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("read origin: %w", err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "blob" {
		inner := u.Opaque
		if inner == "" {
			inner = strings.TrimPrefix(rawURL, u.Scheme+":")
		}
		o, err := OriginOf(inner)
		if err != nil || strings.HasPrefix(strings.ToLower(inner), "blob:") {
			return "", fmt.Errorf("read origin of %.40q: a blob URL needs the URL of its page", rawURL)
		}
		return o, nil
	}
	if scheme == "" || u.Host == "" || u.Opaque != "" {
		return "", fmt.Errorf("read origin of %.40q: it has no host (an opaque origin)", rawURL)
	}
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return "", fmt.Errorf("read origin of %.40q: it has no host", rawURL)
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	port := u.Port()
	if port == defaultPorts[scheme] {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	return Origin(scheme + "://" + host), nil
}

var defaultPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443"}

// HostOf is what a log line may say about rawURL: its host (no path, no
// query, no credentials), or its scheme when it has none ("data:").
func HostOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(unreadable URL)"
	}
	if strings.EqualFold(u.Scheme, "blob") {
		return HostOf(strings.TrimPrefix(rawURL, u.Scheme+":"))
	}
	if h := u.Hostname(); h != "" {
		return strings.ToLower(h)
	}
	if u.Scheme != "" {
		return strings.ToLower(u.Scheme) + ":"
	}
	return "(no host)"
}

// Options say which origins are the app's.
type Options struct {
	// App are the origins the app's own pages are served from: the main
	// frame may show these and nothing else. Required.
	App []string
	// Frames are origins that subframes — and only subframes — may show,
	// e.g. the distinct origin of a sandboxed widget iframe. Each must
	// differ from every App origin: a frame on the app's origin would not
	// be sandboxed from it. They are also the CSP's frame-src (else 'none').
	Frames []string
	// Connect are extra CSP connect-src sources besides 'self' (the dev
	// server's websocket, "ws://127.0.0.1:34115").
	Connect []string
	// Views are origins whose ViewPath serves MCP Apps views (the app's
	// own origins, and the dev server's). A subframe — never the main frame
	// — may show a page under it: the page is served with a `sandbox`
	// policy (backend/apps), so it runs on an opaque origin of its own
	// whatever its address; the CSP's frame-src lists exactly these paths.
	Views []string
}

// ViewPath is the path under which the asset server serves the sandbox
// pages of MCP Apps views (backend/apps.Pages).
const ViewPath = "/mcpdesk-view/"

// Policy decides navigations of the app's window and builds its CSP. It is
// immutable and safe for concurrent use.
type Policy struct {
	app, frames, views []Origin
	connect            []string
	csp                string
	// live reports origins a subframe may show for now (nil: none).
	live func(Origin) bool
}

// WithLiveFrames returns p with live consulted too for subframes (never the
// main frame): an origin it reports may be shown in a frame while it does —
// an external page of an MCP-UI resource the user allowed, while its
// sandbox page is shown (backend/apps). A nil p stays nil.
func (p *Policy) WithLiveFrames(live func(Origin) bool) *Policy {
	if p == nil {
		return nil
	}
	q := *p
	q.live = live
	return &q
}

// isLive reports whether live allows origin now.
func (p *Policy) isLive(origin Origin) bool { return p.live != nil && p.live(origin) }

// New checks o and returns its Policy.
func New(o Options) (*Policy, error) {
	p := &Policy{}
	if len(o.App) == 0 {
		return nil, errors.New("web policy: no app origin given")
	}
	for _, raw := range o.App {
		origin, err := exactOrigin(raw)
		if err != nil {
			return nil, fmt.Errorf("web policy: app origin: %w", err)
		}
		p.app = append(p.app, origin)
	}
	for _, raw := range o.Frames {
		origin, err := exactOrigin(raw)
		if err != nil {
			return nil, fmt.Errorf("web policy: frame origin: %w", err)
		}
		if slices.Contains(p.app, origin) {
			return nil, fmt.Errorf("web policy: frame origin %s is the app's own; a widget frame needs an origin of its own", origin)
		}
		p.frames = append(p.frames, origin)
	}
	for _, raw := range o.Views {
		origin, err := exactOrigin(raw)
		if err != nil {
			return nil, fmt.Errorf("web policy: view origin: %w", err)
		}
		p.views = append(p.views, origin)
	}
	for _, src := range o.Connect {
		if _, err := exactOrigin(src); err != nil {
			return nil, fmt.Errorf("web policy: connect source: %w", err)
		}
		p.connect = append(p.connect, src)
	}
	p.csp = p.buildCSP()
	return p, nil
}

// exactOrigin parses raw, which must be an origin and nothing more (no
// path, query or credentials) — it ends up in a CSP header.
func exactOrigin(raw string) (Origin, error) {
	o, err := OriginOf(raw)
	if err != nil {
		return "", err
	}
	if strings.TrimSuffix(strings.ToLower(raw), "/") != string(o) {
		return "", fmt.Errorf("%q is not an origin (scheme://host[:port], lowercase, nothing after it)", raw)
	}
	return o, nil
}

// Kind is the kind of a navigation decision WebKit asks for.
type Kind int

const (
	// Navigate is a navigation action in some frame: a link, a form, a
	// script setting location, a meta refresh. WebKitGTK does not say
	// which frame; the response decision then does.
	Navigate Kind = iota
	// NewWindow is a request for a new window (target=_blank,
	// window.open, a modified click).
	NewWindow
	// MainFrameResponse is the response about to replace the main frame's
	// document.
	MainFrameResponse
	// SubframeResponse is the response about to become a subframe's
	// document.
	SubframeResponse
)

func (k Kind) String() string {
	switch k {
	case Navigate:
		return "navigation"
	case NewWindow:
		return "new window"
	case MainFrameResponse:
		return "main frame response"
	case SubframeResponse:
		return "subframe response"
	}
	return fmt.Sprintf("kind %d", int(k))
}

// Decision is the answer to one navigation: Allow it or not, and what a
// log line may say about it (the target's host only).
type Decision struct {
	Allow bool
	Kind  Kind
	Host  string
}

// Decide answers whether the window may go to rawURL. The main frame shows
// only the app's origins; subframes only the Frames origins; new windows
// are never opened (links open in the system browser through
// settings.Service.OpenLink instead).
func (p *Policy) Decide(kind Kind, rawURL string) Decision {
	d := Decision{Kind: kind, Host: HostOf(rawURL)}
	if kind == NewWindow {
		return d
	}
	// A view's sandbox page shows the view in an about:srcdoc frame; such a
	// document exists only inside a frame (and inherits its parent's
	// policy and sandbox), so it can never replace the window.
	if kind == Navigate && len(p.views) > 0 && rawURL == "about:srcdoc" {
		d.Allow = true
		return d
	}
	origin, err := OriginOf(rawURL)
	if err != nil {
		return d
	}
	switch kind {
	case Navigate:
		// The frame is not known yet: an origin either may show passes here,
		// and the response decision keeps a frame origin out of the main frame.
		d.Allow = slices.Contains(p.app, origin) || slices.Contains(p.frames, origin) || p.isLive(origin)
	case MainFrameResponse:
		// A view's sandbox page is a frame's document, never the window's.
		d.Allow = slices.Contains(p.app, origin) && !p.underViewPath(rawURL)
	case SubframeResponse:
		d.Allow = slices.Contains(p.frames, origin) || p.isViewPage(origin, rawURL) || p.isLive(origin)
	}
	return d
}

// isViewPage reports whether rawURL, of origin, is a sandbox page of a
// view: under ViewPath of a Views origin (no "..", no encoded slash).
func (p *Policy) isViewPage(origin Origin, rawURL string) bool {
	if !slices.Contains(p.views, origin) {
		return false
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.RawPath != "" || strings.Contains(u.Path, "..") {
		return false
	}
	return strings.HasPrefix(u.Path, ViewPath) && len(u.Path) > len(ViewPath)
}

// underViewPath reports whether rawURL's path is in ViewPath (however it
// is spelt: case, encoding).
func (p *Policy) underViewPath(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return true
	}
	return strings.HasPrefix(strings.ToLower(u.Path), strings.TrimSuffix(ViewPath, "/"))
}

// IsAppPage reports whether rawURL is a page of the app itself — which
// web views of the process the navigation guard watches (not, e.g., the
// developer tools' inspector).
func (p *Policy) IsAppPage(rawURL string) bool {
	origin, err := OriginOf(rawURL)
	return err == nil && !strings.HasPrefix(strings.ToLower(rawURL), "blob:") && slices.Contains(p.app, origin)
}

// CSP is the Content-Security-Policy of the app's pages: script and style
// from the app alone (no inline script, no eval, no inline style
// attributes), images and media also from data: and blob: URLs (remote
// images reach the page as data: URLs, fetched by Go after the user allows
// them), nothing embedded, no frames but the sandbox pages of MCP Apps
// views (Views), no <base>, no form submissions.
func (p *Policy) CSP() string { return p.csp }

func (p *Policy) buildCSP() string {
	connect := append([]string{"'self'"}, p.connect...)
	var frames []string
	for _, f := range p.frames {
		frames = append(frames, string(f))
	}
	for _, v := range p.views {
		frames = append(frames, string(v)+ViewPath)
	}
	if len(frames) == 0 {
		frames = []string{"'none'"}
	}
	directives := [][]string{
		{"default-src", "'self'"},
		{"script-src", "'self'"},
		{"style-src", "'self'"},
		{"img-src", "'self'", "data:", "blob:"},
		{"media-src", "'self'", "data:", "blob:"},
		{"font-src", "'self'", "data:"},
		append([]string{"connect-src"}, connect...),
		{"object-src", "'none'"},
		{"base-uri", "'none'"},
		{"form-action", "'none'"},
		append([]string{"frame-src"}, frames...),
		{"frame-ancestors", "'none'"},
	}
	parts := make([]string, len(directives))
	for i, d := range directives {
		parts[i] = strings.Join(d, " ")
	}
	return strings.Join(parts, "; ")
}

// Headers sets the security headers of the app's responses on h: the CSP,
// and no Referer to anyone.
func (p *Policy) Headers(h http.Header) {
	h.Set("Content-Security-Policy", p.csp)
	h.Set("Referrer-Policy", "no-referrer")
}

// Middleware serves next with the security headers on every response —
// for Wails' asset server (assetserver.Options.Middleware), which serves
// the production wails:// scheme and the dev server alike.
func (p *Policy) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.Headers(w.Header())
		next.ServeHTTP(w, r)
	})
}
