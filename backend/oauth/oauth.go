// Package oauth signs MCP Desk in to remote MCP servers that require
// OAuth 2.1 (SPEC A15, the MCP authorization specification): discovery
// from a 401 (RFC 9728 protected-resource metadata, RFC 8414 and OpenID
// authorization-server metadata, the 2025-03-26 fallbacks), the client's
// identity (a client ID metadata document, a pre-registered client, or
// dynamic registration per RFC 7591), the authorization-code flow with
// PKCE S256, the resource indicator (RFC 8707) and the iss response
// parameter (RFC 9207), token refresh and scope step-up.
//
// What comes from libraries: golang.org/x/oauth2 builds the PKCE verifier
// and challenge and performs the code exchange with the token-endpoint
// authentication the server asks for. What is written here, and why: the
// MCP discovery chain and its validation (x/oauth2 knows endpoints, not
// how to find them), client registration, the iss check, and the refresh
// request, because x/oauth2's refresh cannot carry RFC 8707's resource
// parameter that MCP requires on every token request. mcp-go's
// client/transport OAuth handler was not used: it holds one server's
// flow inside its transport, without client ID metadata documents, the
// iss parameter, step-up, or a place to observe each step (the debugger).
//
// The package never imports the Wails runtime nor the pool: a Transport
// (an http.RoundTripper) adds the bearer token to a server's requests
// and a Flow signs in; what they store goes through a Store (the OS
// keychain in the app); what they do is reported to an Observer.
package oauth

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ResourceMetadata is an MCP server's protected-resource metadata (RFC 9728).
type ResourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers,omitempty"`
	ScopesSupported      []string `json:"scopes_supported,omitempty"`
	BearerMethods        []string `json:"bearer_methods_supported,omitempty"`
}

// ServerMetadata is an authorization server's metadata (RFC 8414, OpenID
// Connect Discovery).
type ServerMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint,omitempty"`
	RevocationEndpoint                string   `json:"revocation_endpoint,omitempty"`
	ScopesSupported                   []string `json:"scopes_supported,omitempty"`
	ResponseTypesSupported            []string `json:"response_types_supported,omitempty"`
	GrantTypesSupported               []string `json:"grant_types_supported,omitempty"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported,omitempty"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported,omitempty"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported,omitempty"`
	AuthorizationResponseIssSupported bool     `json:"authorization_response_iss_parameter_supported,omitempty"`
	// Default is true when no metadata was found and the 2025-03-26
	// default endpoints (/authorize, /token, /register) are used.
	Default bool `json:"-"`
}

// supports reports whether list names v; an absent list supports nothing.
func supports(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Token-endpoint authentication methods (RFC 7591 §2).
const (
	AuthNone   = "none"
	AuthBasic  = "client_secret_basic"
	AuthPost   = "client_secret_post"
	offlineAcc = "offline_access"
)

// Registration is how MCP Desk is known to one authorization server.
type Registration struct {
	// Issuer is the authorization server the client belongs to; a client
	// registered with one issuer is never sent to another.
	Issuer       string `json:"issuer"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	// AuthMethod is the token-endpoint authentication: none,
	// client_secret_basic or client_secret_post.
	AuthMethod string `json:"token_endpoint_auth_method,omitempty"`
	// RedirectURIs are the URIs registered (dynamic registration).
	RedirectURIs []string `json:"redirect_uris,omitempty"`
	// Kind says where the identity came from: "cimd", "preregistered" or "dynamic".
	Kind string `json:"kind"`
}

// Tokens are what the token endpoint issued for one server.
type Tokens struct {
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Scope        string    `json:"scope,omitempty"`
	// Issuer and Resource bind the tokens to where they came from and
	// what they are for.
	Issuer   string `json:"issuer,omitempty"`
	Resource string `json:"resource,omitempty"`
	// TokenEndpoint and the client are kept so a refresh needs no discovery.
	TokenEndpoint string `json:"token_endpoint,omitempty"`
	// Account names the signed-in user when the server said (an OpenID
	// ID token's email or name); shown, never trusted.
	Account string `json:"account,omitempty"`
	// Client is the identity the tokens were issued to; a refresh
	// authenticates as it.
	Client Registration `json:"client"`
}

// expiresWithin reports whether the access token expires within d (false
// when the server gave no lifetime).
func (t *Tokens) expiresWithin(d time.Duration, now time.Time) bool {
	return !t.Expiry.IsZero() && now.Add(d).After(t.Expiry)
}

// Error is a sign-in that cannot go on, in words a user can act on.
type Error struct {
	// Step names the step that failed (see the Step constants).
	Step string
	// Msg says what was wrong and, where it helps, what to do.
	Msg string
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

func fail(step string, err error, format string, args ...any) *Error {
	return &Error{Step: step, Msg: fmt.Sprintf(format, args...), Err: err}
}

// ErrNeedsSignIn means the server requires a sign-in the caller did not
// allow to start (a background connection): the user signs in from the
// server's row or with `mcpdesk auth login`.
var ErrNeedsSignIn = errors.New("this server needs you to sign in")

// scopeString joins scopes the way OAuth sends them.
func scopeString(s []string) string { return strings.Join(s, " ") }
