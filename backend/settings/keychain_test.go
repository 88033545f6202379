package settings

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"mcpdesk/backend/secrets"
)

func TestKeychainStatus(t *testing.T) {
	locked := func() Prober {
		m := secrets.NewMemory()
		m.SetUnavailable("the keychain is locked")
		return m
	}
	cases := []struct {
		name          string
		opts          []Option
		state, reason string
		available     bool
		stored        int
	}{
		{"not configured", nil, KeychainUnavailable, "no keychain is configured", false, 0},
		{"self-test passes", []Option{WithKeychain(secrets.NewMemory())}, KeychainOK, "", true, 0},
		{"self-test fails, nothing stored", []Option{WithKeychain(locked())}, KeychainUnavailable, "the keychain is locked", false, 0},
		// A key stored earlier is read and used: the keychain is not
		// "unavailable", whatever the self-test said.
		{"self-test fails, a stored key reads", []Option{WithKeychain(locked()), WithStoredKeys(func() int { return 2 })}, KeychainReadOnly, "the keychain is locked", true, 2},
		{"other error", []Option{WithKeychain(proberFunc(func() error { return errors.New("boom") }))}, KeychainUnavailable, "boom", false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _, _ := newTest(t, c.opts...)
			got := s.KeychainStatus()
			if got.State != c.state || got.Reason != c.reason || got.Available != c.available || got.StoredKeys != c.stored || got.CheckedAt.IsZero() {
				t.Errorf("KeychainStatus() = %+v, want state %s, reason %q, available %v, stored %d", got, c.state, c.reason, c.available, c.stored)
			}
		})
	}
}

// TestKeychainStatusOncePerStart: the self-test runs once, however many
// screens ask at the same time, so its words cannot change between loads;
// RecheckKeychain runs it again.
func TestKeychainStatusOncePerStart(t *testing.T) {
	var probes atomic.Int32
	fail := atomic.Bool{}
	s, _, _ := newTest(t, WithKeychain(proberFunc(func() error {
		probes.Add(1)
		if fail.Load() {
			return &secrets.UnavailableError{Reason: "the keychain is locked"}
		}
		return nil
	})))
	var wg sync.WaitGroup
	results := make([]KeychainStatus, 8)
	for i := range results {
		wg.Go(func() { results[i] = s.KeychainStatus() })
	}
	wg.Wait()
	if n := probes.Load(); n != 1 {
		t.Fatalf("%d self-tests for 8 concurrent reads, want 1", n)
	}
	for _, r := range results {
		if r != results[0] {
			t.Fatalf("concurrent reads differ: %+v vs %+v", r, results[0])
		}
	}
	fail.Store(true)
	if got := s.KeychainStatus(); got.State != KeychainOK || probes.Load() != 1 {
		t.Errorf("a later read tested again or changed: %+v after %d probes", got, probes.Load())
	}
	if got := s.RecheckKeychain(); got.State != KeychainUnavailable || probes.Load() != 2 {
		t.Errorf("RecheckKeychain = %+v after %d probes", got, probes.Load())
	}
	if got := s.KeychainStatus(); got.State != KeychainUnavailable {
		t.Errorf("the status after Check again = %+v", got)
	}
}
