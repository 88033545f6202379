package oauth

import (
	"net/http"
	"strings"
)

// Challenge is what a 401 or 403 says in its WWW-Authenticate Bearer
// challenge (RFC 6750 §3, RFC 9728 §5.1).
type Challenge struct {
	ResourceMetadata string
	Scope            string
	Error            string
	Description      string
}

// ParseChallenge reads the Bearer challenge of h's WWW-Authenticate
// headers; other schemes are skipped. A header that cannot be read gives
// the zero Challenge: discovery then falls back to the well-known URLs.
func ParseChallenge(h http.Header) Challenge {
	var c Challenge
	for _, v := range h.Values("WWW-Authenticate") {
		for _, ch := range splitChallenges(v) {
			if !strings.EqualFold(ch.scheme, "bearer") {
				continue
			}
			c.ResourceMetadata = ch.params["resource_metadata"]
			c.Scope = ch.params["scope"]
			c.Error = ch.params["error"]
			c.Description = ch.params["error_description"]
			return c
		}
	}
	return c
}

type challenge struct {
	scheme string
	params map[string]string
}

// splitChallenges parses a WWW-Authenticate value (RFC 9110 §11.6.1):
// challenges separated by commas, each a scheme followed by auth-params
// (name=token or name="quoted string").
func splitChallenges(s string) []challenge {
	var out []challenge
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ',') {
			i++
		}
	}
	token := func() string {
		start := i
		for i < len(s) && !strings.ContainsRune(" \t,=\"", rune(s[i])) {
			i++
		}
		return s[start:i]
	}
	for {
		skip()
		if i >= len(s) {
			return out
		}
		scheme := token()
		if scheme == "" {
			i++
			continue
		}
		ch := challenge{scheme: scheme, params: map[string]string{}}
		for {
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			save := i
			skip()
			name := token()
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if name == "" || i >= len(s) || s[i] != '=' {
				// Not a parameter: the next challenge's scheme.
				i = save
				break
			}
			i++ // '='
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			var val string
			if i < len(s) && s[i] == '"' {
				i++
				var b strings.Builder
				for i < len(s) && s[i] != '"' {
					if s[i] == '\\' && i+1 < len(s) {
						i++
					}
					b.WriteByte(s[i])
					i++
				}
				i++ // closing quote
				val = b.String()
			} else {
				val = token()
			}
			ch.params[strings.ToLower(name)] = val
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i < len(s) && s[i] == ',' {
				i++
				continue
			}
			break
		}
		out = append(out, ch)
	}
}
