package oauth_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpdesk/backend/oauth"
	"mcpdesk/backend/oauth/oauthtest"
	"mcpdesk/backend/secrets"
)

// rig is one server and a client that signs in to it through Direct.
type rig struct {
	t      *testing.T
	srv    *oauthtest.Server
	kv     *secrets.Memory
	client *oauth.Client
	tr     *oauth.Transport
	events []oauth.Event
	mu     sync.Mutex
}

func newRig(t *testing.T, o oauthtest.Options, tweak ...func(*oauth.SignIn)) *rig {
	t.Helper()
	r := &rig{t: t, srv: oauthtest.New(o), kv: secrets.NewMemory()}
	t.Cleanup(r.srv.Close)
	r.client = &oauth.Client{Store: oauth.NewStore(r.kv), MetadataURL: "https://desk.example/client.json"}
	opts := oauth.SignIn{Key: "srv", ServerURL: r.srv.MCPURL(), Authorizer: oauth.Direct{}, Observer: func(e oauth.Event) {
		r.mu.Lock()
		r.events = append(r.events, e)
		r.mu.Unlock()
	}}
	for _, f := range tweak {
		f(&opts)
	}
	r.tr = &oauth.Transport{OAuth: r.client, Options: opts, Interactive: true}
	return r
}

// call posts an MCP-looking request through the transport.
func (r *rig) call(method string) (*http.Response, error) {
	hc := &http.Client{Transport: r.tr}
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `"}`
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, r.srv.MCPURL(), strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return resp, err
}

func (r *rig) mustCall(method string) {
	r.t.Helper()
	resp, err := r.call(method)
	if err != nil {
		r.t.Fatalf("%s: %v", method, err)
	}
	if resp.StatusCode != 200 {
		r.t.Fatalf("%s: status %d", method, resp.StatusCode)
	}
}

func (r *rig) tokens() *oauth.Tokens {
	r.t.Helper()
	tok, err := r.client.Store.Tokens("srv")
	if err != nil {
		r.t.Fatal(err)
	}
	return tok
}

func only(t *testing.T, reqs []oauthtest.Request, what string) oauthtest.Request {
	t.Helper()
	if len(reqs) != 1 {
		t.Fatalf("%s: %d requests, want 1", what, len(reqs))
	}
	return reqs[0]
}

func TestSignInDynamicRegistrationPKCEResource(t *testing.T) {
	r := newRig(t, oauthtest.Options{})
	r.mustCall("initialize")
	r.mustCall("tools/list")

	reg := only(t, r.srv.Seen("/register"), "registration")
	if reg.JSON["application_type"] != "native" || reg.JSON["token_endpoint_auth_method"] != "none" {
		t.Errorf("registration: %v", reg.JSON)
	}
	auth := only(t, r.srv.Seen("/authorize"), "authorization")
	if auth.Form.Get("resource") != r.srv.MCPURL() || auth.Form.Get("code_challenge_method") != "S256" || auth.Form.Get("state") == "" {
		t.Errorf("authorization request: %v", auth.Form)
	}
	if auth.Form.Has("scope") {
		t.Errorf("scope sent though the server names none: %q", auth.Form.Get("scope"))
	}
	tok := only(t, r.srv.Seen("/token"), "token")
	if tok.Form.Get("resource") != r.srv.MCPURL() || tok.Form.Get("code_verifier") == "" || tok.Auth != "" {
		t.Errorf("token request: %v (auth %q)", tok.Form, tok.Auth)
	}
	// Signed in once; the second call used the stored token.
	if got := len(r.srv.Seen("/authorize")); got != 1 {
		t.Errorf("%d authorizations", got)
	}
	stored := r.tokens()
	if stored == nil || stored.Issuer != r.srv.Issuer() || stored.Resource != r.srv.MCPURL() || stored.RefreshToken == "" {
		t.Fatalf("stored tokens: %+v", stored)
	}
	if reg, _ := r.client.Store.Registration(r.srv.Issuer()); reg == nil || reg.Kind != "dynamic" {
		t.Errorf("registration not kept per issuer: %+v", reg)
	}
	// Every step was reported, and no event carries a secret.
	steps := map[string]bool{}
	for _, e := range r.events {
		steps[e.Step] = true
		b, _ := json.Marshal(e)
		for _, secret := range []string{stored.AccessToken, stored.RefreshToken, tok.Form.Get("code"), tok.Form.Get("code_verifier")} {
			if strings.Contains(string(b), secret) {
				t.Errorf("event %q carries a secret: %s", e.Title, b)
			}
		}
	}
	for _, s := range []string{oauth.StepUnauthorized, oauth.StepResource, oauth.StepServer, oauth.StepRegister, oauth.StepAuthorize, oauth.StepCallback, oauth.StepToken} {
		if !steps[s] {
			t.Errorf("no %s event", s)
		}
	}
}

