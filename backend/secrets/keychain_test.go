//go:build keychain

// These tests use the real OS keychain. They are behind the "keychain" build
// tag so that a plain `go test ./...` never touches a developer's keychain.
// On Linux, CI runs them in a private session bus with an unlocked
// gnome-keyring:
//
//	export XDG_DATA_HOME=$(mktemp -d)
//	dbus-run-session -- bash -c 'echo -n ci | gnome-keyring-daemon --unlock --components=secrets >/dev/null; go test -tags keychain -count=1 ./backend/secrets/'

package secrets

import (
	"crypto/rand"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testService is a keychain service of its own, so a run on a developer's
// machine cannot touch MCP Desk's real entries.
func testService(t *testing.T) string {
	t.Helper()
	return "mcpdesk-test-" + strings.ToLower(rand.Text()[:10])
}

func TestKeychainRoundTrip(t *testing.T) {
	k := NewKeyring(testService(t))
	if err := k.Probe(); err != nil {
		t.Fatalf("Probe = %v; the real keychain tests need a usable keychain", err)
	}
	const key = "provider/openai"
	t.Cleanup(func() { k.Delete(key) })

	if _, err := k.Get(key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get before Set = %v, want ErrNotFound", err)
	}
	if err := k.Set(key, "sk-first"); err != nil {
		t.Fatalf("Set: %v", err)
	}
	if got, err := k.Get(key); err != nil || got != "sk-first" {
		t.Fatalf("Get = %q, %v; want sk-first", got, err)
	}
	if err := k.Set(key, "sk-second"); err != nil {
		t.Fatalf("overwrite: %v", err)
	}
	if got, err := k.Get(key); err != nil || got != "sk-second" {
		t.Fatalf("Get after overwrite = %q, %v; want sk-second", got, err)
	}

	// Unicode, separators, quotes and a value longer than any API key.
	long := "ключ-🔑-密钥 \"quoted\" 'single' \\ \t\n" + strings.Repeat("0123456789abcdef", 256)
	if err := k.Set(key, long); err != nil {
		t.Fatalf("Set long value: %v", err)
	}
	if got, err := k.Get(key); err != nil || got != long {
		t.Fatalf("Get long value: %d bytes, %v; want %d bytes", len(got), err, len(long))
	}

	if err := k.Delete(key); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := k.Get(key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete = %v, want ErrNotFound", err)
	}
	if err := k.Delete(key); err != nil {
		t.Fatalf("Delete of an absent key = %v, want nil", err)
	}
}

func TestKeychainKeysAreSeparate(t *testing.T) {
	svc := testService(t)
	a, b := NewKeyring(svc), NewKeyring(svc+"-other")
	t.Cleanup(func() { a.Delete("provider/x"); a.Delete("provider/y"); b.Delete("provider/x") })
	if err := a.Set("provider/x", "ax"); err != nil {
		t.Fatal(err)
	}
	if err := a.Set("provider/y", "ay"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get("provider/x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("another service sees the entry: %v", err)
	}
	if got, _ := a.Get("provider/y"); got != "ay" {
		t.Errorf("provider/y = %q", got)
	}
}

// TestUnavailable checks that without a reachable Secret Service every call
// fails with *UnavailableError. godbus caches its session bus connection per
// process, so the check runs in a child process whose DBUS_SESSION_BUS_ADDRESS
// points at a socket nobody listens on.
func TestUnavailable(t *testing.T) {
	if os.Getenv("MCPDESK_KEYCHAIN_CHILD") == "1" {
		unavailableChild(t)
		return
	}
	dead := "unix:path=" + filepath.Join(t.TempDir(), "no-bus")
	cmd := exec.Command(os.Args[0], "-test.run=^TestUnavailable$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPDESK_KEYCHAIN_CHILD=1", "DBUS_SESSION_BUS_ADDRESS="+dead)
	out, err := cmd.CombinedOutput()
	t.Logf("child with DBUS_SESSION_BUS_ADDRESS=%s:\n%s", dead, out)
	if err != nil {
		t.Fatalf("child failed: %v", err)
	}
}

func unavailableChild(t *testing.T) {
	k := NewKeyring(testService(t))
	err := k.Probe()
	var ue *UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("Probe = %v (%T), want *UnavailableError", err, err)
	}
	if !strings.HasPrefix(err.Error(), "keychain unavailable:") {
		t.Errorf("Probe error %q does not start with \"keychain unavailable:\"", err)
	}
	t.Logf("Probe: %v (cause: %v)", err, errors.Unwrap(err))
	if _, err := k.Get("provider/openai"); !errors.As(err, &ue) || errors.Is(err, ErrNotFound) {
		t.Errorf("Get = %v, want *UnavailableError and not ErrNotFound", err)
	}
	if err := k.Set("provider/openai", "sk-x"); !errors.As(err, &ue) {
		t.Errorf("Set = %v, want *UnavailableError", err)
	}
	if err := k.Delete("provider/openai"); !errors.As(err, &ue) {
		t.Errorf("Delete = %v, want *UnavailableError", err)
	}
}

// TestKeychainConcurrentProbes: self-tests that run at once (the Settings
// screen and the Providers section asked together) all pass. They share
// one entry, so without Probe's lock one read the other's token and said
// "the keychain returned a different value than was stored".
func TestKeychainConcurrentProbes(t *testing.T) {
	k := NewKeyring(testService(t))
	errs := make(chan error, 16)
	for range 16 {
		go func() { errs <- k.Probe() }()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Errorf("Probe = %v", err)
		}
	}
}
