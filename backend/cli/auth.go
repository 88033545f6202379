package cli

import (
	"flag"
	"fmt"
	"net/http"
	"os/exec"
	"runtime"
	"strings"

	"mcpdesk/backend/childproc"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/oauth"
	"mcpdesk/backend/secrets"
)

// authFlags are the OAuth flags of inspect and auth, named as the
// official inspector's CLI names them where it has them.
type authFlags struct {
	clientID, clientSecret, metadataURL, callbackURL, scope, with string
	ephemeral                                                     bool
}

func (a *authFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.clientID, "client-id", "", "OAuth: a client ID registered with the server's authorization server")
	fs.StringVar(&a.clientSecret, "client-secret", "", "OAuth: the secret of --client-id")
	fs.StringVar(&a.metadataURL, "client-metadata-url", "", "OAuth: the HTTPS URL of a client ID metadata document to use as client_id where the server takes one")
	fs.StringVar(&a.callbackURL, "callback-url", "", "OAuth: the redirect URI (default http://127.0.0.1:RANDOM/callback)")
	fs.StringVar(&a.scope, "scope", "", "OAuth: the scopes to ask for, space-separated (default: what the server says)")
	fs.StringVar(&a.with, "authorize-with", "browser", "OAuth: browser (open the sign-in page and wait on 127.0.0.1), or http (request the authorization URL and take the code from its redirect: for automation against an authorization server that approves at once)")
	fs.BoolVar(&a.ephemeral, "ephemeral", false, "OAuth: keep the sign-in for this run only (nothing read from or written to the keychain)")
}

// tokenKey names a server's tokens in the keychain: its id, or its URL
// for a server named by --url.
func tokenKey(srv mcpconfig.Server) string {
	if srv.ID == "cli" {
		if c, err := oauth.Canonical(srv.URL); err == nil {
			return "url:" + c
		}
		return "url:" + srv.URL
	}
	return "server:" + srv.ID
}

// authorizer returns how inspect authorizes a remote server's requests:
// stored tokens, refreshed; a sign-in when the server asks for one.
func (a *authFlags) authorizer(env Env) (mcppool.Authorizer, error) {
	switch a.with {
	case "browser", "http":
	default:
		return nil, fmt.Errorf("--authorize-with must be browser or http, not %q", a.with)
	}
	var kv oauth.KV = secrets.NewMemory()
	if !a.ephemeral {
		kv = providerSecrets()
	}
	return func(srv mcpconfig.Server, base http.RoundTripper) http.RoundTripper {
		hc := &http.Client{Transport: base}
		c := &oauth.Client{HTTP: hc, Store: oauth.NewStore(kv), Name: "MCP Desk", MetadataURL: a.metadataURL}
		o := oauth.SignIn{Key: tokenKey(srv), ServerURL: srv.URL}
		if a.clientID != "" {
			o.Client = &oauth.Registration{ClientID: a.clientID, ClientSecret: a.clientSecret}
		}
		if a.scope != "" {
			o.Scopes = strings.Fields(a.scope)
		}
		if a.with == "http" {
			o.Authorizer = oauth.Direct{HTTP: hc, RedirectURI: a.callbackURL}
		} else {
			o.Authorizer = oauth.Loopback{Open: func(u string) error {
				fmt.Fprintf(env.Stderr, "Sign in to %s in your browser. If it did not open, visit:\n%s\n", srv.URL, u)
				_ = openBrowser(u)
				return nil
			}}
		}
		return &oauth.Transport{Base: base, OAuth: c, Options: o, Interactive: true}
	}, nil
}

// openBrowser starts the system browser on u without waiting for it.
func openBrowser(u string) error {
	var name string
	var args []string
	switch runtime.GOOS {
	case "darwin":
		name, args = "open", []string{u}
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler", u}
	default:
		name, args = "xdg-open", []string{u}
	}
	cmd := exec.Command(name, args...)
	if err := childproc.Start(cmd); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