func TestDiscoveryVariants(t *testing.T) {
	cases := map[string]oauthtest.Options{
		"root metadata, no URL in the challenge": {RootMetadata: true, NoChallengeURL: true},
		"path-aware, no URL in the challenge":    {NoChallengeURL: true},
		"issuer with a path":                     {IssuerPath: "/tenant1"},
		"2025-03-26, server metadata at origin":  {Legacy: true},
		"2025-03-26, default endpoints":          {Legacy: true, NoServerMetadata: true},
	}
	for name, o := range cases {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, o)
			r.mustCall("initialize")
			if got := len(r.srv.Seen(strings.TrimSuffix(o.IssuerPath, "/") + "/token")); got != 1 {
				t.Errorf("%d token requests", got)
			}
		})
	}
}

func refused(t *testing.T, r *rig, wantText string) {
	t.Helper()
	_, err := r.call("initialize")
	var e *oauth.Error
	if !errors.As(err, &e) || !strings.Contains(e.Error(), wantText) {
		t.Fatalf("err = %v, want an oauth.Error saying %q", err, wantText)
	}
	if n := len(r.srv.Seen("/token")); n != 0 {
		t.Errorf("%d token requests after a refusal", n)
	}
	if r.tokens() != nil {
		t.Error("tokens stored after a refusal")
	}
}

func TestRefusals(t *testing.T) {
	t.Run("resource mismatch", func(t *testing.T) {
		r := newRig(t, oauthtest.Options{ResourceOverride: "https://other.example/mcp"})
		refused(t, r, "says resource https://other.example/mcp, but you connected to")
		if n := len(r.srv.Seen("/authorize")); n != 0 {
			t.Errorf("%d authorization requests for another resource", n)
		}
	})
	t.Run("metadata issuer mismatch", func(t *testing.T) {
		r := newRig(t, oauthtest.Options{MetadataIssuer: "https://evil.example"})
		refused(t, r, `says its issuer is "https://evil.example"`)
	})
	t.Run("wrong iss", func(t *testing.T) {
		r := newRig(t, oauthtest.Options{Iss: true, WrongIss: true})
		refused(t, r, "mix-up")
	})
	t.Run("unexpected wrong iss", func(t *testing.T) {
		r := newRig(t, oauthtest.Options{WrongIss: true})
		refused(t, r, "mix-up")
	})
	t.Run("iss with a trailing slash", func(t *testing.T) {
		// No normalisation: another string is another issuer (RFC 9207 §2.4).
		r := newRig(t, oauthtest.Options{Iss: true})
		r.srv.SetIss(r.srv.Issuer() + "/")
		refused(t, r, "mix-up")
	})
	t.Run("no registration and no client", func(t *testing.T) {
		r := newRig(t, oauthtest.Options{NoRegistration: true})
		refused(t, r, "offers no dynamic client registration")
	})
}

func TestIssAccepted(t *testing.T) {
	r := newRig(t, oauthtest.Options{Iss: true})
	r.mustCall("initialize")
}

func TestTokenEndpointAuthentication(t *testing.T) {
	cases := []struct {
		methods []string
		want    string // the token request's Authorization, or "post"
	}{
		{[]string{"client_secret_basic"}, "Basic"},
		{[]string{"client_secret_post"}, "post"},
		{[]string{"none"}, ""},
	}
	for _, c := range cases {
		t.Run(c.methods[0], func(t *testing.T) {
			r := newRig(t, oauthtest.Options{AuthMethods: c.methods})
			r.mustCall("initialize")
			tok := only(t, r.srv.Seen("/token"), "token")
			switch c.want {
			case "post":
				if tok.Auth != "" || tok.Form.Get("client_secret") == "" {
					t.Errorf("post: auth %q, form %v", tok.Auth, tok.Form)
				}
			case "Basic":
				if !strings.HasPrefix(tok.Auth, "Basic client-") || tok.Form.Has("client_secret") {
					t.Errorf("basic: auth %q, form %v", tok.Auth, tok.Form)
				}
			default:
				if tok.Auth != "" || tok.Form.Has("client_secret") || tok.Form.Get("client_id") == "" {
					t.Errorf("none: auth %q, form %v", tok.Auth, tok.Form)
				}
			}
			// The refresh authenticates the same way.
			r.srv.Expire()
			r.mustCall("tools/list")
			ref := r.srv.Seen("/token")
			last := ref[len(ref)-1]
			if last.Form.Get("grant_type") != "refresh_token" || last.Form.Get("resource") != r.srv.MCPURL() || last.Auth != tok.Auth {
				t.Errorf("refresh: %v auth %q", last.Form, last.Auth)
			}
		})
	}
}

