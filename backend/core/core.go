// Package core is the composition root of the backend. It builds the
// store, the model providers, the MCP pool (with its stored defaults, and
// the chat engine as its sampler), the usage ledger and the chat engine in
// one place and one order, for the window (app.go) and for every command
// of the command line (backend/cli), and closes them with one Close.
//
// It knows nothing of Wails or of terminals: each front end passes in how
// events reach the user (Emitter), who answers servers' questions
// (Elicitor), the keychain and the environment servers start with. The
// bound services are built by the window over the parts it exposes here.
package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/chat"
	"mcpdesk/backend/events"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/secrets"
	"mcpdesk/backend/settings"
	"mcpdesk/backend/shellenv"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usage"
)

// ConfigFileName is the MCP config's name in the data folder.
const ConfigFileName = "mcp.config.json"

// Options are what a front end decides; everything else is built here.
type Options struct {
	// DataDir is the data folder: "" means $MCPDESK_DATA_DIR, then the
	// user's config folder (store.ResolveDir).
	DataDir string
	// ConfigFile is the MCP config; "" means mcp.config.json in DataDir.
	ConfigFile string
	// Watch reloads the config when its file changes (the window does).
	Watch bool
	// Logger receives the backend's log; nil discards it.
	Logger *slog.Logger
	// Emitter is how events reach the user; nil drops them.
	Emitter events.Emitter
	// Secrets is the OS keychain (a secrets.Memory in tests): provider
	// keys and servers' secret values. Required.
	Secrets secrets.Store
	// Env is the environment stdio servers start with; nil: the
	// process's own.
	Env mcppool.Environment
	// LookupEnv finds a provider key's variable; nil: os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// ReloadEnv reads the login shell's environment again (providers' Test
	// and "Reload environment"); nil: there is nothing to reload.
	ReloadEnv func(ctx context.Context) bool
	// ClientInfo is how the app introduces itself to servers.
	ClientInfo mcp.Implementation
	// Elicitor answers servers' questions; nil: servers are told the app
	// does not ask.
	Elicitor mcppool.Elicitor
	// SignIn is how OAuth sign-ins to remote servers reach the user (the
	// system browser); zero: none can start (the command line has its own).
	SignIn mcppool.SignInOptions
	// AuditSource, when set, is the source of every tool call the chat
	// engine writes to the audit log (the command line's are "cli").
	AuditSource string
	// NoRecover leaves turns another process may be streaming alone, where
	// the window marks them interrupted (the command line sets it).
	NoRecover bool
}

// Core is the backend of one process, built once.
type Core struct {
	// Dir is the data folder, ConfigFile the MCP config in use.
	Dir, ConfigFile string

	Store  *store.Store
	Pool   *mcppool.Pool
	Models *providers.Manager
	Ledger *usage.Engine
	Engine *chat.Engine

	logger    *slog.Logger
	ctx       context.Context
	cancel    context.CancelFunc
	closeOnce sync.Once
	closeErr  error
}

