package mcppool

import (
	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// ServerView is one configured server as the frontend sees it: its settings
// (with secret values withheld) and its live status.
type ServerView struct {
	Spec   ServerSpec                 `json:"spec"`
	Status events.ServerStatusPayload `json:"status"`
}

// ServerSpec is the editable form of one server. Plain env and header values
// are sent as they are; secrets are write-only (see SecretPair): a secret
// read from the backend has an empty Value and Keep set, and saving it with
// Keep still set keeps the stored value.
type ServerSpec struct {
	ID      string              `json:"id"`
	Type    mcpconfig.Transport `json:"type"`
	Command string              `json:"command"`
	Args    []string            `json:"args"`
	Env     []SecretPair        `json:"env"`
	Cwd     string              `json:"cwd"`
	URL     string              `json:"url"`
	Headers []SecretPair        `json:"headers"`
	// Auth is how a remote server is authorized: "oauth" (sign in when it
	// asks; also "") or "none" (the headers alone).
	Auth string `json:"auth" ts_type:"''|'oauth'|'none'"`
	// OAuth are the sign-in settings: clientId, clientSecret (a secret,
	// kept in the keychain), scopes, clientMetadataUrl.
	OAuth          []SecretPair `json:"oauth"`
	Enabled        bool         `json:"enabled"`
	TimeoutMs      int          `json:"timeoutMs"`
	MaxConcurrency int          `json:"maxConcurrency"`
	// MaxMessageBytes is the largest message the server may send (0: the
	// default, 32 MB).
	MaxMessageBytes int    `json:"maxMessageBytes"`
	ProtocolVersion string `json:"protocolVersion"`
	// Roots are the folders the server may work in (absolute paths).
	Roots []string `json:"roots,omitempty"`
}

// SecretPair is one env variable or header. A plain value is read and
// written as it is. A secret (Secret set) is kept in the OS keychain: read
// from the backend it has an empty Value and Keep set (RevealSecret fetches
// it on demand); written with Secret set, its value goes to the keychain
// and the config file holds a reference.
type SecretPair struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	// Keep keeps the stored value (of a secret, whose value was withheld).
	Keep bool `json:"keep"`
	// Secret: read, the value is withheld; written, it goes to the keychain.
	Secret bool `json:"secret,omitempty"`
	// InFile (read only) says a secret is still written in plain text in the
	// config file; saving it with Secret set moves it to the keychain.
	InFile bool `json:"inFile,omitempty"`
}
