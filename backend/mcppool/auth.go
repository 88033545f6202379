package mcppool

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/oauth"
)

// OAuth for remote servers (issue 14, SPEC A15). A remote server that
// carries no Authorization header of its own gets an oauth.Transport:
// stored tokens (keychain) are sent and refreshed; a 401 without a usable
// sign-in never opens a browser by itself — the server shows "Needs
// sign-in" until the user presses Sign in (Pool.SignIn), which runs the
// flow in the system browser and reconnects.

// SignInOptions configure the pool's sign-ins.
type SignInOptions struct {
	// Open shows a URL in the system browser; nil: no sign-in can start.
	Open func(url string) error
	// MetadataURL is the HTTPS URL of a client ID metadata document to
	// use where a server takes one ("" registers dynamically instead).
	MetadataURL string
}

// signIns holds, per server, whether its last connection needed a sign-in,
// and numbers the steps of its sign-ins for the debugger: each sign-in
// is an attempt, and the refreshes and the first request after it are
// steps of that attempt.
type signIns struct {
	mu   sync.Mutex
	need map[string]oauth.Challenge
	// attempt and seq number the server's sign-ins and their steps;
	// fresh marks a sign-in whose first authenticated request is next.
	attempt, seq map[string]int
	fresh        map[string]bool
}

// begin starts a new attempt for id.
func (s *signIns) begin(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.attempt == nil {
		s.attempt, s.seq, s.fresh = map[string]int{}, map[string]int{}, map[string]bool{}
	}
	s.attempt[id]++
	s.seq[id] = 0
}

// next numbers a step of id's current attempt.
func (s *signIns) next(id string) (attempt, seq int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.attempt == nil {
		s.attempt, s.seq, s.fresh = map[string]int{}, map[string]int{}, map[string]bool{}
	}
	s.seq[id]++
	return s.attempt[id], s.seq[id]
}

// setFresh notes (or takes back) that id's next connection is the first
// with a new sign-in.
func (s *signIns) setFresh(id string, v bool) (was bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	was = s.fresh[id]
	if s.fresh != nil {
		s.fresh[id] = v
	}
	return was
}

// emitStep sends one step of id's sign-in to the UI (the OAuth debugger).
func (p *Pool) emitStep(id string, e oauth.Event) {
	attempt, seq := p.signIns.next(id)
	p.emit.Emit(events.SignInStep, stepPayload(id, attempt, seq, e))
}

func (s *signIns) mark(id string, ch oauth.Challenge) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.need == nil {
		s.need = map[string]oauth.Challenge{}
	}
	s.need[id] = ch
}

func (s *signIns) clear(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.need, id)
}

func (s *signIns) needed(id string) (oauth.Challenge, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.need[id]
	return ch, ok
}

// usesOAuth reports whether srv's requests go through OAuth: a remote
// server without an Authorization header of its own.
func usesOAuth(srv mcpconfig.Server) bool {
	if k := srv.Effective(); k != mcpconfig.HTTP && k != mcpconfig.SSE || srv.Auth == mcpconfig.AuthNone {
		return false
	}
	for h := range srv.Headers {
		if strings.EqualFold(h, "Authorization") {
			return false
		}
	}
	return true
}

// tokenKey names a server's tokens in the keychain.
func tokenKey(id string) string { return "server:" + id }

func (p *Pool) oauthClient(base http.RoundTripper, srv mcpconfig.Server) *oauth.Client {
	meta := p.opts.SignIn.MetadataURL
	if u := srv.OAuth[mcpconfig.OAuthMetadataURL]; u != "" {
		meta = u
	}
	return &oauth.Client{
		HTTP:        &http.Client{Transport: base, Timeout: 30 * time.Second},
		Store:       oauth.NewStore(p.opts.Secrets),
		Name:        "MCP Desk",
		MetadataURL: meta,
	}
}

