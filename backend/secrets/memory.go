package secrets

import (
	"fmt"
	"sync"
)

// Memory is a Store in memory, for tests of the packages that use secrets. It
// is safe for concurrent use.
type Memory struct {
	mu          sync.RWMutex
	m           map[string]string
	unavailable string
}

// NewMemory returns an empty Memory.
func NewMemory() *Memory { return &Memory{m: map[string]string{}} }

// SetUnavailable makes every later call fail with an *UnavailableError with
// reason, as a keychain that cannot be used would; an empty reason makes the
// store work again. Stored secrets are kept.
func (m *Memory) SetUnavailable(reason string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.unavailable = reason
}

// Get returns the secret stored under key or an error wrapping ErrNotFound.
func (m *Memory) Get(key string) (string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.check("get", key); err != nil {
		return "", err
	}
	v, ok := m.m[key]
	if !ok {
		return "", notFound(key)
	}
	return v, nil
}

// Set stores value under key.
func (m *Memory) Set(key, value string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check("set", key); err != nil {
		return err
	}
	m.m[key] = value
	return nil
}

// Delete removes key; an absent key is not an error.
func (m *Memory) Delete(key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check("delete", key); err != nil {
		return err
	}
	delete(m.m, key)
	return nil
}

// Probe returns nil, or the *UnavailableError set by SetUnavailable.
func (m *Memory) Probe() error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.unavailable != "" {
		return &UnavailableError{Reason: m.unavailable}
	}
	return nil
}

// check returns the error an operation fails with before it starts. The
// caller holds m.mu.
func (m *Memory) check(op, key string) error {
	if key == "" {
		return fmt.Errorf("%s secret: %w", op, errEmptyKey)
	}
	if m.unavailable != "" {
		return &UnavailableError{Reason: m.unavailable}
	}
	return nil
}
