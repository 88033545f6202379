package mcpconfig

import (
	"encoding/json"
	"errors"
	"math"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"mcpdesk/backend/usererr"
)

// idShape is what a server id must look like: it names the server in
// tool names (server__tool), logs and the UI. isValidID checks it by the
// characters: as a regular expression, {0,63} compiles to 63 copies of
// the class.
const idShape = `^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`

// idChars are the characters of a server id.
const idChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"

// isValidID reports whether id has idShape.
func isValidID(id string) bool {
	return id != "" && len(id) <= 64 && strings.Trim(id, idChars) == "" && !strings.ContainsRune("._-", rune(id[0]))
}

// protocolPattern is the shape of an MCP protocol revision.
var protocolPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// maxTimeoutMs keeps timeoutMs well inside time.Duration (about 24 days).
const maxTimeoutMs = math.MaxInt32

// serverFields are the JSON names of Server's own fields.
var serverFields = []string{
	"type", "command", "args", "env", "cwd", "url", "headers", "auth", "oauth", "enabled",
	"timeoutMs", "maxConcurrency", "allowTools", "denyTools", "protocolVersion", "roots",
	"maxMessageBytes",
}

// Validate checks a configuration built in code (or decoded elsewhere) by
// the same rules Parse applies to a file; path only names the file in
// errors. It returns nil, one *Error, or several joined with errors.Join.
func Validate(path string, cfg *Config) error {
	p := &problems{file: path}
	if cfg == nil {
		p.add(-1, "", "", "no configuration given")
		return p.err()
	}
	validate(p, cfg, nil, true)
	return p.err()
}

// noCommand is the problem of a stdio server without a program.
const noCommand = `missing: a stdio server needs "command", the program to start`

// validate records every problem in cfg. locs (nil for a Config built in
// code) gives positions and says which servers already have type errors;
// checkIDs is false for imports, whose ids are made valid afterwards.
func validate(p *problems, cfg *Config, locs *locations, checkIDs bool) {
	at := func(int, string) int { return -1 }
	bad := func(int, string) bool { return false }
	if locs != nil {
		at, bad = locs.offset, locs.bad
	}
	for _, k := range sortedKeys(cfg.Extra) {
		switch {
		case k == "mcpServers":
			p.add(at(-1, k), "", k, "must not be in Config.Extra: it is written from Config.Servers")
		case strings.EqualFold(k, "mcpServers"):
			p.add(at(-1, k), "", k, `unknown field; did you mean "mcpServers"? (names are case-sensitive)`).
				with(usererr.ConfigUnknownField, usererr.Params{"suggestion": "mcpServers"})
		case !json.Valid(cfg.Extra[k]):
			p.add(at(-1, k), "", k, "the value kept in Config.Extra is not valid JSON")
		}
	}
	first := map[string]int{}
	for i, s := range cfg.Servers {
		if j, dup := first[s.ID]; dup {
			p.add(at(i, ""), s.ID, "", "this server id is used twice (servers %d and %d); server ids must be unique", j+1, i+1).
				with(usererr.ConfigServerTwice, usererr.Params{"first": j + 1})
		} else {
			first[s.ID] = i
		}
		validateServer(p, s, func(field string) int { return at(i, field) }, func(field string) bool { return bad(i, field) }, checkIDs)
	}
}

