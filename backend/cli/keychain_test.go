package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/secrets"
)

// TestServersCommandResolvesKeychain: the command line starts servers with
// their secrets from the keychain, as the window does, and says which
// variable of which server is missing there.
func TestServersCommandResolvesKeychain(t *testing.T) {
	mem := secrets.NewMemory()
	prev := providerSecrets
	providerSecrets = func() secrets.Store { return mem }
	t.Cleanup(func() { providerSecrets = prev })
	if err := mem.Set(mcpconfig.KeychainEntry("kc", mcpconfig.EnvPair, "API_KEY"), "cli-secret-4Rw9"); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "mcp.config.json")
	write := func(servers ...mcpconfig.Server) {
		t.Helper()
		if err := mcpconfig.WriteFile(cfgPath, &mcpconfig.Config{Servers: servers}); err != nil {
			t.Fatal(err)
		}
	}
	ref := func(id string) map[string]string {
		return map[string]string{"API_KEY": mcpconfig.KeychainRef(id, mcpconfig.EnvPair, "API_KEY")}
	}
	// A connected server; and one that prints its API_KEY (through ${API_KEY}
	// in an argument) and exits: the report shows it redacted, which it is
	// only when the value is exactly the secret.
	write(mcpconfig.Server{ID: "kc", Command: testServerBin, Env: ref("kc")})
	if code, out, errOut := run(t, context.Background(), "servers", "--config", cfgPath); code != 0 || !strings.Contains(out, `"connected"`) {
		t.Fatalf("exit %d: out %q err %q", code, out, errOut)
	}
	write(mcpconfig.Server{ID: "kc", Command: testServerBin, Env: ref("kc"), Args: []string{"--stderr", "key=${API_KEY}", "--exit-after-start"}})
	code, out, errOut := run(t, context.Background(), "servers", "--config", cfgPath)
	if code != 1 || !strings.Contains(out, "key=[redacted]") || strings.Contains(out+errOut, "cli-secret-4Rw9") {
		t.Fatalf("echoing server: exit %d out %q err %q", code, out, errOut)
	}

	write(mcpconfig.Server{ID: "gone", Command: testServerBin, Env: ref("gone")})
	code, out, errOut = run(t, context.Background(), "servers", "--config", cfgPath)
	if code != 1 || !strings.Contains(out, `env API_KEY of server \"gone\" is kept in the OS keychain, but the keychain has no entry for it`) {
		t.Fatalf("missing entry: exit %d out %q err %q", code, out, errOut)
	}
}
