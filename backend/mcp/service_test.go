package mcp

import (
	"reflect"
	"testing"

	"mcpdesk/backend/mcpconfig"
)

func TestSpecRoundTripKeepsSecrets(t *testing.T) {
	prev := mcpconfig.Server{
		ID: "gh", Command: "npx", Args: []string{"-y", "server-github"},
		Env:        map[string]string{"GITHUB_TOKEN": "ghp_secret", "LOG": "debug"},
		AllowTools: []string{"search"},
	}
	spec := specFromConfig(prev)
	if spec.Type != "stdio" || len(spec.Env) != 2 || spec.Env[0].Value != "" || !spec.Env[0].Keep {
		t.Fatalf("spec leaks or loses data: %+v", spec)
	}
	// Keep GITHUB_TOKEN, replace LOG, add NEW.
	spec.Env = []SecretPair{{Key: "GITHUB_TOKEN", Keep: true}, {Key: "LOG", Value: "info"}, {Key: "NEW", Value: "1"}}
	got, err := configFromSpec(spec, prev)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"GITHUB_TOKEN": "ghp_secret", "LOG": "info", "NEW": "1"}
	if !reflect.DeepEqual(got.Env, want) {
		t.Fatalf("env = %v, want %v", got.Env, want)
	}
	if !reflect.DeepEqual(got.AllowTools, prev.AllowTools) || got.Type != "" {
		t.Fatalf("fields the form does not edit were lost or changed: %+v", got)
	}

	// Keep without a stored value, duplicate keys and empty keys are errors.
	for _, bad := range [][]SecretPair{{{Key: "MISSING", Keep: true}}, {{Key: "A", Value: "1"}, {Key: "A", Value: "2"}}, {{Value: "x"}}} {
		spec.Env = bad
		if _, err := configFromSpec(spec, prev); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}

	// Switching to HTTP drops the stdio fields.
	spec = ServerSpec{ID: "gh", Type: "http", URL: "https://example.com/mcp", Enabled: false,
		Headers: []SecretPair{{Key: "Authorization", Value: "Bearer x"}}}
	got, err = configFromSpec(spec, prev)
	if err != nil {
		t.Fatal(err)
	}
	if got.Command != "" || got.Env != nil || got.URL == "" || got.Enabled == nil || *got.Enabled {
		t.Fatalf("http conversion: %+v", got)
	}
}
