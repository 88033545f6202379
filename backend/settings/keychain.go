package settings

import (
	"errors"
	"time"

	"mcpdesk/backend/secrets"
)

// Keychain states.
const (
	// KeychainOK: the self-test stored, read and deleted an entry.
	KeychainOK = "ok"
	// KeychainReadOnly: the self-test failed, but keys stored earlier can
	// be read and are used; saving a new key may fail.
	KeychainReadOnly = "read_only"
	// KeychainUnavailable: the self-test failed and no stored key can be
	// read.
	KeychainUnavailable = "unavailable"
)

// KeychainStatus says whether API keys can be kept in the OS keychain. It
// is computed once per start by a self-test (store, read and delete an
// entry) and again on RecheckKeychain, so every screen shows the same
// words. It never contradicts a stored key: when a key stored earlier can
// be read, the state is not "unavailable".
type KeychainStatus struct {
	State string `json:"state" ts_type:"'ok' | 'read_only' | 'unavailable'"`
	// Available is true unless State is "unavailable": keys can be read.
	Available bool `json:"available"`
	// Reason says why the self-test failed, in words that say what to do;
	// "" when it passed.
	Reason string `json:"reason"`
	// StoredKeys is how many provider keys in the keychain could be read.
	StoredKeys int `json:"storedKeys"`
	// CheckedAt is when the self-test ran.
	CheckedAt time.Time `json:"checkedAt"`
}

// Prober checks the keychain; *secrets.Keyring is one. Probe returns nil when
// the keychain is usable.
type Prober interface {
	Probe() error
}

// WithKeychain lets KeychainStatus test the keychain through p.
func WithKeychain(p Prober) Option { return func(s *Service) { s.prober = p } }

// WithStoredKeys tells KeychainStatus how many stored keys the keychain
// can read right now (the providers' keys), so that a failed self-test
// does not call a keychain that holds readable keys unavailable.
func WithStoredKeys(count func() int) Option { return func(s *Service) { s.storedKeys = count } }

// KeychainStatus returns the keychain's status of this run, testing it on
// the first call. The test writes and deletes an entry and may show the
// system's unlock prompt. Calls during a test wait for its result.
func (s *Service) KeychainStatus() KeychainStatus {
	s.kcMu.Lock()
	defer s.kcMu.Unlock()
	if s.kc == nil {
		st := s.checkKeychain()
		s.kc = &st
	}
	return *s.kc
}

// RecheckKeychain tests the keychain again (the "Check again" button) and
// returns the new status, which every later KeychainStatus returns.
func (s *Service) RecheckKeychain() KeychainStatus {
	s.kcMu.Lock()
	defer s.kcMu.Unlock()
	st := s.checkKeychain()
	s.kc = &st
	return st
}

func (s *Service) checkKeychain() KeychainStatus {
	st := KeychainStatus{State: KeychainOK, Available: true, CheckedAt: time.Now().UTC()}
	if s.storedKeys != nil {
		st.StoredKeys = s.storedKeys()
	}
	if s.prober == nil {
		st.State, st.Available, st.Reason = KeychainUnavailable, false, "no keychain is configured"
		return st
	}
	err := s.prober.Probe()
	if err == nil {
		s.logger.Info("keychain self-test passed", "stored_keys", st.StoredKeys)
		return st
	}
	var ue *secrets.UnavailableError
	if errors.As(err, &ue) {
		st.Reason = ue.Reason
	} else {
		st.Reason = err.Error()
	}
	if st.StoredKeys > 0 {
		st.State = KeychainReadOnly
	} else {
		st.State, st.Available = KeychainUnavailable, false
	}
	s.logger.Warn("keychain self-test failed", "state", st.State, "stored_keys", st.StoredKeys, "err", err)
	return st
}
