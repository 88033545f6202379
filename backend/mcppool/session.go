package mcppool

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/apps"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/shellenv"
)

// Session is one live connection to one server: the mcp-go client, what the
// server said about itself, and — for stdio — the child process.
type Session struct {
	ServerID     string
	Client       *client.Client
	Info         mcp.Implementation
	Capabilities mcp.ServerCapabilities
	Instructions string
	Protocol     string
	Transport    mcpconfig.Transport

	proc     *process
	redact   *Redactor     // the server's secrets, as written and as expanded (redact.go)
	lost     chan struct{} // closed when the connection is known to be gone
	lostOnce sync.Once
	why      error // why lost was closed
}

// Lost is closed when the connection dropped: the child exited, or a remote
// transport reported the connection gone.
func (s *Session) Lost() <-chan struct{} { return s.lost }

// LostReason says why Lost was closed.
func (s *Session) LostReason() error { return s.why }

// Stderr returns the tail of a stdio server's standard error, with the
// server's secrets redacted.
func (s *Session) Stderr() string {
	if s.proc == nil {
		return ""
	}
	return s.redact.Redact(s.proc.stderr.String())
}

// Close ends the session: it closes the client and, for stdio, stops the
// child as the spec asks (close stdin, wait, SIGTERM, SIGKILL).
func (s *Session) Close() {
	if s.proc != nil {
		s.proc.Stop()
	}
	_ = s.Client.Close()
}

// dialer holds what every connection needs besides the server's own config.
type dialer struct {
	env        Environment
	log        *RPCLog
	clientInfo mcp.Implementation
	logger     *slog.Logger
	// secrets resolves keychain references in env and headers.
	secrets SecretStore
	// elicitor answers servers' questions; nil declares no elicitation.
	elicitor Elicitor
	// sampler returns the Sampler answering sampling/createMessage; nil,
	// or a nil result, declares no sampling.
	sampler func() Sampler
	// roots returns a server's current roots; nil uses the dialled config's.
	roots func(serverID string) []string
	// onNotification receives every server notification of a session.
	onNotification func(serverID string, n mcp.JSONRPCNotification)
	// auth wraps a remote server's HTTP transport with its authorization
	// (OAuth: backend/oauth.Transport); nil sends requests as they are.
	auth Authorizer
}

// Authorizer returns the round tripper that authorizes a remote server's
// requests on top of base (base itself when the server needs none).
type Authorizer func(srv mcpconfig.Server, base http.RoundTripper) http.RoundTripper

// Environment supplies the variables stdio servers start with and program
// lookup against them. See package shellenv for the login-shell version.
type Environment interface {
	// Environ returns the base environment as KEY=VALUE pairs.
	Environ(ctx context.Context) []string
	// LookPath finds program on the PATH of env.
	LookPath(program string, env []string) (string, error)
	// Expand replaces ${VAR} references in s using lookup.
	Expand(s string, lookup func(string) (string, bool)) (string, error)
	// CommandLine returns how to run a resolved program with args (on
	// Windows, .cmd shims run through cmd.exe, with a command line quoted
	// for it); an argument that cannot be passed safely is an error.
	CommandLine(resolved string, args []string) (shellenv.Command, error)
}

// DialError is a failed connection attempt, with the tail of the server's
// standard error when it is a stdio server. Its text and Stderr have the
// server's secrets (also those read from the environment) redacted.
type DialError struct {
	Err    error
	Stderr string
	Exited bool // the stdio child exited during the attempt

	redact *Redactor
}

func (e *DialError) Error() string { return e.redact.Redact(e.Err.Error()) }
func (e *DialError) Unwrap() error { return e.Err }

