package mcppool

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"mcpdesk/backend/mcpconfig"
)

// Application-wide defaults of the pool (SPEC F1). A server's own settings
// in mcp.config.json win; the defaults cover servers that leave them out.
// They live in the database, not in the config file, so that the window and
// the command line share them and the config stays portable.

// PoolDefaults are the pool's application-wide settings.
type PoolDefaults struct {
	// TimeoutMs is how long one request to a server without its own
	// timeoutMs may take (default 60 000); progress notifications restart
	// the clock.
	TimeoutMs int `json:"timeoutMs"`
}

// Limits of PoolDefaults.TimeoutMs: 1 s … 24 h.
const (
	MinDefaultTimeoutMs = 1000
	MaxDefaultTimeoutMs = 24 * 60 * 60 * 1000
)

// defaultsKey is the settings key holding PoolDefaults.
const defaultsKey = "mcp.defaults"

// SettingStore keeps application settings as JSON by key; *store.Store is
// one.
type SettingStore interface {
	GetSetting(ctx context.Context, key string, into any) (found bool, err error)
	PutSetting(ctx context.Context, key string, v any) error
}

// DefaultPoolDefaults returns the defaults of a new installation.
func DefaultPoolDefaults() PoolDefaults {
	return PoolDefaults{TimeoutMs: mcpconfig.DefaultTimeoutMs}
}

func (d PoolDefaults) withDefaults() PoolDefaults {
	if d.TimeoutMs <= 0 {
		d.TimeoutMs = mcpconfig.DefaultTimeoutMs
	}
	return d
}

// Validate reports a value outside its range, naming the range.
func (d PoolDefaults) Validate() error {
	if d.TimeoutMs < MinDefaultTimeoutMs || d.TimeoutMs > MaxDefaultTimeoutMs {
		return fmt.Errorf("the default server timeout must be from 1 s to 24 h (%d to %d ms), not %d ms",
			MinDefaultTimeoutMs, MaxDefaultTimeoutMs, d.TimeoutMs)
	}
	return nil
}

// ReadDefaults returns the defaults stored in st, filled in; nothing stored
// means DefaultPoolDefaults.
func ReadDefaults(ctx context.Context, st SettingStore) (PoolDefaults, error) {
	var d PoolDefaults
	if _, err := st.GetSetting(ctx, defaultsKey, &d); err != nil {
		return DefaultPoolDefaults(), fmt.Errorf("read server defaults: %w", err)
	}
	return d.withDefaults(), nil
}

// WriteDefaults validates d (a zero field means its default), stores it in
// st and returns what was stored. It does not touch any pool.
func WriteDefaults(ctx context.Context, st SettingStore, d PoolDefaults) (PoolDefaults, error) {
	d = d.withDefaults()
	if err := d.Validate(); err != nil {
		return PoolDefaults{}, fmt.Errorf("save server defaults: %w", err)
	}
	if err := st.PutSetting(ctx, defaultsKey, d); err != nil {
		return PoolDefaults{}, fmt.Errorf("save server defaults: %w", err)
	}
	return d, nil
}

// timeoutSlot holds the pool's default request timeout; zero means
// mcpconfig.DefaultTimeoutMs. Connections read it on every request, so a
// change applies to the next request of every server.
type timeoutSlot struct{ ns atomic.Int64 }

func (s *timeoutSlot) get() time.Duration {
	if d := time.Duration(s.ns.Load()); d > 0 {
		return d
	}
	return mcpconfig.DefaultTimeoutMs * time.Millisecond
}

// SetDefaultTimeout sets how long a request to a server without its own
// timeoutMs may take; d <= 0 restores the built-in 60 s. Requests already
// running keep the limit they started with.
func (p *Pool) SetDefaultTimeout(d time.Duration) { p.defaultTimeout.ns.Store(max(int64(d), 0)) }

// DefaultTimeout returns the request timeout of servers without their own.
func (p *Pool) DefaultTimeout() time.Duration { return p.defaultTimeout.get() }
