//go:build !windows

package shellenv

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestReloadSeesVariablesSetLater: the login-shell environment is read once
// and kept; Reload reads it again, so a key exported in an rc file after
// the app started is seen without a restart.
func TestReloadSeesVariablesSetLater(t *testing.T) {
	rc := filepath.Join(t.TempDir(), "rc")
	shell, count := fakeShell(t, "[ -f "+rc+" ] && . "+rc+"\nPATH=/usr/bin:/bin; export PATH")
	p := NewProvider(true, WithShell(shell))
	ctx := context.Background()
	if _, ok := lookupEnv(p.Environ(ctx), "MCPDESK_LATE_KEY"); ok {
		t.Fatal("the variable is set before the rc file sets it")
	}
	if err := os.WriteFile(rc, []byte("MCPDESK_LATE_KEY=sk-late; export MCPDESK_LATE_KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := lookupEnv(p.Environ(ctx), "MCPDESK_LATE_KEY"); ok || runs(t, count) != 1 {
		t.Fatalf("Environ ran the shell again (%d runs) or saw the new variable: it should keep the first read", runs(t, count))
	}
	if !p.Reload(ctx) {
		t.Fatal("Reload = false, want true (the login shell answered)")
	}
	if v, ok := lookupEnv(p.Environ(ctx), "MCPDESK_LATE_KEY"); !ok || v != "sk-late" || runs(t, count) != 2 {
		t.Fatalf("after Reload: MCPDESK_LATE_KEY = %q, %v after %d runs; want sk-late after 2", v, ok, runs(t, count))
	}
	if NewProvider(false).Reload(ctx) {
		t.Error("Reload without login-shell mode = true; only a restart sees new variables there")
	}
}
