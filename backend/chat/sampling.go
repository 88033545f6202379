package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/llm"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/store"
)

// Sampling (SPEC A11). The Engine is the pool's mcp.Sampler: a server's
// sampling/createMessage is shown to the user as chat:sampling, and on
// approval (possibly edited) the model of the conversation whose tool call
// is running on that server answers it for real — the default model when
// no chat call is running there. A rejected, expired or failed request is
// an error to the server, which its tool reports as a failed result.

// SamplingAnswer answers one sampling request.
type SamplingAnswer struct {
	Approve bool `json:"approve"`
	// Request replaces the server's params (sampling/createMessage params
	// as JSON) when the user edited them.
	Request json.RawMessage `json:"request,omitempty" ts_type:"any"`
}

// pendingSampling is one open sampling request.
type pendingSampling struct {
	payload events.ChatSamplingPayload
	turn    *turn // the turn it belongs to, or nil
	ch      chan samplingReply
}

type samplingReply struct {
	approve bool
	params  *mcp.CreateMessageParams // edited params, or nil
	expired bool                     // its turn ended (already announced)
}

// CreateMessage answers a server's sampling request; it implements
// mcp.Sampler.
func (e *Engine) CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	params := req.CreateMessageParams
	if len(params.Tools) > 0 || params.ToolChoice != nil {
		return nil, errors.New("MCP Desk does not support tools in sampling requests")
	}
	t := e.activeTurnOn(server)
	var convID int64
	ref := providers.ModelRef{}
	if t != nil {
		convID = t.conv
		if c, err := e.st.GetConversation(ctx, t.conv); err == nil {
			ref = resolveModel(c)
		}
	}
	routes, err := e.models.Routes(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("no model can answer the sampling request: %w", err)
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("read the sampling request: %w", err)
	}
	id := fmt.Sprintf("sampling-%d", e.seq.Add(1))
	p := &pendingSampling{
		payload: events.ChatSamplingPayload{ID: id, ConversationID: convID, Server: server, Request: raw, Model: modelLabel(routes[0])},
		turn:    t,
		ch:      make(chan samplingReply, 1),
	}
	e.mu.Lock()
	e.samplings[id] = p
	e.mu.Unlock()
	e.emit.Emit(events.ChatSampling, p.payload)

	done := func(outcome events.SamplingOutcome) {
		e.emit.Emit(events.ChatSamplingDone, events.ChatSamplingDonePayload{ID: id, ConversationID: convID, Outcome: outcome})
	}
	timer := time.NewTimer(e.opts.SamplingTimeout)
	defer timer.Stop()
	var turnDone <-chan struct{}
	if t != nil {
		turnDone = t.ctx.Done()
	}
	var reply samplingReply
	select {
	case reply = <-p.ch:
	case <-turnDone:
		if reply, err = e.takeSampling(p, errors.New("the chat turn that made this call ended")); err != nil {
			done(events.SamplingExpired)
			return nil, err
		}
	case <-timer.C:
		if reply, err = e.takeSampling(p, fmt.Errorf("nobody answered the sampling request within %s", humanDuration(e.opts.SamplingTimeout))); err != nil {
			done(events.SamplingExpired)
			return nil, err
		}
	case <-ctx.Done():
		if reply, err = e.takeSampling(p, ctx.Err()); err != nil {
			done(events.SamplingExpired)
			return nil, err
		}
	}
	switch {
	case reply.expired:
		return nil, errors.New("the chat turn that made this call ended before the sampling request was answered")
	case !reply.approve:
		done(events.SamplingRejected)
		return nil, errors.New("the user rejected the sampling request")
	}
	if reply.params != nil {
		params = *reply.params
	}

	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if t != nil {
		stop := context.AfterFunc(t.ctx, cancel)
		defer stop()
	}
	targets := make([]llm.Target, len(routes))
	for i, r := range routes {
		targets[i] = r.Target
	}
	cur := 0
	res, err := llm.StreamWithFallback(callCtx, targets, samplingRequest(params, routes[0].Ref.Model), e.opts.Retry, nil,
		func(a llm.Attempt) {
			if a.Fallback && cur+1 < len(routes) {
				cur++
			}
		})
	route := routes[cur]
	if u := res.Usage; u != (llm.Usage{}) {
		var turnID string
		if t != nil {
			turnID = t.id
		}
		e.emit.Emit(events.ChatUsage, events.ChatUsagePayload{
			ConversationID: convID, TurnID: turnID, Provider: route.Ref.Provider, Model: route.Ref.Model,
			Usage: usageOf(u),
		})
		e.recordUsage(context.WithoutCancel(ctx), convID, route, store.UsageSampling, usageOf(u))
	}
	if err != nil {
		done(events.SamplingFailed)
		return nil, fmt.Errorf("sampling with %s failed: %s", route.Target.Label, errText(err))
	}
	done(events.SamplingApproved)
	model := res.Model
	if model == "" {
		model = route.Ref.Model
	}
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(res.Content)},
		Model:           model,
		StopReason:      stopReason(res.FinishReason),
	}, nil
}

