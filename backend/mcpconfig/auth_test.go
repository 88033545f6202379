package mcpconfig

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestAuthSettingsRoundTrip(t *testing.T) {
	src := `{"mcpServers": {"linear": {"url": "https://mcp.linear.example/mcp", "auth": "oauth",
	  "oauth": {"clientId": "desk", "clientSecret": "s3cr3t-value-123456", "scopes": "read write", "clientMetadataUrl": "https://desk.example/client.json"}},
	  "plain": {"url": "https://plain.example/mcp", "auth": "none"}}}`
	cfg, err := Parse("mcp.config.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Servers[0]
	if s.Auth != AuthOAuth || s.OAuth[OAuthClientID] != "desk" || s.OAuth[OAuthScopes] != "read write" || cfg.Servers[1].Auth != AuthNone {
		t.Fatalf("parsed %+v / %+v", s, cfg.Servers[1])
	}
	// The client secret is a secret: logs and previews never show it, and
	// it moves to the keychain like a header's.
	if !strings.Contains(strings.Join(s.SecretValues(), "\n"), "s3cr3t-value-123456") {
		t.Error("the client secret is not among the server's secret values")
	}
	moved, put := s.WithSecretsReferenced()
	if moved.OAuth[OAuthClientSecret] != KeychainRef("linear", OAuthPair, OAuthClientSecret) || put[KeychainEntry("linear", OAuthPair, OAuthClientSecret)] != "s3cr3t-value-123456" {
		t.Fatalf("not moved to the keychain: %v, %v", moved.OAuth, put)
	}
	if moved.OAuth[OAuthClientID] != "desk" {
		t.Error("the client id moved to the keychain too")
	}
	if got := moved.KeychainEntries(); len(got) != 1 || got[0] != KeychainEntry("linear", OAuthPair, OAuthClientSecret) {
		t.Errorf("keychain entries %v", got)
	}
	// Written and read back, nothing is lost.
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	if err := WriteFile(path, &Config{Servers: []Server{moved, cfg.Servers[1]}}); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Servers[0].OAuth[OAuthMetadataURL] != "https://desk.example/client.json" || back.Servers[0].Auth != AuthOAuth || back.Servers[1].Auth != AuthNone {
		t.Fatalf("read back %+v", back.Servers)
	}
}

func TestAuthSettingsValidated(t *testing.T) {
	cases := map[string]string{
		`"auth": "basic"`:                                   `must be "oauth" or "none"`,
		`"oauth": {"clientID": "x"}`:                        `"clientID" is not an OAuth setting`,
		`"oauth": {"clientMetadataUrl": "http://x/c.json"}`: "must be an https:// URL",
		`"oauth": {"clientSecret": "s"}`:                    "a clientSecret needs its clientId",
	}
	for field, want := range cases {
		_, err := Parse("mcp.config.json", []byte(`{"mcpServers": {"s": {"url": "https://x.example/mcp", `+field+`}}}`))
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", field, err, want)
		}
	}
}
