package mcpconfig

import (
	"reflect"
	"testing"
)

func TestKeychainRefAndEntry(t *testing.T) {
	for _, c := range []struct {
		server     string
		kind       PairKind
		name       string
		ref, entry string
	}{
		{"github", EnvPair, "API_KEY", "${keychain:github/env/API_KEY}", "mcp-server/github/env/API_KEY"},
		{"linear.app", HeaderPair, "Authorization", "${keychain:linear.app/header/Authorization}", "mcp-server/linear.app/header/Authorization"},
	} {
		if got := KeychainRef(c.server, c.kind, c.name); got != c.ref {
			t.Errorf("KeychainRef(%s, %s, %s) = %q, want %q", c.server, c.kind, c.name, got, c.ref)
		}
		if got := KeychainEntry(c.server, c.kind, c.name); got != c.entry {
			t.Errorf("KeychainEntry(%s, %s, %s) = %q, want %q", c.server, c.kind, c.name, got, c.entry)
		}
	}
}

func TestLooksSecret(t *testing.T) {
	for _, c := range []struct {
		kind        PairKind
		name, value string
		want        bool
	}{
		{EnvPair, "API_KEY", "abc", true},
		{EnvPair, "GITHUB_TOKEN", "x", true},
		{EnvPair, "DB_PASSWORD", "hunter2", true},
		{EnvPair, "CLIENT_SECRET", "s", true},
		{EnvPair, "SOMETHING", "sk-proj-abcdefgh12345678", true},
		{EnvPair, "PATH", "/usr/local/bin:/usr/bin", false},
		{EnvPair, "TOOLS_PATH", "/opt/tools/bin:/usr/local/bin", false},
		{EnvPair, "LOG_LEVEL", "debug", false},
		{EnvPair, "API_KEY", "", false},
		{EnvPair, "API_KEY", "${OPENAI_API_KEY}", false},
		{EnvPair, "API_KEY", "${keychain:s/env/API_KEY}", false},
		{HeaderPair, "Authorization", "Bearer abc", true},
		{HeaderPair, "Cookie", "a=b", true},
		{HeaderPair, "Proxy-Authorization", "Basic eA==", true},
		{HeaderPair, "Authorization", "Bearer ${TOKEN}", false},
		{HeaderPair, "Accept-Language", "en", false},
	} {
		if got := LooksSecret(c.kind, c.name, c.value); got != c.want {
			t.Errorf("LooksSecret(%s, %s, %q) = %v, want %v", c.kind, c.name, c.value, got, c.want)
		}
	}
}

// TestKeychainEntries: only references built for their own place count.
func TestKeychainEntries(t *testing.T) {
	s := Server{ID: "a",
		Env: map[string]string{
			"KEY":    KeychainRef("a", EnvPair, "KEY"),
			"OTHER":  KeychainRef("b", EnvPair, "KEY"), // another server's place
			"MOVED":  KeychainRef("a", EnvPair, "KEY"), // another variable's place
			"PLAIN":  "x",
			"INSIDE": "pre " + KeychainRef("a", EnvPair, "INSIDE"),
		},
		Headers: map[string]string{"Authorization": KeychainRef("a", HeaderPair, "Authorization")},
	}
	want := []string{"mcp-server/a/env/KEY", "mcp-server/a/header/Authorization"}
	if got := s.KeychainEntries(); !reflect.DeepEqual(got, want) {
		t.Errorf("KeychainEntries = %v, want %v", got, want)
	}
}
