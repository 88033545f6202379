package mcppool

import (
	"context"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/store"
)

// The default server timeout is a stored setting: a server without its own
// timeoutMs times out at it, from its next request and without a
// reconnect; a server's own timeoutMs wins; a new service over the same
// database applies it before the pool starts.
func TestDefaultTimeoutSetting(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })

	own := stdioServer("own")
	own.TimeoutMs = 20_000
	p, _ := newTestPool(t, stdioServer("plain"), own)
	svc := NewService(p, nil, WithSettings(st))
	waitState(t, p, "plain", events.StateConnected, 15*time.Second)
	waitState(t, p, "own", events.StateConnected, 15*time.Second)

	if d, err := svc.Defaults(); err != nil || d.TimeoutMs != 60_000 {
		t.Fatalf("Defaults() of a new installation = %+v, %v; want 60000 ms", d, err)
	}
	if got, err := svc.SaveDefaults(PoolDefaults{TimeoutMs: 1000}); err != nil || got.TimeoutMs != 1000 {
		t.Fatalf("SaveDefaults(1000) = %+v, %v", got, err)
	}

	// The connected server picks the new limit up on its next request.
	start := time.Now()
	_, err = p.CallTool(context.Background(), "plain", "sleep", map[string]any{"ms": 10_000})
	if err == nil || !strings.Contains(err.Error(), "did not answer within 1 s") {
		t.Fatalf("sleep on a server without its own timeout: want a 1 s timeout, got %v", err)
	}
	if took := time.Since(start); took > 8*time.Second {
		t.Errorf("the timeout took %s", took)
	}
	// Its own timeoutMs wins over the default.
	res, err := p.CallTool(context.Background(), "own", "sleep", map[string]any{"ms": 1500})
	if err != nil || resultText(res) != "slept 1500 ms" {
		t.Fatalf("sleep on a server with its own 20 s timeout = %v, %v", res, err)
	}

	// Read at startup: a pool built with the stored defaults (as
	// backend/core builds it) applies them; without, the built-in 60 s.
	if p2 := New(Options{}); p2.DefaultTimeout() != 60*time.Second {
		t.Fatalf("a fresh pool's default = %s", p2.DefaultTimeout())
	}
	d, err := ReadDefaults(context.Background(), st)
	if err != nil || d.TimeoutMs != 1000 {
		t.Fatalf("ReadDefaults = %+v, %v; want the stored 1000 ms", d, err)
	}
	if p2 := New(Options{Defaults: d}); p2.DefaultTimeout() != time.Second {
		t.Errorf("a pool built with the stored defaults has %s, want 1s", p2.DefaultTimeout())
	}
}

func TestSaveDefaultsValidation(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p, _ := newTestPool(t)
	svc := NewService(p, nil, WithSettings(st))

	for _, c := range []struct {
		in      int
		want    int
		wantErr bool
	}{
		{in: 0, want: 60_000}, // zero means the built-in default
		{in: 1000, want: 1000},
		{in: 24 * 60 * 60 * 1000, want: 24 * 60 * 60 * 1000},
		{in: 999, wantErr: true},
		{in: 24*60*60*1000 + 1, wantErr: true},
		{in: -5, want: 60_000},
	} {
		got, err := svc.SaveDefaults(PoolDefaults{TimeoutMs: c.in})
		if c.wantErr {
			if err == nil || !strings.Contains(err.Error(), "from 1 s to 24 h") {
				t.Errorf("SaveDefaults(%d) = %+v, %v; want an error naming the range", c.in, got, err)
			}
			continue
		}
		if err != nil || got.TimeoutMs != c.want {
			t.Errorf("SaveDefaults(%d) = %+v, %v; want %d", c.in, got, err, c.want)
		}
		if p.DefaultTimeout() != time.Duration(c.want)*time.Millisecond {
			t.Errorf("SaveDefaults(%d): pool default %s", c.in, p.DefaultTimeout())
		}
		if read, err := svc.Defaults(); err != nil || read != got {
			t.Errorf("Defaults() after SaveDefaults(%d) = %+v, %v", c.in, read, err)
		}
	}
	// A refused value leaves the stored one.
	if _, err := svc.SaveDefaults(PoolDefaults{TimeoutMs: 5000}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SaveDefaults(PoolDefaults{TimeoutMs: 10}); err == nil {
		t.Fatal("10 ms accepted")
	}
	if d, _ := svc.Defaults(); d.TimeoutMs != 5000 || p.DefaultTimeout() != 5*time.Second {
		t.Errorf("after a refused save: stored %+v, pool %s", d, p.DefaultTimeout())
	}

	// Without a store there is nothing to save to.
	bare := NewService(p, nil)
	if _, err := bare.SaveDefaults(PoolDefaults{TimeoutMs: 5000}); err == nil {
		t.Error("SaveDefaults without a store succeeded")
	}
	if d, err := bare.Defaults(); err != nil || d.TimeoutMs != 5000 {
		t.Errorf("Defaults without a store = %+v, %v; want the pool's", d, err)
	}
}
