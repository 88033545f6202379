//go:build keychain

package mcppool

import (
	"crypto/rand"
	"strings"
	"testing"

	"mcpdesk/backend/secrets"
)

// testSecretStore is the real OS keychain, under a service of its own so a
// run on a developer's machine cannot touch MCP Desk's entries. Run with
//
//	dbus-run-session -- build/scripts/with-keyring.sh go test -tags keychain,sqlite_fts5 ./backend/mcp/ -run Keychain
func testSecretStore(t *testing.T) SecretStore {
	t.Helper()
	k := secrets.NewKeyring("mcpdesk-test-" + strings.ToLower(rand.Text()[:10]))
	if err := k.Probe(); err != nil {
		t.Fatalf("Probe = %v; the keychain tests need a usable keychain", err)
	}
	return k
}
