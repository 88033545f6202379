// Package mcppool is the app's MCP client side: the pool of server connections
// (one per configured server id), their supervision, the JSON-RPC logger,
// and MCPPool, the service bound to the frontend.
//
// Pool is the engine used from Go (the chat loop, the command line);
// MCPPool is its deliberately small surface for the UI.
package mcppool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool/naming"
	"mcpdesk/backend/usererr"
)

// Options configures a Pool. The zero value of an optional field picks a
// sensible default.
type Options struct {
	// ConfigPath is the mcp.config.json the pool reads and writes.
	ConfigPath string
	// Watch reloads the config when the file changes on disk.
	Watch bool
	// Env supplies the environment of stdio servers. Required.
	Env Environment
	// ClientInfo is how the app introduces itself to servers.
	ClientInfo mcp.Implementation
	Emitter    events.Emitter
	Logger     *slog.Logger
	// Log receives every JSON-RPC message; a new one is made when nil.
	Log *RPCLog
	// Elicitor answers servers' questions (SPEC A10); nil declares no
	// elicitation capability.
	Elicitor Elicitor
	// Sampler answers servers' sampling/createMessage (SPEC A11); nil
	// declares no sampling capability. See also Pool.SetSampler.
	Sampler Sampler
	// Secrets holds the env and header values kept in the OS keychain
	// (see keychain.go); nil: references to it fail to resolve.
	Secrets SecretStore
	// Defaults are the application-wide settings (ReadDefaults reads the
	// stored ones); zero fields keep the built-in values.
	Defaults PoolDefaults
	// SignIn configures OAuth sign-ins to remote servers (auth.go).
	SignIn SignInOptions
}

// Pool holds one supervised connection per configured server.
type Pool struct {
	opts   Options
	emit   events.Emitter
	logger *slog.Logger
	log    *RPCLog
	dialer *dialer
	calls  *calls
	// sampling holds the Sampler connections install as they dial.
	sampling samplerSlot
	// defaultTimeout limits requests to servers without their own timeoutMs.
	defaultTimeout timeoutSlot
	// history keeps each server's recent starts and why (history.go).
	history startHistory
	// signIns notes the servers that wait for a sign-in (auth.go).
	signIns signIns
	// apps are the MCP Apps views read and shown (views.go).
	apps viewSet

	ctx    context.Context
	cancel context.CancelFunc

	writeMu sync.Mutex // serialises config writes

	mu     sync.Mutex
	cfg    *mcpconfig.Config
	cfgErr error // the file on disk is invalid; cfg is the last good one
	conns  map[string]*conn
	table  *naming.Table
}

