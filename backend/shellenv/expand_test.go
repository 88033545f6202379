package shellenv

import (
	"errors"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	vars := map[string]string{"HOME": "/home/ada", "EMPTY": "", "TOKEN": "s3cret", "DIR": "/opt"}
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	cases := []struct {
		in, want string
		err      string // substring of the error; "" for none
	}{
		{in: "", want: ""},
		{in: "plain", want: "plain"},
		{in: "${HOME}/data", want: "/home/ada/data"},
		{in: "${env:TOKEN}", want: "s3cret"},
		{in: "Bearer ${TOKEN}", want: "Bearer s3cret"},
		{in: "${HOME}${DIR}", want: "/home/ada/opt"},
		{in: "${EMPTY}", want: ""},
		{in: "${EMPTY:-fallback}", want: "fallback"},
		{in: "${MISSING:-fallback}", want: "fallback"},
		{in: "${MISSING:-}", want: ""},
		{in: "${MISSING:-${HOME}/x}", want: "/home/ada/x"},
		{in: "${env:MISSING:-d}", want: "d"},
		{in: "${TOKEN:-unused}", want: "s3cret"},
		{in: "$$", want: "$"},
		{in: "$${HOME}", want: "${HOME}"},
		{in: "cost: 5$", want: "cost: 5$"},
		{in: "$HOME stays", want: "$HOME stays"},
		{in: "echo $! > /tmp/pid", want: "echo $! > /tmp/pid"},
		{in: "a$b${DIR}", want: "a$b/opt"},
		{in: "${MISSING}", err: "${MISSING} is not set"},
		{in: "${env:MISSING}", err: "${MISSING} is not set"},
		{in: "x ${MISSING:-${ALSO_MISSING}}", err: "${ALSO_MISSING} is not set"},
		{in: "${input:api-key}", err: "server's settings"},
		{in: "${HOME", err: "unterminated"},
		{in: "${}", err: "invalid variable reference"},
		{in: "${config:editor.font}", err: "invalid variable reference"},
	}
	p := NewProvider(false)
	for _, c := range cases {
		got, err := p.Expand(c.in, lookup)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("Expand(%q): unexpected error %v", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Expand(%q) = %q, %v; want error containing %q", c.in, got, err, c.err)
		case c.err == "" && got != c.want:
			t.Errorf("Expand(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestExpandTypedErrors(t *testing.T) {
	p := NewProvider(false)
	none := func(string) (string, bool) { return "", false }
	_, err := p.Expand("${GITHUB_TOKEN}", none)
	var unset *UnsetError
	if !errors.As(err, &unset) || unset.Name != "GITHUB_TOKEN" {
		t.Fatalf("want *UnsetError for GITHUB_TOKEN, got %#v", err)
	}
	_, err = p.Expand("--key=${input:apiKey}", none)
	var input *InputError
	if !errors.As(err, &input) || input.ID != "apiKey" {
		t.Fatalf("want *InputError for apiKey, got %#v", err)
	}
}