// Open resolves the data folder, opens the database and builds every part.
// Nothing runs yet: the front end calls Engine.Start and Pool.Start when it
// is ready (and may skip them, as commands that only read do).
func Open(opts Options) (*Core, error) {
	if opts.Secrets == nil {
		return nil, errors.New("core: no secret store")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Emitter == nil {
		opts.Emitter = events.Discard{}
	}
	if opts.Env == nil {
		opts.Env = shellenv.NewProvider(false)
	}
	dir, err := store.ResolveDir(opts.DataDir)
	if err != nil {
		return nil, fmt.Errorf("find data folder: %w", err)
	}
	st, err := store.Open(dir, opts.Logger)
	if err != nil {
		return nil, err
	}
	c := &Core{Dir: dir, ConfigFile: opts.ConfigFile, Store: st, logger: opts.Logger}
	if c.ConfigFile == "" {
		c.ConfigFile = filepath.Join(dir, ConfigFileName)
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())

	// Servers without a timeout of their own use the one set in Settings;
	// unreadable, the built-in default stays.
	defaults, err := mcppool.ReadDefaults(c.ctx, st)
	if err != nil {
		opts.Logger.Warn("server defaults; using the built-in ones", "err", err)
	}
	c.Pool = mcppool.New(mcppool.Options{
		ConfigPath: c.ConfigFile,
		Watch:      opts.Watch,
		Env:        opts.Env,
		ClientInfo: opts.ClientInfo,
		Emitter:    opts.Emitter,
		Logger:     opts.Logger,
		Elicitor:   opts.Elicitor,
		Secrets:    opts.Secrets,
		Defaults:   defaults,
		SignIn:     opts.SignIn,
		// The chat engine answers servers' sampling requests with a model
		// (SPEC A11). It calls the pool's tools, so it is built after the
		// pool; no server connects before Pool.Start, after it exists.
		Sampler: mcppool.SamplerFunc(func(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return c.Engine.CreateMessage(ctx, server, req)
		}),
	})
	c.Models = providers.NewManager(providers.Options{
		Store:     st,
		Secrets:   opts.Secrets,
		LookupEnv: opts.LookupEnv,
		ReloadEnv: opts.ReloadEnv,
		Logger:    opts.Logger,
	})
	// Every LLM call and every tool call is recorded (SPEC E1, E2).
	c.Ledger = usage.New(usage.Options{Store: st, Emitter: opts.Emitter, Logger: opts.Logger})
	var recorder chat.Recorder = c.Ledger
	if opts.AuditSource != "" {
		recorder = sourced{c.Ledger, opts.AuditSource}
	}
	c.Engine = chat.New(chat.Options{
		Store: st, Models: c.Models, Tools: c.Pool, Emitter: opts.Emitter, Logger: opts.Logger,
		Recorder: recorder, NoRecover: opts.NoRecover,
	})
	return c, nil
}

// Context is cancelled when Close begins: the bound services run their
// calls under it, so quitting cancels the work still in flight.
func (c *Core) Context() context.Context { return c.ctx }

// Close cancels work in flight, then stops the engine (no turn outlives
// it), the pool (no server child outlives the app) and closes the
// database, in that order. It may be called more than once.
func (c *Core) Close() error {
	c.closeOnce.Do(func() {
		c.cancel()
		c.Engine.Close()
		c.Pool.Close()
		if err := c.Store.Close(); err != nil {
			c.closeErr = fmt.Errorf("close database: %w", err)
		}
	})
	return c.closeErr
}

// sourced records tool calls under one audit source.
type sourced struct {
	*usage.Engine
	source string
}

func (r sourced) RecordToolCall(ctx context.Context, e store.AuditEntry) {
	e.Source = r.source
	r.Engine.RecordToolCall(ctx, e)
}

// Window is what the window lends the bound services: its file dialogs,
// the elicitation desk its pool asks through (Options.Elicitor), the
// keychain's self-test, and the settings screen's own hooks (tray labels,
// desktop status, link opener).
type Window struct {
	Dialogs interface {
		mcppool.FilePicker
		SaveFile(title, defaultName string) (string, error)
	}
	Desk     *mcppool.ElicitationDesk
	Keychain settings.Prober
	Version  string
	Settings []settings.Option
}

// Bound are the services whose exported methods JavaScript may call.
type Bound struct {
	MCP       *mcppool.MCPPool
	Settings  *settings.Service
	Providers *providers.ProviderManager
	Chat      *chat.ChatService
	Usage     *usage.UsageStats
}

// List returns the services for Wails' Bind, in one order.
func (b Bound) List() []any { return []any{b.MCP, b.Settings, b.Providers, b.Chat, b.Usage} }

// Bind builds the bound services over the core. Their calls run under
// Context, so Close cancels the ones in flight.
func (c *Core) Bind(w Window) Bound {
	ctx := c.ctx
	var mcpOpts []mcppool.ServiceOption
	if w.Desk != nil {
		mcpOpts = append(mcpOpts, mcppool.WithElicitationDesk(w.Desk))
	}
	mcpOpts = append(mcpOpts, mcppool.WithSavedRequests(c.Store), mcppool.WithSettings(c.Store), mcppool.WithAudit(c.Ledger),
		// A view's calls in a conversation go through the chat's approval policies.
		mcppool.WithViewApprover(c.Engine))
	setOpts := []settings.Option{settings.WithContext(ctx), settings.WithLogger(c.logger),
		// A key stored earlier that reads keeps the keychain from being
		// called unavailable when its self-test fails.
		settings.WithStoredKeys(func() int { return c.Models.ReadableKeys(ctx) })}
	if w.Keychain != nil {
		setOpts = append(setOpts, settings.WithKeychain(w.Keychain))
	}
	return Bound{
		MCP: mcppool.NewService(c.Pool, w.Dialogs, mcpOpts...),
		Settings: settings.New(c.Store, settings.AppInfo{
			Version: w.Version, DataDir: c.Dir, ConfigFile: c.ConfigFile, DatabaseFile: c.Store.Path(),
		}, append(setOpts, w.Settings...)...),
		Providers: providers.NewService(c.Models, providers.WithContext(ctx)),
		Chat:      chat.NewService(c.Engine, w.Dialogs, chat.WithContext(ctx)),
		Usage:     usage.NewService(c.Ledger, w.Dialogs, usage.WithContext(ctx)),
	}
}