// takeSampling withdraws an unanswered request, returning why; when an
// answer came at the same moment, it returns that answer instead.
func (e *Engine) takeSampling(p *pendingSampling, why error) (samplingReply, error) {
	e.mu.Lock()
	open := e.samplings[p.payload.ID] == p
	if open {
		delete(e.samplings, p.payload.ID)
	}
	e.mu.Unlock()
	if open {
		return samplingReply{}, why
	}
	return <-p.ch, nil
}

// expireSamplings withdraws the open requests of a turn that ends, and
// announces it before the turn's chat:done.
func (e *Engine) expireSamplings(t *turn) {
	var list []*pendingSampling
	e.mu.Lock()
	for id, p := range e.samplings {
		if p.turn == t {
			delete(e.samplings, id)
			list = append(list, p)
		}
	}
	e.mu.Unlock()
	for _, p := range list {
		e.emit.Emit(events.ChatSamplingDone, events.ChatSamplingDonePayload{
			ID: p.payload.ID, ConversationID: p.payload.ConversationID, Outcome: events.SamplingExpired})
		p.ch <- samplingReply{expired: true}
	}
}

// AnswerSampling approves (optionally with edited params) or rejects
// sampling request id. The first answer wins.
func (e *Engine) AnswerSampling(id string, a SamplingAnswer) error {
	e.mu.Lock()
	p := e.samplings[id]
	e.mu.Unlock()
	if p == nil {
		return ErrNoSuchSampling
	}
	reply := samplingReply{approve: a.Approve}
	if edited := bytes.TrimSpace(a.Request); a.Approve && len(edited) > 0 && string(edited) != "null" {
		var params mcp.CreateMessageParams
		if err := json.Unmarshal(edited, &params); err != nil {
			return fmt.Errorf("the edited sampling request is not valid: %w", err)
		}
		if len(params.Messages) == 0 {
			return errors.New("the edited sampling request needs at least one message")
		}
		if params.MaxTokens <= 0 {
			return errors.New("the edited sampling request needs maxTokens above 0")
		}
		reply.params = &params
	}
	e.mu.Lock()
	if e.samplings[id] != p {
		e.mu.Unlock()
		return ErrNoSuchSampling
	}
	delete(e.samplings, id)
	e.mu.Unlock()
	p.ch <- reply
	return nil
}

// samplingRequest turns sampling/createMessage params into a model request
// without tools.
func samplingRequest(p mcp.CreateMessageParams, model string) llm.Request {
	var msgs []llm.Message
	if s := strings.TrimSpace(p.SystemPrompt); s != "" {
		msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Content: s})
	}
	for _, m := range p.Messages {
		text, images := samplingContent(m.Content)
		role := llm.RoleUser
		if m.Role == mcp.RoleAssistant {
			role = llm.RoleAssistant
			images = nil
		}
		msgs = append(msgs, llm.Message{Role: role, Content: text, Images: images})
	}
	req := llm.Request{Model: model, Messages: msgs, MaxTokens: p.MaxTokens}
	if p.Temperature > 0 {
		v := float32(p.Temperature)
		req.Temperature = &v
	}
	return req
}

// samplingContent reads the content of a sampling message (one block or a
// list; typed or decoded from JSON) as text and images.
func samplingContent(content any) (string, []llm.Image) {
	b, err := json.Marshal(content)
	if err != nil {
		return "", nil
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return "", nil
	}
	var blocks []any
	switch x := v.(type) {
	case []any:
		blocks = x
	case map[string]any:
		blocks = []any{x}
	case string:
		return x, nil
	}
	var texts []string
	var images []llm.Image
	for _, bl := range blocks {
		m, _ := bl.(map[string]any)
		switch m["type"] {
		case "text":
			s, _ := m["text"].(string)
			texts = append(texts, s)
		case "image":
			data, _ := m["data"].(string)
			mime, _ := m["mimeType"].(string)
			images = append(images, llm.Image{MIMEType: mime, Data: data})
		default:
			mime, _ := m["mimeType"].(string)
			texts = append(texts, fmt.Sprintf("[%v %s omitted]", m["type"], mime))
		}
	}
	return strings.Join(texts, "\n"), images
}

// stopReason maps a model's finish reason to MCP's stopReason.
func stopReason(finish string) string {
	switch finish {
	case "", "stop":
		return "endTurn"
	case "length":
		return "maxTokens"
	default:
		return finish
	}
}