// dial connects to srv and performs the MCP handshake. The context bounds
// the handshake only; the session lives until Close.
func (d *dialer) dial(ctx context.Context, srv mcpconfig.Server) (*Session, error) {
	kind := srv.Effective()
	s := &Session{ServerID: srv.ID, Transport: kind, lost: make(chan struct{})}
	redact := NewRedactor(srv.SecretValues())
	// Every stream from the server is read through the size limit (limits.go).
	limit := newMessageLimit(messageLimitOf(srv), s.markLost)

	var inner transport.Interface
	switch kind {
	case mcpconfig.Stdio:
		proc, r, err := d.startStdio(ctx, srv, redact)
		redact, s.redact = r, r
		if err != nil {
			return nil, &DialError{Err: err, redact: redact}
		}
		s.proc = proc
		io := transport.NewIO(limit.lines(proc.stdout), proc.stdin, nil)
		// mcp-go logs to slog.Default otherwise: a reply written after the
		// child's stdin closed would reach the user's terminal.
		transport.WithCommandLogger(redactingLogger(d.logger, redact).With("server", srv.ID))(io)
		inner = io
	case mcpconfig.HTTP, mcpconfig.SSE:
		var base http.RoundTripper = http.DefaultTransport
		if d.auth != nil {
			base = d.auth(srv, base)
		}
		t, r, err := d.remoteTransport(ctx, srv, kind, limit.httpClient(base), redact)
		redact, s.redact = r, r
		if err != nil {
			return nil, &DialError{Err: err, redact: redact}
		}
		inner = t
	default:
		return nil, fmt.Errorf("unknown transport %q", kind)
	}

	wrapped := wrapTransport(inner, srv.ID, d.log, redact)
	var opts []client.ClientOption
	if srv.ProtocolVersion != "" {
		opts = append(opts, client.WithProtocolVersion(srv.ProtocolVersion))
	}
	if d.auth != nil && usesOAuth(srv) {
		// The authorizer signs in or refreshes inside the round trip of the
		// server/discover probe. mcp-go bounds that probe at 5 s and then
		// takes the server for a legacy one: a sign-in that takes longer
		// (a person at the browser, a loaded machine) sent initialize to a
		// 2026 server. The handshake's own deadline bounds the probe here.
		opts = append(opts, client.WithDiscoverTimeout(-1))
	}
	if d.elicitor != nil {
		opts = append(opts, client.WithElicitationHandler(elicitHandler{server: srv.ID, e: d.elicitor}))
	}
	if d.sampler != nil {
		if s := d.sampler(); s != nil {
			opts = append(opts, client.WithSamplingHandler(samplingHandler{server: srv.ID, s: s}))
		}
	}
	roots := d.roots
	if roots == nil {
		fixed := slices.Clone(srv.Roots)
		roots = func(string) []string { return fixed }
	}
	opts = append(opts, client.WithRootsHandler(rootsHandler{roots: func() []string { return roots(srv.ID) }, env: d.env}))
	c := client.NewClient(wrapped, opts...)
	s.Client = c
	fail := func(err error) (*Session, error) {
		if tooLarge := limit.tripped(); tooLarge != nil {
			s.Close()
			return nil, &DialError{Err: tooLarge, Stderr: s.Stderr(), redact: s.redact}
		}
		exited := false
		if s.proc != nil {
			// The transport may notice a closed pipe a moment before the
			// child is reaped; give the exit a moment to be seen, so the
			// user reads "exited" with the status, not a pipe error.
			select {
			case <-s.proc.Done():
				exited = true
				err = fmt.Errorf("%w (%v)", s.proc.ExitError(), err)
			case <-time.After(250 * time.Millisecond):
			}
		}
		s.Close()
		return nil, &DialError{Err: err, Stderr: s.Stderr(), Exited: exited, redact: s.redact}
	}

	// A remote transport's Start opens its streams; it must outlive this
	// handshake context, so it gets a context that is only cancelled by
	// Close.
	if err := c.Start(context.WithoutCancel(ctx)); err != nil {
		return fail(fmt.Errorf("start transport: %w", err))
	}
	if d.onNotification != nil {
		c.OnNotification(func(n mcp.JSONRPCNotification) { d.onNotification(srv.ID, n) })
	}
	c.OnConnectionLost(func(err error) { s.markLost(fmt.Errorf("connection lost: %w", err)) })

	if s.proc != nil {
		// If the child dies while we wait for its answer, fail now rather
		// than at the handshake timeout.
		hctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-s.proc.Done():
				cancel()
			case <-hctx.Done():
			}
		}()
		ctx = hctx
	}
	// MCP Apps: MCP Desk renders views (backend/apps, frontend views/).
	caps := mcp.ClientCapabilities{Extensions: map[string]any{
		apps.Extension: map[string]any{"mimeTypes": []string{apps.MIMEType}},
	}}
	if d.elicitor != nil {
		// Both modes: a form the dialog renders, and a URL the user opens
		// after a consent screen.
		caps.Elicitation = &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}}
	}
	init, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo:   d.clientInfo,
		Capabilities: caps,
	}})
	if err != nil {
		return fail(fmt.Errorf("initialize: %w", err))
	}
	s.Info = init.ServerInfo
	s.Capabilities = init.Capabilities
	s.Instructions = clipText(init.Instructions, maxInstructions) // read by the model every turn
	s.Protocol = c.ProtocolVersion()
	if s.Protocol == "" {
		s.Protocol = init.ProtocolVersion
	}
	if s.proc != nil {
		go func() {
			<-s.proc.Done()
			s.markLost(s.proc.ExitError())
		}()
	}
	return s, nil
}