// signInOptions are srv's sign-in settings: a pre-registered client (its
// secret read from the keychain) and the scopes the user chose.
func (p *Pool) signInOptions(srv mcpconfig.Server) (oauth.SignIn, error) {
	o := oauth.SignIn{Key: tokenKey(srv.ID), ServerURL: srv.URL}
	if id := srv.OAuth[mcpconfig.OAuthClientID]; id != "" {
		secret := srv.OAuth[mcpconfig.OAuthClientSecret]
		if v, isRef, err := resolveKeychain(p.opts.Secrets, srv.ID, mcpconfig.OAuthPair, mcpconfig.OAuthClientSecret, secret); isRef {
			if err != nil {
				return o, err
			}
			secret = v
		}
		o.Client = &oauth.Registration{ClientID: id, ClientSecret: secret}
	}
	if s := strings.Fields(srv.OAuth[mcpconfig.OAuthScopes]); len(s) > 0 {
		o.Scopes = s
	}
	return o, nil
}

// authorizer wraps each remote server's transport (see dialer.auth).
func (p *Pool) authorizer(srv mcpconfig.Server, base http.RoundTripper) http.RoundTripper {
	if !usesOAuth(srv) || p.opts.Secrets == nil {
		return base
	}
	id := srv.ID
	o, err := p.signInOptions(srv)
	if err != nil {
		return failing{err}
	}
	// Refreshes are steps of the debugger too.
	o.Observer = func(e oauth.Event) {
		if e.Step == oauth.StepRefresh {
			p.emitStep(id, e)
		}
	}
	return &needsSignIn{
		inner: &oauth.Transport{Base: base, OAuth: p.oauthClient(base, srv), Options: o},
		mark: func(ch oauth.Challenge) {
			p.signIns.mark(id, ch)
			// A connected server whose sign-in ended (a refresh refused, a
			// token revoked): reconnect, so its row says it needs a sign-in
			// instead of failing call after call while looking connected.
			if c := p.conn(id); c != nil && c.snapshot().State == events.StateConnected {
				c.requestRestart()
			}
		},
	}
}

// failing answers every request with err (a pre-registered client's
// secret that cannot be read from the keychain).
type failing struct{ err error }

func (f failing) RoundTrip(*http.Request) (*http.Response, error) { return nil, f.err }

// needsSignIn notes a request that failed for want of a sign-in, so the
// connection can say so rather than retry.
type needsSignIn struct {
	inner http.RoundTripper
	mark  func(oauth.Challenge)
}

func (n *needsSignIn) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := n.inner.RoundTrip(r)
	var e *oauth.NeedsSignInError
	if errors.As(err, &e) {
		n.mark(e.Challenge)
	}
	return resp, err
}

// needsSignInNow reports (and updates the status for) a connection
// attempt that failed because the server wants a sign-in.
func (c *conn) needsSignInNow(err error) bool {
	if _, ok := c.pool.signIns.needed(c.cfg.ID); !ok {
		return false
	}
	c.pool.logger.Info("mcp server needs a sign-in", "server", c.cfg.ID)
	c.update(func(s *events.ServerStatusPayload) {
		s.State, s.Stderr, s.Attempt, s.NextRetryMs = events.StateNeedsSignIn, "", 0, 0
		s.Error = "This server needs you to sign in."
		s.Problem = nil
		s.SignIn = c.pool.signInStatus(c.cfg.ID)
	})
	return true
}

// signInStatus is what the UI may know of a server's sign-in.
func (p *Pool) signInStatus(id string) *events.SignInStatus {
	if p.opts.Secrets == nil {
		return nil
	}
	t, err := oauth.NewStore(p.opts.Secrets).Tokens(tokenKey(id))
	if err != nil || t == nil {
		if _, need := p.signIns.needed(id); need {
			return &events.SignInStatus{}
		}
		return nil
	}
	st := &events.SignInStatus{SignedIn: true, Issuer: t.Issuer, Account: t.Account, Scope: t.Scope, Renewable: t.RefreshToken != "", Client: t.Client.Kind}
	if u, err := url.Parse(t.Issuer); err == nil {
		st.Host = u.Host
	}
	if !t.Expiry.IsZero() {
		st.ExpiresAt = t.Expiry.UnixMilli()
	}
	return st
}

