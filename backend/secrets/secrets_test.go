package secrets

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/zalando/go-keyring"
)

// fakeBackend is a go-keyring stand-in: a map, or err for every call.
type fakeBackend struct {
	mu  sync.Mutex
	m   map[string]string
	err error
	// calls records service/user of each call, to check the service is used.
	calls []string
}

func newFakeBackend() *fakeBackend { return &fakeBackend{m: map[string]string{}} }

func (f *fakeBackend) Get(service, user string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "get "+service+"/"+user)
	if f.err != nil {
		return "", f.err
	}
	v, ok := f.m[service+"\x00"+user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (f *fakeBackend) Set(service, user, password string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "set "+service+"/"+user)
	if f.err != nil {
		return f.err
	}
	f.m[service+"\x00"+user] = password
	return nil
}

func (f *fakeBackend) Delete(service, user string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "delete "+service+"/"+user)
	if f.err != nil {
		return f.err
	}
	if _, ok := f.m[service+"\x00"+user]; !ok {
		return keyring.ErrNotFound
	}
	delete(f.m, service+"\x00"+user)
	return nil
}

func fakeKeyring() (*Keyring, *fakeBackend) {
	b := newFakeBackend()
	return &Keyring{service: "mcpdesk-test", b: b}, b
}

// testStore runs the Store contract against s.
func testStore(t *testing.T, s Store) {
	t.Helper()
	if _, err := s.Get("provider/openai"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get of an absent key = %v, want ErrNotFound", err)
	}
	if err := s.Delete("provider/openai"); err != nil {
		t.Fatalf("Delete of an absent key = %v, want nil", err)
	}
	for _, v := range []string{"sk-1", "sk-2 overwritten", "", "ключ 🔑 " + strings.Repeat("x", 4096)} {
		if err := s.Set("provider/openai", v); err != nil {
			t.Fatalf("Set: %v", err)
		}
		got, err := s.Get("provider/openai")
		if err != nil || got != v {
			t.Fatalf("Get = %q, %v; want %q", got, err, v)
		}
	}
	if err := s.Set("provider/other", "o"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("provider/openai"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := s.Get("provider/openai"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete = %v, want ErrNotFound", err)
	}
	if got, err := s.Get("provider/other"); err != nil || got != "o" {
		t.Fatalf("other key = %q, %v", got, err)
	}
	for name, err := range map[string]error{
		"Get":    func() error { _, err := s.Get(""); return err }(),
		"Set":    s.Set("", "v"),
		"Delete": s.Delete(""),
	} {
		if err == nil {
			t.Errorf("%s with empty key: no error", name)
		}
	}
}

func TestMemory(t *testing.T) { testStore(t, NewMemory()) }

func TestKeyringWithFakeBackend(t *testing.T) {
	k, b := fakeKeyring()
	testStore(t, k)
	for _, c := range b.calls {
		if !strings.Contains(c, "mcpdesk-test/") {
			t.Errorf("call %q does not use the service", c)
		}
	}
	if err := k.Probe(); err != nil {
		t.Errorf("Probe = %v", err)
	}
	if len(b.m) != 1 { // provider/other
		t.Errorf("Probe left entries behind: %d entries", len(b.m))
	}
}

func TestMemoryConcurrent(t *testing.T) {
	m := NewMemory()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := fmt.Sprintf("k%d", i%3)
			for j := range 200 {
				m.Set(key, fmt.Sprint(j))
				m.Get(key)
				if j%10 == 0 {
					m.Delete(key)
				}
			}
		}()
	}
	wg.Wait()
}

func TestMemoryUnavailable(t *testing.T) {
	m := NewMemory()
	m.Set("a", "1")
	m.SetUnavailable("the keychain is locked")
	var ue *UnavailableError
	if _, err := m.Get("a"); !errors.As(err, &ue) || err.Error() != "keychain unavailable: the keychain is locked" {
		t.Errorf("Get = %v, want *UnavailableError", err)
	}
	if err := m.Set("a", "2"); !errors.As(err, &ue) {
		t.Errorf("Set = %v", err)
	}
	if err := m.Delete("a"); !errors.As(err, &ue) {
		t.Errorf("Delete = %v", err)
	}
	if err := m.Probe(); !errors.As(err, &ue) {
		t.Errorf("Probe = %v", err)
	}
	m.SetUnavailable("")
	if v, err := m.Get("a"); err != nil || v != "1" {
		t.Errorf("after recovery Get = %q, %v", v, err)
	}
	if err := m.Probe(); err != nil {
		t.Errorf("after recovery Probe = %v", err)
	}
}