// markLost closes lost with err; the first reason wins. Safe for
// concurrent use: the child's exit and a transport may report at once.
func (s *Session) markLost(err error) {
	s.lostOnce.Do(func() {
		s.why = err
		close(s.lost)
	})
}

// startStdio resolves the command against the login-shell environment and
// starts the child. It returns redact extended with the secrets that
// ${VAR} expansion produced (a token read from the environment), also when
// a later step fails, so that nothing downstream can quote them.
func (d *dialer) startStdio(ctx context.Context, srv mcpconfig.Server, redact *Redactor) (*process, *Redactor, error) {
	base := d.env.Environ(ctx)
	vars := envMap(base)
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	expanded := mcpconfig.Server{Env: make(map[string]string, len(srv.Env))}
	var fromKeychain []string
	done := func(p *process, err error) (*process, *Redactor, error) {
		return p, redact.with(expanded.SecretValues()).withKeychain(fromKeychain), err
	}

	env := append([]string(nil), base...)
	for _, k := range sortedKeys(srv.Env) {
		v, kc, err := d.pairValue(srv, mcpconfig.EnvPair, k, lookup)
		if err != nil {
			return done(nil, err)
		}
		if kc {
			fromKeychain = append(fromKeychain, v)
		}
		expanded.Env[k] = v
		env = append(env, k+"="+v)
	}
	// Server env may change PATH, so look up the program with it applied.
	merged := envMap(env)
	mergedLookup := func(k string) (string, bool) { v, ok := merged[k]; return v, ok }
	command, err := d.env.Expand(srv.Command, mergedLookup)
	if err != nil {
		return done(nil, fmt.Errorf("command: %w", err))
	}
	args := make([]string, len(srv.Args))
	for i, a := range srv.Args {
		if args[i], err = d.env.Expand(a, mergedLookup); err != nil {
			return done(nil, fmt.Errorf("args[%d]: %w", i, err))
		}
		expanded.Args = args[:i+1]
	}
	cwd, err := d.env.Expand(srv.Cwd, mergedLookup)
	if err != nil {
		return done(nil, fmt.Errorf("cwd: %w", err))
	}
	resolved, err := d.env.LookPath(command, flattenEnv(merged))
	if err != nil {
		return done(nil, err)
	}
	run, err := d.env.CommandLine(resolved, args)
	if err != nil {
		return done(nil, err)
	}
	return done(startProcess(processSpec{Path: run.Path, Args: run.Args, CmdLine: run.Line, Env: flattenEnv(merged), Dir: cwd}))
}

// pairValue returns the value srv's env variable or header name has at
// start: read from the keychain for a keychain reference (used as it is),
// else with ${VAR} references expanded; fromKeychain says which.
func (d *dialer) pairValue(srv mcpconfig.Server, kind mcpconfig.PairKind, name string, lookup func(string) (string, bool)) (value string, fromKeychain bool, err error) {
	raw := pairsOf(srv, kind)[name]
	if v, ok, err := resolveKeychain(d.secrets, srv.ID, kind, name, raw); ok {
		return v, true, err
	}
	v, err := d.env.Expand(raw, lookup)
	if err != nil {
		return "", false, fmt.Errorf("%s %s: %w", kind, name, err)
	}
	return v, false, nil
}

