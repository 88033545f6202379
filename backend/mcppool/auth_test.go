package mcppool

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/oauth"
	"mcpdesk/backend/oauth/oauthtest"
	"mcpdesk/backend/secrets"
)

// oauthServer is an MCP server with one tool behind the test
// authorization server.
func oauthServer(t *testing.T, o oauthtest.Options) *oauthtest.Server {
	t.Helper()
	s := server.NewMCPServer("guarded", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("whoami", mcp.WithDescription("says hello")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("hello, signed-in user"), nil
	})
	o.Resource = server.NewStreamableHTTPServer(s)
	srv := oauthtest.New(o)
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() })
	return srv
}

// browser follows an authorization URL as a browser would: the
// authorization server redirects to the loopback, which answers.
func browser(t *testing.T, opened *[]string) func(string) error {
	return func(u string) error {
		*opened = append(*opened, u)
		go func() {
			resp, err := http.Get(u)
			if err != nil {
				t.Errorf("browser: %v", err)
				return
			}
			resp.Body.Close()
		}()
		return nil
	}
}

func TestSignInToARemoteServer(t *testing.T) {
	as := oauthServer(t, oauthtest.Options{Revocation: true, Account: "ada@example.com"})
	kv := secrets.NewMemory()
	var opened []string
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: []mcpconfig.Server{{ID: "guarded", Type: mcpconfig.HTTP, URL: as.MCPURL()}}}); err != nil {
		t.Fatal(err)
	}
	em := newRecordingEmitter()
	p := New(Options{ConfigPath: path, Env: testEnv(), Emitter: em, Secrets: kv, SignIn: SignInOptions{Open: browser(t, &opened)}})
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)

	// Without a sign-in: "Needs sign-in", and no browser opened by itself.
	st := waitState(t, p, "guarded", events.StateNeedsSignIn, 10*time.Second)
	if st.SignIn == nil || st.SignIn.SignedIn || len(opened) != 0 {
		t.Fatalf("before signing in: %+v, browser opened %d times", st.SignIn, len(opened))
	}
	time.Sleep(300 * time.Millisecond)
	if n := len(as.Seen("/authorize")); n != 0 {
		t.Fatalf("%d authorization requests without the user", n)
	}

	// Sign in: the browser opens once, the row connects, tools run.
	var steps []oauth.Event
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := p.SignIn(ctx, "guarded", func(e oauth.Event) { steps = append(steps, e) }); err != nil {
		t.Fatalf("SignIn: %v", err)
	}
	st = waitState(t, p, "guarded", events.StateConnected, 10*time.Second)
	if len(opened) != 1 || st.SignIn == nil || !st.SignIn.SignedIn || st.SignIn.Issuer != as.Issuer() || st.SignIn.ExpiresAt == 0 || !st.SignIn.Renewable || st.SignIn.Account != "ada@example.com" {
		t.Fatalf("after signing in: %+v, browser opened %d times", st.SignIn, len(opened))
	}
	call := func() (string, error) {
		var text string
		err := p.Do(context.Background(), "guarded", func(ctx context.Context, s *Session) error {
			res, err := s.Client.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "whoami"}})
			if err == nil {
				text = resultText(res)
			}
			return err
		})
		return text, err
	}
	if text, err := call(); err != nil || text != "hello, signed-in user" {
		t.Fatalf("call after sign-in: %q, %v", text, err)
	}

	// Expired server-side: refreshed without the user.
	as.Expire()
	if text, err := call(); err != nil || text != "hello, signed-in user" {
		t.Fatalf("call after expiry: %q, %v", text, err)
	}
	if len(opened) != 1 {
		t.Errorf("the browser opened again for an expired token")
	}
	// The debugger's list goes on past the token: the first authenticated
	// request and the refresh, steps of the same sign-in.
	stepsOf := func() map[string]events.SignInStepPayload {
		out := map[string]events.SignInStepPayload{}
		for _, r := range em.all() {
			if st, ok := r.payload.(events.SignInStepPayload); ok {
				out[st.Step] = st
			}
		}
		return out
	}
	waitFor(t, 5*time.Second, "the request and refresh steps", func() bool {
		got := stepsOf()
		return got["request"].Status == "ok" && got["refresh"].Status == "ok"
	})
	if got := stepsOf(); got["refresh"].Attempt != got["token"].Attempt || got["refresh"].Seq <= got["request"].Seq || got["request"].Seq <= got["token"].Seq {
		t.Errorf("steps out of order: token %+v, request %+v, refresh %+v", got["token"], got["request"], got["refresh"])
	}

	// Nothing secret in any event or status.
	tok, _ := oauth.NewStore(kv).Tokens(tokenKey("guarded"))
	if tok == nil {
		t.Fatal("no tokens in the keychain")
	}
	for _, r := range em.all() {
		b, _ := json.Marshal(r.payload)
		for _, secret := range []string{tok.AccessToken, tok.RefreshToken, tok.Client.ClientSecret} {
			if secret != "" && strings.Contains(string(b), secret) {
				t.Fatalf("event %s carries a secret: %s", r.name, b)
			}
		}
	}
	for _, e := range steps {
		b, _ := json.Marshal(e)
		if strings.Contains(string(b), tok.RefreshToken) {
			t.Fatalf("step %q carries the refresh token", e.Title)
		}
	}
	for _, e := range p.Log().Entries() {
		b, _ := json.Marshal(e)
		if strings.Contains(string(b), tok.AccessToken) {
			t.Fatalf("the JSON-RPC log carries the access token: %s", b)
		}
	}

	// Sign out: revoked at the server, deleted here, "Needs sign-in".
	if err := p.SignOut(context.Background(), "guarded"); err != nil {
		t.Fatal(err)
	}
	if n := len(as.Seen("/revoke")); n == 0 {
		t.Error("sign-out revoked nothing though the server offers revocation")
	}
	if left, _ := oauth.NewStore(kv).Tokens(tokenKey("guarded")); left != nil {
		t.Error("tokens left in the keychain after signing out")
	}
	waitState(t, p, "guarded", events.StateNeedsSignIn, 10*time.Second)

	// Removing the server deletes its sign-in.
	if err := p.SignIn(ctx, "guarded", nil); err != nil {
		t.Fatal(err)
	}
	waitState(t, p, "guarded", events.StateConnected, 10*time.Second)
	if err := p.RemoveServer("guarded"); err != nil {
		t.Fatal(err)
	}
	if left, _ := oauth.NewStore(kv).Tokens(tokenKey("guarded")); left != nil {
		t.Error("tokens left in the keychain after removing the server")
	}
}

