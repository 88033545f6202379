// Package secrets keeps secrets such as provider API keys out of the database:
// in the OS keychain (Secret Service on Linux, Keychain on macOS, Credential
// Manager on Windows) through [Keyring], or in memory through [Memory] for
// tests of the packages that use a [Store].
//
// Keys are app-level names such as "provider/openai". Values never appear in
// an error or a log line.
package secrets

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Store keeps secrets. Implementations are safe for concurrent use.
type Store interface {
	// Get returns the secret stored under key, or an error wrapping
	// ErrNotFound when there is none.
	Get(key string) (string, error)
	// Set stores value under key, replacing any previous value.
	Set(key, value string) error
	// Delete removes key; deleting an absent key is not an error.
	Delete(key string) error
}

// ErrNotFound is wrapped by the error of Get when the key has no secret. Test
// for it with errors.Is.
var ErrNotFound = errors.New("secret not found")

// UnavailableError says the keychain cannot be used. Reason tells the user
// what to do about it; Err is the error of the keychain library.
type UnavailableError struct {
	Reason string
	Err    error
}

// Error returns "keychain unavailable: <reason>".
func (e *UnavailableError) Error() string { return "keychain unavailable: " + e.Reason }

// Unwrap returns the error of the keychain library.
func (e *UnavailableError) Unwrap() error { return e.Err }

// errEmptyKey is returned for an empty key, which no keychain can look up.
var errEmptyKey = errors.New("empty secret key")

// notFound wraps ErrNotFound with the key, which is a name and not a secret.
func notFound(key string) error { return fmt.Errorf("secret %q: %w", key, ErrNotFound) }

// SetAll stores every value of put (key → value) in s, in key order, all or
// nothing: when one Set fails it deletes the keys it stored and returns the
// key that failed with its error.
func SetAll(s Store, put map[string]string) (failed string, err error) {
	var done []string
	for _, key := range slices.Sorted(maps.Keys(put)) {
		if err := s.Set(key, put[key]); err != nil {
			for _, d := range done {
				_ = s.Delete(d)
			}
			return key, err
		}
		done = append(done, key)
	}
	return "", nil
}