// SignIn signs in to a remote server in the system browser and reconnects
// it. Each step goes to the UI as an mcp:sign-in-step event (the OAuth
// debugger) and to obs; pause, when set, waits before each step (step by
// step); ctx bounds the wait for the browser.
func (p *Pool) SignIn(ctx context.Context, id string, obs oauth.Observer, pause ...func(ctx context.Context, next string) error) error {
	c := p.conn(id)
	if c == nil {
		return unknownServer(id)
	}
	srv := c.config()
	if !usesOAuth(srv) {
		return fmt.Errorf("server %q is not a remote server that signs in with OAuth", id)
	}
	if p.opts.Secrets == nil {
		return errors.New("signing in needs the OS keychain, which is not available")
	}
	if p.opts.SignIn.Open == nil {
		return errors.New("no browser can be opened here: use `mcpdesk auth login " + id + "` in a terminal")
	}
	ch, _ := p.signIns.needed(id)
	cl := p.oauthClient(http.DefaultTransport, srv)
	o, err := p.signInOptions(srv)
	if err != nil {
		return err
	}
	p.signIns.begin(id)
	o.Challenge, o.Authorizer = ch, oauth.Loopback{Open: p.opts.SignIn.Open}
	o.Observer = func(e oauth.Event) {
		p.emitStep(id, e)
		if obs != nil {
			obs(e)
		}
	}
	if len(pause) > 0 {
		o.Pause = pause[0]
	}
	// A new sign-in replaces the old one.
	_ = cl.Store.DeleteTokens(tokenKey(id))
	if _, err := cl.SignIn(ctx, o); err != nil {
		return err
	}
	p.signIns.clear(id)
	p.signIns.setFresh(id, true)
	c.update(func(s *events.ServerStatusPayload) { s.SignIn = p.signInStatus(id) })
	c.requestRestart()
	return nil
}

// SignOut revokes a server's tokens where the authorization server offers
// revocation, deletes them from the keychain and reconnects (the server
// then says it needs a sign-in).
func (p *Pool) SignOut(ctx context.Context, id string) error {
	c := p.conn(id)
	if c == nil {
		return unknownServer(id)
	}
	if p.opts.Secrets == nil {
		return errors.New("the OS keychain is not available")
	}
	cl := p.oauthClient(http.DefaultTransport, c.config())
	if t, err := cl.Store.Tokens(tokenKey(id)); err == nil && t != nil {
		if err := cl.Revoke(ctx, t); err != nil {
			p.logger.Warn("revoking a sign-in", "server", id, "err", err)
		}
	}
	if err := cl.Store.DeleteTokens(tokenKey(id)); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	c.update(func(s *events.ServerStatusPayload) { s.SignIn = nil })
	c.requestRestart()
	return nil
}

// forgetSignIn deletes a removed server's tokens.
func (p *Pool) forgetSignIn(id string) {
	p.signIns.clear(id)
	if p.opts.Secrets != nil {
		_ = oauth.NewStore(p.opts.Secrets).DeleteTokens(tokenKey(id))
	}
}

func stepPayload(server string, attempt, seq int, e oauth.Event) events.SignInStepPayload {
	p := events.SignInStepPayload{Server: server, Attempt: attempt, Seq: seq, Step: e.Step, Status: e.Status, Title: e.Title, Rule: e.Rule, Detail: e.Detail}
	if x := e.HTTP; x != nil {
		p.HTTP = &events.SignInHTTP{
			Method: x.Method, URL: x.URL, RequestBody: x.RequestBody, Status: x.Status, ResponseBody: x.ResponseBody, Error: x.Error,
			RequestHeaders: orEmpty(x.RequestHeaders), ResponseHeaders: orEmpty(x.ResponseHeaders),
		}
	}
	return p
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return maps.Clone(m)
}
