package store

import (
	"context"
	"strings"
	"testing"
)

// TestSavedRequestArgumentsBounded: arguments larger than
// MaxSavedArguments are refused with an error that says the bound.
func TestSavedRequestArgumentsBounded(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	cases := []struct {
		name string
		size int
		err  string
	}{
		{name: "within", size: MaxSavedArguments - 100},
		{name: "over", size: MaxSavedArguments + 1, err: "the arguments are too large to save: 256 KB as JSON, at most 256 KB"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := st.SaveRequest(ctx, SavedRequest{Server: "s", Tool: "t", Name: tc.name, Arguments: map[string]any{"text": strings.Repeat("x", tc.size)}})
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
		})
	}
}