// The errors below are the ones go-keyring v0.2.8 returned on Debian 12 in
// each situation.
func TestErrorMapping(t *testing.T) {
	cases := []struct {
		name   string
		err    error
		reason string // prefix of the reason
	}{
		{"no bus address, no dbus-launch", &exec.Error{Name: "dbus-launch", Err: exec.ErrNotFound}, "no D-Bus session bus (dbus-launch not found)"},
		{"no bus address", errors.New("dbus: couldn't determine address of session bus"), "no D-Bus session bus"},
		{"no secret service", errors.New("The name org.freedesktop.secrets was not provided by any .service files"), "no Secret Service on D-Bus (org.freedesktop.secrets was not provided): install and unlock gnome-keyring or KWallet"},
		{"locked", errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'"), "the keychain is locked"},
		{"no default collection", errors.New("Object does not exist at path “/org/freedesktop/secrets/aliases/default”"), "the keychain has no default keyring"},
		{"dead bus socket", errors.New("dial unix /run/user/1000/bus: connect: no such file or directory"), "cannot connect to the D-Bus session bus"},
		{"too big", keyring.ErrSetDataTooBig, "the secret is too long"},
		{"anything else", errors.New("exit status 36"), "the OS keychain failed: exit status 36"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k, b := fakeKeyring()
			b.err = c.err
			ops := map[string]error{
				"Get":    func() error { _, err := k.Get("provider/openai"); return err }(),
				"Set":    k.Set("provider/openai", "sk-secret"),
				"Delete": k.Delete("provider/openai"),
				"Probe":  k.Probe(),
			}
			for op, err := range ops {
				var ue *UnavailableError
				if !errors.As(err, &ue) {
					t.Fatalf("%s = %v (%T), want *UnavailableError", op, err, err)
				}
				if errors.Is(err, ErrNotFound) {
					t.Errorf("%s: an unavailable keychain must not look like a missing secret", op)
				}
				if !strings.HasPrefix(ue.Reason, c.reason) {
					t.Errorf("%s: reason %q, want prefix %q", op, ue.Reason, c.reason)
				}
				if err.Error() != "keychain unavailable: "+ue.Reason {
					t.Errorf("%s: Error() = %q", op, err)
				}
				if !errors.Is(err, c.err) {
					t.Errorf("%s: original error not wrapped", op)
				}
			}
		})
	}
}

func TestNotFoundMapping(t *testing.T) {
	k, _ := fakeKeyring()
	_, err := k.Get("provider/openai")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get = %v, want ErrNotFound", err)
	}
	var ue *UnavailableError
	if errors.As(err, &ue) {
		t.Error("a missing secret must not look like an unavailable keychain")
	}
	if !strings.Contains(err.Error(), "provider/openai") {
		t.Errorf("error %q does not name the key", err)
	}
}

func TestSecretNeverInError(t *testing.T) {
	const secret = "sk-live-0123456789abcdef"
	k, _ := fakeKeyring()
	// A backend that echoes what it was given, as a careless library might.
	echo := &echoBackend{}
	k.b = echo
	err := k.Set("provider/openai", secret)
	if err == nil {
		t.Fatal("no error")
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if strings.Contains(e.Error(), secret) {
			t.Errorf("error chain shows the secret: %q", e.Error())
		}
	}
	if !errors.Is(err, errEcho) {
		t.Error("original error lost by redaction")
	}
	// Probe's token is scrubbed the same way.
	if err := k.Probe(); err == nil || strings.Contains(err.Error(), echo.last) {
		t.Errorf("Probe = %v, shows its token %q", err, echo.last)
	}
}

var errEcho = errors.New("echo")

type echoBackend struct{ last string }

func (e *echoBackend) Get(service, user string) (string, error) { return "", keyring.ErrNotFound }
func (e *echoBackend) Delete(service, user string) error        { return nil }
func (e *echoBackend) Set(service, user, password string) error {
	e.last = password
	return fmt.Errorf("cannot store %q: %w", password, errEcho)
}

func TestProbeCleansUpAndReportsMismatch(t *testing.T) {
	k, b := fakeKeyring()
	if err := k.Probe(); err != nil {
		t.Fatal(err)
	}
	if len(b.m) != 0 {
		t.Errorf("probe entry left behind: %v", b.m)
	}
	k.b = &liarBackend{fakeBackend: b}
	var ue *UnavailableError
	if err := k.Probe(); !errors.As(err, &ue) {
		t.Errorf("Probe with a keychain that returns other values = %v", err)
	}
}

type liarBackend struct{ *fakeBackend }

func (l *liarBackend) Get(service, user string) (string, error) { return "something else", nil }

// failOn is a Store whose Set fails for one key.
type failOn struct {
	Store
	key string
}

func (f failOn) Set(key, value string) error {
	if key == f.key {
		return errors.New("refused")
	}
	return f.Store.Set(key, value)
}

// SetAll stores all or nothing: a failure deletes what it stored and names
// the key that failed.
func TestSetAllIsAllOrNothing(t *testing.T) {
	mem := NewMemory()
	put := map[string]string{"a": "1", "b": "2", "c": "3"}
	if key, err := SetAll(failOn{mem, "c"}, put); key != "c" || err == nil {
		t.Fatalf("SetAll = %q, %v; want c and an error", key, err)
	}
	for _, k := range []string{"a", "b", "c"} {
		if _, err := mem.Get(k); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s left behind after a failed SetAll: %v", k, err)
		}
	}
	if key, err := SetAll(mem, put); key != "" || err != nil {
		t.Fatalf("SetAll = %q, %v", key, err)
	}
	if v, err := mem.Get("b"); v != "2" || err != nil {
		t.Errorf("b = %q, %v", v, err)
	}
}
