// Package chat is the chat engine (SPEC D1–D7, A7, A11): conversations in
// the store, the agent loop that streams a model's reply and runs the MCP
// tools it asks for — each call validated against its input schema and
// approved by the user or a policy — and the answers to servers' sampling
// requests. ChatService is its small surface bound to the frontend; the
// command line drives the Engine directly.
//
// # Turns
//
// Send (and Regenerate, EditAndResend, RetryToolCall) stores what the user
// did and starts a turn: a goroutine that runs up to MaxSteps model calls,
// with the tool calls of each response in between, and reports everything
// as the chat events of package events (SPEC D2). A conversation runs one
// turn at a time. Every turn ends with exactly one chat:done, also when it
// fails, is stopped or panics.
//
// # Event order within a turn
//
// chat:delta events are coalesced (at most one per FlushInterval) and are
// always flushed before any other event of the turn, so a client that
// appends them in order holds the message's content by the time it sees
// the chat:message that finishes it. Events of one tool call arrive in
// order; calls of one response run concurrently, so their events
// interleave. chat:done is the last event of a turn.
package chat

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/llm"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/mcppool/naming"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/store"
	"mcpdesk/backend/trust"
	"mcpdesk/backend/usererr"
)

// Models finds the models a conversation talks to; *providers.Manager is
// one.
type Models interface {
	// Routes returns the model of ref (the default model when ref is zero)
	// and then the fallbacks, each with a client.
	Routes(ctx context.Context, ref providers.ModelRef) ([]providers.Route, error)
	// DefaultModel returns the default model, zero when none is set.
	DefaultModel(ctx context.Context) (providers.ModelRef, error)
}

// ToolHost is the pool of MCP servers whose tools a model may call;
// *mcp.Pool is one.
type ToolHost interface {
	// Servers returns every configured server with its live status.
	Servers() []mcppool.ServerState
	// Tools returns the tools a server offers.
	Tools(id string) ([]mcp.Tool, error)
	// ToolTable names the enabled tools as offered to models (SPEC A5).
	ToolTable() *naming.Table
	// Instructions returns a connected server's instructions (SPEC A7).
	Instructions(id string) string
	// CallToolObserved calls a tool under callID, reporting progress.
	CallToolObserved(ctx context.Context, callID, server, tool string, args map[string]any,
		observe func(events.ProgressPayload)) (*mcp.CallToolResult, time.Duration, error)
}

// Options configures an Engine. New copies it.
type Options struct {
	Store  *store.Store // required
	Models Models       // required
	// Tools is the MCP pool; nil offers no tools.
	Tools   ToolHost
	Emitter events.Emitter
	Logger  *slog.Logger
	// Retry is how model calls are retried and fall back (SPEC C2, C3);
	// zero fields take llm.DefaultRetryPolicy's.
	Retry llm.RetryPolicy
	// FlushInterval is the longest text deltas are held before a
	// chat:delta carries them (default 50 ms).
	FlushInterval time.Duration
	// SaveInterval is how often a streaming reply is written to the
	// database, so that a crash keeps most of it (default 2 s).
	SaveInterval time.Duration
	// SamplingTimeout is how long a sampling request waits for the user
	// before it is rejected (default 5 min).
	SamplingTimeout time.Duration
	// NoRecover leaves replies another process may be streaming alone at
	// Start: the command line sets it, as the window may be running.
	NoRecover bool
	// Recorder records every model call's usage and every tool call in
	// the audit log (SPEC E1, E2); nil records nothing.
	Recorder Recorder
}

// Defaults of Options and ChatSettings.
const (
	DefaultFlushInterval   = 50 * time.Millisecond
	DefaultSaveInterval    = 2 * time.Second
	DefaultSamplingTimeout = 5 * time.Minute
)

// Engine runs conversations. It is safe for concurrent use.
type Engine struct {
	opts   Options
	st     *store.Store
	models Models
	tools  ToolHost
	emit   events.Emitter
	logger *slog.Logger
	rec    Recorder

	ctx    context.Context // lifetime of turns
	cancel context.CancelFunc

	seq atomic.Uint64 // approval and sampling ids
	// eventSeq numbers the chat:message and chat:tool-call events, in the
	// order their states were taken.
	eventSeq atomic.Uint64
	schemas  schemaCache
	// inspections remembers what trust.Inspect found in the tools offered
	// (SPEC G1), so that each step does not read them again.
	inspections *trust.Cache
	// policyMu serialises read-modify-write of the stored policies.
	policyMu sync.Mutex

	mu        sync.Mutex
	turns     map[int64]*turn // running turn per conversation
	approvals map[string]*pendingApproval
	samplings map[string]*pendingSampling
	active    map[string][]activeCall // server id → its calls running in turns
}

// activeCall is a tool call running on a server, for finding the
// conversation a sampling request belongs to.
type activeCall struct {
	id string
	t  *turn
}