// New returns a pool that does nothing until Start.
func New(opts Options) *Pool {
	if opts.Emitter == nil {
		opts.Emitter = events.Discard{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Log == nil {
		opts.Log = NewRPCLog(0, 0, opts.Emitter)
	}
	if opts.ClientInfo.Name == "" {
		opts.ClientInfo = mcp.Implementation{Name: "mcpdesk", Version: "dev"}
	}
	p := &Pool{
		opts:   opts,
		emit:   opts.Emitter,
		logger: opts.Logger,
		log:    opts.Log,
		cfg:    &mcpconfig.Config{},
		conns:  map[string]*conn{},
		table:  naming.Build(nil),
		calls:  newCalls(opts.Emitter),
	}
	p.initViews()
	p.sampling.set(opts.Sampler)
	p.SetDefaultTimeout(time.Duration(opts.Defaults.TimeoutMs) * time.Millisecond)
	p.dialer = &dialer{
		env:        opts.Env,
		log:        opts.Log,
		clientInfo: opts.ClientInfo,
		logger:     opts.Logger,
		secrets:    opts.Secrets,
		elicitor:   opts.Elicitor,
		sampler:    p.sampling.get,
		roots: func(id string) []string {
			if c := p.conn(id); c != nil {
				return c.roots()
			}
			return nil
		},
		onNotification: func(id string, n mcp.JSONRPCNotification) {
			if c := p.conn(id); c != nil {
				c.handleNotification(n)
			}
		},
		auth: p.authorizer,
	}
	return p
}

// Start loads the config and connects every enabled server in parallel; it
// returns at once, with servers reporting their progress as events. The
// pool lives until ctx ends or Close. A config that fails to load is
// returned as the error and reported as an event; the pool then runs with
// no servers and refuses writes until the file is fixed.
func (p *Pool) Start(ctx context.Context) error {
	p.ctx, p.cancel = context.WithCancel(ctx)
	cfg, err := mcpconfig.Load(p.opts.ConfigPath)
	if err != nil {
		p.setConfigError(err)
	} else {
		p.apply(cfg)
	}
	if p.opts.Watch {
		go mcpconfig.Watch(p.ctx, p.opts.ConfigPath, func(cfg *mcpconfig.Config, err error) {
			if err != nil {
				p.setConfigError(err)
				return
			}
			p.apply(cfg)
		})
	}
	return err
}

// Close disconnects every server and waits until all children are gone.
func (p *Pool) Close() {
	if p.cancel != nil {
		p.cancel()
	}
	p.mu.Lock()
	conns := slices.Collect(maps.Values(p.conns))
	p.conns = map[string]*conn{}
	p.mu.Unlock()
	stopAll(conns)
	p.log.Close()
}

func stopAll(conns []*conn) {
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(c.stop)
	}
	wg.Wait()
}

func (p *Pool) setConfigError(err error) {
	p.mu.Lock()
	p.cfgErr = err
	p.mu.Unlock()
	p.logger.Warn("mcp config invalid; keeping the last good one", "file", p.opts.ConfigPath, "err", err)
	p.emit.Emit(events.ConfigError, events.ConfigErrorPayload{File: p.opts.ConfigPath, Message: err.Error()})
}

// apply makes the running connections match cfg: new servers start,
// removed ones stop, changed ones restart, unchanged ones are left alone.
// No lock is held while a server starts or stops.
func (p *Pool) apply(cfg *mcpconfig.Config) {
	p.mu.Lock()
	p.cfg, p.cfgErr = cfg, nil
	var stale []*conn
	var fresh []*conn
	type clientSideUpdate struct {
		c    *conn
		next mcpconfig.Server
	}
	var inPlace []clientSideUpdate
	want := map[string]bool{}
	for _, s := range cfg.Servers {
		want[s.ID] = true
		if old, ok := p.conns[s.ID]; ok {
			cur := old.config()
			if reflect.DeepEqual(cur, s) {
				continue
			}
			if sameButClientSide(cur, s) {
				inPlace = append(inPlace, clientSideUpdate{old, s})
				continue
			}
			stale = append(stale, old)
		}
		c := newConn(p, s)
		if old, ok := p.conns[s.ID]; ok {
			c.cause = causeConfigChanged
			if !isEnabled(old.config()) {
				c.cause = causeEnabled
			}
		}
		p.conns[s.ID] = c
		fresh = append(fresh, c)
	}
	for id, c := range p.conns {
		if !want[id] {
			stale = append(stale, c)
			delete(p.conns, id)
			p.history.forget(id)
		}
	}
	ids := p.idsLocked()
	p.mu.Unlock()

	for _, u := range inPlace {
		u.c.setClientSide(u.next)
	}
	// Stop replaced connections before their successors spawn.
	stopAll(stale)
	for _, c := range fresh {
		c.start(p.ctx)
	}
	if len(stale) > 0 || len(fresh) > 0 {
		p.toolsChanged()
	}
	p.emit.Emit(events.ServersChanged, events.ServersChangedPayload{IDs: ids})
}

func (p *Pool) idsLocked() []string {
	ids := make([]string, 0, len(p.cfg.Servers))
	for _, s := range p.cfg.Servers {
		ids = append(ids, s.ID)
	}
	return ids
}

func (p *Pool) conn(id string) *conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.conns[id]
}

// ServerState pairs a server's configuration with its live status.
type ServerState struct {
	Config mcpconfig.Server
	Status events.ServerStatusPayload
}