// validateServer records the problems of one server.
// Fields for which bad reports true already have a type error and are
// not checked again.
func validateServer(p *problems, s Server, at func(field string) int, bad func(field string) bool, checkID bool) {
	id := s.ID
	if checkID && !isValidID(id) {
		p.add(at(""), id, "", "invalid server id: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (%s)", idShape).with(usererr.ConfigBadID, nil)
	}
	validType := true
	switch s.Type {
	case "", Stdio, HTTP, SSE:
	default:
		validType = false
		p.add(at("type"), id, "type", "must be stdio, http or sse, not %q", s.Type).with(usererr.ConfigBadType, usererr.Params{"type": s.Type})
	}
	switch {
	case bad("type") || bad("command") || bad("url"):
	case s.Command != "" && s.URL != "":
		p.add(at("url"), id, "url", `set either "command" (to start a local program) or "url" (to connect to a remote server), not both`).with(usererr.ConfigCommandAndURL, nil)
	case !validType:
	case s.Effective() == Stdio && strings.TrimSpace(s.Command) == "":
		msg := noCommand
		switch {
		case s.URL != "":
			msg = `missing: "type" is "stdio" but only "url" is set; remove "type" to connect to the URL, or set "command"`
		case s.Extra["serverUrl"] != nil:
			msg = `missing: a stdio server needs "command"; for a remote server write "url" ("serverUrl" is Windsurf's name for it)`
		case s.Command != "":
			msg = `must not be blank`
		}
		e := p.add(at("command"), id, "command", "%s", msg)
		if msg == noCommand {
			e.with(usererr.ConfigNoCommand, nil)
		}
	case s.Effective() != Stdio && s.URL == "":
		msg := `missing: "type" is %q, so the server needs "url", the address to connect to`
		if s.Command != "" {
			msg = `missing: "type" is %q, which connects to "url"; "command" is for stdio servers`
		}
		e := p.add(at("url"), id, "url", msg, s.Type)
		if s.Command == "" {
			e.with(usererr.ConfigNoURL, usererr.Params{"type": string(s.Type)})
		}
	}
	if s.URL != "" {
		if msg, code, params := checkURL(s.URL); msg != "" {
			p.add(at("url"), id, "url", "%s", msg).with(code, params)
		}
	}
	if strings.ContainsRune(s.Command, 0) {
		p.add(at("command"), id, "command", "must not contain a NUL character").with(usererr.ConfigNulInCommand, nil)
	}
	for i, a := range s.Args { // with a bad item, the rest are still checked
		if strings.ContainsRune(a, 0) {
			p.add(at("args"), id, "args", "item %d must not contain a NUL character", i+1).with(usererr.ConfigNulInArg, usererr.Params{"item": i + 1})
		}
	}
	for _, k := range sortedKeys(s.Env) {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			p.add(at("env"), id, "env", "variable name %q is not valid: it must not be empty or contain '='", k).with(usererr.ConfigBadEnvName, usererr.Params{"name": k})
		}
		if strings.ContainsRune(s.Env[k], 0) {
			p.add(at("env"), id, "env", "the value of %q must not contain a NUL character", k).with(usererr.ConfigNulInEnv, usererr.Params{"name": k})
		}
	}
	for _, k := range sortedKeys(s.Headers) {
		if !isToken(k) {
			p.add(at("headers"), id, "headers", "%q is not a valid HTTP header name (letters, digits and !#$%%&'*+-.^_`|~ only)", k).with(usererr.ConfigBadHeaderName, usererr.Params{"name": k})
		}
		if strings.ContainsAny(s.Headers[k], "\r\n\x00") {
			p.add(at("headers"), id, "headers", "the value of header %q must not contain line breaks", k).with(usererr.ConfigHeaderLineBreak, usererr.Params{"name": k})
		}
	}
	if s.Auth != "" && s.Auth != AuthOAuth && s.Auth != AuthNone {
		p.add(at("auth"), id, "auth", "must be \"oauth\" or \"none\", not %q", s.Auth).with(usererr.ConfigBadAuth, usererr.Params{"value": s.Auth})
	}
	for _, k := range sortedKeys(s.OAuth) {
		if !slices.Contains(OAuthKeys, k) {
			p.add(at("oauth"), id, "oauth", "%q is not an OAuth setting (clientId, clientSecret, scopes, clientMetadataUrl)", k).with(usererr.ConfigBadOAuthKey, usererr.Params{"name": k})
		}
	}
	if u := s.OAuth[OAuthMetadataURL]; u != "" && !strings.HasPrefix(u, "https://") {
		p.add(at("oauth"), id, "oauth", "clientMetadataUrl must be an https:// URL, not %q", u).with(usererr.ConfigBadOAuthMetadataURL, usererr.Params{"value": u})
	}
	if s.OAuth[OAuthClientSecret] != "" && s.OAuth[OAuthClientID] == "" {
		p.add(at("oauth"), id, "oauth", "a clientSecret needs its clientId").with(usererr.ConfigOAuthSecretWithoutID, nil)
	}
	switch {
	case s.TimeoutMs < 0:
		p.add(at("timeoutMs"), id, "timeoutMs", "must not be negative, not %d (leave it out for the default, %d)", s.TimeoutMs, DefaultTimeoutMs).
			with(usererr.ConfigTimeoutNegative, usererr.Params{"value": s.TimeoutMs, "default": DefaultTimeoutMs})
	case s.TimeoutMs > maxTimeoutMs:
		p.add(at("timeoutMs"), id, "timeoutMs", "must be at most %d (about 24 days), not %d", maxTimeoutMs, s.TimeoutMs).
			with(usererr.ConfigTimeoutTooLarge, usererr.Params{"max": maxTimeoutMs, "value": s.TimeoutMs})
	}
	if s.MaxConcurrency < 0 {
		p.add(at("maxConcurrency"), id, "maxConcurrency", "must not be negative, not %d (leave it out for the default, %d)", s.MaxConcurrency, DefaultMaxConcurrency).
			with(usererr.ConfigConcurrencyNeg, usererr.Params{"value": s.MaxConcurrency, "default": DefaultMaxConcurrency})
	}
	if m := s.MaxMessageBytes; m != 0 && (m < MinMaxMessageBytes || m > MaxMaxMessageBytes) {
		p.add(at("maxMessageBytes"), id, "maxMessageBytes", "must be a size in bytes from %d (64 KB) to %d (1 GB), not %d (leave it out for the default, %d = 32 MB)",
			MinMaxMessageBytes, MaxMaxMessageBytes, m, DefaultMaxMessageBytes).
			with(usererr.ConfigMessageSizeRange, usererr.Params{"min": MinMaxMessageBytes, "max": MaxMaxMessageBytes, "value": m})
	}
	for _, f := range []struct {
		name  string
		tools []string
	}{{"allowTools", s.AllowTools}, {"denyTools", s.DenyTools}} {
		if i := slices.Index(f.tools, ""); i >= 0 {
			p.add(at(f.name), id, f.name, "item %d is empty; list tool names", i+1).with(usererr.ConfigEmptyToolName, usererr.Params{"item": i + 1})
		}
	}
	for i, r := range s.Roots {
		if !filepath.IsAbs(r) && !strings.HasPrefix(r, "${") && !strings.HasPrefix(r, "~") {
			p.add(at("roots"), id, "roots", "item %d must be an absolute folder path, not %q", i+1, r).
				with(usererr.ConfigRootNotAbsolute, usererr.Params{"item": i + 1, "root": r})
		}
	}
	if s.ProtocolVersion != "" && !protocolPattern.MatchString(s.ProtocolVersion) {
		p.add(at("protocolVersion"), id, "protocolVersion", "must be a protocol revision such as \"2025-11-25\", not %q", s.ProtocolVersion).
			with(usererr.ConfigBadProtocolVersion, usererr.Params{"value": s.ProtocolVersion})
	}
	for _, k := range sortedKeys(s.Extra) {
		if slices.Contains(serverFields, k) {
			p.add(at(k), id, k, "must not be in Server.Extra: it is a field of Server")
			continue
		}
		if i := slices.IndexFunc(serverFields, func(f string) bool { return strings.EqualFold(f, k) }); i >= 0 {
			p.add(at(k), id, k, "unknown field; did you mean %q? (names are case-sensitive)", serverFields[i]).
				with(usererr.ConfigUnknownField, usererr.Params{"suggestion": serverFields[i]})
			continue
		}
		if !json.Valid(s.Extra[k]) {
			p.add(at(k), id, k, "the value kept in Server.Extra is not valid JSON")
		}
	}
}

// checkURL explains what is wrong with a server URL, or returns "". The
// URL itself is shown with its secrets masked.
func checkURL(raw string) (string, usererr.Code, usererr.Params) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error repeats the URL, which may hold a password
		}
		return "must be an http:// or https:// URL with a host: " + err.Error(), usererr.ConfigURLUnparsable, nil
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return `must be an http:// or https:// URL with a host, such as "https://example.com/mcp", not "` + maskURL(u) + `"`,
			usererr.ConfigBadURL, usererr.Params{"url": maskURL(u)}
	}
	return "", "", nil
}

// isToken reports whether s is an HTTP token (RFC 9110), the syntax of a
// header name.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
