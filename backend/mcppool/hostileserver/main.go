// Command hostileserver is an MCP server that attacks its client. Each
// attack is a mode, chosen with --mode; a test starts it as a real stdio
// (or HTTP) subprocess and checks that MCP Desk holds. Tests build it with
//
//	go build -o X mcpdesk/backend/mcp/hostileserver
//
// Usage:
//
//	hostileserver --mode NAME[,NAME…] [--transport stdio|http] [--addr 127.0.0.1:0]
//	hostileserver --list-modes
//
// Every mode lives in a file of its own (mode_*.go) and registers itself
// with register: it may add tools, resources and prompts to the server, add
// hooks, and write raw bytes to the client with host.Raw (stdio), bypassing
// the MCP library — a hostile server is not bound to speak valid JSON-RPC.
// Over http it prints "LISTENING <url>" once it accepts connections.
// Without --mode it is a well-behaved server with one tool, ping.
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
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// mode is one attack.
type mode struct {
	// name selects it with --mode.
	name string
	// doc says in one line what it sends.
	doc string
	// setup installs the attack on h before the server starts serving.
	setup func(h *host)
}

// modes are the registered attacks by name; filled by register from the
// mode_*.go files' init functions.
var modes = map[string]mode{}

// register adds m; two modes with one name are a programming error.
func register(m mode) {
	if _, dup := modes[m.name]; dup {
		panic("hostileserver: mode registered twice: " + m.name)
	}
	modes[m.name] = m
}

// host is what a mode works with.
type host struct {
	// Server is the MCP server; modes add tools, resources, prompts.
	Server *server.MCPServer
	// Hooks are the server's hooks (already installed).
	Hooks *server.Hooks
	// Raw writes bytes straight to the client's stdin (stdio only; nil
	// over http). Writes are serialised with the library's own replies, so
	// a raw line never lands in the middle of one.
	Raw io.Writer
	// Stderr is the server's standard error.
	Stderr io.Writer
	// Transport is "stdio" or "http".
	Transport string
	// Modes are the selected mode names.
	Modes []string
	// httpWrap, when set by a mode, wraps the HTTP handler (http only).
	httpWrap []func(http.Handler) http.Handler
}

// WrapHTTP lets a mode put a handler in front of the MCP endpoint over
// http (for hostile bodies and headers).
func (h *host) WrapHTTP(f func(http.Handler) http.Handler) { h.httpWrap = append(h.httpWrap, f) }

// lockedWriter serialises writes to the client.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hostileserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	modeList := fs.String("mode", "", "comma-separated attacks (see --list-modes)")
	list := fs.Bool("list-modes", false, "print the modes and what each sends, then exit")
	transport := fs.String("transport", "stdio", "stdio or http (Streamable HTTP)")
	addr := fs.String("addr", "127.0.0.1:0", "listen address for http")
	name := fs.String("name", "hostile", "server name reported in initialize")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *list {
		names := make([]string, 0, len(modes))
		for n := range modes {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(stdout, "%-24s %s\n", n, modes[n].doc)
		}
		return 0
	}
	if *transport != "stdio" && *transport != "http" {
		fmt.Fprintf(stderr, "hostileserver: --transport must be stdio or http, not %q\n", *transport)
		return 2
	}
	var selected []string
	for _, n := range strings.Split(*modeList, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		if _, ok := modes[n]; !ok {
			fmt.Fprintf(stderr, "hostileserver: unknown mode %q (see --list-modes)\n", n)
			return 2
		}
		if !slices.Contains(selected, n) {
			selected = append(selected, n)
		}
	}

	hooks := &server.Hooks{}
	s := server.NewMCPServer(*name, "1.0.0",
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(true, true),
		server.WithPromptCapabilities(true),
		server.WithLogging(),
		server.WithRecovery(),
		server.WithHooks(hooks),
	)
	s.AddTool(mcp.NewTool("ping", mcp.WithDescription("Answers pong."), mcp.WithReadOnlyHintAnnotation(true)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("pong"), nil
		})
	out := &lockedWriter{w: stdout}
	h := &host{Server: s, Hooks: hooks, Stderr: stderr, Transport: *transport, Modes: selected}
	if *transport == "stdio" {
		h.Raw = out
	}
	for _, n := range selected {
		modes[n].setup(h)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if *transport == "stdio" {
		srv := server.NewStdioServer(s)
		srv.SetErrorLogger(log.New(stderr, "hostileserver: ", 0))
		err = srv.Listen(ctx, stdin, out)
		if err != nil && (ctx.Err() != nil || errors.Is(err, io.EOF)) {
			err = nil
		}
	} else {
		err = serveHTTP(ctx, h, *addr, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "hostileserver: %v\n", err)
		return 1
	}
	return 0
}

// serveHTTP serves Streamable HTTP on addr until ctx ends.
func serveHTTP(ctx context.Context, h *host, addr string, stdout io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	httpSrv := &http.Server{ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(h.Stderr, "hostileserver: ", 0)}
	logger := slog.New(slog.NewTextHandler(h.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	mcpHandler := server.NewStreamableHTTPServer(h.Server,
		server.WithStreamableHTTPServer(httpSrv),
		server.WithStreamableHTTPLogger(logger),
	)
	var handler http.Handler = mcpHandler
	for _, wrap := range h.httpWrap {
		handler = wrap(handler)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	httpSrv.Handler = mux
	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(ln) }()
	fmt.Fprintf(stdout, "LISTENING http://%s/mcp\n", ln.Addr())
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = mcpHandler.Shutdown(sctx)
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
