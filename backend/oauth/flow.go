package oauth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// Client signs MCP Desk in to servers. One Client serves every server.
type Client struct {
	// HTTP sends discovery, registration and token requests; nil means
	// http.DefaultClient.
	HTTP  *http.Client
	Store Store
	// Name is the client_name sent at registration ("MCP Desk").
	Name string
	// MetadataURL is the HTTPS URL of MCP Desk's client ID metadata
	// document, used as the client_id where the server takes one.
	MetadataURL string
	// Now is the clock (tests); nil means time.Now.
	Now func() time.Time
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

func (c *Client) name() string {
	if c.Name != "" {
		return c.Name
	}
	return "MCP Desk"
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Authorizer sends the user to the authorization server and brings back
// its answer: the system browser and a loopback listener in the app
// (Loopback), a plain HTTP request for automation (Direct).
type Authorizer interface {
	// Begin prepares to receive the answer and says where it will come.
	Begin(ctx context.Context) (Callback, error)
}

// Callback is one waiting sign-in.
type Callback interface {
	// RedirectURI is the redirect_uri of the authorization request.
	RedirectURI() string
	// Wait sends the user to authURL and returns the redirect's query.
	Wait(ctx context.Context, authURL string) (url.Values, error)
	// Close stops waiting (the loopback listener closes).
	Close()
}

// SignIn configures one sign-in.
type SignIn struct {
	// Key names the server's tokens in the Store.
	Key       string
	ServerURL string
	// Challenge is the server's 401 or 403 challenge (zero when none).
	Challenge Challenge
	// Client is a pre-registered client (id, secret, method); nil to
	// register or use the client ID metadata document.
	Client *Registration
	// Scopes, when set, replace the scopes discovery would choose.
	Scopes []string
	// Granted are scopes already held (a step-up asks for them too).
	Granted    []string
	Authorizer Authorizer
	Observer   Observer
	// Pause, when set, is called before each step with the step's name
	// and waits until the step may run (the debugger's step by step).
	Pause func(ctx context.Context, next string) error
}

// SignIn runs the whole flow and stores the tokens under o.Key.
func (c *Client) SignIn(ctx context.Context, o SignIn) (*Tokens, error) {
	f := &flowEnv{hc: c.httpClient(), obs: o.Observer, pause: o.Pause}
	if o.Challenge != (Challenge{}) {
		f.obs.emit(Event{Step: StepUnauthorized, Status: "info", Title: "The server asked for authorization", Rule: "MCP authorization §Authorization Server Discovery: a 401 with WWW-Authenticate starts the flow",
			Detail: challengeText(o.Challenge)})
	}
	d, err := f.discover(ctx, o.ServerURL, o.Challenge)
	if err != nil {
		return nil, err
	}
	scopes := chooseScopes(d, o)
	if o.Authorizer == nil {
		return nil, fail(StepAuthorize, ErrNeedsSignIn, "no way to ask you to sign in here")
	}
	cb, err := o.Authorizer.Begin(ctx)
	if err != nil {
		return nil, fail(StepAuthorize, err, "cannot wait for the sign-in to come back")
	}
	defer cb.Close()
	reg, err := c.identity(ctx, f, d, o, cb.RedirectURI(), scopes)
	if err != nil {
		return nil, err
	}

	if err := f.before(ctx, StepAuthorize); err != nil {
		return nil, err
	}
	// The authorization request: PKCE S256, state, resource, scope.
	verifier := oauth2.GenerateVerifier()
	state := randomString()
	cfg := oauthConfig(d.Server, reg, cb.RedirectURI(), scopes)
	authURL := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", d.ResourceIndicator))
	f.obs.emit(Event{Step: StepAuthorize, Status: "ok", Title: "Authorization request", Rule: "OAuth 2.1 §4.1.1 with PKCE S256; RFC 8707 resource=" + d.ResourceIndicator,
		Detail: "scope: " + orNone(scopeString(scopes)), HTTP: &HTTPExchange{Method: http.MethodGet, URL: authURL}})
	q, err := cb.Wait(ctx, authURL)
	if err != nil {
		f.obs.emit(Event{Step: StepCallback, Status: "failed", Title: "No answer from the authorization server", Detail: err.Error()})
		return nil, fail(StepCallback, err, "the sign-in did not complete")
	}
	code, err := checkCallback(q, state, d.Server)
	if err != nil {
		f.obs.emit(Event{Step: StepCallback, Status: "failed", Title: "The answer was refused", Rule: "RFC 6749 §10.12 (state), RFC 9207 (iss)", Detail: err.Error()})
		return nil, fail(StepCallback, err, "the sign-in's answer was refused")
	}
	f.obs.emit(Event{Step: StepCallback, Status: "ok", Title: "Authorization code received", Rule: "state matches; iss checked (RFC 9207)"})

	if err := f.before(ctx, StepToken); err != nil {
		return nil, err
	}
	// The token request.
	tctx := context.WithValue(ctx, oauth2.HTTPClient, recording(f, StepToken))
	tok, err := cfg.Exchange(tctx, code, oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", d.ResourceIndicator))
	if err != nil {
		f.obs.emit(Event{Step: StepToken, Status: "failed", Title: "The token request was refused", Detail: tokenErrorText(err)})
		return nil, fail(StepToken, nil, "the authorization server refused the code: %s", tokenErrorText(err))
	}
	t := fromOAuth2(tok, scopes)
	t.Issuer, t.Resource, t.TokenEndpoint, t.Client = d.Server.Issuer, d.ResourceIndicator, d.Server.TokenEndpoint, *reg
	f.obs.emit(Event{Step: StepToken, Status: "ok", Title: "Signed in", Rule: "OAuth 2.1 §4.1.3 with code_verifier and resource", Detail: expiryText(t, c.now())})
	if o.Key != "" {
		if err := c.Store.SaveTokens(o.Key, t); err != nil {
			return nil, fail(StepToken, err, "cannot keep the tokens in the keychain")
		}
	}
	return t, nil
}

// chooseScopes: a step-up's challenge; the user's choice; else the challenge's scope; else what
// the resource metadata supports; else none. A step-up keeps what was
// granted. offline_access is added only where the server supports it.
func chooseScopes(d *Discovery, o SignIn) []string {
	var s []string
	switch {
	case d.Challenge.Error == "insufficient_scope" && d.Challenge.Scope != "":
		// Step-up: what the server now asks for, plus what was granted.
		s = strings.Fields(d.Challenge.Scope)
	case len(o.Scopes) > 0:
		s = slices.Clone(o.Scopes)
	case d.Challenge.Scope != "":
		s = strings.Fields(d.Challenge.Scope)
	case d.Resource != nil && len(d.Resource.ScopesSupported) > 0:
		s = slices.Clone(d.Resource.ScopesSupported)
	}
	for _, g := range o.Granted {
		if !slices.Contains(s, g) {
			s = append(s, g)
		}
	}
	if supports(d.Server.ScopesSupported, offlineAcc) && len(s) > 0 && !slices.Contains(s, offlineAcc) {
		s = append(s, offlineAcc)
	}
	if !supports(d.Server.ScopesSupported, offlineAcc) {
		s = slices.DeleteFunc(s, func(x string) bool { return x == offlineAcc })
	}
	return s
}

// checkCallback validates the redirect's query and returns the code.
func checkCallback(q url.Values, state string, m ServerMetadata) (string, error) {
	if e := q.Get("error"); e != "" {
		if d := q.Get("error_description"); d != "" {
			return "", fmt.Errorf("the authorization server answered %s: %s", e, d)
		}
		return "", fmt.Errorf("the authorization server answered %s", e)
	}
	if q.Get("state") != state {
		return "", errors.New("the answer's state does not match the request's: it may not come from this sign-in")
	}
	// RFC 9207 §2.4: when the server advertises iss, it must be there and
	// be the issuer; when it does not, an iss that is present must still
	// be the issuer.
	iss, has := q.Get("iss"), q.Has("iss")
	switch {
	case m.AuthorizationResponseIssSupported && !has:
		return "", fmt.Errorf("the authorization server says it sends iss, but its answer has none (RFC 9207)")
	case has && !sameIssuer(iss, m.Issuer):
		return "", fmt.Errorf("the answer comes from issuer %q, not %q (RFC 9207): it may be a mix-up attack", iss, m.Issuer)
	}
	code := q.Get("code")
	if code == "" {
		return "", errors.New("the answer has no authorization code")
	}
	return code, nil
}

// sameIssuer compares issuer identifiers as RFC 9207 §2.4 says: simple
// string comparison, no normalisation (a trailing slash, case or a
// default port make another issuer: SEP-2468).
func sameIssuer(a, b string) bool { return a == b }

func oauthConfig(m ServerMetadata, r *Registration, redirect string, scopes []string) *oauth2.Config {
	style := oauth2.AuthStyleInParams
	if r.AuthMethod == AuthBasic {
		style = oauth2.AuthStyleInHeader
	}
	secret := r.ClientSecret
	if r.AuthMethod == AuthNone {
		secret = ""
	}
	return &oauth2.Config{
		ClientID: r.ClientID, ClientSecret: secret, RedirectURL: redirect, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: m.AuthorizationEndpoint, TokenURL: m.TokenEndpoint, AuthStyle: style},
	}
}

func fromOAuth2(tok *oauth2.Token, asked []string) *Tokens {
	t := &Tokens{AccessToken: tok.AccessToken, TokenType: tok.TokenType, RefreshToken: tok.RefreshToken, Expiry: tok.Expiry}
	if s, ok := tok.Extra("scope").(string); ok && s != "" {
		t.Scope = s
	} else {
		t.Scope = scopeString(asked)
	}
	if id, ok := tok.Extra("id_token").(string); ok {
		t.Account = accountOf(id)
	}
	return t
}

// accountOf names the signed-in account from an OpenID ID token's claims
// (email, preferred_username, name, sub), for "Signed in … as …" only:
// the token is not verified, so nothing trusts it beyond showing it.
func accountOf(idToken string) string {
	parts := strings.Split(idToken, ".")
	if len(parts) != 3 {
		return ""
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return ""
	}
	var c map[string]any
	if json.Unmarshal(b, &c) != nil {
		return ""
	}
	for _, k := range []string{"email", "preferred_username", "name", "sub"} {
		if v, ok := c[k].(string); ok && v != "" {
			if len(v) > 200 {
				v = v[:200]
			}
			return v
		}
	}
	return ""
}

// recording returns an HTTP client that reports each exchange to f's
// observer as a step (x/oauth2 makes the token request with it).
func recording(f *flowEnv, step string) *http.Client {
	hc := *f.hc
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = roundTripFunc(func(req *http.Request) (*http.Response, error) {
		inner := &http.Client{Transport: base, CheckRedirect: hc.CheckRedirect, Timeout: hc.Timeout}
		resp, body, x, err := do(inner, req)
		f.obs.emit(Event{Step: step, Status: "info", Title: req.Method + " " + x.URL, HTTP: x})
		if err != nil {
			return nil, err
		}
		resp.Body = nopCloser{strings.NewReader(string(body))}
		return resp, nil
	})
	return &hc
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }

func tokenErrorText(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		if re.ErrorCode != "" {
			if re.ErrorDescription != "" {
				return fmt.Sprintf("%s (%d): %s", re.ErrorCode, re.Response.StatusCode, re.ErrorDescription)
			}
			return fmt.Sprintf("%s (%d)", re.ErrorCode, re.Response.StatusCode)
		}
		return fmt.Sprintf("HTTP %d", re.Response.StatusCode)
	}
	return err.Error()
}

// Refresh exchanges t's refresh token for new tokens (with the resource
// parameter, which x/oauth2's refresh cannot send) and stores them.
func (c *Client) Refresh(ctx context.Context, key string, t *Tokens, obs Observer) (*Tokens, error) {
	if t.RefreshToken == "" || t.TokenEndpoint == "" {
		return nil, fail(StepRefresh, ErrNeedsSignIn, "the sign-in has expired and cannot be renewed")
	}
	f := &flowEnv{hc: c.httpClient(), obs: obs}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {t.RefreshToken}}
	if t.Resource != "" {
		form.Set("resource", t.Resource)
	}
	req, err := tokenRequest(ctx, t.TokenEndpoint, t.Client, form)
	if err != nil {
		return nil, fail(StepRefresh, err, "cannot renew the sign-in")
	}
	resp, body, x, err := do(f.hc, req)
	ev := Event{Step: StepRefresh, Title: "Refresh", Rule: "OAuth 2.1 §4.3 with resource (RFC 8707)", HTTP: x}
	if err != nil {
		ev.Status, ev.Detail = "failed", err.Error()
		f.obs.emit(ev)
		return nil, fail(StepRefresh, err, "cannot reach the authorization server to renew the sign-in")
	}
	if resp.StatusCode != http.StatusOK {
		ev.Status, ev.Detail = "failed", oauthErrorText(resp.StatusCode, body)
		f.obs.emit(ev)
		return nil, fail(StepRefresh, ErrNeedsSignIn, "the authorization server would not renew the sign-in (%s): sign in again", oauthErrorText(resp.StatusCode, body))
	}
	var got struct {
		AccessToken  string `json:"access_token"`
		TokenType    string `json:"token_type"`
		RefreshToken string `json:"refresh_token"`
		ExpiresIn    int64  `json:"expires_in"`
		Scope        string `json:"scope"`
	}
	if err := json.Unmarshal(body, &got); err != nil || got.AccessToken == "" {
		ev.Status, ev.Detail = "failed", "no access_token in the answer"
		f.obs.emit(ev)
		return nil, fail(StepRefresh, err, "the authorization server's refresh answer has no access token")
	}
	n := *t
	n.AccessToken, n.TokenType = got.AccessToken, got.TokenType
	if got.RefreshToken != "" {
		n.RefreshToken = got.RefreshToken
	}
	n.Expiry = time.Time{}
	if got.ExpiresIn > 0 {
		n.Expiry = c.now().Add(time.Duration(got.ExpiresIn) * time.Second)
	}
	if got.Scope != "" {
		n.Scope = got.Scope
	}
	ev.Status, ev.Detail = "ok", expiryText(&n, c.now())
	f.obs.emit(ev)
	if key != "" {
		if err := c.Store.SaveTokens(key, &n); err != nil {
			return nil, fail(StepRefresh, err, "cannot keep the renewed tokens in the keychain")
		}
	}
	return &n, nil
}