func TestPreRegisteredAndCIMD(t *testing.T) {
	t.Run("pre-registered", func(t *testing.T) {
		r := newRig(t, oauthtest.Options{NoRegistration: true, PreRegistered: map[string]string{"my-client": "my-secret"}}, func(o *oauth.SignIn) {
			o.Client = &oauth.Registration{ClientID: "my-client", ClientSecret: "my-secret"}
		})
		r.mustCall("initialize")
		if tok := only(t, r.srv.Seen("/token"), "token"); tok.Auth != "Basic my-client" {
			t.Errorf("token auth %q", tok.Auth)
		}
	})
	t.Run("client ID metadata document", func(t *testing.T) {
		r := newRig(t, oauthtest.Options{CIMD: true})
		r.mustCall("initialize")
		if n := len(r.srv.Seen("/register")); n != 0 {
			t.Errorf("registered though the server takes a metadata document")
		}
		if a := only(t, r.srv.Seen("/authorize"), "authorization"); a.Form.Get("client_id") != "https://desk.example/client.json" {
			t.Errorf("client_id %q", a.Form.Get("client_id"))
		}
	})
}

func TestScopes(t *testing.T) {
	scopeOf := func(t *testing.T, o oauthtest.Options) string {
		r := newRig(t, o)
		r.mustCall("initialize")
		return only(t, r.srv.Seen("/authorize"), "authorization").Form.Get("scope")
	}
	if s := scopeOf(t, oauthtest.Options{ChallengeScope: "files:read", ScopesSupported: []string{"a", "b"}}); s != "files:read" {
		t.Errorf("from the challenge: %q", s)
	}
	if s := scopeOf(t, oauthtest.Options{ScopesSupported: []string{"a", "b"}}); s != "a b" {
		t.Errorf("from scopes_supported: %q", s)
	}
	if s := scopeOf(t, oauthtest.Options{ScopesSupported: []string{"a"}, ASScopes: []string{"a", "offline_access"}}); s != "a offline_access" {
		t.Errorf("offline_access where supported: %q", s)
	}
	if s := scopeOf(t, oauthtest.Options{ChallengeScope: "a offline_access"}); s != "a" {
		t.Errorf("offline_access where not supported: %q", s)
	}
}

func TestStepUpAndItsLimit(t *testing.T) {
	r := newRig(t, oauthtest.Options{ChallengeScope: "read", StepUpScope: "write"})
	r.mustCall("initialize")
	r.mustCall("tools/call")
	auths := r.srv.Seen("/authorize")
	if len(auths) != 2 || auths[1].Form.Get("scope") != "read write" {
		t.Fatalf("step-up authorizations: %v", auths)
	}

	// A server that never grants enough: bounded.
	r3 := newRig(t, oauthtest.Options{ChallengeScope: "read", StepUpScope: "write", NeverGrant: "write"})
	r3.tr.MaxStepUps = 2
	r3.mustCall("initialize")
	_, err := r3.call("tools/call")
	if err == nil || !strings.Contains(err.Error(), "after 2 step-up sign-ins") {
		t.Fatalf("retry limit: %v", err)
	}
	if n := len(r3.srv.Seen("/authorize")); n != 3 {
		t.Errorf("%d authorizations, want 1 + 2 step-ups", n)
	}
}