func TestRevokedServerSideNeedsSignIn(t *testing.T) {
	as := oauthServer(t, oauthtest.Options{NoRefresh: true})
	kv := secrets.NewMemory()
	var opened []string
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: []mcpconfig.Server{{ID: "g", Type: mcpconfig.HTTP, URL: as.MCPURL()}}}); err != nil {
		t.Fatal(err)
	}
	p := New(Options{ConfigPath: path, Env: testEnv(), Emitter: newRecordingEmitter(), Secrets: kv, SignIn: SignInOptions{Open: browser(t, &opened)}})
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	waitState(t, p, "g", events.StateNeedsSignIn, 10*time.Second)
	if err := p.SignIn(context.Background(), "g", nil); err != nil {
		t.Fatal(err)
	}
	waitState(t, p, "g", events.StateConnected, 10*time.Second)
	as.RevokeAll()
	// The next call fails, and the row says why without a restart by hand.
	err := p.Do(context.Background(), "g", func(ctx context.Context, s *Session) error {
		_, err := s.Client.ListTools(ctx, mcp.ListToolsRequest{})
		return err
	})
	if err == nil {
		t.Fatal("a call with a revoked token succeeded")
	}
	st := waitState(t, p, "g", events.StateNeedsSignIn, 10*time.Second)
	if st.Error == "" || len(opened) != 1 {
		t.Errorf("after a server-side revoke: %q, browser opened %d times", st.Error, len(opened))
	}
}

// TestPreRegisteredClientAndAuthNone: a server's oauth settings name a
// client registered beforehand (its secret in the keychain) and the
// scopes; "auth": "none" never signs in.
func TestPreRegisteredClientAndAuthNone(t *testing.T) {
	as := oauthServer(t, oauthtest.Options{NoRegistration: true, PreRegistered: map[string]string{"desk-client": "desk-secret-0123456789"}})
	kv := secrets.NewMemory()
	if err := kv.Set(mcpconfig.KeychainEntry("pre", mcpconfig.OAuthPair, mcpconfig.OAuthClientSecret), "desk-secret-0123456789"); err != nil {
		t.Fatal(err)
	}
	var opened []string
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	servers := []mcpconfig.Server{
		{ID: "pre", Type: mcpconfig.HTTP, URL: as.MCPURL(), OAuth: map[string]string{
			mcpconfig.OAuthClientID:     "desk-client",
			mcpconfig.OAuthClientSecret: mcpconfig.KeychainRef("pre", mcpconfig.OAuthPair, mcpconfig.OAuthClientSecret),
			mcpconfig.OAuthScopes:       "tools:read",
		}},
		{ID: "off", Type: mcpconfig.HTTP, URL: as.MCPURL(), Auth: mcpconfig.AuthNone},
	}
	if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: servers}); err != nil {
		t.Fatal(err)
	}
	p := New(Options{ConfigPath: path, Env: testEnv(), Emitter: newRecordingEmitter(), Secrets: kv, SignIn: SignInOptions{Open: browser(t, &opened)}})
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)

	// "none": the 401 is a failure like any other, never a sign-in.
	off := waitState(t, p, "off", events.StateFailed, 10*time.Second)
	if off.SignIn != nil {
		t.Errorf("a server with auth none offers a sign-in: %+v", off.SignIn)
	}
	if err := p.SignIn(context.Background(), "off", nil); err == nil {
		t.Error("signed in to a server with auth none")
	}

	waitState(t, p, "pre", events.StateNeedsSignIn, 10*time.Second)
	if err := p.SignIn(context.Background(), "pre", nil); err != nil {
		t.Fatalf("SignIn with the pre-registered client: %v", err)
	}
	waitState(t, p, "pre", events.StateConnected, 10*time.Second)
	auth := as.Seen("/authorize")
	if len(auth) != 1 || auth[0].Form.Get("client_id") != "desk-client" || auth[0].Form.Get("scope") != "tools:read" {
		t.Fatalf("authorization requests: %+v", auth)
	}
	if tok := as.Seen("/token"); len(tok) != 1 || tok[0].Auth != "Basic desk-client" {
		t.Fatalf("token requests: %+v", tok)
	}
}

