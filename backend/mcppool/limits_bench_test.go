//go:build linux

package mcppool

import (
	"context"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// Figures for the protections against a server that exhausts memory or
// CPU (issue 11, point 4); they print, they do not assert. Run with
//
//	go test -run '^$' -bench 'HugeLine|ListChangedStorm|RPCLogFlood' -benchtime 1x -v ./backend/mcp/

// BenchmarkHugeLine: peak resident memory of this process while a stdio
// server sends a 2 GB line without a newline (limit: the default 32 MB),
// until the server is stopped.
func BenchmarkHugeLine(b *testing.B) {
	for b.Loop() {
		srv := hostileServer(b, "huge", "huge-line", nil)
		srv.TimeoutMs = 30_000
		p, _ := newTestPool(b, srv)
		waitState(b, p, "huge", events.StateConnected, 15*time.Second)
		debug.FreeOSMemory()
		base := vmRSS()
		rss := sampleRSS()
		start := time.Now()
		_, err := p.CallTool(context.Background(), "huge", "huge-line", nil)
		st := waitState(b, p, "huge", events.StateFailed, 30*time.Second)
		took := time.Since(start)
		peak := rss.Stop()
		if _, ok := isMessageTooLarge(err); !ok {
			b.Fatalf("call error %v", err)
		}
		b.Logf("2 GB line, limit %d MB: RSS %d MB before, peak %d MB (+%d MB); stopped after %s: %q",
			mcpconfig.DefaultMaxMessageBytes>>20, base>>20, peak>>20, (peak-base)>>20, took.Round(time.Millisecond), st.Error)
		b.ReportMetric(float64(peak-base)/(1<<20), "peakRSS+MB")
		b.ReportMetric(float64(took.Milliseconds()), "ms-to-stop")
		p.Close()
	}
}

// BenchmarkListChangedStorm: CPU time (getrusage) and goroutines of this
// process while a server sends 100,000 tools/list_changed in about a
// second, and the latency of pings sent to that server during the storm.
func BenchmarkListChangedStorm(b *testing.B) {
	for b.Loop() {
		p, _ := newTestPool(b, hostileServer(b, "storm", "list-changed-storm", nil))
		waitState(b, p, "storm", events.StateConnected, 15*time.Second)
		ctx := context.Background()
		ping := func() time.Duration {
			start := time.Now()
			// A round trip through the server (on 2026-07-28 mcp-go's own
			// ping sends nothing).
			if _, err := p.CallTool(ctx, "storm", "ping", nil); err != nil {
				b.Fatal(err)
			}
			return time.Since(start)
		}
		idle := ping()

		var ru0 syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		g0 := runtime.NumGoroutine()
		stop := make(chan struct{})
		var wg sync.WaitGroup
		maxG := g0
		wg.Go(func() {
			for {
				maxG = max(maxG, runtime.NumGoroutine())
				select {
				case <-stop:
					return
				case <-time.After(2 * time.Millisecond):
				}
			}
		})
		start := time.Now()
		if _, err := p.CallTool(ctx, "storm", "list-changed-storm", map[string]any{"count": 100000}); err != nil {
			b.Fatal(err)
		}
		var lat []time.Duration
		var st stormStatus
		for {
			lat = append(lat, ping())
			callJSON(b, p, "storm", "storm-status", &st)
			if st.Done {
				break
			}
		}
		// The last ping's answer follows every notification of the storm.
		lat = append(lat, ping())
		took := time.Since(start)
		c := p.conn("storm")
		waitFor(b, 30*time.Second, "re-lists", func() bool { idle, _ := c.relistIdle(); return idle })
		close(stop)
		wg.Wait()
		var ru1 syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		cpu := tvDur(ru1.Utime) - tvDur(ru0.Utime) + tvDur(ru1.Stime) - tvDur(ru0.Stime)
		_, relists := c.relistIdle()
		slices.Sort(lat)
		b.Logf("100,000 list_changed in %s: CPU %s (%.0f%% of one core), goroutines %d before, at most %d during; %d re-lists; "+
			"ping %s idle, during the storm median %s, max %s (%d pings)",
			took.Round(time.Millisecond), cpu.Round(time.Millisecond), 100*cpu.Seconds()/took.Seconds(), g0, maxG, relists,
			idle.Round(time.Microsecond), lat[len(lat)/2].Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond), len(lat))
		b.ReportMetric(float64(cpu.Milliseconds()), "cpu-ms")
		b.ReportMetric(float64(maxG), "max-goroutines")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ping-ms")
		b.ReportMetric(float64(relists), "relists")
		p.Close()
	}
}

func tvDur(tv syscall.Timeval) time.Duration {
	return time.Duration(tv.Sec)*time.Second + time.Duration(tv.Usec)*time.Microsecond
}

// BenchmarkRPCLogFlood: what the JSON-RPC logger costs when 100,000
// messages arrive at once with nothing in front of it (the flood limits
// in front of it let about 250 a second per method through): time per
// message, and the heap it holds afterwards (bounded by its 5,000 entries).
func BenchmarkRPCLogFlood(b *testing.B) {
	for b.Loop() {
		l := NewRPCLog(0, 0, nil)
		msg := map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
		runtime.GC()
		var m0 runtime.MemStats
		runtime.ReadMemStats(&m0)
		start := time.Now()
		for range 100_000 {
			l.addLazy(events.RPCEntry{Server: "s", Method: "notifications/tools/list_changed"}, func() string { return serialise(msg) })
		}
		n := len(l.Entries())
		took := time.Since(start)
		runtime.GC()
		var m1 runtime.MemStats
		runtime.ReadMemStats(&m1)
		b.Logf("100,000 messages into the logger: %s (%.2f µs each), %d kept, heap +%d KB after",
			took.Round(time.Millisecond), float64(took.Microseconds())/100_000, n, (int64(m1.HeapAlloc)-int64(m0.HeapAlloc))>>10)
		b.ReportMetric(float64(took.Nanoseconds())/100_000, "ns/message")
		l.Close()
	}
}