func TestRefreshAndRevocation(t *testing.T) {
	r := newRig(t, oauthtest.Options{})
	r.mustCall("initialize")
	first := r.tokens()

	// Expired server-side: the 401 leads to a refresh, not a sign-in.
	r.srv.Expire()
	r.mustCall("tools/list")
	if n := len(r.srv.Seen("/authorize")); n != 1 {
		t.Errorf("%d authorizations after an expiry", n)
	}
	if r.tokens().AccessToken == first.AccessToken {
		t.Error("the refreshed token was not stored")
	}

	// About to expire by our clock: renewed before the request.
	r.client.Now = func() time.Time { return time.Now().Add(2 * time.Hour) }
	before := len(r.srv.Seen("/token"))
	r.mustCall("tools/list")
	if n := len(r.srv.Seen("/token")); n != before+1 {
		t.Errorf("no refresh before expiry (%d → %d token requests)", before, n)
	}
	r.client.Now = nil

	// Revoked server-side: a background connection says "needs sign-in".
	r.srv.RevokeAll()
	r.tr.Interactive = false
	_, err := r.call("tools/list")
	if !errors.Is(err, oauth.ErrNeedsSignIn) {
		t.Fatalf("after a revoke: %v, want ErrNeedsSignIn", err)
	}
	// Interactive, it signs in again.
	r.tr.Interactive = true
	r.mustCall("tools/list")
	if n := len(r.srv.Seen("/authorize")); n != 2 {
		t.Errorf("%d authorizations, want 2", n)
	}
}

func TestRegistrationIsPerIssuer(t *testing.T) {
	r := newRig(t, oauthtest.Options{})
	// A client registered with another issuer is never offered to this one.
	other := &oauth.Registration{Issuer: "https://old-as.example", ClientID: "old-client", Kind: "dynamic"}
	if err := r.client.Store.SaveRegistration(other); err != nil {
		t.Fatal(err)
	}
	r.mustCall("initialize")
	if a := only(t, r.srv.Seen("/authorize"), "authorization"); a.Form.Get("client_id") == "old-client" {
		t.Error("sent a client registered with another issuer")
	}
	// The same issuer's registration is reused on the next sign-in.
	_ = r.client.Store.DeleteTokens("srv")
	r.mustCall("tools/list")
	if n := len(r.srv.Seen("/register")); n != 1 {
		t.Errorf("%d registrations with one issuer", n)
	}
}

func TestLoopbackListensOnlyWhileWaiting(t *testing.T) {
	srv := oauthtest.New(oauthtest.Options{})
	defer srv.Close()
	var redirect string
	lb := oauth.Loopback{Open: func(u string) error {
		// The "browser": follow the authorization URL to the loopback.
		pu, _ := url.Parse(u)
		redirect = pu.Query().Get("redirect_uri")
		go func() {
			resp, err := http.Get(u)
			if err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}}
	c := &oauth.Client{Store: oauth.NewStore(secrets.NewMemory())}
	if _, err := c.SignIn(context.Background(), oauth.SignIn{Key: "k", ServerURL: srv.MCPURL(), Authorizer: lb}); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(redirect)
	if u.Hostname() != "127.0.0.1" || u.Port() == "" || u.Path != "/callback" {
		t.Fatalf("redirect_uri %q", redirect)
	}
	if conn, err := net.DialTimeout("tcp", u.Host, time.Second); err == nil {
		conn.Close()
		t.Fatalf("something still listens on %s after the sign-in", u.Host)
	}
}

func TestStepByStep(t *testing.T) {
	srv := oauthtest.New(oauthtest.Options{})
	defer srv.Close()
	var asked []string
	c := &oauth.Client{Store: oauth.NewStore(secrets.NewMemory())}
	o := oauth.SignIn{Key: "k", ServerURL: srv.MCPURL(), Authorizer: oauth.Direct{}, Pause: func(_ context.Context, next string) error {
		asked = append(asked, next)
		// Nothing of a step happens before it is let through.
		if next == oauth.StepToken && len(srv.Seen("/token")) != 0 {
			t.Error("the token request ran before its step was let through")
		}
		return nil
	}}
	if _, err := c.SignIn(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	want := []string{oauth.StepResource, oauth.StepServer, oauth.StepRegister, oauth.StepAuthorize, oauth.StepToken}
	if strings.Join(asked, ",") != strings.Join(want, ",") {
		t.Fatalf("paused before %v, want %v", asked, want)
	}
	// Stopped before the authorization: no code is asked for.
	srv2 := oauthtest.New(oauthtest.Options{})
	defer srv2.Close()
	o.ServerURL, o.Key = srv2.MCPURL(), "k2"
	o.Pause = func(_ context.Context, next string) error {
		if next == oauth.StepAuthorize {
			return context.Canceled
		}
		return nil
	}
	if _, err := c.SignIn(context.Background(), o); err == nil || len(srv2.Seen("/authorize")) != 0 {
		t.Fatalf("stopped sign-in: %v, %d authorization requests", err, len(srv2.Seen("/authorize")))
	}
}