// tokenRequest builds a token-endpoint POST authenticated as r.
func tokenRequest(ctx context.Context, endpoint string, r Registration, form url.Values) (*http.Request, error) {
	switch r.AuthMethod {
	case AuthPost:
		form.Set("client_id", r.ClientID)
		form.Set("client_secret", r.ClientSecret)
	case AuthBasic:
	default:
		form.Set("client_id", r.ClientID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if r.AuthMethod == AuthBasic {
		req.SetBasicAuth(url.QueryEscape(r.ClientID), url.QueryEscape(r.ClientSecret))
	}
	return req, nil
}

func randomString() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func challengeText(c Challenge) string {
	var parts []string
	if c.ResourceMetadata != "" {
		parts = append(parts, "resource_metadata="+c.ResourceMetadata)
	}
	if c.Scope != "" {
		parts = append(parts, "scope="+c.Scope)
	}
	if c.Error != "" {
		parts = append(parts, "error="+c.Error)
	}
	return strings.Join(parts, ", ")
}

func expiryText(t *Tokens, now time.Time) string {
	if t.Expiry.IsZero() {
		return "the token has no stated lifetime"
	}
	return "expires in " + t.Expiry.Sub(now).Round(time.Second).String()
}

// Revoke asks the authorization server to revoke t's refresh and access
// tokens (RFC 7009) when its metadata names a revocation endpoint; it
// does nothing otherwise. The caller deletes the stored tokens either way.
func (c *Client) Revoke(ctx context.Context, t *Tokens) error {
	if t.Issuer == "" {
		return nil
	}
	f := &flowEnv{hc: c.httpClient()}
	d, err := f.discoverServer(ctx, t.Issuer)
	if err != nil || d.RevocationEndpoint == "" {
		return err
	}
	for _, tok := range []struct{ v, hint string }{{t.RefreshToken, "refresh_token"}, {t.AccessToken, "access_token"}} {
		if tok.v == "" {
			continue
		}
		req, err := tokenRequest(ctx, d.RevocationEndpoint, t.Client, url.Values{"token": {tok.v}, "token_type_hint": {tok.hint}})
		if err != nil {
			return err
		}
		resp, _, _, err := do(f.hc, req)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("the revocation endpoint answered %d", resp.StatusCode)
		}
	}
	return nil
}
