package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/llm"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/mcppool/mcptest"
	"mcpdesk/backend/mcppool/naming"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/secrets"
	"mcpdesk/backend/shellenv"
	"mcpdesk/backend/store"
)

// testServerBin is our own MCP test server, and hostileServerBin the
// server that attacks its client (--mode), built once.
var testServerBin, hostileServerBin string

func TestMain(m *testing.M) {
	bin, cleanup, err := mcptest.BuildServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testServerBin = bin
	hostile, cleanupHostile, err := mcptest.BuildHostileServer()
	if err != nil {
		cleanup()
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hostileServerBin = hostile
	code := m.Run()
	code = contractLog.Exit(code, os.Stderr)
	cleanup()
	cleanupHostile()
	os.Exit(code)
}

// waitLimit guards every wait; tests never assert on time.
const waitLimit = 60 * time.Second

// recorder keeps every event for assertions.
type recorder struct {
	mu      sync.Mutex
	evs     []rec
	changed chan struct{}
}

type rec struct {
	name    events.Name
	payload any
}

func newRecorder() *recorder { return &recorder{changed: make(chan struct{})} }

func (r *recorder) Emit(name events.Name, payload any) {
	contractLog.Check(name, payload)
	r.mu.Lock()
	r.evs = append(r.evs, rec{name, payload})
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
}

func (r *recorder) all() []rec {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]rec(nil), r.evs...)
}

// waitFor returns the first event matching pred, waiting for it.
func (r *recorder) waitFor(t testing.TB, what string, pred func(rec) bool) rec {
	t.Helper()
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		for _, e := range r.evs {
			if pred(e) {
				r.mu.Unlock()
				return e
			}
		}
		ch := r.changed
		r.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("no %s within %s; events:\n%s", what, waitLimit, r.dump())
		}
	}
}

func (r *recorder) dump() string {
	var b strings.Builder
	for _, e := range r.all() {
		p, _ := json.Marshal(e.payload)
		fmt.Fprintf(&b, "  %s %s\n", e.name, clip(string(p), 300))
	}
	return b.String()
}

// turnEvents returns the chat events of one turn, in order.
func (r *recorder) turnEvents(turnID string) []rec {
	var out []rec
	for _, e := range r.all() {
		if turnOf(e.payload) == turnID {
			out = append(out, e)
		}
	}
	return out
}

func turnOf(p any) string {
	switch v := p.(type) {
	case events.ChatMessagePayload:
		return v.TurnID
	case events.ChatDeltaPayload:
		return v.TurnID
	case events.ChatToolCallPayload:
		return v.TurnID
	case events.ChatApprovalPayload:
		return v.TurnID
	case events.ChatStepPayload:
		return v.TurnID
	case events.ChatUsagePayload:
		return v.TurnID
	case events.ChatErrorPayload:
		return v.TurnID
	case events.ChatDonePayload:
		return v.TurnID
	}
	return ""
}

