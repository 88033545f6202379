package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Discovery is what a server and its authorization server say about
// signing in.
type Discovery struct {
	// ServerURL is the MCP server's URL, canonical (RFC 8707 §2).
	ServerURL string
	// Resource is the server's protected-resource metadata; nil for a
	// server that has none (the 2025-03-26 revision).
	Resource *ResourceMetadata
	// ResourceIndicator is the `resource` parameter every authorization
	// and token request carries.
	ResourceIndicator string
	Server            ServerMetadata
	Challenge         Challenge
}

// Canonical returns the canonical form of a server URL: scheme and host
// in lower case, no fragment (RFC 8707 §2, MCP authorization §Resource
// Parameter).
func Canonical(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q is not an http(s) URL", raw)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	u.RawQuery = ""
	return u.String(), nil
}

// covers reports whether the resource identifier resource names the
// server at serverURL: same origin, and the same path or a parent of it.
func covers(resource, serverURL string) bool {
	r, err1 := url.Parse(resource)
	s, err2 := url.Parse(serverURL)
	if err1 != nil || err2 != nil {
		return false
	}
	if !strings.EqualFold(r.Scheme, s.Scheme) || !strings.EqualFold(hostPort(r), hostPort(s)) {
		return false
	}
	rp := strings.TrimSuffix(r.EscapedPath(), "/")
	sp := strings.TrimSuffix(s.EscapedPath(), "/")
	return rp == sp || strings.HasPrefix(sp, rp+"/")
}

func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return strings.ToLower(u.Hostname()) + ":" + port
}

// wellKnown builds base's origin + "/.well-known/" + name + base's path
// (RFC 8414 §3.1, RFC 9728 §3.1: the suffix goes between host and path).
func wellKnown(base *url.URL, name string, withPath bool) string {
	u := url.URL{Scheme: base.Scheme, Host: base.Host, Path: "/.well-known/" + name}
	if p := strings.TrimSuffix(base.Path, "/"); withPath && p != "" {
		u.Path += p
	}
	return u.String()
}

// Discover finds how to sign in to the server at serverURL, starting from
// the challenge of its 401 (the zero Challenge when there was none).
func (c *Client) Discover(ctx context.Context, serverURL string, ch Challenge, obs Observer) (*Discovery, error) {
	return (&flowEnv{hc: c.httpClient(), obs: obs}).discover(ctx, serverURL, ch)
}

type flowEnv struct {
	hc  *http.Client
	obs Observer
	// pause, when set, is called before each step (the debugger's step
	// by step); its error stops the sign-in.
	pause func(ctx context.Context, next string) error
}

// before waits, in step-by-step mode, until the user lets step run.
func (f *flowEnv) before(ctx context.Context, step string) error {
	if f.pause == nil {
		return nil
	}
	if err := f.pause(ctx, step); err != nil {
		return fail(step, err, "the sign-in was stopped before this step")
	}
	return nil
}

func (f *flowEnv) discover(ctx context.Context, serverURL string, ch Challenge) (*Discovery, error) {
	canon, err := Canonical(serverURL)
	if err != nil {
		return nil, fail(StepResource, nil, "the server's URL cannot be signed in to: %v", err)
	}
	d := &Discovery{ServerURL: canon, ResourceIndicator: canon, Challenge: ch}
	su, _ := url.Parse(canon)

	if err := f.before(ctx, StepResource); err != nil {
		return nil, err
	}
	// 1. Protected-resource metadata: the challenge's URL, then the
	// path-aware and the root well-known URLs.
	var candidates []string
	if ch.ResourceMetadata != "" {
		candidates = append(candidates, ch.ResourceMetadata)
	}
	if strings.Trim(su.Path, "/") != "" {
		candidates = append(candidates, wellKnown(su, "oauth-protected-resource", true))
	}
	candidates = append(candidates, wellKnown(su, "oauth-protected-resource", false))
	var prm *ResourceMetadata
	for i, u := range candidates {
		if i > 0 && u == candidates[i-1] {
			continue
		}
		var m ResourceMetadata
		ok, err := f.getJSON(ctx, StepResource, u, &m, "RFC 9728 §3: protected-resource metadata")
		if err != nil {
			return nil, err
		}
		if ok {
			prm = &m
			break
		}
	}

	var issuer string
	if prm != nil {
		if prm.Resource != "" && !covers(prm.Resource, canon) {
			err := fail(StepResource, nil, "the server's resource metadata says resource %s, but you connected to %s: refusing to get a token for another resource", prm.Resource, canon)
			f.obs.emit(Event{Step: StepResource, Status: "failed", Title: "Resource mismatch", Rule: "RFC 9728 §3.3: the resource must be the server the client connected to", Detail: err.Msg})
			return nil, err
		}
		if prm.Resource != "" {
			d.ResourceIndicator = prm.Resource
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fail(StepResource, nil, "the server's resource metadata names no authorization server")
		}
		d.Resource = prm
		issuer = prm.AuthorizationServers[0]
		f.obs.emit(Event{Step: StepResource, Status: "ok", Title: "Authorization server: " + issuer, Rule: "MCP authorization: the client uses an authorization server the resource metadata lists"})
	} else {
		// 2025-03-26: the authorization server is at the server's origin.
		issuer = (&url.URL{Scheme: su.Scheme, Host: su.Host}).String()
		f.obs.emit(Event{Step: StepResource, Status: "info", Title: "No resource metadata: trying the server's origin as its authorization server", Rule: "MCP 2025-03-26: authorization base URL is the server's origin"})
	}

	// 2. Authorization-server metadata.
	if err := f.before(ctx, StepServer); err != nil {
		return nil, err
	}
	m, urls, err := f.serverMetadata(ctx, issuer)
	if err != nil {
		return nil, err
	}
	found := m != nil
	if found {
		d.Server = *m
	}
	if !found {
		if prm != nil {
			return nil, fail(StepServer, nil, "the authorization server %s publishes no metadata (tried %s)", issuer, strings.Join(urls, ", "))
		}
		// 2025-03-26 default endpoints.
		base := strings.TrimSuffix(issuer, "/")
		d.Server = ServerMetadata{Issuer: base, AuthorizationEndpoint: base + "/authorize", TokenEndpoint: base + "/token", RegistrationEndpoint: base + "/register", Default: true}
		f.obs.emit(Event{Step: StepServer, Status: "info", Title: "No metadata: using the default endpoints /authorize, /token and /register", Rule: "MCP 2025-03-26: fallbacks for servers without metadata discovery"})
	} else {
		f.obs.emit(Event{Step: StepServer, Status: "ok", Title: "Authorization server metadata of " + d.Server.Issuer, Rule: "RFC 8414 §3"})
	}
	if !d.Server.Default && len(d.Server.CodeChallengeMethodsSupported) > 0 && !supports(d.Server.CodeChallengeMethodsSupported, "S256") {
		return nil, fail(StepServer, nil, "the authorization server does not support PKCE with S256, which MCP requires")
	}
	return d, nil
}

