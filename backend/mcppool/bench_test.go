package mcppool

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// Tool-call overhead: echo calls through the Pool (supervision, limits,
// logger, redaction) against a bare mcp-go client on the same server.
// Compare ns/op of the two; BenchmarkEchoOverhead below measures the ratio.

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

// BenchmarkEchoOverhead interleaves blocks of echo calls through the Pool
// and through bare mcp-go clients on copies of the same server, so that
// machine load hits all alike (target: pool ≤ 1.05× the same-protocol
// client).
//
//   - same-ns/call: a bare client that says what the pool says — its
//     client info and capabilities (so each request under protocol
//     2026-07-28 carries the same _meta), a roots handler, and the tool
//     list fetched once, as every client does before calling. The
//     "ratio" is the pool against this one: what the pool's own code costs.
//   - min-ns/call: a bare client that declares nothing and never lists
//     tools; "protocol-ratio" is same against min, the cost of the
//     capabilities on the wire and in the server, which any client that
//     declares them pays.
func BenchmarkEchoOverhead(b *testing.B) {
	p := newBenchPool(b, stdioServer("bench"))
	waitState(b, p, "bench", events.StateConnected, 15*time.Second)
	ctx := context.Background()
	var sess *Session
	if err := p.Do(ctx, "bench", func(_ context.Context, s *Session) error { sess = s; return nil }); err != nil {
		b.Fatal(err)
	}
	caps := sess.Client.GetClientCapabilities()
	same := bareClient(b, mcp.Implementation{Name: "mcpdesk", Version: "dev"}, caps, true)
	minimal := bareClient(b, mcp.Implementation{Name: "bench"}, mcp.ClientCapabilities{}, false)

	args := map[string]any{"message": "hello"}
	req := mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "echo", Arguments: args}}
	const block = 50
	var pool, bareSame, bareMin time.Duration
	timed := func(n int, call func() error) time.Duration {
		start := time.Now()
		for range n {
			if err := call(); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i += block {
		n := min(block, b.N-i)
		pool += timed(n, func() error { _, err := p.CallTool(ctx, "bench", "echo", args); return err })
		bareSame += timed(n, func() error { _, err := same.CallTool(ctx, req); return err })
		bareMin += timed(n, func() error { _, err := minimal.CallTool(ctx, req); return err })
	}
	perCall := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
	b.ReportMetric(perCall(pool), "pool-ns/call")
	b.ReportMetric(perCall(bareSame), "same-ns/call")
	b.ReportMetric(perCall(bareMin), "min-ns/call")
	b.ReportMetric(float64(pool)/float64(bareSame), "ratio")
	b.ReportMetric(float64(bareSame)/float64(bareMin), "protocol-ratio")
}

// bareClient starts the test server under a plain mcp-go client that
// introduces itself as info with caps; withRoots adds a roots handler (as
// the pool has) and lists the tools once.
func bareClient(b *testing.B, info mcp.Implementation, caps mcp.ClientCapabilities, withRoots bool) *client.Client {
	b.Helper()
	var opts []client.ClientOption
	if withRoots {
		opts = append(opts, client.WithRootsHandler(noRoots{}))
	}
	c := client.NewClient(transport.NewStdio(testServerBin, os.Environ()), opts...)
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: info, Capabilities: caps}}); err != nil {
		b.Fatal(err)
	}
	if withRoots {
		if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

// newBenchPool starts a pool on servers whose events go where the app's
// go: encoded as JSON, as the Wails runtime does before handing them to the
// window (the tests' recording emitter also validates every payload, which
// the app does not).
func newBenchPool(b *testing.B, servers ...mcpconfig.Server) *Pool {
	b.Helper()
	path := filepath.Join(b.TempDir(), "mcp.config.json")
	if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: servers}); err != nil {
		b.Fatal(err)
	}
	p := New(Options{ConfigPath: path, Env: testEnv(), Emitter: jsonEmitter{}})
	if err := p.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(p.Close)
	return p
}

// jsonEmitter encodes each event and drops it.
type jsonEmitter struct{}

func (jsonEmitter) Emit(_ events.Name, payload any) { _, _ = json.Marshal(payload) }

type noRoots struct{}

func (noRoots) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{}, nil
}
