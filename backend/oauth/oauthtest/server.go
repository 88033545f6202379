// Package oauthtest is an OAuth 2.1 authorization server and a protected
// MCP resource in one httptest server, for tests: it approves every
// authorization request at once (redirecting with the code), and each
// behaviour a real server may have — where its metadata lives, whether it
// registers clients, which token-endpoint authentication it takes, the
// iss parameter, scopes and step-up, expiry and revocation — is an
// option. It records what clients sent so tests can check it.
package oauthtest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Options shape the server; the zero value is a current MCP server with
// path-aware resource metadata, dynamic registration, PKCE, no scopes.
type Options struct {
	// Resource serves the MCP endpoint once authorized; nil answers
	// {"ok":true} to anything.
	Resource http.Handler
	// MCPPath is the MCP endpoint's path (default /mcp).
	MCPPath string
	// RootMetadata serves resource metadata only at the root well-known
	// URL; NoChallengeURL leaves resource_metadata out of the 401.
	RootMetadata, NoChallengeURL bool
	// Legacy is a 2025-03-26 server: no resource metadata at all; with
	// NoServerMetadata it has no authorization-server metadata either
	// (default endpoints).
	Legacy, NoServerMetadata bool
	// IssuerPath puts the authorization server under a path (/tenant1).
	IssuerPath string
	// MetadataIssuer, when set, is the issuer the metadata claims (a mismatch).
	MetadataIssuer string
	// ResourceOverride, when set, is the resource the metadata claims.
	ResourceOverride string
	// ScopesSupported go in the resource metadata; ChallengeScope in the 401.
	ScopesSupported []string
	ChallengeScope  string
	// ASScopes go in the authorization server's scopes_supported.
	ASScopes []string
	// StepUpScope: a request whose JSON body has "method":"tools/call"
	// needs this scope too, else 403 insufficient_scope.
	StepUpScope string
	// NeverGrant is a scope the server never grants, however often asked
	// (a step-up that cannot succeed).
	NeverGrant string
	// NoRegistration offers no dynamic registration; PreRegistered lists
	// clients (id → secret, "" for a public client).
	NoRegistration bool
	PreRegistered  map[string]string
	// CIMD advertises client_id_metadata_document_supported.
	CIMD bool
	// AuthMethods are token_endpoint_auth_methods_supported (default none
	// and client_secret_basic); registration issues a secret unless the
	// client asks for none.
	AuthMethods []string
	// Iss advertises and sends the iss parameter; WrongIss sends another;
	// IssOverride sends this one.
	Iss, WrongIss bool
	IssOverride   string
	// TokenTTL is the access tokens' lifetime (default one hour).
	TokenTTL time.Duration
	// NoRefresh issues no refresh tokens.
	NoRefresh bool
	// Revocation offers a revocation endpoint.
	Revocation bool
	// Account, when set, comes back as an (unsigned) OpenID ID token's
	// email with the tokens.
	Account string
	// Control serves POST /_test/expire and /_test/revoke (Expire,
	// RevokeAll) for tests that drive the server from outside.
	Control bool
}

// Server is the running test server.
type Server struct {
	*httptest.Server
	o Options

	mu       sync.Mutex
	clients  map[string]client
	codes    map[string]grant
	tokens   map[string]grant // access tokens
	refresh  map[string]grant
	Requests []Request
}

type client struct {
	secret, method string
	redirects      []string
}

type grant struct {
	client, challenge, redirect, resource, scope string
	expiry                                       time.Time
}

// Request is one request the server got, parameters included.
type Request struct {
	Method, Path string
	Form         url.Values
	Auth         string // the Authorization header's scheme and, for Basic, the client id
	JSON         map[string]any
}

// New starts a server; it closes with the test.
func New(o Options) *Server {
	if o.MCPPath == "" {
		o.MCPPath = "/mcp"
	}
	if o.TokenTTL == 0 {
		o.TokenTTL = time.Hour
	}
	if len(o.AuthMethods) == 0 {
		o.AuthMethods = []string{"none", "client_secret_basic"}
	}
	s := &Server{o: o, clients: map[string]client{}, codes: map[string]grant{}, tokens: map[string]grant{}, refresh: map[string]grant{}}
	for id, secret := range o.PreRegistered {
		m := "none"
		if secret != "" {
			m = "client_secret_basic"
		}
		s.clients[id] = client{secret: secret, method: m}
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL of the MCP endpoint.
func (s *Server) MCPURL() string { return s.Server.URL + s.o.MCPPath }

// Issuer is the authorization server's issuer identifier.
func (s *Server) Issuer() string { return s.Server.URL + s.o.IssuerPath }

// SetIss makes the authorization answers carry iss (a variant of the
// issuer, say).
func (s *Server) SetIss(iss string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.o.IssOverride = iss
}

// Expire makes every access token expired.
func (s *Server) Expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, g := range s.tokens {
		g.expiry = time.Now().Add(-time.Second)
		s.tokens[k] = g
	}
}

// RevokeAll forgets every access and refresh token (a server-side revoke).
func (s *Server) RevokeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens, s.refresh = map[string]grant{}, map[string]grant{}
}

