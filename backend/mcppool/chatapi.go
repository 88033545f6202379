package mcppool

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
)

// What the chat engine needs from the pool beyond the inspector's calls.

// Instructions returns the instructions a connected server gave in its
// initialize result (SPEC A7), or "" when it gave none or is not connected.
func (p *Pool) Instructions(id string) string {
	c := p.conn(id)
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == nil {
		return ""
	}
	return c.sess.Instructions
}

// CallToolObserved is CallToolTracked with observe called, on the
// transport's goroutine, for every progress notification of the call (as
// well as the events.Progress event every tracked call publishes). observe
// must not block.
func (p *Pool) CallToolObserved(ctx context.Context, callID, server, tool string, args map[string]any,
	observe func(events.ProgressPayload)) (*mcp.CallToolResult, time.Duration, error) {
	return p.callToolTracked(ctx, callID, server, tool, args, observe)
}
