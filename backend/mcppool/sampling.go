package mcppool

import (
	"context"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// Sampler answers a server's sampling/createMessage (SPEC A11): the window
// shows the request to the user, who approves, edits or rejects it, and on
// approval a real model answers. mcp-go routes both protocol revisions
// here: a server-initiated request on 2025-11-25, and an input_required
// result of the multi-round-trip flow on 2026-07-28.
//
// A server learns that the app can sample (the client capability
// "sampling" in initialize) only when a Sampler is installed, so install it
// before Start: sessions opened earlier do not advertise it.
type Sampler interface {
	CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)
}

// SamplerFunc is a Sampler written as a function, as handlers are passed
// in Options: the composition root passes one that asks the chat engine,
// which is built after the pool because it calls the pool's tools.
type SamplerFunc func(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)

// CreateMessage calls f.
func (f SamplerFunc) CreateMessage(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return f(ctx, server, req)
}

// samplingHandler adapts a Sampler to one server's mcp-go client.
type samplingHandler struct {
	server string
	s      Sampler
}

func (h samplingHandler) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return h.s.CreateMessage(ctx, h.server, req)
}

// samplerSlot holds the pool's Sampler. The chat engine that answers
// sampling needs the pool to exist first, so the Sampler may be installed
// after New (with SetSampler), while connections read it as they dial.
type samplerSlot struct {
	mu sync.RWMutex
	s  Sampler
}

func (sl *samplerSlot) get() Sampler {
	sl.mu.RLock()
	defer sl.mu.RUnlock()
	return sl.s
}

func (sl *samplerSlot) set(s Sampler) {
	sl.mu.Lock()
	sl.s = s
	sl.mu.Unlock()
}

// SetSampler installs the Sampler that answers servers' sampling requests,
// replacing Options.Sampler. Call it before Start: a connection advertises
// the sampling capability when it connects, so servers connected earlier
// learn of it only after a restart. nil removes the Sampler.
func (p *Pool) SetSampler(s Sampler) { p.sampling.set(s) }
