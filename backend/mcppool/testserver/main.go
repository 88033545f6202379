// Command testserver is MCP Desk's own MCP server for tests: deterministic
// tools, resources and prompts over stdio, Streamable HTTP or legacy SSE,
// on both protocol revisions mcp-go serves (2025-11-25 and 2026-07-28).
// Tests build it with
//
//	go build -o X mcpdesk/backend/mcp/testserver
//
// Usage:
//
//	testserver [--transport stdio|http|sse] [--addr 127.0.0.1:0] [--name NAME]
//	           [--instructions TEXT] [--stderr TEXT] [--exit-after-start] [--tools N] [--resources N] [--page-size N] [--start-delay D]
//
// Over http and sse it prints "LISTENING <url>" on a line of its own once
// it accepts connections, where url is the full endpoint
// (http://127.0.0.1:PORT/mcp or http://127.0.0.1:PORT/sse). It exits
// cleanly at the end of standard input (stdio) and on SIGTERM or SIGINT.
//
// Tools: echo, add, sleep (with progress), crash (exits mid-call), env,
// fail (isError), structured (structuredContent + outputSchema), big, log,
// add_tool (list_changed), update_resource (resources/updated), plus
// --tools N generated tools tool_0001…. Resources: test://hello,
// test://data.json and the template test://items/{id}. Prompt: greet.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"

	"mcpdesk/backend/oauth/oauthtest"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// exitAfterStart is the status of --exit-after-start, distinct from a crash
// (1) and a usage error (2).
const exitAfterStart = 3

// config is what the flags select.
type config struct {
	// oauth puts the http server behind a test authorization server
	// (backend/oauth/oauthtest) that approves every sign-in at once.
	oauth          bool
	transport      string
	addr           string
	name           string
	instructions   string
	stderr         string
	exitAfterStart bool
	tools          int
	startDelay     time.Duration
	resources      int
	pageSize       int
	apps           bool
	viewRev        string
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole program; it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var cfg config
	fs := flag.NewFlagSet("testserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.transport, "transport", "stdio", "transport: stdio, http (Streamable HTTP) or sse (legacy SSE)")
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:0", "listen address for http and sse")
	fs.StringVar(&cfg.viewRev, "view-rev-file", "", "with --apps: end the counter view's HTML with the contents of this file, read at each resources/read (another HTML behind the same URI)")
	fs.BoolVar(&cfg.apps, "apps", false, "also serve MCP Apps: show_counter and show_hostile with views, counter_add (views only), model_only (the model only)")
	fs.BoolVar(&cfg.oauth, "oauth", false, "with --transport http: require OAuth from a test authorization server on the same port that approves at once (POST /_test/expire and /_test/revoke expire or revoke every token)")
	fs.StringVar(&cfg.name, "name", "mcpdesk-testserver", "server name reported in initialize")
	fs.StringVar(&cfg.instructions, "instructions", "", "server instructions reported in initialize")
	fs.StringVar(&cfg.stderr, "stderr", "", "write this line to standard error at start")
	fs.BoolVar(&cfg.exitAfterStart, "exit-after-start", false, fmt.Sprintf("exit with status %d right after start, without serving", exitAfterStart))
	fs.IntVar(&cfg.tools, "tools", 0, "register this many extra generated tools (tool_0001…)")
	fs.IntVar(&cfg.resources, "resources", 0, "register this many extra generated resources (test://generated/0001…)")
	fs.IntVar(&cfg.pageSize, "page-size", 0, "list at most this many items per page (0: no pagination)")
	fs.DurationVar(&cfg.startDelay, "start-delay", 0, "wait this long before serving, as a server that loads something at start")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "testserver: unexpected arguments %q\n", fs.Args())
		return 2
	}
	switch cfg.transport {
	case "stdio", "http", "sse":
	default:
		fmt.Fprintf(stderr, "testserver: --transport must be stdio, http or sse, not %q\n", cfg.transport)
		return 2
	}
	if cfg.stderr != "" {
		fmt.Fprintln(stderr, cfg.stderr)
	}
	if cfg.exitAfterStart {
		return exitAfterStart
	}
	time.Sleep(cfg.startDelay)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s := newServer(cfg)
	var err error
	if cfg.transport == "stdio" {
		err = serveStdio(ctx, s, stdin, stdout, stderr)
	} else {
		err = serveHTTP(ctx, s, cfg, stdout, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "testserver: %v\n", err)
		return 1
	}
	return 0
}

// serveStdio serves until stdin ends or ctx is cancelled.
func serveStdio(ctx context.Context, s *server.MCPServer, stdin io.Reader, stdout, stderr io.Writer) error {
	srv := server.NewStdioServer(s)
	srv.SetErrorLogger(log.New(stderr, "testserver: ", 0))
	// Enough workers that concurrency tests are limited by the client,
	// not by the server's pool.
	server.WithWorkerPoolSize(64)(srv)
	err := srv.Listen(ctx, stdin, stdout)
	if err != nil && ctx.Err() != nil {
		return nil // a signal: clean shutdown
	}
	return err
}

// serveHTTP listens on cfg.addr, announces the endpoint on stdout and
// serves until ctx is cancelled.
func serveHTTP(ctx context.Context, s *server.MCPServer, cfg config, stdout, stderr io.Writer) error {
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	base := "http://" + ln.Addr().String()
	httpSrv := &http.Server{ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(stderr, "testserver: ", 0)}

	var endpoint string
	var shutdown func(context.Context) error
	switch cfg.transport {
	case "http":
		logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
		h := server.NewStreamableHTTPServer(s,
			server.WithStreamableHTTPServer(httpSrv),
			server.WithStreamableHTTPLogger(logger),
			server.WithHeartbeatInterval(15*time.Second),
		)
		if cfg.oauth {
			ln.Close()
			as := oauthtest.New(oauthtest.Options{Resource: h, Revocation: true, ScopesSupported: []string{"mcp:tools"}, Control: true, Account: "ada@example.com"})
			fmt.Fprintf(stdout, "LISTENING %s\n", as.MCPURL())
			<-ctx.Done()
			as.CloseClientConnections()
			as.Close()
			return nil
		}
		mux := http.NewServeMux()
		mux.Handle("/mcp", h)
		httpSrv.Handler = mux
		endpoint, shutdown = base+"/mcp", h.Shutdown
	case "sse":
		h := server.NewSSEServer(s,
			server.WithBaseURL(base),
			server.WithHTTPServer(httpSrv),
			server.WithKeepAlive(true),
		)
		httpSrv.Handler = h
		endpoint, shutdown = base+"/sse", h.Shutdown
	}

	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(ln) }()
	// The listener already accepts connections: announce it.
	fmt.Fprintf(stdout, "LISTENING %s\n", endpoint)

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shut down: %w", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
