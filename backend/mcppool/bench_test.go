package mcppool

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// Tool-call overhead: echo calls through the Pool (supervision, limits,
// logger, redaction) against a bare mcp-go client on the same server.
// Compare ns/op of the two; the target is a ratio ≤ 1.10.

func BenchmarkEchoPool(b *testing.B) {
	p, _ := newTestPool(b, stdioServer("bench"))
	waitState(b, p, "bench", events.StateConnected, 15*time.Second)
	ctx := context.Background()
	args := map[string]any{"message": "hello"}
	b.ResetTimer()
	for b.Loop() {
		if _, err := p.CallTool(ctx, "bench", "echo", args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEchoBareClient(b *testing.B) {
	c, err := client.NewStdioMCPClient(testServerBin, os.Environ())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: "bench"}}}); err != nil {
		b.Fatal(err)
	}
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hello"}}}
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.CallTool(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConnectParallel measures starting N stdio servers at once, to
// the moment all are connected (target: 8 take ≤ 2× the time of 1).
//
// "start=0" servers are ready at once, so the figure is bound by CPU (8 Go
// processes starting on the machine's cores); "start=200ms" servers wait
// before serving, as a server does that loads something, which shows that
// the pool starts them side by side rather than one after another.
func BenchmarkConnectParallel(b *testing.B) {
	for _, delay := range []string{"0s", "200ms"} {
		for _, n := range []int{1, 8} {
			b.Run(fmt.Sprintf("start=%s/servers=%d", delay, n), func(b *testing.B) {
				benchConnect(b, n, delay)
			})
		}
	}
}

func benchConnect(b *testing.B, n int, delay string) {
	servers := make([]mcpconfig.Server, n)
	for i := range servers {
		servers[i] = stdioServer(fmt.Sprintf("s%d", i), "--start-delay", delay)
	}
	for b.Loop() {
		b.StopTimer()
		path := b.TempDir() + "/mcp.config.json"
		if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: servers}); err != nil {
			b.Fatal(err)
		}
		p := New(Options{ConfigPath: path, Env: testEnv()})
		b.StartTimer()
		if err := p.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		for _, s := range servers {
			waitState(b, p, s.ID, events.StateConnected, 30*time.Second)
		}
		b.StopTimer()
		p.Close()
		b.StartTimer()
	}
}

// BenchmarkEchoOverhead interleaves blocks of echo calls through the Pool and
// through a bare mcp-go client on two copies of the same server, so that
// machine load hits both alike, and reports their ratio (target ≤ 1.10).
func BenchmarkEchoOverhead(b *testing.B) {
	p, _ := newTestPool(b, stdioServer("bench"))
	waitState(b, p, "bench", events.StateConnected, 15*time.Second)
	c, err := client.NewStdioMCPClient(testServerBin, os.Environ())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: "bench"}}}); err != nil {
		b.Fatal(err)
	}
	args := map[string]any{"message": "hello"}
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "echo", Arguments: args}}
	const block = 50
	var pool, bare time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i += block {
		n := min(block, b.N-i)
		start := time.Now()
		for range n {
			if _, err := p.CallTool(ctx, "bench", "echo", args); err != nil {
				b.Fatal(err)
			}
		}
		pool += time.Since(start)
		start = time.Now()
		for range n {
			if _, err := c.CallTool(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
		bare += time.Since(start)
	}
	b.ReportMetric(float64(pool.Nanoseconds())/float64(b.N), "pool-ns/call")
	b.ReportMetric(float64(bare.Nanoseconds())/float64(b.N), "bare-ns/call")
	b.ReportMetric(float64(pool)/float64(bare), "ratio")
}
