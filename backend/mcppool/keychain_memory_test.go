//go:build !keychain

package mcppool

import (
	"testing"

	"mcpdesk/backend/secrets"
)

// testSecretStore is an in-memory keychain; the "keychain" build tag runs
// the same tests against the real one (keychain_store_test.go).
func testSecretStore(t *testing.T) SecretStore {
	t.Helper()
	return secrets.NewMemory()
}