// Servers returns every configured server in config order.
func (p *Pool) Servers() []ServerState {
	p.mu.Lock()
	servers := slices.Clone(p.cfg.Servers)
	conns := maps.Clone(p.conns)
	p.mu.Unlock()
	out := make([]ServerState, 0, len(servers))
	for _, s := range servers {
		st := events.ServerStatusPayload{ID: s.ID, State: events.StateDisabled, Transport: string(s.Effective())}
		if c := conns[s.ID]; c != nil {
			st = c.snapshot()
		}
		out = append(out, ServerState{Config: s, Status: st})
	}
	return out
}

// Status returns one server's status.
func (p *Pool) Status(id string) (events.ServerStatusPayload, error) {
	c := p.conn(id)
	if c == nil {
		return events.ServerStatusPayload{}, unknownServer(id)
	}
	return c.snapshot(), nil
}

func unknownServer(id string) error {
	return usererr.New(usererr.CallNoServer, usererr.Params{"server": id})
}

// Restart reconnects a server now, also one that failed or gave up.
func (p *Pool) Restart(id string) error {
	c := p.conn(id)
	if c == nil {
		return unknownServer(id)
	}
	if !isEnabled(c.config()) {
		return usererr.New(usererr.CallServerDisabled, usererr.Params{"server": id})
	}
	c.requestRestart()
	return nil
}

// Do runs fn with a server's session, within the server's concurrency limit
// and timeout. A server that is not connected fails at once with a message
// that says its state.
func (p *Pool) Do(ctx context.Context, id string, fn func(ctx context.Context, s *Session) error) error {
	c := p.conn(id)
	if c == nil {
		return unknownServer(id)
	}
	sess, release, err := c.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	// An error may quote the server's URL or echo its key.
	err = sess.RedactError(withLostReason(fn(ctx, sess), sess))
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
		return usererr.Wrap(err, usererr.CallTimeout, usererr.Params{"server": id, "timeout": c.timeout()})
	}
	return err
}

// CallTool calls one tool. A tool that fails reports it in the result
// (IsError), not as an error; an error means the call itself failed.
func (p *Pool) CallTool(ctx context.Context, id, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	if args == nil {
		args = map[string]any{} // "arguments": null is refused by some servers
	}
	var res *mcp.CallToolResult
	err := p.Do(ctx, id, func(ctx context.Context, s *Session) error {
		var err error
		res, err = s.Client.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
		res = s.scrubResult(res)
		return err
	})
	return res, err
}

// Tools returns the tools a connected server offers.
func (p *Pool) Tools(id string) ([]mcp.Tool, error) {
	c := p.conn(id)
	if c == nil {
		return nil, unknownServer(id)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.tools), nil
}

// ToolTable returns the naming table of every connected server's tools, as
// offered to a model (SPEC A5).
func (p *Pool) ToolTable() *naming.Table {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.table
}

// toolsChanged rebuilds the naming table from the current tool lists.
func (p *Pool) toolsChanged() {
	p.mu.Lock()
	conns := slices.Collect(maps.Values(p.conns))
	p.mu.Unlock()
	var refs []naming.Ref
	for _, c := range conns {
		c.mu.Lock()
		for _, t := range c.tools {
			if c.cfg.ToolEnabled(t.Name) {
				refs = append(refs, naming.Ref{Server: c.cfg.ID, Tool: t.Name})
			}
		}
		c.mu.Unlock()
	}
	table := naming.Build(refs)
	p.mu.Lock()
	p.table = table
	p.mu.Unlock()
}

// context is the pool's lifetime, under which calls from the UI run: they
// end when the app quits.
func (p *Pool) context() context.Context {
	if p.ctx == nil {
		return context.Background()
	}
	return p.ctx
}

// emitResourceUpdated tells the UI that a subscribed resource changed.
func (p *Pool) emitResourceUpdated(server, uri string) {
	p.viewChanged(server, uri)
	p.emit.Emit(events.ResourceUpdated, events.ResourceUpdatedPayload{Server: server, URI: uri, At: time.Now().UnixMilli()})
}

// Log returns the JSON-RPC logger.
func (p *Pool) Log() *RPCLog { return p.log }

// ConfigPath returns the config file the pool reads and writes.
func (p *Pool) ConfigPath() string { return p.opts.ConfigPath }

// Config returns the config in force.
func (p *Pool) Config() mcpconfig.Config {
	p.mu.Lock()
	defer p.mu.Unlock()
	return *p.cfg
}

