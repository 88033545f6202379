package core

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/mcppool/mcptest"
	"mcpdesk/backend/secrets"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usage"
)

func open(t *testing.T, opts Options) *Core {
	t.Helper()
	if opts.Secrets == nil {
		opts.Secrets = secrets.NewMemory()
	}
	c, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// The parts are built over one data folder: the database and the config
// file are in it, and the server defaults stored there reach the pool
// before it starts (the window and the command line once read them in two
// different ways).
func TestOpenBuildsOverTheDataFolder(t *testing.T) {
	dir := t.TempDir()
	c := open(t, Options{DataDir: dir})
	if c.Dir != dir || c.ConfigFile != filepath.Join(dir, ConfigFileName) || c.Store.Path() != filepath.Join(dir, "mcpdesk.db") {
		t.Fatalf("dir %q, config %q, database %q", c.Dir, c.ConfigFile, c.Store.Path())
	}
	if got := c.Pool.DefaultTimeout(); got != 60*time.Second {
		t.Fatalf("a new installation's default timeout is %s", got)
	}
	if _, err := mcppool.WriteDefaults(context.Background(), c.Store, mcppool.PoolDefaults{TimeoutMs: 2500}); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	again := open(t, Options{DataDir: dir, ConfigFile: filepath.Join(dir, "elsewhere.json")})
	if got := again.Pool.DefaultTimeout(); got != 2500*time.Millisecond {
		t.Fatalf("the stored default timeout did not reach the pool: %s", got)
	}
	if again.ConfigFile != filepath.Join(dir, "elsewhere.json") {
		t.Fatalf("the config file given was not used: %q", again.ConfigFile)
	}
}

func TestOpenWithoutSecretsFails(t *testing.T) {
	if _, err := Open(Options{DataDir: t.TempDir()}); err == nil {
		t.Fatal("Open without a secret store succeeded")
	}
}

// Close cancels the context bound calls run under, then closes everything;
// a second Close does no harm.
func TestCloseCancelsAndCloses(t *testing.T) {
	c := open(t, Options{DataDir: t.TempDir()})
	ctx := c.Context()
	if ctx.Err() != nil {
		t.Fatal("the context is done before Close")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("after Close the context is %v", ctx.Err())
	}
	if _, err := c.Store.ListConversations(context.Background(), 10, 0); err == nil {
		t.Fatal("the database still answers after Close")
	}
	if err := c.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}

// The chat engine answers the pool's sampling requests: server-everything's
// trigger-sampling-request reaches the engine, which says no model can
// answer (none is configured) — not the server's "sampling not supported".
func TestSamplingReachesTheEngine(t *testing.T) {
	dir := t.TempDir()
	cfg := &mcpconfig.Config{Servers: []mcpconfig.Server{{ID: "everything", Command: "node", Args: []string{mcptest.NPMServer(t, "server-everything")}}}}
	if err := mcpconfig.WriteFile(filepath.Join(dir, ConfigFileName), cfg); err != nil {
		t.Fatal(err)
	}
	c := open(t, Options{DataDir: dir})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := c.Pool.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for {
		st, _ := c.Pool.Status("everything")
		if st.State == events.StateConnected {
			break
		}
		if st.State == events.StateFailed || ctx.Err() != nil {
			t.Fatalf("server-everything: %s %s %s", st.State, st.Error, st.Stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	res, err := c.Pool.CallTool(ctx, "everything", "trigger-sampling-request", map[string]any{"prompt": "hi", "maxTokens": 5})
	text := ""
	if res != nil {
		text = mcppool.ResultText(res)
	}
	if err != nil {
		text += err.Error()
	}
	if !strings.Contains(text, "no model can answer the sampling request") {
		t.Fatalf("the sampling request did not reach the chat engine: %q", text)
	}
}

// AuditSource marks the engine's tool calls (the command line's are "cli").
func TestAuditSource(t *testing.T) {
	c := open(t, Options{DataDir: t.TempDir()})
	r := sourced{c.Ledger, store.AuditCLI}
	r.RecordToolCall(context.Background(), store.AuditEntry{Time: time.Now(), Source: store.AuditChat, Server: "s", Tool: "t", Status: store.AuditOK})
	page, err := c.Ledger.Audit(context.Background(), usage.AuditQuery{})
	if err != nil || len(page.Entries) != 1 || page.Entries[0].Source != store.AuditCLI {
		t.Fatalf("audit log %+v, %v; want one entry from the cli", page, err)
	}
}
