package mcppool

import (
	"errors"
	"time"
)

// errNoSettings: the service was built without a store (tests, tools).
var errNoSettings = errors.New("server defaults are not available: no settings store")

// Defaults returns the application-wide server defaults (SPEC F1).
func (s *MCPPool) Defaults() (PoolDefaults, error) {
	st := s.settings
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
	st := s.settings
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
