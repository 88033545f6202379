// Package mcpconfig reads, validates, imports and writes MCP server
// configuration files. It knows the app's own mcp.config.json (Cursor's
// "mcpServers" format plus our optional fields) and the files of Claude
// Desktop, Cursor, VS Code, Windsurf and Cline. It does no networking and
// starts no processes.
package mcpconfig

import "encoding/json"

// Transport is how the app talks to one server.
type Transport string

// The transports.
const (
	Stdio Transport = "stdio"
	HTTP  Transport = "http" // Streamable HTTP
	SSE   Transport = "sse"  // legacy HTTP+SSE
)

// Server is one configured MCP server. Its JSON form is one value of the
// "mcpServers" object; ID is the key it is stored under.
type Server struct {
	ID string `json:"-"`

	// Type is optional in files: a server with a URL defaults to HTTP, one
	// with a command to stdio. Effective returns the resolved value.
	Type Transport `json:"type,omitempty"`

	// stdio
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`

	// http / sse
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Auth is how a remote server is authorized: "" or "oauth" signs in
	// with OAuth when the server asks (issue 14); "none" sends requests as
	// they are (the headers alone).
	Auth string `json:"auth,omitempty"`
	// OAuth configures the sign-in, keys of OAuthKeys: a client
	// registered beforehand ("clientId", "clientSecret" — in the keychain
	// like a header), the scopes to ask for ("scopes", space-separated)
	// and a client ID metadata document ("clientMetadataUrl").
	OAuth map[string]string `json:"oauth,omitempty"`

	// Our own optional fields.
	Enabled         *bool    `json:"enabled,omitempty"`
	TimeoutMs       int      `json:"timeoutMs,omitempty"`
	MaxConcurrency  int      `json:"maxConcurrency,omitempty"`
	AllowTools      []string `json:"allowTools,omitempty"`
	DenyTools       []string `json:"denyTools,omitempty"`
	ProtocolVersion string   `json:"protocolVersion,omitempty"`
	// Roots are the folders the server may work in (SPEC A12), absolute
	// paths, offered to it on roots/list.
	Roots []string `json:"roots,omitempty"`
	// MaxMessageBytes is the largest message the server may send, in bytes
	// (0: DefaultMaxMessageBytes). A server that sends a larger one is
	// stopped until the user restarts it.
	MaxMessageBytes int `json:"maxMessageBytes,omitempty"`

	// Extra keeps fields this version does not know, so that writing a file
	// back never loses what another tool put there.
	Extra map[string]json.RawMessage `json:"-"`
}

// Config is a whole mcp.config.json: servers in file order.
type Config struct {
	Servers []Server
	// Extra keeps unknown top-level keys for a lossless round trip.
	Extra map[string]json.RawMessage
}

// Default values applied when a server leaves a field out.
const (
	DefaultTimeoutMs      = 60_000
	DefaultMaxConcurrency = 4
)

// Limits of maxMessageBytes: the default, and the range a file may set.
const (
	DefaultMaxMessageBytes = 32 << 20
	MinMaxMessageBytes     = 64 << 10
	MaxMaxMessageBytes     = 1 << 30
)
