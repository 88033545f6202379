package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"mcpdesk/backend/attach"
	"mcpdesk/backend/chat"
	"mcpdesk/backend/core"
	"mcpdesk/backend/events"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/store"
)

const chatUsage = `usage: mcpdesk chat [--model PROVIDER/MODEL] [--servers a,b] [--approve ask|auto|never]
                    [--conversation ID] [--system S] [--temperature T] [--max-steps N] [--json]
                    [--attach FILE]... MESSAGE
PROVIDER is a provider's name or id. Without --model a new conversation uses the default model.
--attach sends a file with the message (repeatable): an image (PNG, JPEG, WebP, GIF), a PDF (its
text) or a text file, as the window's paperclip does.
The answer streams to stdout; tool calls and their results are reported on stderr.
--json prints every chat event as one JSON object per line ({"event": NAME, "payload": …}).`

// runChat runs one turn headlessly with the window's engine, database and
// approval policies (SPEC D11).
func runChat(ctx context.Context, g globals, args []string, env Env) int {
	var (
		model, servers, approve, system, configFile string
		convID                                      int64
		temperature                                 float64
		maxSteps                                    int
		jsonOut                                     bool
		connectTimeout                              time.Duration
		attachFiles                                 multi
	)
	fs := newFlags("chat", &g, env)
	fs.StringVar(&model, "model", "", "PROVIDER/MODEL to talk to (PROVIDER: a provider's name or id)")
	fs.StringVar(&servers, "servers", "", "comma-separated ids of the MCP servers whose tools the model may use (default: every enabled server; \"\" with --servers= for none)")
	fs.StringVar(&approve, "approve", "ask", "tool calls: ask (on the terminal), auto (run all) or never (decline all)")
	fs.Int64Var(&convID, "conversation", 0, "continue this conversation instead of starting one")
	fs.StringVar(&system, "system", "", "system prompt")
	fs.Float64Var(&temperature, "temperature", 0, "sampling temperature, 0…2 (default: the provider's)")
	fs.IntVar(&maxSteps, "max-steps", 0, "most model calls in this turn (default: the chat setting, 10)")
	fs.BoolVar(&jsonOut, "json", false, "print the event stream as JSON lines instead of the answer")
	fs.StringVar(&configFile, "config", "", "MCP config file (default: mcp.config.json in the data folder)")
	fs.DurationVar(&connectTimeout, "connect-timeout", 30*time.Second, "time limit for the MCP servers to connect")
	fs.Var(&attachFiles, "attach", "a file to send with the message (repeatable): an image, a PDF or a text file")
	fs.Usage = func() { fmt.Fprintln(env.Stderr, chatUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	message := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if message == "" && len(attachFiles) == 0 {
		return usageError(env, "chat: no message\n%s", chatUsage)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	mode := chat.ApprovalMode(approve)
	switch mode {
	case chat.ApproveAsk, chat.ApproveAuto, chat.ApproveNever:
	default:
		return usageError(env, "chat: --approve must be ask, auto or never, not %q", approve)
	}
	if set["temperature"] && (temperature < 0 || temperature > 2) {
		return usageError(env, "chat: --temperature must be within 0…2")
	}
	if set["max-steps"] && (maxSteps < 1 || maxSteps > 1000) {
		return usageError(env, "chat: --max-steps must be within 1…1000")
	}

	out := newChatPrinter(env, jsonOut, mode)
	elicitor, _ := newCLIElicitor("", env)
	elicitor.in = out.in // one reader of the terminal for every question
	c, err := openCore(g, core.Options{
		ConfigFile: configFile, Env: env.Servers, ClientInfo: clientInfo(env),
		Emitter: out, Elicitor: elicitor,
		AuditSource: store.AuditCLI,
		// The window may be streaming a reply into the same database.
		NoRecover: true,
	})
	if err != nil {
		return fail(env, err)
	}
	defer c.Close()
	st, pm, pool, engine := c.Store, c.Models, c.Pool, c.Engine
	var ref providers.ModelRef
	if model != "" {
		if ref, err = parseModelFlag(ctx, pm, model); err != nil {
			return fail(env, err)
		}
	}
	var serverIDs []string
	if set["servers"] {
		serverIDs = []string{}
		for _, s := range strings.Split(servers, ",") {
			if s = strings.TrimSpace(s); s != "" {
				serverIDs = append(serverIDs, s)
			}
		}
	}

	// Without them a model is named by its provider's id.
	out.names, _ = st.ProviderNames(ctx)
	out.engine = engine
	if err := pool.Start(ctx); err != nil {
		return fail(env, err)
	}
	if err := checkServers(ctx, pool, serverIDs, connectTimeout, env); err != nil {
		return fail(env, err)
	}
	if err := engine.Start(ctx); err != nil {
		return fail(env, err)
	}

	conv, err := chatConversation(ctx, engine, st, convID, ref, set, serverIDs, system, temperature, maxSteps)
	if err != nil {
		return fail(env, err)
	}
	attachments, err := attachAll(ctx, engine, attachFiles)
	if err != nil {
		return fail(env, err)
	}
	if _, err := engine.Send(ctx, chat.SendRequest{ConversationID: conv.ID, Text: message, Attachments: attachments}, chat.WithApprovalMode(mode)); err != nil {
		return fail(env, err)
	}
	var done events.ChatDonePayload
	select {
	case done = <-out.done:
	case <-ctx.Done():
		_ = engine.Stop(conv.ID)
		done = <-out.done
	}
	out.finish()
	if !jsonOut {
		fmt.Fprintf(env.Stderr, "mcpdesk: conversation %d (continue it with --conversation %d)\n", conv.ID, conv.ID)
	}
	switch done.Reason {
	case chat.DoneStop:
		return exitOK
	case chat.DoneMaxSteps:
		fmt.Fprintf(env.Stderr, "mcpdesk: stopped after %d steps (the step limit); the model wanted more tools\n", done.Steps)
		return exitOK
	case chat.DoneCancelled:
		fmt.Fprintln(env.Stderr, "mcpdesk: stopped")
		return exitFail
	default:
		if !out.reportedError() {
			fmt.Fprintln(env.Stderr, "mcpdesk: the reply failed")
		}
		return exitFail
	}
}

// parseModelFlag reads PROVIDER/MODEL, where PROVIDER is a provider's id or
// name (without case) and MODEL may itself contain "/". The longest
// matching provider wins.
func parseModelFlag(ctx context.Context, pm *providers.Manager, s string) (providers.ModelRef, error) {
	list, err := pm.List(ctx)
	if err != nil {
		return providers.ModelRef{}, err
	}
	var best providers.Provider
	bestLen := -1
	for _, p := range list {
		for _, prefix := range []string{p.ID, p.Name} {
			if len(s) > len(prefix)+1 && strings.EqualFold(s[:len(prefix)], prefix) && s[len(prefix)] == '/' && len(prefix) > bestLen {
				best, bestLen = p, len(prefix)
			}
		}
	}
	if bestLen < 0 {
		names := make([]string, 0, len(list))
		for _, p := range list {
			names = append(names, strconv.Quote(p.Name))
		}
		if len(names) == 0 {
			return providers.ModelRef{}, fmt.Errorf("--model %q: no provider is configured; add one with `mcpdesk providers add`", s)
		}
		return providers.ModelRef{}, fmt.Errorf("--model %q: want PROVIDER/MODEL with PROVIDER one of %s", s, strings.Join(names, ", "))
	}
	return providers.ModelRef{Provider: best.ID, Model: s[bestLen+1:]}, nil
}

// checkServers waits until the servers the turn uses (every enabled one
// when ids is nil) are connected or failed, and reports those that are
// not connected; it fails for a named server that is not configured.
func checkServers(ctx context.Context, pool *mcppool.Pool, ids []string, timeout time.Duration, env Env) error {
	known := map[string]bool{}
	for _, s := range pool.Servers() {
		known[s.Config.ID] = true
	}
	for _, id := range ids {
		if !known[id] {
			return fmt.Errorf("--servers: no server %q in %s", id, pool.ConfigPath())
		}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		settled := true
		var states []mcppool.ServerState
		for _, s := range pool.Servers() {
			enabled := s.Config.Enabled == nil || *s.Config.Enabled
			if ids != nil && !slices.Contains(ids, s.Config.ID) || ids == nil && !enabled {
				continue
			}
			states = append(states, s)
			switch s.Status.State {
			case events.StateConnecting, events.StateRestarting:
				settled = false
			case events.StateDisabled:
				settled = settled && !enabled
			}
		}
		if settled || ctx.Err() != nil {
			for _, s := range states {
				if s.Status.State != events.StateConnected {
					why := s.Status.Error
					if why == "" {
						why = string(s.Status.State)
					}
					fmt.Fprintf(env.Stderr, "mcpdesk: server %q is not available (%s); its tools are not offered\n", s.Config.ID, why)
				}
			}
			return nil
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
}

// chatConversation opens --conversation ID (applying the flags given) or
// creates a conversation from the flags.
func chatConversation(ctx context.Context, e *chat.Engine, st *store.Store, id int64, ref providers.ModelRef,
	set map[string]bool, servers []string, system string, temperature float64, maxSteps int) (store.Conversation, error) {
	var s store.ConversationSettings
	if id != 0 {
		c, err := st.GetConversation(ctx, id)
		if err != nil {
			return store.Conversation{}, err
		}
		s = c.Settings
	}
	changed := false
	if !ref.IsZero() {
		s.Provider, s.Model, changed = ref.Provider, ref.Model, true
	}
	if set["servers"] {
		s.Servers, changed = servers, true
	}
	if set["system"] {
		s.SystemPrompt, changed = system, true
	}
	if set["temperature"] {
		s.Temperature, changed = &temperature, true
	}
	if set["max-steps"] {
		s.MaxSteps, changed = &maxSteps, true
	}
	if id == 0 {
		return e.NewConversation(ctx, chat.NewConversationInput{Settings: s})
	}
	if !changed {
		return st.GetConversation(ctx, id)
	}
	return e.UpdateSettings(ctx, id, s)
}

// chatPrinter is the command line's emitter: it prints the answer and the
// tool calls (or, with --json, every chat event), and answers approvals
// and sampling requests on the terminal in ask mode.
type chatPrinter struct {
	env    Env
	json   bool
	mode   chat.ApprovalMode
	engine *chat.Engine
	done   chan events.ChatDonePayload
	// names name a model by its provider, as the window does.
	names store.ProviderNames

	mu        sync.Mutex // output and the fields below
	enc       *json.Encoder
	lastMsg   int64 // message whose text was printed last
	lastByte  byte
	shown     map[string]store.ToolCallStatus
	hadErrors bool

	askMu sync.Mutex // one question on the terminal at a time
	in    *bufio.Reader
	tty   bool
}

func newChatPrinter(env Env, jsonOut bool, mode chat.ApprovalMode) *chatPrinter {
	enc := json.NewEncoder(jsonWriter{env.Stdout})
	enc.SetEscapeHTML(false)
	return &chatPrinter{
		env: env, json: jsonOut, mode: mode, enc: enc,
		done:  make(chan events.ChatDonePayload, 1),
		shown: map[string]store.ToolCallStatus{},
		in:    bufio.NewReader(env.Stdin), tty: isTerminal(env.Stdin),
	}
}

// Emit implements events.Emitter.
func (p *chatPrinter) Emit(name events.Name, payload any) {
	if !strings.HasPrefix(string(name), "chat:") {
		return // server status, JSON-RPC log…: not part of a chat's output
	}
	p.mu.Lock()
	if p.json {
		_ = p.enc.Encode(struct {
			Event   events.Name `json:"event"`
			Payload any         `json:"payload"`
		}{name, payload})
	} else {
		p.text(name, payload)
	}
	if e, ok := payload.(events.ChatErrorPayload); ok && e.Kind != "tool" && e.Kind != "validation" {
		p.hadErrors = true
	}
	p.mu.Unlock()

	switch v := payload.(type) {
	case events.ChatApprovalPayload:
		go p.approve(v)
	case events.ChatSamplingPayload:
		go p.sample(v)
	case events.ChatDonePayload:
		select {
		case p.done <- v:
		default:
		}
	}
}

// text prints one event for people; p.mu is held.
func (p *chatPrinter) text(name events.Name, payload any) {
	w := p.env.Stderr
	switch v := payload.(type) {
	case events.ChatDeltaPayload:
		if v.Text == "" {
			return
		}
		if p.lastMsg != 0 && p.lastMsg != v.MessageID && p.lastByte != '\n' {
			p.write("\n")
		}
		p.lastMsg = v.MessageID
		p.write(v.Text)
	case events.ChatToolCallPayload:
		c := v.Call
		if v.Progress != nil || p.shown[c.ID] == c.Status {
			return
		}
		p.shown[c.ID] = c.Status
		p.breakLine()
		who := c.Name
		if c.Server != "" {
			who = c.Server + " › " + c.Tool
		}
		switch c.Status {
		case store.ToolCallRunning:
			fmt.Fprintf(w, "→ %s %s\n", who, oneLine(c.Arguments, 200))
		case store.ToolCallDone:
			fmt.Fprintf(w, "← %s (%d ms): %s\n", who, c.DurationMs, oneLine(callResultText(c.Result), 200))
		case store.ToolCallError:
			msg := c.Error
			if msg == "" {
				msg = callResultText(c.Result)
			}
			fmt.Fprintf(w, "✗ %s failed: %s\n", who, oneLine(msg, 300))
		case store.ToolCallDeclined:
			fmt.Fprintf(w, "✗ %s declined (%s)\n", who, c.Approval)
		case store.ToolCallCancelled:
			fmt.Fprintf(w, "✗ %s cancelled\n", who)
		}
	case events.ChatStepPayload:
		if v.Message != "" && (v.Phase == "retry" || v.Phase == "fallback") {
			p.breakLine()
			fmt.Fprintf(w, "mcpdesk: %s\n", v.Message)
		}
	case events.ChatErrorPayload:
		if v.Kind == "tool" || v.Kind == "validation" {
			return // shown with the tool call
		}
		p.breakLine()
		fmt.Fprintf(w, "mcpdesk: %s\n", v.Message)
	}
}

// write prints answer text on stdout; p.mu is held.
func (p *chatPrinter) write(s string) {
	io.WriteString(p.env.Stdout, s)
	if s != "" {
		p.lastByte = s[len(s)-1]
	}
}

// breakLine ends a half-printed answer line before stderr output, so the
// two streams do not run into each other on a terminal.
func (p *chatPrinter) breakLine() {
	if p.lastMsg != 0 && p.lastByte != '\n' {
		p.write("\n")
	}
}

// finish ends the answer with a line break.
func (p *chatPrinter) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.json {
		p.breakLine()
	}
}

func (p *chatPrinter) reportedError() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hadErrors
}

// approve answers a tool call on the terminal (only ask mode asks).
func (p *chatPrinter) approve(a events.ChatApprovalPayload) {
	ctx := context.Background()
	if !p.tty {
		p.note("%s › %s wants to run, but there is no terminal to ask: declined (use --approve auto or never)", a.Server, a.Tool)
		_ = p.engine.Approve(ctx, a.ID, chat.ApprovalDecision{Action: "cancel"})
		return
	}
	p.askMu.Lock()
	defer p.askMu.Unlock()
	warn := ""
	if a.Annotations.DestructiveHint != nil && *a.Annotations.DestructiveHint {
		warn = " (destructive)"
	}
	p.mu.Lock()
	p.breakLine()
	fmt.Fprintf(p.env.Stderr, "\nRun %s › %s%s with %s?\n", a.Server, a.Tool, warn, oneLine(string(a.Arguments), 500))
	if a.Description != "" {
		fmt.Fprintf(p.env.Stderr, "  %s\n", oneLine(a.Description, 200))
	}
	fmt.Fprint(p.env.Stderr, trustText(a)) // what looks suspicious, what changed (SPEC G1)
	fmt.Fprint(p.env.Stderr, "[y]es / [N]o / [a]lways for this tool / ne[v]er: ")
	p.mu.Unlock()
	d := chat.ApprovalDecision{Action: "cancel"}
	switch line, _ := p.readLine(); strings.ToLower(line) {
	case "y", "yes":
		d.Action = "run"
	case "a", "always":
		d.Action, d.Policy = "run", "always"
	case "v", "never":
		d.Policy = "never"
	}
	if err := p.engine.Approve(ctx, a.ID, d); err != nil && !errors.Is(err, chat.ErrNoSuchApproval) {
		p.note("%v", err)
	}
}

// sample answers a server's sampling request: auto approves, never
// rejects, ask asks.
func (p *chatPrinter) sample(s events.ChatSamplingPayload) {
	approve := p.mode == chat.ApproveAuto
	if p.mode == chat.ApproveAsk {
		if !p.tty {
			p.note("%s asks the model for a completion (sampling), but there is no terminal to ask: rejected", s.Server)
		} else {
			p.askMu.Lock()
			p.mu.Lock()
			p.breakLine()
			fmt.Fprintf(p.env.Stderr, "\n%s asks %s for a completion:\n  %s\nAllow? [y]es / [N]o: ", s.Server, p.names.ModelLabel(store.SplitModel(s.Model)), oneLine(string(s.Request), 500))
			p.mu.Unlock()
			line, _ := p.readLine()
			p.askMu.Unlock()
			approve = strings.EqualFold(line, "y") || strings.EqualFold(line, "yes")
		}
	}
	if err := p.engine.AnswerSampling(s.ID, chat.SamplingAnswer{Approve: approve}); err != nil && !errors.Is(err, chat.ErrNoSuchSampling) {
		p.note("%v", err)
	}
}

func (p *chatPrinter) readLine() (string, error) {
	line, err := p.in.ReadString('\n')
	if err != nil && line == "" {
		return "", err
	}
	return strings.TrimSpace(line), nil
}

func (p *chatPrinter) note(format string, a ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.breakLine()
	fmt.Fprintf(p.env.Stderr, "mcpdesk: "+format+"\n", a...)
}

// callResultText is the text of a stored CallToolResult.
func callResultText(raw json.RawMessage) string {
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(raw, &res) != nil {
		return string(raw)
	}
	var parts []string
	for _, c := range res.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		} else {
			parts = append(parts, "["+c.Type+"]")
		}
	}
	return strings.Join(parts, " ")
}

// oneLine collapses whitespace and cuts s to n characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// attachAll reads and stores each --attach file, as the window's composer
// does; the first one that cannot be attached stops the command, named.
func attachAll(ctx context.Context, engine *chat.Engine, paths []string) ([]store.Attachment, error) {
	out := make([]store.Attachment, 0, len(paths))
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("--attach %s: %w", p, err)
		}
		if !info.Mode().IsRegular() {
			return nil, fmt.Errorf("--attach %s: not a file", p)
		}
		if info.Size() > attach.MaxFileBytes {
			return nil, fmt.Errorf("--attach %s: %d MB, the limit is %d MB", p, info.Size()>>20, attach.MaxFileBytes>>20)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("--attach %s: %w", p, err)
		}
		a, err := engine.AddAttachment(ctx, filepath.Base(p), data)
		if err != nil {
			return nil, fmt.Errorf("--attach %s: %w", p, err)
		}
		out = append(out, a)
	}
	return out, nil
}
