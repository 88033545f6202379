package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/oauth"
)

const authUsage = `usage: mcpdesk auth login|logout|status SERVER [flags]
  SERVER is a server id of the config (the window's servers) or a URL.
  login   signs in (OAuth) in the browser, or with --authorize-with http
  logout  revokes the tokens where the server allows, then deletes them
  status  prints the sign-in as JSON; exits 1 when not signed in
Tokens live in the OS keychain only; the window and the command line share them.`

func runAuth(ctx context.Context, g globals, args []string, env Env) int {
	if len(args) == 0 {
		return usageError(env, "%s", authUsage)
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "login", "logout", "status":
	case "help", "-h", "--help":
		fmt.Fprintln(env.Stderr, authUsage)
		return exitOK
	default:
		return usageError(env, "unknown auth command %q\n%s", sub, authUsage)
	}
	var auth authFlags
	var configFile string
	fs := newFlags("auth "+sub, &g, env)
	fs.StringVar(&configFile, "config", "", "config file holding SERVER (default: the data folder's)")
	auth.register(fs)
	// SERVER may come before the flags (mcpdesk auth login gh --scope …).
	if len(rest) > 1 && !strings.HasPrefix(rest[0], "-") {
		rest = append(rest[1:len(rest):len(rest)], rest[0])
	}
	if err := fs.Parse(rest); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		return usageError(env, "%s", authUsage)
	}
	srv, code := authTarget(env, g, configFile, fs.Arg(0))
	if code != exitOK {
		return code
	}
	kv := providerSecrets()
	store := oauth.NewStore(kv)
	key := tokenKey(srv)
	c := &oauth.Client{Store: store, Name: "MCP Desk", MetadataURL: auth.metadataURL, HTTP: &http.Client{Timeout: 30 * time.Second}}

	switch sub {
	case "status":
		t, err := store.Tokens(key)
		if err != nil {
			return fail(env, err)
		}
		_ = printJSON(env, statusOf(srv, t))
		if t == nil {
			fmt.Fprintf(env.Stderr, "mcpdesk: not signed in to %s: run `mcpdesk auth login %s`\n", srv.URL, fs.Arg(0))
			return exitFail
		}
		return exitOK
	case "logout":
		t, err := store.Tokens(key)
		if err != nil {
			return fail(env, err)
		}
		if t != nil {
			if err := c.Revoke(ctx, t); err != nil {
				fmt.Fprintf(env.Stderr, "mcpdesk: the server did not revoke the tokens (%v); deleting them here anyway\n", err)
			}
		}
		if err := store.DeleteTokens(key); err != nil {
			return fail(env, err)
		}
		_ = printJSON(env, map[string]any{"server": srv.URL, "signedIn": false})
		return exitOK
	}

	// login: the server's challenge first (its scope), then the flow.
	ch := oauth.Challenge{}
	if req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"ping"}`)); err == nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if resp, err := c.HTTP.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusUnauthorized {
				ch = oauth.ParseChallenge(resp.Header)
			}
		}
	}
	authorize, err := auth.authorizer(env)
	if err != nil {
		return usageError(env, "%v", err)
	}
	tr := authorize(srv, http.DefaultTransport).(*oauth.Transport)
	o := tr.Options
	o.Challenge, o.Key = ch, key
	o.Observer = func(e oauth.Event) {
		if e.Status == "failed" {
			fmt.Fprintf(env.Stderr, "mcpdesk: %s: %s\n", e.Title, e.Detail)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	t, err := c.SignIn(ctx, o)
	if err != nil {
		return fail(env, err)
	}
	_ = printJSON(env, statusOf(srv, t))
	return exitOK
}

// authTarget is the server named by arg: a URL, or a config server's id.
func authTarget(env Env, g globals, configFile, arg string) (mcpconfig.Server, int) {
	if u, err := url.Parse(arg); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return mcpconfig.Server{ID: "cli", Type: mcpconfig.HTTP, URL: arg}, exitOK
	}
	srv, code := inspectTarget(env, g, configFile, arg, "", "", nil, nil, nil)
	if code != exitOK {
		return srv, code
	}
	if k := srv.Effective(); k != mcpconfig.HTTP && k != mcpconfig.SSE {
		return srv, usageError(env, "server %q runs as a program (stdio): only remote servers sign in", arg)
	}
	return srv, exitOK
}

// authStatus is what status and login print: never a token.
type authStatus struct {
	Server    string `json:"server"`
	SignedIn  bool   `json:"signedIn"`
	Issuer    string `json:"issuer,omitempty"`
	Account   string `json:"account,omitempty"`
	Scope     string `json:"scope,omitempty"`
	ExpiresAt string `json:"expiresAt,omitempty"`
	Renewable bool   `json:"renewable"`
	Client    string `json:"client,omitempty"`
}

func statusOf(srv mcpconfig.Server, t *oauth.Tokens) authStatus {
	s := authStatus{Server: srv.URL}
	if t == nil {
		return s
	}
	s.SignedIn, s.Issuer, s.Account, s.Scope, s.Renewable, s.Client = true, t.Issuer, t.Account, t.Scope, t.RefreshToken != "", t.Client.Kind
	if !t.Expiry.IsZero() {
		s.ExpiresAt = t.Expiry.UTC().Format(time.RFC3339)
	}
	return s
}