// TestOAuthClientSecretGoesToTheKeychain: the form's client secret is
// stored in the keychain, the config file holds its reference, the form
// reads it back withheld, and removing the server deletes it.
func TestOAuthClientSecretGoesToTheKeychain(t *testing.T) {
	kv := secrets.NewMemory()
	p, svc, path, logged, _ := keychainPool(t, kv)
	const secret = "desk-secret-0123456789"
	spec := ServerSpec{ID: "linear", Type: mcpconfig.HTTP, URL: "http://127.0.0.1:1/mcp", Enabled: false, Auth: mcpconfig.AuthOAuth, OAuth: []SecretPair{
		{Key: mcpconfig.OAuthClientID, Value: "desk-client"},
		{Key: mcpconfig.OAuthScopes, Value: "read"},
		{Key: mcpconfig.OAuthClientSecret, Value: secret, Secret: true},
	}}
	view, err := svc.SaveServer("", spec)
	if err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(path)
	if strings.Contains(string(file), secret) || !strings.Contains(string(file), mcpconfig.KeychainRef("linear", mcpconfig.OAuthPair, mcpconfig.OAuthClientSecret)) {
		t.Fatalf("config file: %s", file)
	}
	if v, _ := kv.Get(mcpconfig.KeychainEntry("linear", mcpconfig.OAuthPair, mcpconfig.OAuthClientSecret)); v != secret {
		t.Fatalf("keychain holds %q", v)
	}
	got := map[string]SecretPair{}
	for _, pr := range view.Spec.OAuth {
		got[pr.Key] = pr
	}
	if s := got[mcpconfig.OAuthClientSecret]; !s.Keep || s.Value != "" || got[mcpconfig.OAuthClientID].Value != "desk-client" || view.Spec.Auth != mcpconfig.AuthOAuth {
		t.Fatalf("the form reads back %+v", view.Spec.OAuth)
	}
	// Saved again with the secret kept: still there.
	if _, err := svc.SaveServer("linear", view.Spec); err != nil {
		t.Fatal(err)
	}
	if v, _ := kv.Get(mcpconfig.KeychainEntry("linear", mcpconfig.OAuthPair, mcpconfig.OAuthClientSecret)); v != secret {
		t.Fatalf("after a save that kept it, the keychain holds %q", v)
	}
	if err := p.RemoveServer("linear"); err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Get(mcpconfig.KeychainEntry("linear", mcpconfig.OAuthPair, mcpconfig.OAuthClientSecret)); err == nil {
		t.Error("the client secret outlived its server")
	}
	if strings.Contains(logged.String(), secret) {
		t.Error("the log holds the client secret")
	}
}

// TestSignInStepByStep: the debugger's step by step waits before each
// step until Continue, and says which step waits.
func TestSignInStepByStep(t *testing.T) {
	as := oauthServer(t, oauthtest.Options{})
	var opened []string
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: []mcpconfig.Server{{ID: "s", Type: mcpconfig.HTTP, URL: as.MCPURL()}}}); err != nil {
		t.Fatal(err)
	}
	em := newRecordingEmitter()
	p := New(Options{ConfigPath: path, Env: testEnv(), Emitter: em, Secrets: secrets.NewMemory(), SignIn: SignInOptions{Open: browser(t, &opened)}})
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	svc := NewService(p, nil)
	waitState(t, p, "s", events.StateNeedsSignIn, 10*time.Second)

	done := make(chan error, 1)
	go func() { done <- svc.SignInStepByStep("s") }()
	waiting := func() []string {
		var out []string
		for _, r := range em.all() {
			if st, ok := r.payload.(events.SignInStepPayload); ok && st.Status == "waiting" {
				out = append(out, st.Step)
			}
		}
		return out
	}
	for want := 1; want <= 5; want++ {
		waitFor(t, 5*time.Second, "a waiting step", func() bool { return len(waiting()) >= want })
		if want == 4 && len(as.Seen("/authorize")) != 0 {
			t.Fatal("the authorization request ran before Continue")
		}
		svc.ContinueSignIn("s")
	}
	if err := <-done; err != nil {
		t.Fatalf("step by step: %v", err)
	}
	if got := strings.Join(waiting(), ","); got != "resource-metadata,server-metadata,client,authorize,token" {
		t.Errorf("waited before %s", got)
	}
	waitState(t, p, "s", events.StateConnected, 10*time.Second)
}