// remoteTransport builds a Streamable HTTP or SSE transport that sends its
// requests with hc. Like startStdio, it returns redact extended with the
// secrets expansion produced; the transport logs through it (mcp-go's
// errors quote the URL).
func (d *dialer) remoteTransport(ctx context.Context, srv mcpconfig.Server, kind mcpconfig.Transport, hc *http.Client, redact *Redactor) (transport.Interface, *Redactor, error) {
	vars := envMap(d.env.Environ(ctx))
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	headers := make(map[string]string, len(srv.Headers))
	expanded := mcpconfig.Server{Headers: headers}
	var fromKeychain []string
	for _, k := range sortedKeys(srv.Headers) {
		ev, kc, err := d.pairValue(srv, mcpconfig.HeaderPair, k, lookup)
		if err != nil {
			return nil, redact.with(expanded.SecretValues()).withKeychain(fromKeychain), err
		}
		if kc {
			fromKeychain = append(fromKeychain, ev)
		}
		headers[k] = ev
	}
	url, err := d.env.Expand(srv.URL, lookup)
	if err != nil {
		return nil, redact.with(expanded.SecretValues()).withKeychain(fromKeychain), fmt.Errorf("url: %w", err)
	}
	expanded.URL = url
	redact = redact.with(expanded.SecretValues()).withKeychain(fromKeychain)
	logger := redactingLogger(d.logger, redact).With("server", srv.ID)
	hc = withVersionRetry(hc) // request_meta.go
	if kind == mcpconfig.SSE {
		t, err := transport.NewSSE(url, transport.WithHeaders(headers), transport.WithHTTPClient(hc), transport.WithSSELogger(logger))
		return t, redact, err
	}
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(headers), transport.WithHTTPBasicClient(hc), transport.WithHTTPLogger(logger)}
	// The continuous GET stream carries server-initiated messages (list
	// changes, logs, requests outside a call) on 2025-11-25. Revision
	// 2026-07-28 removed it, so a server pinned to that revision goes
	// without; mcp-go then negotiates the stateless protocol.
	if !mcp.IsModernProtocol(srv.ProtocolVersion) {
		opts = append(opts, transport.WithContinuousListening())
	}
	t, err := transport.NewStreamableHTTP(url, opts...)
	return t, redact, err
}

// envMap turns KEY=VALUE pairs into a map; later pairs win.
func envMap(env []string) map[string]string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			m[k] = v
		}
	}
	return m
}

func flattenEnv(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, k+"="+m[k])
	}
	return out
}

// handshakeTimeout bounds connecting to one server.
const handshakeTimeout = 30 * time.Second

// ConnectOptions configures a one-off connection made outside a Pool, as
// the command line does.
type ConnectOptions struct {
	Env        Environment
	ClientInfo mcp.Implementation
	Logger     *slog.Logger
	// Log receives the session's JSON-RPC traffic; nil discards it.
	Log *RPCLog
	// OnNotification receives server notifications.
	OnNotification func(n mcp.JSONRPCNotification)
	// Elicitor answers the server's questions; nil declares no elicitation.
	Elicitor Elicitor
	// Auth authorizes a remote server's requests (OAuth); nil sends none.
	Auth Authorizer
}

// Connect dials one server and performs the handshake. The caller must
// Close the session; ctx bounds the handshake only.
func Connect(ctx context.Context, srv mcpconfig.Server, opts ConnectOptions) (*Session, error) {
	if opts.Log == nil {
		opts.Log = NewRPCLog(64, 0, nil)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	d := &dialer{env: opts.Env, log: opts.Log, clientInfo: opts.ClientInfo, logger: opts.Logger, elicitor: opts.Elicitor, auth: opts.Auth}
	if opts.OnNotification != nil {
		d.onNotification = func(_ string, n mcp.JSONRPCNotification) { opts.OnNotification(n) }
	}
	return d.dial(ctx, srv)
}
