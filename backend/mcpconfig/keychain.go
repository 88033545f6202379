package mcpconfig

import (
	"maps"
	"strings"
)

// A server's env value or header value may live in the OS keychain instead
// of mcp.config.json. The file then holds a reference in place of the
// value:
//
//	"env":     { "API_KEY": "${keychain:github/env/API_KEY}" }
//	"headers": { "Authorization": "${keychain:linear/header/Authorization}" }
//
// The reference is the whole value and names the server, the kind (env or
// header) and the variable it stands for: KeychainRef builds it, and a
// reference is only ever compared with the one KeychainRef builds for the
// place it is in — never parsed — so a file cannot point one server at
// another server's secret (or at a provider's API key). The keychain entry
// behind it is KeychainEntry, in MCP Desk's keychain service; the value is
// used as it is stored (no ${VAR} expansion).

// PairKind says whether a name/value pair is an environment variable of a
// stdio server or an HTTP header of a remote one.
type PairKind string

// The pair kinds.
const (
	EnvPair    PairKind = "env"
	HeaderPair PairKind = "header"
	// OAuthPair is a value of a remote server's oauth settings (the
	// pre-registered client's secret).
	OAuthPair PairKind = "oauth"
)

// The keys of a server's oauth settings.
const (
	OAuthClientID     = "clientId"
	OAuthClientSecret = "clientSecret"
	OAuthScopes       = "scopes"
	OAuthMetadataURL  = "clientMetadataUrl"
)

// OAuthKeys lists them.
var OAuthKeys = []string{OAuthClientID, OAuthClientSecret, OAuthScopes, OAuthMetadataURL}

// The values of Auth.
const (
	AuthOAuth = "oauth"
	AuthNone  = "none"
)

// keychainRefPrefix starts every keychain reference.
const keychainRefPrefix = "${keychain:"

// keychainEntryPrefix starts the keychain entry of every server secret, so
// that server secrets never share a name with other entries of the app
// ("provider/…").
const keychainEntryPrefix = "mcp-server/"

// KeychainRef returns the reference that stands in the config for the
// value of name (an env variable or header, by kind) of server.
func KeychainRef(server string, kind PairKind, name string) string {
	return keychainRefPrefix + refBody(server, kind, name) + "}"
}

// KeychainEntry returns the name of the keychain entry that holds the value
// of name (an env variable or header, by kind) of server.
func KeychainEntry(server string, kind PairKind, name string) string {
	return keychainEntryPrefix + refBody(server, kind, name)
}

func refBody(server string, kind PairKind, name string) string {
	return server + "/" + string(kind) + "/" + name
}

// MentionsKeychain reports whether v uses the keychain syntax at all. A
// value that does but is not exactly the KeychainRef of its place is an
// error when the server starts.
func MentionsKeychain(v string) bool { return strings.Contains(v, keychainRefPrefix) }

// LooksSecret reports whether a literal value of an env variable or header
// is a secret that belongs in the keychain: by its name (*KEY*, *TOKEN*,
// *SECRET*, *PASSWORD*, AUTH*, …; Authorization and Cookie headers) or by
// its look (a well-known key format, a JSON Web Token, a long random
// string). Empty values, keychain references and values that only refer to
// environment variables ("${GITHUB_TOKEN}", "Bearer ${TOKEN}") hold no
// secret themselves.
func LooksSecret(kind PairKind, name, value string) bool {
	if MentionsKeychain(value) {
		return false
	}
	if kind == HeaderPair {
		return secretHeaderValue(name, value)
	}
	if kind == OAuthPair {
		return name == OAuthClientSecret && value != "" && !onlyRefs(value)
	}
	return secretEnv(name, value)
}

// KeychainEntries returns the keychain entries s refers to in its env and
// headers: those whose reference is exactly the one built for its place.
func (s Server) KeychainEntries() []string {
	var out []string
	for _, k := range sortedKeys(s.Env) {
		if s.Env[k] == KeychainRef(s.ID, EnvPair, k) {
			out = append(out, KeychainEntry(s.ID, EnvPair, k))
		}
	}
	for _, k := range sortedKeys(s.Headers) {
		if s.Headers[k] == KeychainRef(s.ID, HeaderPair, k) {
			out = append(out, KeychainEntry(s.ID, HeaderPair, k))
		}
	}
	if s.OAuth[OAuthClientSecret] == KeychainRef(s.ID, OAuthPair, OAuthClientSecret) {
		out = append(out, KeychainEntry(s.ID, OAuthPair, OAuthClientSecret))
	}
	return out
}

// WithSecretsReferenced returns s with every literal env or header value
// that LooksSecret replaced by its KeychainRef, and the values to store
// (keychain entry → value). s itself is not changed; a server without
// literal secrets comes back as it is with an empty map.
func (s Server) WithSecretsReferenced() (Server, map[string]string) {
	put := map[string]string{}
	s.Env = referenceLiterals(s.ID, EnvPair, s.Env, put)
	s.Headers = referenceLiterals(s.ID, HeaderPair, s.Headers, put)
	s.OAuth = referenceLiterals(s.ID, OAuthPair, s.OAuth, put)
	return s, put
}

// referenceLiterals returns pairs (of kind, of server) with its literal
// secrets replaced by references, adding their values to put; pairs itself
// is returned when nothing is secret.
func referenceLiterals(server string, kind PairKind, pairs map[string]string, put map[string]string) map[string]string {
	var out map[string]string
	for _, k := range sortedKeys(pairs) {
		v := pairs[k]
		if !LooksSecret(kind, k, v) {
			continue
		}
		if out == nil {
			out = maps.Clone(pairs)
		}
		out[k] = KeychainRef(server, kind, k)
		put[KeychainEntry(server, kind, k)] = v
	}
	if out == nil {
		return pairs
	}
	return out
}