// Seen returns the requests to path.
func (s *Server) Seen(path string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.Requests {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

func (s *Server) record(r *http.Request) Request {
	_ = r.ParseForm()
	rq := Request{Method: r.Method, Path: r.URL.Path, Form: r.Form}
	if a := r.Header.Get("Authorization"); a != "" {
		scheme, _, _ := strings.Cut(a, " ")
		rq.Auth = scheme
		if id, _, ok := r.BasicAuth(); ok {
			rq.Auth = "Basic " + id
		}
	}
	s.mu.Lock()
	s.Requests = append(s.Requests, rq)
	s.mu.Unlock()
	return rq
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	ip := s.o.IssuerPath
	switch {
	case s.o.Control && r.Method == http.MethodPost && p == "/_test/expire":
		s.Expire()
	case s.o.Control && r.Method == http.MethodPost && p == "/_test/revoke":
		s.RevokeAll()
	case p == s.o.MCPPath || strings.HasPrefix(p, s.o.MCPPath+"/"):
		s.resource(w, r)
	case !s.o.Legacy && ((!s.o.RootMetadata && p == "/.well-known/oauth-protected-resource"+s.o.MCPPath) || (s.o.RootMetadata && p == "/.well-known/oauth-protected-resource")):
		s.record(r)
		res := s.MCPURL()
		if s.o.ResourceOverride != "" {
			res = s.o.ResourceOverride
		}
		writeJSON(w, 200, map[string]any{"resource": res, "authorization_servers": []string{s.Issuer()}, "scopes_supported": s.o.ScopesSupported})
	case !s.o.NoServerMetadata && (p == "/.well-known/oauth-authorization-server"+ip || p == "/.well-known/openid-configuration"+ip):
		s.record(r)
		writeJSON(w, 200, s.metadata())
	case p == ip+"/authorize":
		s.authorize(w, r)
	case p == ip+"/token":
		s.token(w, r)
	case p == ip+"/register" && !s.o.NoRegistration:
		s.register(w, r)
	case p == ip+"/revoke" && s.o.Revocation:
		s.record(r)
		s.mu.Lock()
		t := r.PostForm.Get("token")
		delete(s.tokens, t)
		delete(s.refresh, t)
		s.mu.Unlock()
		w.WriteHeader(200)
	default:
		s.record(r)
		http.NotFound(w, r)
	}
}

func (s *Server) metadata() map[string]any {
	iss := s.Issuer()
	if s.o.MetadataIssuer != "" {
		iss = s.o.MetadataIssuer
	}
	m := map[string]any{
		"issuer":                                iss,
		"authorization_endpoint":                s.Issuer() + "/authorize",
		"token_endpoint":                        s.Issuer() + "/token",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": s.o.AuthMethods,
	}
	if !s.o.NoRegistration {
		m["registration_endpoint"] = s.Issuer() + "/register"
	}
	if s.o.Revocation {
		m["revocation_endpoint"] = s.Issuer() + "/revoke"
	}
	if len(s.o.ASScopes) > 0 {
		m["scopes_supported"] = s.o.ASScopes
	}
	if s.o.CIMD {
		m["client_id_metadata_document_supported"] = true
	}
	if s.o.Iss {
		m["authorization_response_iss_parameter_supported"] = true
	}
	return m
}

func (s *Server) challenge(w http.ResponseWriter, status int, errCode, scope string) {
	parts := []string{}
	if !s.o.NoChallengeURL && !s.o.Legacy {
		prm := s.Server.URL + "/.well-known/oauth-protected-resource" + s.o.MCPPath
		if s.o.RootMetadata {
			prm = s.Server.URL + "/.well-known/oauth-protected-resource"
		}
		parts = append(parts, fmt.Sprintf("resource_metadata=%q", prm))
	}
	if scope != "" {
		parts = append(parts, fmt.Sprintf("scope=%q", scope))
	}
	if errCode != "" {
		parts = append(parts, fmt.Sprintf("error=%q", errCode))
	}
	w.Header().Set("WWW-Authenticate", strings.TrimSpace("Bearer "+strings.Join(parts, ", ")))
	w.WriteHeader(status)
}

func (s *Server) resource(w http.ResponseWriter, r *http.Request) {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	g, ok := s.tokens[tok]
	s.mu.Unlock()
	if !ok || time.Now().After(g.expiry) {
		errCode := ""
		if tok != "" {
			errCode = "invalid_token"
		}
		s.challenge(w, http.StatusUnauthorized, errCode, s.o.ChallengeScope)
		return
	}
	if s.o.StepUpScope != "" && !slices.Contains(strings.Fields(g.scope), s.o.StepUpScope) && r.Method == http.MethodPost {
		var body struct {
			Method string `json:"method"`
		}
		b := make([]byte, 64<<10)
		n, _ := r.Body.Read(b)
		_ = json.Unmarshal(b[:n], &body)
		if body.Method == "tools/call" {
			s.challenge(w, http.StatusForbidden, "insufficient_scope", strings.TrimSpace(g.scope+" "+s.o.StepUpScope))
			return
		}
		r.Body = readCloser{strings.NewReader(string(b[:n]))}
	}
	if s.o.Resource != nil {
		s.o.Resource.ServeHTTP(w, r)
		return
	}
	writeJSON(w, 200, map[string]any{"ok": true})
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	s.mu.Lock()
	s.Requests = append(s.Requests, Request{Method: r.Method, Path: r.URL.Path, JSON: body})
	s.mu.Unlock()
	method, _ := body["token_endpoint_auth_method"].(string)
	if method == "" {
		method = "client_secret_basic"
	}
	id := "client-" + random()
	c := client{method: method}
	if method != "none" {
		c.secret = "secret-" + random()
	}
	if rs, ok := body["redirect_uris"].([]any); ok {
		for _, u := range rs {
			if s, ok := u.(string); ok {
				c.redirects = append(c.redirects, s)
			}
		}
	}
	s.mu.Lock()
	s.clients[id] = c
	s.mu.Unlock()
	out := map[string]any{"client_id": id, "token_endpoint_auth_method": method, "redirect_uris": c.redirects}
	if c.secret != "" {
		out["client_secret"] = c.secret
	}
	writeJSON(w, 201, out)
}

func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	rq := s.record(r)
	q := rq.Form
	id := q.Get("client_id")
	s.mu.Lock()
	_, known := s.clients[id]
	s.mu.Unlock()
	if !known && !(s.o.CIMD && strings.HasPrefix(id, "https://")) {
		http.Error(w, "unknown client", 400)
		return
	}
	if q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		http.Error(w, "PKCE S256 required", 400)
		return
	}
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || redirect.Scheme == "" {
		http.Error(w, "bad redirect_uri", 400)
		return
	}
	code := "code-" + random()
	s.mu.Lock()
	scope := q.Get("scope")
	if s.o.NeverGrant != "" {
		scope = strings.Join(slices.DeleteFunc(strings.Fields(scope), func(x string) bool { return x == s.o.NeverGrant }), " ")
	}
	s.codes[code] = grant{client: id, challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"), resource: q.Get("resource"), scope: scope}
	s.mu.Unlock()
	v := redirect.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	s.mu.Lock()
	override := s.o.IssOverride
	s.mu.Unlock()
	if s.o.Iss || s.o.WrongIss || override != "" {
		iss := s.Issuer()
		if s.o.WrongIss {
			iss = "https://attacker.example"
		}
		if override != "" {
			iss = override
		}
		v.Set("iss", iss)
	}
	redirect.RawQuery = v.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

func (s *Server) authenticate(r *http.Request, form url.Values) (string, bool) {
	id, secret, basic := r.BasicAuth()
	if basic {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	if s.o.CIMD && strings.HasPrefix(id, "https://") {
		return id, true
	}
	s.mu.Lock()
	c, ok := s.clients[id]
	s.mu.Unlock()
	if !ok {
		return "", false
	}
	switch c.method {
	case "client_secret_basic":
		return id, basic && secret == c.secret
	case "client_secret_post":
		return id, !basic && secret == c.secret
	default:
		return id, secret == ""
	}
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	rq := s.record(r)
	form := r.PostForm
	id, ok := s.authenticate(r, form)
	if !ok {
		writeJSON(w, 401, map[string]string{"error": "invalid_client"})
		return
	}
	var g grant
	switch form.Get("grant_type") {
	case "authorization_code":
		s.mu.Lock()
		g, ok = s.codes[form.Get("code")]
		delete(s.codes, form.Get("code"))
		s.mu.Unlock()
		sum := sha256.Sum256([]byte(form.Get("code_verifier")))
		if !ok || g.client != id || g.redirect != form.Get("redirect_uri") || base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
	case "refresh_token":
		s.mu.Lock()
		g, ok = s.refresh[form.Get("refresh_token")]
		delete(s.refresh, form.Get("refresh_token"))
		s.mu.Unlock()
		if !ok || g.client != id {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
	default:
		writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	if res := form.Get("resource"); res != g.resource && g.resource != "" {
		writeJSON(w, 400, map[string]string{"error": "invalid_target"})
		return
	}
	_ = rq
	access := "at-" + random()
	g.expiry = time.Now().Add(s.o.TokenTTL)
	out := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": int(s.o.TokenTTL / time.Second)}
	if g.scope != "" {
		out["scope"] = g.scope
	}
	if s.o.Account != "" {
		claims, _ := json.Marshal(map[string]string{"iss": s.Issuer(), "sub": "user-1", "email": s.o.Account})
		out["id_token"] = "eyJhbGciOiJub25lIn0." + base64.RawURLEncoding.EncodeToString(claims) + "."
	}
	s.mu.Lock()
	s.tokens[access] = g
	if !s.o.NoRefresh {
		rt := "rt-" + random()
		s.refresh[rt] = g
		out["refresh_token"] = rt
	}
	s.mu.Unlock()
	writeJSON(w, 200, out)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func random() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
