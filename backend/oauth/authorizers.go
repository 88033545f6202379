package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Loopback receives the answer on http://127.0.0.1:PORT/callback, a
// random port that listens only while a sign-in waits (RFC 8252 §7.3),
// and sends the user to the authorization server with Open (the system
// browser).
type Loopback struct {
	Open func(url string) error
	// Page renders what the browser shows once the answer arrived
	// (ok, or the error); nil shows a plain English page.
	Page func(ok bool, detail string) string
}

func (l Loopback) Begin(ctx context.Context) (Callback, error) {
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("cannot listen on 127.0.0.1 for the sign-in: %w", err)
	}
	cb := &loopback{l: l, ln: ln, got: make(chan url.Values, 1)}
	cb.redirect = fmt.Sprintf("http://127.0.0.1:%d/callback", ln.Addr().(*net.TCPAddr).Port)
	cb.srv = &http.Server{Handler: http.HandlerFunc(cb.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = cb.srv.Serve(ln) }()
	return cb, nil
}

type loopback struct {
	l        Loopback
	ln       net.Listener
	srv      *http.Server
	redirect string
	got      chan url.Values
	once     sync.Once
}

func (c *loopback) RedirectURI() string { return c.redirect }

func (c *loopback) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/callback" || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	ok := q.Get("error") == "" && q.Get("code") != ""
	detail := q.Get("error")
	if d := q.Get("error_description"); d != "" {
		detail += ": " + d
	}
	page := defaultPage
	if c.l.Page != nil {
		page = c.l.Page
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Header().Set("Referrer-Policy", "no-referrer")
	_, _ = w.Write([]byte(page(ok, detail)))
	select {
	case c.got <- q:
	default:
	}
}

func defaultPage(ok bool, detail string) string {
	if ok {
		return `<!doctype html><meta charset="utf-8"><title>MCP Desk</title><body style="font:16px system-ui;margin:3em"><h1>Signed in</h1><p>You can close this tab and go back to MCP Desk.</p>`
	}
	return `<!doctype html><meta charset="utf-8"><title>MCP Desk</title><body style="font:16px system-ui;margin:3em"><h1>Sign-in failed</h1><p>` + html.EscapeString(detail) + `</p><p>Go back to MCP Desk to try again.</p>`
}

func (c *loopback) Wait(ctx context.Context, authURL string) (url.Values, error) {
	if c.l.Open == nil {
		return nil, errors.New("no browser to open")
	}
	if err := c.l.Open(authURL); err != nil {
		return nil, fmt.Errorf("cannot open the browser: %w", err)
	}
	select {
	case q := <-c.got:
		return q, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *loopback) Close() {
	c.once.Do(func() { _ = c.srv.Close() })
}

// Direct requests the authorization URL itself, without following the
// redirect, and takes the answer from the Location header: for
// automation against an authorization server that approves at once (the
// conformance suite's), never for a real user's sign-in.
type Direct struct {
	HTTP *http.Client
	// RedirectURI is the redirect_uri to send; "" means
	// http://127.0.0.1/callback (nothing listens there).
	RedirectURI string
}

func (d Direct) Begin(context.Context) (Callback, error) {
	r := d.RedirectURI
	if r == "" {
		r = "http://127.0.0.1/callback"
	}
	return direct{d: d, redirect: r}, nil
}

type direct struct {
	d        Direct
	redirect string
}

func (c direct) RedirectURI() string { return c.redirect }
func (c direct) Close()              {}

func (c direct) Wait(ctx context.Context, authURL string) (url.Values, error) {
	hc := http.DefaultClient
	if c.d.HTTP != nil {
		hc = c.d.HTTP
	}
	nc := *hc
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := nc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode/100 != 3 || loc == "" {
		return nil, fmt.Errorf("the authorization endpoint answered %d without a redirect", resp.StatusCode)
	}
	u, err := url.Parse(loc)
	if err != nil {
		return nil, fmt.Errorf("the authorization endpoint redirected to %q: %w", loc, err)
	}
	return u.Query(), nil
}
