package providers

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"mcpdesk/backend/secrets"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
)

// account is the keychain entry of a provider's key.
func account(id string) string { return "provider/" + id }

// KeychainError says a key could not be stored in (or removed from) the OS
// keychain. Its message tells the user what to do instead; it never holds
// the key.
type KeychainError struct {
	msg  string
	err  error
	code usererr.Code
}

// UserError returns e's code for the UI (usererr.Coded).
func (e *KeychainError) UserError() (usererr.Code, usererr.Params) { return e.code, nil }

// Error returns the message for the user.
func (e *KeychainError) Error() string { return e.msg }

// Unwrap returns the keychain's error, a *secrets.UnavailableError when the
// keychain cannot be used.
func (e *KeychainError) Unwrap() error { return e.err }

// keychainError explains a failed keychain write.
func keychainError(err error, removing bool) error {
	var ue *secrets.UnavailableError
	if errors.As(err, &ue) {
		if removing {
			return &KeychainError{err: err, msg: fmt.Sprintf("The OS keychain is unavailable (%s), so the stored key could not be removed. Try again when the keychain is available.", ue.Reason), code: usererr.KeychainUnavailableKeep}
		}
		return &KeychainError{err: err, msg: fmt.Sprintf("The OS keychain is unavailable (%s). Set the key in an environment variable and enter its name under 'Key from environment variable' instead.", ue.Reason), code: usererr.KeychainUnavailable}
	}
	if removing {
		return &KeychainError{err: err, msg: fmt.Sprintf("remove the API key from the OS keychain: %v", err), code: usererr.KeychainRemoveFailed}
	}
	return &KeychainError{err: err, msg: fmt.Sprintf("store the API key in the OS keychain: %v", err), code: usererr.KeychainStoreFailed}
}

// applyKey carries out the write-only key of a ProviderInput for provider
// id: nil keeps the key, "" deletes it, anything else stores it. It returns
// a function that puts the previous key back, for when the database write
// that follows fails, and a word for the log ("kept", "stored", "removed").
func (m *Manager) applyKey(id string, key *string) (undo func(), action string, err error) {
	if key == nil {
		return func() {}, "kept", nil
	}
	acct := account(id)
	prev, getErr := m.secrets.Get(acct)
	hadPrev := getErr == nil
	restore := func() {
		var err error
		if hadPrev {
			err = m.secrets.Set(acct, prev)
		} else {
			err = m.secrets.Delete(acct)
		}
		if err != nil {
			m.logger.Warn("provider key not restored after a failed save", "id", id, "err", err)
		}
	}
	value := strings.TrimSpace(*key)
	if value == "" {
		if err := m.secrets.Delete(acct); err != nil {
			return nil, "", keychainError(err, true)
		}
		return restore, "removed", nil
	}
	if err := m.secrets.Set(acct, value); err != nil {
		return nil, "", keychainError(err, false)
	}
	return restore, "stored", nil
}

// keySource says where p's key would come from, without reading it out, and
// why the keychain could not be read when it could not.
func (m *Manager) keySource(p store.Provider) (source, problem string) {
	_, source, problem = m.resolveKey(p)
	return source, problem
}

// resolveKey returns p's key for a call: the keychain's, else the value of
// the environment variable p.KeyEnv names. source is KeyFromKeychain,
// KeyFromEnv or KeyNone. problem is why the keychain could not be read.
func (m *Manager) resolveKey(p store.Provider) (key, source, problem string) {
	v, err := m.secrets.Get(account(p.ID))
	switch {
	case err == nil && strings.TrimSpace(v) != "":
		return strings.TrimSpace(v), KeyFromKeychain, ""
	case err != nil && !errors.Is(err, secrets.ErrNotFound):
		// secrets' errors never contain a value.
		problem = err.Error()
	}
	if p.KeyEnv != "" {
		if v, ok := m.opts.LookupEnv(p.KeyEnv); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v), KeyFromEnv, problem
		}
	}
	return "", KeyNone, problem
}

// redact removes key from msg, in case a provider echoed it in an error.
func redact(msg, key string) string {
	if key == "" {
		return msg
	}
	return strings.ReplaceAll(msg, key, "[redacted]")
}

// ReadableKeys counts the providers whose key the keychain holds and can
// read right now. The keychain status uses it so that it never calls a
// keychain unavailable while it serves a stored key.
func (m *Manager) ReadableKeys(ctx context.Context) int {
	rows, err := m.st.Providers(ctx)
	if err != nil {
		return 0
	}
	n := 0
	for _, p := range rows {
		if v, err := m.secrets.Get(account(p.ID)); err == nil && strings.TrimSpace(v) != "" {
			n++
		}
	}
	return n
}
