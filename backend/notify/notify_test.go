package notify

import (
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"Reply\nfinished\t now": "Reply finished now",
		"\x1b[31mred\x1b[0m":    "[31mred[0m",
		"a\u0085b\x7fc":         "abc",
		"  spaced   out  ":      "spaced out",
	} {
		if got := clean(in, 100); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("é", 300)
	if got := clean(long, 101); len(got) > 101 || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, "éé") {
		t.Errorf("cut: %d bytes %q", len(got), got[len(got)-8:])
	}
}