// New returns an Engine; turns start only after Start.
func New(opts Options) *Engine {
	if opts.Emitter == nil {
		opts.Emitter = events.Discard{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.FlushInterval <= 0 {
		opts.FlushInterval = DefaultFlushInterval
	}
	if opts.SaveInterval <= 0 {
		opts.SaveInterval = DefaultSaveInterval
	}
	if opts.SamplingTimeout <= 0 {
		opts.SamplingTimeout = DefaultSamplingTimeout
	}
	if opts.Recorder == nil {
		opts.Recorder = noRecorder{}
	}
	return &Engine{
		opts: opts, st: opts.Store, models: opts.Models, tools: opts.Tools,
		emit: opts.Emitter, logger: opts.Logger.With("component", "chat"), rec: opts.Recorder,
		inspections: trust.NewCache(4096),
		turns:       map[int64]*turn{},
		approvals:   map[string]*pendingApproval{},
		samplings:   map[string]*pendingSampling{},
		active:      map[string][]activeCall{},
	}
}

// Start marks what a crash left half done as interrupted (unless
// NoRecover) and lets turns run until ctx ends or Close.
func (e *Engine) Start(ctx context.Context) error {
	e.mu.Lock()
	e.ctx, e.cancel = context.WithCancel(ctx)
	e.mu.Unlock()
	if e.opts.NoRecover {
		return nil
	}
	n, err := e.st.RecoverInterrupted(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		e.logger.Info("replies interrupted by the last exit marked", "messages", n)
	}
	return nil
}

// Close stops every running turn and waits for them to end.
func (e *Engine) Close() {
	e.mu.Lock()
	if e.cancel != nil {
		e.cancel()
	}
	running := make([]*turn, 0, len(e.turns))
	for _, t := range e.turns {
		running = append(running, t)
	}
	e.mu.Unlock()
	for _, t := range running {
		<-t.done
	}
}

// Errors callers may branch on.
var (
	// ErrBusy: the conversation is running a turn.
	ErrBusy = usererr.New(usererr.ChatBusy, nil)
	// ErrNoSuchApproval: nobody waits for this approval any more.
	ErrNoSuchApproval = errors.New("this tool call is no longer waiting for approval")
	// ErrNoSuchSampling: nobody waits for this sampling answer any more.
	ErrNoSuchSampling = errors.New("this sampling request is no longer waiting for an answer")
	// ErrNotStarted: Start has not been called.
	ErrNotStarted = errors.New("the chat engine is not running")
)

// errStopped is the cause of a turn the user stopped. It is
// mcppool.ErrCancelled, so that a tool call it stops is logged as cancelled by
// the user.
var errStopped = fmt.Errorf("stopped by the user: %w", mcppool.ErrCancelled)

// Done reasons of a turn (events.ChatDonePayload.Reason).
const (
	DoneStop      = events.DoneStop
	DoneCancelled = events.DoneCancelled
	DoneError     = events.DoneError
	DoneMaxSteps  = events.DoneMaxSteps
)

// Error kinds of chat:error besides the llm kinds.
const (
	kindTool       = "tool"
	kindValidation = "validation"
	kindInternal   = "internal"
)

// ApprovalMode says who decides tool calls that no policy covers.
type ApprovalMode string

// The approval modes.
const (
	// ApproveAsk waits for Approve (the default).
	ApproveAsk ApprovalMode = "ask"
	// ApproveAuto runs every call a "never" policy does not refuse.
	ApproveAuto ApprovalMode = "auto"
	// ApproveNever declines every call.
	ApproveNever ApprovalMode = "never"
)

// TurnOption changes how one turn runs.
type TurnOption func(*turn)

// WithApprovalMode decides the turn's tool calls without asking (the
// command line's --approve).
func WithApprovalMode(m ApprovalMode) TurnOption {
	return func(t *turn) {
		if m != "" {
			t.mode = m
		}
	}
}

// turn is one running turn.
type turn struct {
	id     string
	conv   int64
	ctx    context.Context
	cancel context.CancelCauseFunc
	done   chan struct{}
	mode   ApprovalMode
	steps  atomic.Int32
	// msgID is the assistant message being written, for marking it failed
	// if the turn panics.
	msgID atomic.Int64
	// hold marks a reservation that runs no turn (switching answer
	// versions): it is never reported as running.
	hold bool
	// search is what the turn's tool searches found.
	search toolSearch
	// pending, when set, is the user's message the turn answers, which
	// Send left to the turn to store: the turn stores it with its reply's
	// row in one commit while the request goes out (storeUser). title names
	// a new conversation after it. stored is closed once it is stored and
	// announced (user), or could not be (storeErr); Send waits for that.
	pending  *store.Message
	sendConv store.Conversation // the conversation as Send read it
	title    string
	stored   chan struct{}
	user     store.Message
	storeErr error
}

// store returns a context for writes that must happen even when the turn
// was stopped (marking a reply interrupted, a call cancelled).
func (t *turn) store() context.Context { return context.WithoutCancel(t.ctx) }

// begin reserves the conversation for a new turn.
func (e *Engine) begin(convID int64, opts []TurnOption) (*turn, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ctx == nil {
		return nil, ErrNotStarted
	}
	if e.ctx.Err() != nil {
		return nil, errors.New("the chat engine is shutting down")
	}
	if _, busy := e.turns[convID]; busy {
		return nil, ErrBusy
	}
	ctx, cancel := context.WithCancelCause(e.ctx)
	t := &turn{id: newTurnID(), conv: convID, ctx: ctx, cancel: cancel, done: make(chan struct{}), mode: ApproveAsk}
	for _, o := range opts {
		o(t)
	}
	e.turns[convID] = t
	return t, nil
}

// holdConversation reserves a conversation without running a turn, so that
// no turn starts while the caller changes which messages it is built on; it
// fails with ErrBusy when a turn runs. Call the returned release when done.
func (e *Engine) holdConversation(convID int64) (release func(), err error) {
	t, err := e.begin(convID, []TurnOption{func(t *turn) { t.hold = true }})
	if err != nil {
		return nil, err
	}
	return func() { e.abandon(t) }, nil
}

// abandon releases a turn that never started running.
func (e *Engine) abandon(t *turn) {
	e.mu.Lock()
	if e.turns[t.conv] == t {
		delete(e.turns, t.conv)
	}
	e.mu.Unlock()
	t.cancel(nil)
	close(t.done)
}

func newTurnID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "turn-" + hex.EncodeToString(b[:])
}

// running returns the turn running in a conversation, or nil.
func (e *Engine) running(convID int64) *turn {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.turns[convID]
}

// Stop stops the turn running in a conversation: the stream ends (the
// partial reply is kept, marked interrupted), running tool calls are
// cancelled and open approvals expire; the turn then ends with chat:done
// "cancelled". Stopping a conversation that runs nothing is not an error.
func (e *Engine) Stop(conversationID int64) error {
	if t := e.running(conversationID); t != nil {
		t.cancel(errStopped)
	}
	return nil
}

// Wait returns when the conversation runs no turn, or ctx ends.
func (e *Engine) Wait(ctx context.Context, conversationID int64) error {
	t := e.running(conversationID)
	if t == nil {
		return nil
	}
	select {
	case <-t.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ---- emitting ----------------------------------------------------------------

func (e *Engine) emitMessage(t *turn, m store.Message) {
	e.emit.Emit(events.ChatMessage, events.ChatMessagePayload{ConversationID: t.conv, TurnID: t.id, Message: m, Seq: e.eventSeq.Add(1)})
}

func (e *Engine) emitStep(t *turn, step, maxSteps int, phase events.StepPhase, model, message string, wait time.Duration) {
	e.emit.Emit(events.ChatStep, events.ChatStepPayload{
		ConversationID: t.conv, TurnID: t.id, Step: step, MaxSteps: maxSteps,
		Phase: phase, Model: model, Message: message, WaitMs: wait.Milliseconds(),
	})
}

func (e *Engine) emitError(t *turn, msgID int64, kind, message string, partial bool) {
	e.emit.Emit(events.ChatError, events.ChatErrorPayload{
		ConversationID: t.conv, TurnID: t.id, MessageID: msgID, Kind: kind, Message: message, Partial: partial,
	})
}

func (e *Engine) emitToolCall(t *turn, msgID int64, c store.ToolCall, progress *events.ProgressPayload) {
	e.emit.Emit(events.ChatToolCall, events.ChatToolCallPayload{
		ConversationID: t.conv, TurnID: t.id, MessageID: msgID, Call: c, Progress: progress, Seq: e.eventSeq.Add(1),
	})
}

func (e *Engine) emitConversations(id int64) {
	e.emit.Emit(events.ChatConversations, events.ChatConversationsPayload{ConversationID: id})
}

// ---- small helpers ---------------------------------------------------------------

// modelLabel is "provider/model", as events and messages name a model.
func modelLabel(r providers.Route) string { return store.JoinModel(r.Ref.Provider, r.Ref.Model) }

// titleLen is how much of the first message becomes the title.
const titleLen = 60

// titleFrom makes a conversation title of the first ~60 characters of the
// first user message, whitespace collapsed.
func titleFrom(text string) string {
	s := strings.Join(strings.Fields(strings.ToValidUTF8(text, " ")), " ")
	if utf8.RuneCountInString(s) <= titleLen {
		return s
	}
	r := []rune(s)
	cut := titleLen
	// Prefer to end at a word boundary in the last third.
	for i := titleLen; i > titleLen*2/3; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimSpace(string(r[:cut])) + "…"
}

// clip shortens s to n characters, ending with "…" when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// errText is the sentence for the user of err.
func errText(err error) string {
	if le, ok := llm.AsError(err); ok && le.Message != "" {
		return le.Message
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

func humanDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%d s", int((d+time.Second-1)/time.Second))
	default:
		return fmt.Sprintf("%d min", int((d+time.Minute-1)/time.Minute))
	}
}

// The pool is the engine's ToolHost, and the engine is the pool's Sampler.
var (
	_ ToolHost        = (*mcppool.Pool)(nil)
	_ mcppool.Sampler = (*Engine)(nil)
)