// update writes a changed config atomically and applies it. It refuses
// while the file on disk is invalid, so that a broken file the user is
// editing is never overwritten.
func (p *Pool) update(change func(cfg *mcpconfig.Config) error) error {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	p.mu.Lock()
	if p.cfgErr != nil {
		err := p.cfgErr
		p.mu.Unlock()
		return fmt.Errorf("%s has an error; fix it first (the last good configuration is still in use): %w", p.opts.ConfigPath, err)
	}
	next := cloneConfig(p.cfg)
	p.mu.Unlock()
	if err := change(next); err != nil {
		return err
	}
	if err := mcpconfig.WriteFile(p.opts.ConfigPath, next); err != nil {
		return err
	}
	p.apply(next)
	return nil
}

func cloneConfig(c *mcpconfig.Config) *mcpconfig.Config {
	return &mcpconfig.Config{Servers: slices.Clone(c.Servers), Extra: maps.Clone(c.Extra)}
}

// SaveServer adds a server (originalID "") or replaces the one stored as
// originalID, which may rename it. Keychain entries the old server referred
// to and srv does not are deleted.
func (p *Pool) SaveServer(originalID string, srv mcpconfig.Server) error {
	return p.SaveServerSecrets(originalID, srv, nil)
}

// SetToolEnabled turns one tool of a server on or off for models (SPEC A6);
// the server keeps running.
func (p *Pool) SetToolEnabled(id, tool string, on bool) error {
	return p.update(func(cfg *mcpconfig.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s mcpconfig.Server) bool { return s.ID == id })
		if i < 0 {
			return unknownServer(id)
		}
		cfg.Servers[i].SetToolEnabled(tool, on)
		return nil
	})
}

// RemoveServer removes a server from the config and disconnects it, and
// deletes its secrets from the keychain.
func (p *Pool) RemoveServer(id string) error {
	var old []string
	err := p.update(func(cfg *mcpconfig.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s mcpconfig.Server) bool { return s.ID == id })
		if i < 0 {
			return unknownServer(id)
		}
		old = cfg.Servers[i].KeychainEntries()
		cfg.Servers = slices.Delete(cfg.Servers, i, i+1)
		return nil
	})
	if err == nil {
		p.forgetSecrets(old)
		p.forgetSignIn(id)
	}
	return err
}

// SetEnabled enables or disables a server.
func (p *Pool) SetEnabled(id string, enabled bool) error {
	return p.update(func(cfg *mcpconfig.Config) error {
		i := slices.IndexFunc(cfg.Servers, func(s mcpconfig.Server) bool { return s.ID == id })
		if i < 0 {
			return unknownServer(id)
		}
		if enabled {
			cfg.Servers[i].Enabled = nil // the default; keeps files tidy
		} else {
			cfg.Servers[i].Enabled = &enabled
		}
		return nil
	})
}

// Import merges servers into the config: same ids are replaced in place,
// new ones appended. A replaced server's keychain secrets are deleted: an
// imported file must not inherit them by naming the same references.
//
// The secrets go before the file is written: the config watcher may start
// the imported servers as soon as it is, and they must not find them there.
// When the file cannot be written they are put back.
func (p *Pool) Import(servers []mcpconfig.Server) (added, replaced []string, err error) {
	restore := func() {}
	err = p.update(func(cfg *mcpconfig.Config) error {
		var old []string
		for _, s := range cfg.Servers {
			if slices.ContainsFunc(servers, func(n mcpconfig.Server) bool { return n.ID == s.ID }) {
				old = append(old, s.KeychainEntries()...)
			}
		}
		merged, a, r := mcpconfig.Merge(cfg, servers)
		*cfg = *merged
		added, replaced = a, r
		restore = p.takeSecrets(old)
		return nil
	})
	if err != nil {
		restore()
	}
	return added, replaced, err
}

// Server returns the stored config of one server.
func (p *Pool) Server(id string) (mcpconfig.Server, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.cfg.Servers {
		if s.ID == id {
			return s, nil
		}
	}
	return mcpconfig.Server{}, unknownServer(id)
}
