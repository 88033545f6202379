package mcppool

import (
	"errors"
	"time"
)

// errNoSettings: the service was built without a store (tests, tools).
var errNoSettings = errors.New("server defaults are not available: no settings store")

// settingStore returns the store the service keeps settings in: the one
// given with WithSavedRequests, when it keeps settings too (*store.Store
// does).
func (s *MCPPool) settingStore() SettingStore {
	st, _ := s.saved.(SettingStore)
	return st
}

// loadDefaults applies the stored defaults to the pool; NewService calls
// it, before the pool starts. A read failure keeps the built-in defaults.
func (s *MCPPool) loadDefaults() {
	st := s.settingStore()
	if st == nil {
		return
	}
	if _, err := LoadDefaults(s.pool.context(), st, s.pool); err != nil {
		s.pool.logger.Warn("server defaults; using the built-in ones", "err", err)
	}
}

// Defaults returns the application-wide server defaults (SPEC F1).
func (s *MCPPool) Defaults() (PoolDefaults, error) {
	st := s.settingStore()
	if st == nil {
		return PoolDefaults{TimeoutMs: int(s.pool.DefaultTimeout() / time.Millisecond)}, nil
	}
	return ReadDefaults(s.pool.context(), st)
}

// SaveDefaults validates d (timeout 1 s … 24 h; 0 means the built-in
// 60 s), stores it and applies it to the pool at once: every server
// without its own timeoutMs uses it from its next request. It returns what
// was stored.
func (s *MCPPool) SaveDefaults(d PoolDefaults) (PoolDefaults, error) {
	st := s.settingStore()
	if st == nil {
		return PoolDefaults{}, errNoSettings
	}
	d, err := WriteDefaults(s.pool.context(), st, d)
	if err != nil {
		return PoolDefaults{}, err
	}
	s.pool.SetDefaultTimeout(time.Duration(d.TimeoutMs) * time.Millisecond)
	return d, nil
}
