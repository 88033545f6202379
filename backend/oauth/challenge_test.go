package oauth

import (
	"net/http"
	"testing"
)

func TestParseChallenge(t *testing.T) {
	cases := []struct {
		in   []string
		want Challenge
	}{
		{[]string{`Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp", scope="read write"`},
			Challenge{ResourceMetadata: "https://a.example/.well-known/oauth-protected-resource/mcp", Scope: "read write"}},
		{[]string{`Bearer error="insufficient_scope", scope="admin", error_description="needs \"admin\""`},
			Challenge{Error: "insufficient_scope", Scope: "admin", Description: `needs "admin"`}},
		{[]string{`Basic realm="x", Bearer realm="mcp", error=invalid_token`}, Challenge{Error: "invalid_token"}},
		{[]string{`Basic realm="x"`, `bearer scope=files:read`}, Challenge{Scope: "files:read"}},
		{[]string{`Bearer`}, Challenge{}},
		{[]string{`Negotiate abc==, Bearer scope="a"`}, Challenge{Scope: "a"}},
		{nil, Challenge{}},
	}
	for _, c := range cases {
		h := http.Header{}
		for _, v := range c.in {
			h.Add("WWW-Authenticate", v)
		}
		if got := ParseChallenge(h); got != c.want {
			t.Errorf("%q: got %+v, want %+v", c.in, got, c.want)
		}
	}
}
