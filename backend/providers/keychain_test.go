//go:build keychain

// These tests use the real OS keychain, like backend/secrets/keychain_test.go
// (see there for running them in a private session bus with gnome-keyring).

package providers

import (
	"crypto/rand"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"mcpdesk/backend/secrets"
	"mcpdesk/backend/settings"
)

// testKeyring is a keychain service of its own, so a run on a developer's
// machine cannot touch MCP Desk's real entries.
func testKeyring(t *testing.T) *secrets.Keyring {
	t.Helper()
	return secrets.NewKeyring("mcpdesk-test-" + strings.ToLower(rand.Text()[:10]))
}

func TestRealKeychainKeyLifecycle(t *testing.T) {
	k := testKeyring(t)
	if err := k.Probe(); err != nil {
		t.Fatalf("Probe = %v; the real keychain tests need a usable keychain", err)
	}
	srv := newFakeLLM(t, leakKey, "gpt-a")
	e := newTestEnv(t, func(o *Options) { o.Secrets = k })

	p := e.mustSave(t, ProviderInput{Name: "OpenAI", Preset: "openai", BaseURL: srv.URL + "/v1", APIKey: ptr(leakKey)})
	t.Cleanup(func() { k.Delete(account(p.ID)) })
	if !p.HasKey || p.KeySource != KeyFromKeychain {
		t.Fatalf("view = %+v", p)
	}
	if v, err := k.Get("provider/" + p.ID); err != nil || v != leakKey {
		t.Fatalf("keychain entry provider/%s = %q, %v", p.ID, v, err)
	}
	res, err := e.m.TestConnection(e.ctx, p.ID)
	if err != nil || !res.OK || res.Models != 1 {
		t.Fatalf("TestConnection with the keychain's key = %+v, %v", res, err)
	}

	// A fresh Manager over the same database and keychain finds the key.
	again := NewManager(Options{Store: e.st, Secrets: k})
	if got, err := again.Get(e.ctx, p.ID); err != nil || got.KeySource != KeyFromKeychain {
		t.Fatalf("after restart: %+v, %v", got, err)
	}

	if err := e.m.Delete(e.ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Get("provider/" + p.ID); !errors.Is(err, secrets.ErrNotFound) {
		t.Errorf("keychain entry after Delete: %v", err)
	}
}

// TestRealKeychainUnavailable saves a key with no reachable Secret Service,
// in a child process (godbus caches its bus connection per process).
func TestRealKeychainUnavailable(t *testing.T) {
	if os.Getenv("MCPDESK_PROVIDERS_KEYCHAIN_CHILD") == "1" {
		unavailableChild(t)
		return
	}
	dead := "unix:path=" + filepath.Join(t.TempDir(), "no-bus")
	cmd := exec.Command(os.Args[0], "-test.run=^TestRealKeychainUnavailable$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPDESK_PROVIDERS_KEYCHAIN_CHILD=1", "DBUS_SESSION_BUS_ADDRESS="+dead)
	out, err := cmd.CombinedOutput()
	t.Logf("child with DBUS_SESSION_BUS_ADDRESS=%s:\n%s", dead, out)
	if err != nil {
		t.Fatalf("child failed: %v", err)
	}
	if strings.Contains(string(out), leakKey) {
		t.Error("the child's output contains the key")
	}
}

func unavailableChild(t *testing.T) {
	e := newTestEnv(t, func(o *Options) { o.Secrets = testKeyring(t) })
	_, err := e.m.Save(e.ctx, ProviderInput{Name: "OpenAI", Preset: "openai", APIKey: ptr(leakKey)})
	if err == nil || !strings.HasPrefix(err.Error(), "The OS keychain is unavailable (") ||
		!strings.HasSuffix(err.Error(), "Set the key in an environment variable and enter its name under 'Key from environment variable' instead.") {
		t.Fatalf("Save = %v", err)
	}
	t.Logf("Save: %v", err)
	if list, _ := e.m.List(e.ctx); len(list) != 0 {
		t.Fatalf("stored: %+v", list)
	}
	// The environment-variable route still works, and says why the
	// keychain was not read.
	e.vars["OPENAI_API_KEY"] = leakKey
	p := e.mustSave(t, ProviderInput{Name: "OpenAI", Preset: "openai", KeyEnv: "OPENAI_API_KEY"})
	if p.KeySource != KeyFromEnv || !strings.HasPrefix(p.KeyProblem, "keychain unavailable:") {
		t.Errorf("env route: %+v", p)
	}
}

// TestRealKeychainStatusAgreesWithStoredKey: the keychain status in Settings
// and a key stored in the real keychain never contradict each other: the
// self-test passes and counts the key, and when the self-test fails while
// the key still reads, the status is "read_only", not "unavailable".
func TestRealKeychainStatusAgreesWithStoredKey(t *testing.T) {
	k := testKeyring(t)
	e := newTestEnv(t, func(o *Options) { o.Secrets = k })
	p := e.mustSave(t, ProviderInput{Name: "OpenAI", Preset: "openai", APIKey: ptr(leakKey)})
	t.Cleanup(func() { k.Delete(account(p.ID)) })
	count := func() int { return e.m.ReadableKeys(e.ctx) }

	s := settings.New(e.st, settings.AppInfo{}, settings.WithKeychain(k), settings.WithStoredKeys(count))
	if st := s.KeychainStatus(); st.State != settings.KeychainOK || !st.Available || st.StoredKeys != 1 {
		t.Fatalf("status with a working keychain = %+v", st)
	}
	failing := settings.New(e.st, settings.AppInfo{}, settings.WithStoredKeys(count),
		settings.WithKeychain(failProber{&secrets.UnavailableError{Reason: "the keychain returned a different value than was stored"}}))
	st := failing.KeychainStatus()
	if st.State != settings.KeychainReadOnly || !st.Available || st.StoredKeys != 1 {
		t.Fatalf("status when the self-test fails but the key reads = %+v", st)
	}
	if got, _ := e.m.Get(e.ctx, p.ID); got.KeySource != KeyFromKeychain || !got.Usable {
		t.Errorf("the provider = %+v", got)
	}
}

type failProber struct{ err error }

func (f failProber) Probe() error { return f.err }
