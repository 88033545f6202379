package providers

import (
	"regexp"
	"strings"
	"testing"
)

// The name checks say what the regular expressions they replaced said:
// those are the oracle here, over edge cases and every short string of a
// mixed alphabet.
func TestNameChecksMatchTheirExpressions(t *testing.T) {
	envName := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)
	httpToken := regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$")
	cases := []string{"", "A", "_", "9", "A9", "a_b", "OPENAI_API_KEY", "X-Api-Key", "a b", "a:b", "ä", "a\x00",
		strings.Repeat("a", 128), strings.Repeat("a", 129), "9" + strings.Repeat("a", 127), "-", "~x", "\"x\""}
	alphabet := []string{"a", "Z", "0", "_", "-", ":", " ", "é", "~"}
	for _, a := range alphabet {
		for _, b := range alphabet {
			for _, c := range alphabet {
				cases = append(cases, a+b, a+b+c)
			}
		}
	}
	for _, s := range cases {
		if got, want := isEnvName(s), envName.MatchString(s); got != want {
			t.Errorf("isEnvName(%q) = %v, want %v", s, got, want)
		}
		if got, want := isHTTPToken(s), httpToken.MatchString(s); got != want {
			t.Errorf("isHTTPToken(%q) = %v, want %v", s, got, want)
		}
	}
}
