package secrets

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"

	"github.com/zalando/go-keyring"
)

// backend is the part of go-keyring that Keyring uses; tests replace it.
type backend interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// osKeyring is the OS keychain as go-keyring reaches it.
type osKeyring struct{}

func (osKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (osKeyring) Set(service, user, password string) error {
	return keyring.Set(service, user, password)
}
func (osKeyring) Delete(service, user string) error { return keyring.Delete(service, user) }

// probeKey is the entry Probe writes and deletes. Its name cannot collide with
// an app-level key such as "provider/openai".
const probeKey = ".mcpdesk-probe"

// Keyring is a Store in the OS keychain: each key is an entry of the service
// given to NewKeyring. It is safe for concurrent use.
type Keyring struct {
	service string
	b       backend
	// probeMu serializes Probe: two self-tests at once share one entry,
	// and one would read the other's token ("the keychain returned a
	// different value than was stored").
	probeMu sync.Mutex
}

var (
	_ Store = (*Keyring)(nil)
	_ Store = (*Memory)(nil)
)

// NewKeyring returns a Store in the OS keychain under service, for example
// "mcpdesk". It does not touch the keychain; call Probe to check it.
func NewKeyring(service string) *Keyring {
	return &Keyring{service: service, b: osKeyring{}}
}

// Get returns the secret stored under key, an error wrapping ErrNotFound when
// there is none, or an *UnavailableError when the keychain cannot be used.
func (k *Keyring) Get(key string) (string, error) {
	if key == "" {
		return "", fmt.Errorf("get secret: %w", errEmptyKey)
	}
	v, err := k.b.Get(k.service, key)
	if err != nil {
		if errors.Is(err, keyring.ErrNotFound) {
			return "", notFound(key)
		}
		return "", unavailable(err, "")
	}
	return v, nil
}

// Set stores value under key as it is, or returns an *UnavailableError when
// the keychain cannot be used.
func (k *Keyring) Set(key, value string) error {
	if key == "" {
		return fmt.Errorf("set secret: %w", errEmptyKey)
	}
	if err := k.b.Set(k.service, key, value); err != nil {
		return unavailable(err, value)
	}
	return nil
}

// Delete removes key. An absent key is not an error; an unusable keychain is
// an *UnavailableError.
func (k *Keyring) Delete(key string) error {
	if key == "" {
		return fmt.Errorf("delete secret: %w", errEmptyKey)
	}
	if err := k.b.Delete(k.service, key); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return unavailable(err, "")
	}
	return nil
}

// Probe checks that the keychain can store, read and delete an entry. It
// returns nil when it can, else an *UnavailableError. On a desktop whose
// keychain is locked this may show the system's unlock prompt.
func (k *Keyring) Probe() error {
	k.probeMu.Lock()
	defer k.probeMu.Unlock()
	token := rand.Text()
	if err := k.b.Set(k.service, probeKey, token); err != nil {
		return unavailable(err, token)
	}
	got, err := k.b.Get(k.service, probeKey)
	if err != nil {
		k.b.Delete(k.service, probeKey)
		return unavailable(err, token)
	}
	if err := k.b.Delete(k.service, probeKey); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return unavailable(err, token)
	}
	if got != token {
		return &UnavailableError{Reason: "the keychain returned a different value than was stored"}
	}
	return nil
}

// unavailable turns an error of go-keyring other than ErrNotFound into an
// *UnavailableError whose reason a user can act on. secret, when not empty,
// is scrubbed from the wrapped error.
func unavailable(err error, secret string) *UnavailableError {
	if secret != "" && strings.Contains(err.Error(), secret) {
		err = redactedError{msg: strings.ReplaceAll(err.Error(), secret, "[redacted]"), err: err}
	}
	return &UnavailableError{Reason: reasonFor(err), Err: err}
}

// reasonFor explains err, an error of go-keyring or of the D-Bus library
// under it, in words that tell the user what to do. The messages matched here
// are the ones go-keyring v0.2.8 and godbus v5 return on Linux.
func reasonFor(err error) string {
	msg := err.Error()
	has := func(parts ...string) bool {
		for _, p := range parts {
			if strings.Contains(msg, p) {
				return true
			}
		}
		return false
	}
	var execErr *exec.Error
	switch {
	case errors.Is(err, keyring.ErrSetDataTooBig):
		return "the secret is too long for the OS keychain"
	case errors.Is(err, keyring.ErrNotFound):
		// Only Probe gets here: its own entry vanished.
		return "the keychain lost an entry that was just stored"
	case errors.As(err, &execErr) && execErr.Name == "dbus-launch":
		// No DBUS_SESSION_BUS_ADDRESS, so godbus tried to start a bus.
		return "no D-Bus session bus (dbus-launch not found): run MCP Desk in a desktop session, or start a session bus with dbus-run-session"
	case has("couldn't determine address of session bus"):
		return "no D-Bus session bus: run MCP Desk in a desktop session, or start a session bus with dbus-run-session"
	case has("org.freedesktop.secrets was not provided", "org.freedesktop.DBus.Error.ServiceUnknown"):
		return "no Secret Service on D-Bus (org.freedesktop.secrets was not provided): install and unlock gnome-keyring or KWallet"
	case has("failed to unlock"):
		// Also what a Secret Service without a default keyring answers when
		// no prompt can be shown.
		return "the keychain is locked: unlock it (for example log in to gnome-keyring or KWallet, or create a default keyring in Seahorse) and try again"
	case has("Object does not exist", "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.Secret.Error.NoSuchObject"):
		return "the keychain has no default keyring: create one (for example \"Login\" in Seahorse) and try again"
	case has("dial unix", "connection refused"):
		return "cannot connect to the D-Bus session bus: check DBUS_SESSION_BUS_ADDRESS or log in to a desktop session"
	case has("org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout"):
		return "the keychain did not answer: check that gnome-keyring or KWallet is running"
	}
	return "the OS keychain failed: " + msg
}

// redactedError hides a secret that a keychain library put in its message.
// It does not unwrap, so no caller can reach the original message, but
// errors.Is still sees the errors the original wraps.
type redactedError struct {
	msg string
	err error
}

func (e redactedError) Error() string { return e.msg }

// Is reports whether the original error matches target.
func (e redactedError) Is(target error) bool { return errors.Is(e.err, target) }
