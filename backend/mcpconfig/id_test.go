package mcpconfig

import (
	"regexp"
	"strings"
	"testing"
)

// isValidID says what idShape says as a regular expression, over edge
// cases and every short string of a mixed alphabet.
func TestIsValidIDMatchesIDShape(t *testing.T) {
	shape := regexp.MustCompile(idShape)
	cases := []string{"", "a", "-a", ".a", "_a", "a-", "a.b_c-d", "9", "ä", "a b", "a/b",
		strings.Repeat("a", 64), strings.Repeat("a", 65), "a" + strings.Repeat(".", 63)}
	alphabet := []string{"a", "Z", "0", "_", "-", ".", " ", "é", "/"}
	for _, a := range alphabet {
		for _, b := range alphabet {
			for _, c := range alphabet {
				cases = append(cases, a+b, a+b+c)
			}
		}
	}
	for _, s := range cases {
		if got, want := isValidID(s), shape.MatchString(s); got != want {
			t.Errorf("isValidID(%q) = %v, want %v", s, got, want)
		}
	}
}
