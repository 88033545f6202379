package mcpconfig

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
)

// A server's identity (SPEC G1) is what a standing approval of it is bound
// to: what runs, or where the app connects. It leaves out what may change
// without changing the server — a rotated key, a timeout, the tools
// switched off for models — and it never holds a secret, so that it can be
// stored and shown.

// loadEnv names the environment variables that change which code a program
// runs (a preloaded library, a Node option that requires a file, a module
// path). Their values belong to the identity; other variables count by
// name only, as their values are often credentials.
var loadEnv = []string{
	"BASH_ENV", "CLASSPATH", "DYLD_FALLBACK_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH", "DYLD_INSERT_LIBRARIES",
	"DYLD_LIBRARY_PATH", "ENV", "JAVA_TOOL_OPTIONS", "LD_AUDIT", "LD_LIBRARY_PATH", "LD_PRELOAD",
	"NODE_OPTIONS", "NODE_PATH", "PATH", "PERL5LIB", "PERL5OPT", "PYTHONHOME", "PYTHONPATH",
	"PYTHONSTARTUP", "RUBYLIB", "RUBYOPT",
}

// IdentityFacts describe a server as far as approving it goes, with every
// secret left out: they are safe to store and to show.
type IdentityFacts struct {
	Transport Transport `json:"transport"`
	// Command is the command line or URL as Summary shows it (secrets
	// masked), for people; Hash leaves it out, as the fields below hold
	// the same facts.
	Command string `json:"command"`
	// Program is the command that runs (stdio).
	Program string `json:"program,omitempty"`
	// Args are the arguments, secret-looking values masked.
	Args []string `json:"args,omitempty"`
	// Env are the names of the environment variables set, sorted.
	Env []string `json:"env,omitempty"`
	// LoadEnv holds, for each variable that changes which code runs
	// (NODE_OPTIONS, LD_PRELOAD…), a short digest of its value.
	LoadEnv map[string]string `json:"loadEnv,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	// URL is the server's URL without user info and fragment, the values
	// of secret-looking query parameters and key-like path segments masked.
	URL string `json:"url,omitempty"`
}

// Facts returns the server's identity facts. Values that can be rotated
// without changing the server — an env value, a header, a token in the
// URL's query or user info, a secret-looking argument — are left out.
func (s Server) Facts() IdentityFacts {
	f := IdentityFacts{Transport: s.Effective(), Command: s.Summary()}
	if f.Transport == Stdio {
		f.Program, f.Cwd = s.Command, s.Cwd
		for i := range s.Args {
			a, _ := maskArg(s.Args, i)
			f.Args = append(f.Args, a)
		}
		f.Env = sortedKeys(s.Env)
		for _, k := range f.Env {
			if isLoadEnv(k) {
				if f.LoadEnv == nil {
					f.LoadEnv = map[string]string{}
				}
				sum := sha256.Sum256([]byte(s.Env[k]))
				f.LoadEnv[k] = hex.EncodeToString(sum[:6])
			}
		}
		return f
	}
	f.URL = identityURL(s.URL)
	f.Command = f.URL
	return f
}

// Identity returns a stable hash (SHA-256, hex) of the server's identity
// facts: it changes when the transport, the command, an argument, the set
// of env variables, a code-loading variable's value, the cwd or the URL
// (host, port, path, query names) changes, and not when a secret is
// rotated.
func (s Server) Identity() string {
	return s.Facts().Hash()
}

// Hash returns the SHA-256 (hex) of the facts' JSON, Command left out.
func (f IdentityFacts) Hash() string {
	f.Command = ""
	b, _ := json.Marshal(f) // map keys sorted: stable
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func isLoadEnv(name string) bool {
	up := strings.ToUpper(name)
	return slices.Contains(loadEnv, up) || strings.HasPrefix(up, "DYLD_") || strings.HasPrefix(up, "LD_")
}

// identityURL returns raw without user info and fragment, with the values
// of secret-looking query parameters and the path segments that look like
// keys replaced by ***; scheme and host are lower-cased. An unparseable URL
// is kept up to its query.
func identityURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		if i := strings.IndexAny(raw, "@?#"); i >= 0 {
			return raw[:i]
		}
		return raw
	}
	c := *u
	c.User, c.Fragment, c.RawFragment = nil, "", ""
	c.Scheme, c.Host = strings.ToLower(c.Scheme), strings.ToLower(c.Host)
	// Some services put the key in the path (…/mcp/s/<key>/mcp): a
	// segment that looks like a key is masked like a query secret.
	if parts := strings.Split(c.Path, "/"); slices.ContainsFunc(parts, looksLikeKey) {
		for i, p := range parts {
			if looksLikeKey(p) {
				parts[i] = mask
			}
		}
		c.Path, c.RawPath = strings.Join(parts, "/"), ""
	}
	if c.RawQuery != "" {
		c.RawQuery = maskQuery(c.RawQuery)
	}
	return strings.ReplaceAll(c.String(), "%2A%2A%2A", mask)
}
