package mcpconfig

import (
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// mask replaces a secret in everything meant for people.
const mask = "***"

// secretName matches names (of query parameters, flags, environment
// variables) whose values are credentials.
var secretName = regexp.MustCompile(`(?i)token|key|secret|passw|pwd|auth|sig|credential|cookie|session`)

// keyPrefixes are how the API keys and tokens of well-known services begin
// (a regular expression alternation).
const keyPrefixes = `sk-|sk_|pk_live_|rk_live_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|glrt-|xox[abprs]-|xapp-|AKIA|AIza|ya29\.|hf_|npm_|pypi-|shpat_|dop_v1_|gsk_|pplx-|lin_api_`

// secretPrefix matches values that are credentials by their look: API keys
// and tokens of well-known services.
var secretPrefix = regexp.MustCompile(`^(` + keyPrefixes + `)[A-Za-z0-9_\-]{8,}`)

// inputRef matches a VS Code input reference such as ${input:api-key}.
var inputRef = regexp.MustCompile(`\$\{input:([^}]+)\}`)

// Effective returns the transport the server uses: its Type if set, else
// HTTP for a server with a URL and stdio for one with a command.
func (s Server) Effective() Transport {
	switch {
	case s.Type != "":
		return s.Type
	case s.URL != "":
		return HTTP
	default:
		return Stdio
	}
}

// Summary returns a one-line description of the server for the UI: its
// command line ("npx -y @modelcontextprotocol/server-filesystem /tmp") or
// its URL. It never shows env or header values; passwords in URLs,
// secret-looking query parameters and secret-looking arguments (a value
// after --token, API_KEY=…, a URL password, a well-known key format) are
// masked as ***.
func (s Server) Summary() string {
	var out string
	if s.Command == "" && s.URL != "" {
		out = maskURLString(s.URL)
	} else {
		words := make([]string, 0, 1+len(s.Args))
		if s.Command != "" {
			words = append(words, quoteWord(s.Command))
		}
		for i, a := range s.Args {
			if masked, secret := maskArg(s.Args, i); secret {
				a = masked
			}
			words = append(words, quoteWord(a))
		}
		out = strings.Join(words, " ")
	}
	// Belt and braces: a credential may also appear inside an argument.
	for _, v := range s.literalSecrets() {
		if len(v) >= 4 {
			out = strings.ReplaceAll(out, v, mask)
		}
	}
	return out
}

// SecretValues returns every value that must never be logged or shown:
// all env values, all header values (and the credential after "Bearer " or
// "Basic "), the URL's userinfo password (or a lone user name, often a
// token) and secret-looking query values, and the secret-looking values in
// args and in URLs inside args. Empty values are left out; the order is
// stable.
func (s Server) SecretValues() []string {
	var out []string
	for _, k := range sortedKeys(s.Env) {
		out = append(out, s.Env[k])
	}
	for _, k := range sortedKeys(s.Headers) {
		v := s.Headers[k]
		out = append(out, v)
		if scheme, cred, ok := strings.Cut(strings.TrimSpace(v), " "); ok && scheme != "" && !strings.Contains(scheme, "=") {
			out = append(out, strings.TrimSpace(cred))
		}
	}
	out = append(out, s.OAuth[OAuthClientSecret])
	out = append(out, urlSecrets(s.URL)...)
	for i := range s.Args {
		out = append(out, argSecrets(s.Args, i)...)
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(v string) bool {
		drop := v == "" || seen[v]
		seen[v] = true
		return drop
	})
}

// literalSecrets returns the values Summary must never contain even if they
// turn up inside an argument: header values and the values of env
// variables whose names say they are credentials. (Other env values, such
// as a directory, are too likely to appear in args for innocent reasons.)
func (s Server) literalSecrets() []string {
	var out []string
	for _, k := range sortedKeys(s.Env) {
		if secretName.MatchString(k) {
			out = append(out, s.Env[k])
		}
	}
	for _, k := range sortedKeys(s.Headers) {
		out = append(out, s.Headers[k])
	}
	if v := s.OAuth[OAuthClientSecret]; v != "" {
		out = append(out, v)
	}
	// Longest first, so a secret containing another is masked whole.
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// InputRefs returns the ids of the VS Code inputs the server refers to as
// ${input:id}, sorted and without repeats. Importing a VS Code file keeps
// these references as they are (MCP Desk does not prompt for them), so the
// UI can show which values the user still has to fill in.
func (s Server) InputRefs() []string {
	texts := append([]string{s.Command, s.Cwd, s.URL}, s.Args...)
	for _, k := range sortedKeys(s.Env) {
		texts = append(texts, s.Env[k])
	}
	for _, k := range sortedKeys(s.Headers) {
		texts = append(texts, s.Headers[k])
	}
	var ids []string
	for _, t := range texts {
		for _, m := range inputRef.FindAllStringSubmatch(t, -1) {
			ids = append(ids, m[1])
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// maskArg returns args[i] with its secret masked, and whether it had one.
func maskArg(args []string, i int) (string, bool) {
	a := args[i]
	if i > 0 && isSecretFlag(args[i-1]) {
		return mask, true
	}
	if u, ok := parseURLArg(a); ok {
		m := maskURL(u)
		return m, m != a
	}
	if name, _, ok := strings.Cut(a, "="); ok && secretName.MatchString(name) {
		return name + "=" + mask, true
	}
	if secretPrefix.MatchString(a) {
		return mask, true
	}
	return a, false
}

// argSecrets returns the secrets maskArg hides in args[i].
func argSecrets(args []string, i int) []string {
	a := args[i]
	if i > 0 && isSecretFlag(args[i-1]) {
		return []string{a}
	}
	if _, ok := parseURLArg(a); ok {
		return urlSecrets(a)
	}
	if name, v, ok := strings.Cut(a, "="); ok && secretName.MatchString(name) {
		return []string{v}
	}
	if secretPrefix.MatchString(a) {
		return []string{a}
	}
	return nil
}

// isSecretFlag reports whether a is a flag such as --api-key or -token
// whose value follows as the next argument.
func isSecretFlag(a string) bool {
	return strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && secretName.MatchString(a)
}

// parseURLArg parses an argument that is a URL with a scheme and a host,
// such as https://… or postgresql://user:pass@host/db.
func parseURLArg(a string) (*url.URL, bool) {
	if !strings.Contains(a, "://") {
		return nil, false
	}
	u, err := url.Parse(a)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, false
	}
	return u, true
}

// maskURLString masks the secrets of a URL given as text.
func maskURLString(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		// Unparseable: show only what comes before any user info or query.
		if i := strings.IndexAny(raw, "@?#"); i >= 0 {
			return raw[:i] + mask
		}
		return raw
	}
	return maskURL(u)
}

// maskURL returns u with its userinfo password (or a lone user name) and
// secret-looking query values replaced by ***.
func maskURL(u *url.URL) string {
	c := *u
	if c.User != nil {
		if _, has := c.User.Password(); has {
			c.User = url.UserPassword(c.User.Username(), mask)
		} else if c.User.Username() != "" {
			c.User = url.User(mask)
		}
	}
	if c.RawQuery != "" {
		c.RawQuery = maskQuery(c.RawQuery)
	}
	s := c.String()
	// String escapes the mask in user info; show it plainly.
	return strings.ReplaceAll(s, "%2A%2A%2A", mask)
}

// maskQuery masks the values of secret-looking parameters, keeping the
// order and spelling of the rest.
func maskQuery(q string) string {
	parts := strings.Split(q, "&")
	for i, p := range parts {
		name, _, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if secretName.MatchString(name) {
			parts[i] = p[:strings.IndexByte(p, '=')] + "=" + mask
		}
	}
	return strings.Join(parts, "&")
}

// urlSecrets returns the password (or lone user name) and secret-looking
// query values of a URL, both as written and decoded.
func urlSecrets(raw string) []string {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	if u.User != nil {
		if pw, has := u.User.Password(); has {
			out = append(out, pw)
		} else {
			out = append(out, u.User.Username())
		}
		if s := u.User.String(); s != "" {
			if _, enc, ok := strings.Cut(s, ":"); ok {
				out = append(out, enc)
			}
		}
	}
	for _, p := range strings.Split(u.RawQuery, "&") {
		name, v, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if !secretName.MatchString(name) {
			continue
		}
		out = append(out, v)
		if d, err := url.QueryUnescape(v); err == nil {
			out = append(out, d)
		}
	}
	return out
}

// quoteWord quotes a command-line word that would otherwise be misread.
func quoteWord(w string) string {
	if w == "" || strings.ContainsAny(w, " \t\n\"'\\") {
		return strconv.Quote(w)
	}
	return w
}

// The import preview (preview.go) shows every value of a server, so it
// needs more than Summary: whether a value is a secret by its look alone,
// and a hint of a secret that tells it apart without revealing it.

// keyInText finds a well-known key or a JSON Web Token inside longer text,
// such as "--header=Authorization: Bearer ghp_…"; group 1 is the key.
var keyInText = regexp.MustCompile(`(?:^|[^A-Za-z0-9])((?:` + keyPrefixes + `)[A-Za-z0-9_\-]{8,}|eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*)`)

// jwtPattern matches a JSON Web Token: three base64url parts, the first a
// JSON object ("eyJ" is how `{"` begins in base64).
var jwtPattern = regexp.MustCompile(`^eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*$`)

// authSchemes are the HTTP authentication schemes whose credential follows
// the scheme name ("Bearer sk-…"): the preview keeps the name visible.
var authScheme = regexp.MustCompile(`^(?i:bearer|basic|token|digest|apikey|api-key)\s+`)

// looksLikeKey reports whether a value is a credential by its look alone:
// a well-known key format, a JSON Web Token, or a long random-looking
// string (see looksRandom). The value's name is not considered.
func looksLikeKey(v string) bool {
	return secretPrefix.MatchString(v) || jwtPattern.MatchString(v) || looksRandom(v)
}

// looksRandom reports whether v looks like a generated secret rather than a
// word, a path, a version or a package name: at least 20 characters of
// the alphabets keys are written in (base64, base64url, hex), not a path,
// mixing letters and digits (and, below 32 characters, both cases; hex
// from 32 on), with nearly as many distinct characters as a random string
// of its length and alphabet would have.
func looksRandom(v string) bool {
	n := len(v)
	switch {
	case n < 20 || n > 4096,
		strings.ContainsAny(v[:1], "/.~"), // a path
		strings.Contains(v, "//"),
		strings.Contains(v, "/") && strings.Contains(v, "."): // a relative path
		return false
	}
	var lower, upper, digit, hex = false, false, false, true
	counts := map[byte]int{}
	for i := 0; i < n; i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
			hex = hex && c <= 'f'
		case c >= 'A' && c <= 'Z':
			upper = true
			hex = hex && c <= 'F'
		case c >= '0' && c <= '9':
			digit = true
		case strings.IndexByte("+/=_-.", c) >= 0:
			hex = hex && c == '-' // dashes, as in a UUID
		default:
			return false
		}
		counts[c]++
	}
	bits := 6.0 // base64
	switch {
	case !digit || !(lower || upper):
		return false
	case hex && n >= 32:
		bits = 4
	case n < 32 && !(lower && upper):
		return false
	}
	// Shannon entropy in bits per character, against what a random string
	// of this length and alphabet reaches.
	var h float64
	for _, k := range counts {
		p := float64(k) / float64(n)
		h -= p * math.Log2(p)
	}
	return h >= 0.8*math.Min(math.Log2(float64(n)), bits)
}

// secretHeader reports whether a header's value is a secret by its name:
// the authentication headers always, and any whose name says so.
func secretHeader(name string) bool {
	switch strings.ToLower(name) {
	case "authorization", "proxy-authorization", "cookie", "set-cookie":
		return true
	}
	return secretName.MatchString(name)
}

// hint returns what the preview shows of a secret value: an authentication
// scheme ("Bearer "), a well-known key prefix ("sk-") and, when at least
// eight characters stay hidden, the last four — "sk-…9f2c" — enough to
// tell two keys apart, never enough to use one. A value with nothing to
// show is "••••".
func hint(v string) string {
	scheme := authScheme.FindString(v)
	rest := v[len(scheme):]
	prefix := ""
	if m := secretPrefix.FindStringSubmatch(rest); m != nil {
		prefix = m[1]
	} else if jwtPattern.MatchString(rest) {
		prefix = "eyJ"
	}
	runes := []rune(rest[len(prefix):])
	tail := ""
	if len(runes) >= 12 {
		tail = string(runes[len(runes)-4:])
	}
	if scheme == "" && prefix == "" && tail == "" {
		return "••••"
	}
	return scheme + prefix + "…" + tail
}