// deltaText concatenates the text deltas of a message.
func (r *recorder) deltaText(msgID int64) string {
	var b strings.Builder
	for _, e := range r.all() {
		if d, ok := e.payload.(events.ChatDeltaPayload); ok && d.MessageID == msgID {
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

func approvalsOf(evs []rec) []events.ChatApprovalPayload {
	var out []events.ChatApprovalPayload
	for _, e := range evs {
		if a, ok := e.payload.(events.ChatApprovalPayload); ok {
			out = append(out, a)
		}
	}
	return out
}

func errorsOf(evs []rec) []events.ChatErrorPayload {
	var out []events.ChatErrorPayload
	for _, e := range evs {
		if a, ok := e.payload.(events.ChatErrorPayload); ok {
			out = append(out, a)
		}
	}
	return out
}

func stepsOf(evs []rec, phase events.StepPhase) []events.ChatStepPayload {
	var out []events.ChatStepPayload
	for _, e := range evs {
		if s, ok := e.payload.(events.ChatStepPayload); ok && s.Phase == phase {
			out = append(out, s)
		}
	}
	return out
}

// env is an engine over a real database, an in-memory keychain, a
// scripted model and a pool of real MCP servers.
type env struct {
	t        testing.TB
	ctx      context.Context
	dir      string
	st       *store.Store
	mem      *secrets.Memory
	pm       *providers.Manager
	llm      *llmtest.Server
	provider providers.Provider
	pool     *mcppool.Pool
	desk     *mcppool.ElicitationDesk
	rec      *recorder
	e        *Engine
	opts     Options

	sleepMu sync.Mutex
	sleeps  []time.Duration // retry waits asked for
}

// envConfig adjusts newEnv.
type envConfig struct {
	servers []mcpconfig.Server
	ollama  bool
	key     string // the provider's API key; "" for none
	engine  func(*Options)
}

const testKey = "sk-test-LEAKCHECK-0123456789abcdef"

func testServer(id string, args ...string) mcpconfig.Server {
	return mcpconfig.Server{ID: id, Command: testServerBin, Args: args}
}

func everythingServer(t testing.TB) mcpconfig.Server {
	return mcpconfig.Server{ID: "everything", Command: "node", Args: []string{mcptest.NPMServer(t, "server-everything"), "stdio"}}
}

func newEnv(t testing.TB, cfg envConfig) *env {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	en := &env{t: t, ctx: ctx, dir: dir, st: st, mem: secrets.NewMemory(), rec: newRecorder()}
	en.pm = providers.NewManager(providers.Options{Store: st, Secrets: en.mem})

	in := providers.ProviderInput{Name: "Fake AI", Type: "openai"}
	if cfg.ollama {
		en.llm = llmtest.NewOllama(t)
		in = providers.ProviderInput{Name: "Local Ollama", Type: "ollama"}
	} else {
		en.llm = llmtest.NewOpenAI(t)
	}
	in.BaseURL = en.llm.BaseURL()
	if cfg.key != "" {
		k := cfg.key
		in.APIKey = &k
	}
	en.provider, err = en.pm.Save(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := en.pm.SetDefaultModel(ctx, providers.ModelRef{Provider: en.provider.ID, Model: "gpt-4o"}); err != nil {
		t.Fatal(err)
	}

	en.opts = Options{
		Store: st, Models: en.pm, Emitter: en.rec,
		Retry: llm.RetryPolicy{Sleep: func(ctx context.Context, d time.Duration) error {
			en.sleepMu.Lock()
			en.sleeps = append(en.sleeps, d)
			en.sleepMu.Unlock()
			return ctx.Err()
		}},
	}
	if len(cfg.servers) > 0 {
		path := filepath.Join(dir, "mcp.config.json")
		if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: cfg.servers}); err != nil {
			t.Fatal(err)
		}
		en.desk = mcppool.NewElicitationDesk(en.rec, 0)
		en.pool = mcppool.New(mcppool.Options{ConfigPath: path, Env: shellenv.NewProvider(false), Emitter: en.rec, Elicitor: en.desk})
		en.opts.Tools = en.pool
	}
	if cfg.engine != nil {
		cfg.engine(&en.opts)
	}
	en.e = New(en.opts)
	if en.pool != nil {
		en.pool.SetSampler(en.e)
		if err := en.pool.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(en.pool.Close)
		for _, s := range cfg.servers {
			en.waitConnected(s.ID)
		}
	}
	if err := en.e.Start(ctx); err != nil {
		t.Fatal(err)
	}
	// Runs after every engine is closed: each turn ended exactly once.
	t.Cleanup(func() { checkOneDonePerTurn(t, en.rec) })
	t.Cleanup(func() { en.e.Close() })
	return en
}

// checkOneDonePerTurn fails when a turn has no chat:done, or several, or
// emitted anything after it.
func checkOneDonePerTurn(t testing.TB, r *recorder) {
	t.Helper()
	dones := map[string]int{}
	for _, e := range r.all() {
		id := turnOf(e.payload)
		if id == "" {
			continue
		}
		if dones[id] > 0 {
			t.Errorf("turn %s: %s after chat:done", id, e.name)
		}
		if _, ok := e.payload.(events.ChatDonePayload); ok {
			dones[id]++
		} else if _, seen := dones[id]; !seen {
			dones[id] = 0
		}
	}
	for id, n := range dones {
		if n != 1 {
			t.Errorf("turn %s ended with %d chat:done events", id, n)
		}
	}
}

// restart replaces the engine with a new one over the same database and
// pool, as after an app restart.
func (en *env) restart() {
	en.t.Helper()
	en.e.Close()
	en.e = New(en.opts)
	if en.pool != nil {
		en.pool.SetSampler(en.e)
	}
	if err := en.e.Start(en.ctx); err != nil {
		en.t.Fatal(err)
	}
	en.t.Cleanup(func() { en.e.Close() })
}

func (en *env) waitConnected(id string) {
	en.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		st, _ := en.pool.Status(id)
		if st.State == events.StateConnected {
			return
		}
		if time.Now().After(deadline) {
			en.t.Fatalf("server %q: state %s (%s) %s", id, st.State, st.Error, st.Stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitTool waits until the pool offers server's tool.
func (en *env) waitTool(server, tool string) {
	en.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		if _, ok := en.pool.ToolTable().Name(naming.Ref{Server: server, Tool: tool}); ok {
			return
		}
		if time.Now().After(deadline) {
			en.t.Fatalf("tool %s/%s never listed", server, tool)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (en *env) newConv(mod func(*store.ConversationSettings)) store.Conversation {
	en.t.Helper()
	var s store.ConversationSettings
	if mod != nil {
		mod(&s)
	}
	c, err := en.e.NewConversation(en.ctx, NewConversationInput{Settings: s})
	if err != nil {
		en.t.Fatal(err)
	}
	return c
}

func (en *env) send(conv int64, text string, opts ...TurnOption) SendResult {
	en.t.Helper()
	res, err := en.e.Send(en.ctx, SendRequest{ConversationID: conv, Text: text}, opts...)
	if err != nil {
		en.t.Fatal(err)
	}
	return res
}

// done waits for the turn's chat:done.
func (en *env) done(turnID string) events.ChatDonePayload {
	en.t.Helper()
	e := en.rec.waitFor(en.t, "chat:done of "+turnID, func(e rec) bool {
		d, ok := e.payload.(events.ChatDonePayload)
		return ok && d.TurnID == turnID
	})
	return e.payload.(events.ChatDonePayload)
}

// approval waits for the approval of a call (by the model's call id).
func (en *env) approval(turnID, callID string) events.ChatApprovalPayload {
	en.t.Helper()
	e := en.rec.waitFor(en.t, "approval of "+callID, func(e rec) bool {
		a, ok := e.payload.(events.ChatApprovalPayload)
		return ok && a.TurnID == turnID && a.CallID == callID
	})
	return e.payload.(events.ChatApprovalPayload)
}

func (en *env) messages(conv int64) []store.Message {
	en.t.Helper()
	msgs, err := en.st.Messages(en.ctx, conv)
	if err != nil {
		en.t.Fatal(err)
	}
	return msgs
}

// allow stores a policy directly.
func (en *env) allow(policy, server, tool string) {
	en.t.Helper()
	if err := en.e.addPolicy(en.ctx, policy, 0, ToolRef{Server: server, Tool: tool}, nil); err != nil {
		en.t.Fatal(err)
	}
}

// toolMessage returns the content of the tool message answering callID in
// a model request.
func toolMessage(t testing.TB, r llmtest.Request, callID string) string {
	t.Helper()
	for _, m := range r.Messages() {
		if m["role"] == "tool" && (m["tool_call_id"] == callID || callID == "") {
			s, _ := m["content"].(string)
			return s
		}
	}
	t.Fatalf("request has no tool message for %q: %s", callID, r.Raw)
	return ""
}

// roles lists the roles of messages.
func roles(msgs []store.Message) string {
	var parts []string
	for _, m := range msgs {
		parts = append(parts, string(m.Role))
	}
	return strings.Join(parts, ",")
}

// lastAssistant returns the last assistant message.
func lastAssistant(t testing.TB, msgs []store.Message) store.Message {
	t.Helper()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == store.RoleAssistant {
			return msgs[i]
		}
	}
	t.Fatalf("no assistant message in %s", roles(msgs))
	return store.Message{}
}

// callOf returns the stored tool call with the model's id.
func callOf(t testing.TB, msgs []store.Message, id string) store.ToolCall {
	t.Helper()
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			if c.ID == id {
				return c
			}
		}
	}
	t.Fatalf("no tool call %q", id)
	return store.ToolCall{}
}

// hasRPC reports whether the pool's JSON-RPC log holds a message of method
// in direction dir.
func (en *env) hasRPC(method string, dir events.Direction) bool {
	for _, e := range en.pool.Log().Entries() {
		if e.Method == method && e.Direction == dir {
			return true
		}
	}
	return false
}

// Every event the tests record is checked against the contract
// (events.Validate); TestMain fails the package on any problem.
var contractLog events.Checked