// getJSON fetches u into v: ok is false for a 4xx answer (not there), an
// error for anything else that is not JSON metadata.
func (f *flowEnv) getJSON(ctx context.Context, step, u string, v any, rule string) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, fail(step, err, "cannot fetch %s", u)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, body, x, err := do(f.hc, req)
	ev := Event{Step: step, Title: "GET " + u, Rule: rule, HTTP: x}
	if err != nil {
		ev.Status, ev.Detail = "failed", err.Error()
		f.obs.emit(ev)
		return false, fail(step, err, "cannot fetch %s", u)
	}
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		ev.Status, ev.Detail = "info", fmt.Sprintf("%d: not there, trying the next place", resp.StatusCode)
		f.obs.emit(ev)
		return false, nil
	}
	if resp.StatusCode != http.StatusOK {
		ev.Status, ev.Detail = "failed", fmt.Sprintf("the server answered %d", resp.StatusCode)
		f.obs.emit(ev)
		return false, fail(step, nil, "%s answered %d", u, resp.StatusCode)
	}
	if err := json.Unmarshal(body, v); err != nil {
		ev.Status, ev.Detail = "failed", "not JSON metadata: "+err.Error()
		f.obs.emit(ev)
		return false, fail(step, err, "%s is not JSON metadata", u)
	}
	ev.Status = "ok"
	f.obs.emit(ev)
	return true, nil
}

// serverMetadata finds issuer's authorization-server metadata (RFC 8414
// §3.1 with path insertion, then OpenID Connect Discovery); nil when
// there is none. It refuses metadata that names another issuer.
func (f *flowEnv) serverMetadata(ctx context.Context, issuer string) (*ServerMetadata, []string, error) {
	iu, err := url.Parse(issuer)
	if err != nil || iu.Host == "" {
		return nil, nil, fail(StepServer, err, "the authorization server %q is not a URL", issuer)
	}
	var urls []string
	if p := strings.Trim(iu.Path, "/"); p != "" {
		urls = []string{
			wellKnown(iu, "oauth-authorization-server", true),
			wellKnown(iu, "openid-configuration", true),
			strings.TrimSuffix(issuer, "/") + "/.well-known/openid-configuration",
		}
	} else {
		urls = []string{wellKnown(iu, "oauth-authorization-server", false), wellKnown(iu, "openid-configuration", false)}
	}
	for _, u := range urls {
		var m ServerMetadata
		ok, err := f.getJSON(ctx, StepServer, u, &m, "RFC 8414 §3 / OpenID Connect Discovery 1.0 §4")
		if err != nil {
			return nil, urls, err
		}
		if !ok {
			continue
		}
		if m.Issuer != issuer && strings.TrimSuffix(m.Issuer, "/") != strings.TrimSuffix(issuer, "/") {
			err := fail(StepServer, nil, "the authorization server's metadata at %s says its issuer is %q, not %q: refusing it (RFC 8414 §3.3)", u, m.Issuer, issuer)
			f.obs.emit(Event{Step: StepServer, Status: "failed", Title: "Issuer mismatch", Rule: "RFC 8414 §3.3: the issuer must be identical to the URL the metadata was derived from", Detail: err.Msg})
			return nil, urls, err
		}
		if m.AuthorizationEndpoint == "" || m.TokenEndpoint == "" {
			return nil, urls, fail(StepServer, nil, "the authorization server's metadata at %s has no authorization or token endpoint", u)
		}
		return &m, urls, nil
	}
	return nil, urls, nil
}

// discoverServer returns issuer's metadata, or an error when it has none.
func (f *flowEnv) discoverServer(ctx context.Context, issuer string) (*ServerMetadata, error) {
	m, _, err := f.serverMetadata(ctx, issuer)
	if err == nil && m == nil {
		err = fail(StepServer, nil, "the authorization server %s publishes no metadata", issuer)
	}
	return m, err
}
