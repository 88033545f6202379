package mcppool

import (
	"context"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// Resource subscriptions and the notification stream (SPEC B2).
//
// The two protocol revisions differ:
//
//   - Up to 2025-11-25, notifications flow without asking, and the client
//     subscribes to one resource with resources/subscribe (and drops it with
//     resources/unsubscribe).
//   - 2026-07-28 makes every notification opt-in: the client opens one
//     long-lived subscriptions/listen request naming the kinds it wants —
//     list changes and the resource URIs to watch — and reopens it with a new
//     filter when the set changes.
//
// The set of subscribed URIs belongs to the conn, not the session, so it
// survives a restart: a new session subscribes to the same resources again.

// Subscribe asks server id to report changes of the resource uri. The
// server must declare the resources.subscribe capability.
func (p *Pool) Subscribe(ctx context.Context, id, uri string) error {
	if uri == "" {
		return fmt.Errorf("a resource URI is required")
	}
	c := p.conn(id)
	if c == nil {
		return unknownServer(id)
	}
	return p.Do(ctx, id, func(ctx context.Context, s *Session) error {
		if r := s.Capabilities.Resources; r == nil || !r.Subscribe {
			return fmt.Errorf("server %q does not offer resource subscriptions", id)
		}
		c.mu.Lock()
		if slices.Contains(c.subs, uri) {
			c.mu.Unlock()
			return nil
		}
		c.subs = append(c.subs, uri)
		c.mu.Unlock()
		if mcp.IsModernProtocol(s.Protocol) {
			c.listen(s)
			return nil
		}
		err := s.Client.Subscribe(ctx, mcp.SubscribeRequest{Params: mcp.SubscribeParams{URI: uri}})
		if err != nil {
			c.dropSub(uri)
		}
		return err
	})
}

// Unsubscribe stops the reports Subscribe asked for.
func (p *Pool) Unsubscribe(ctx context.Context, id, uri string) error {
	c := p.conn(id)
	if c == nil {
		return unknownServer(id)
	}
	if !c.dropSub(uri) {
		return nil
	}
	return p.Do(ctx, id, func(ctx context.Context, s *Session) error {
		if mcp.IsModernProtocol(s.Protocol) {
			c.listen(s)
			return nil
		}
		return s.Client.Unsubscribe(ctx, mcp.UnsubscribeRequest{Params: mcp.UnsubscribeParams{URI: uri}})
	})
}

// Subscriptions lists the resources of server id the user subscribed to.
func (p *Pool) Subscriptions(id string) ([]string, error) {
	c := p.conn(id)
	if c == nil {
		return nil, unknownServer(id)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.subs), nil
}

// dropSub removes uri from the set and reports whether it was there.
func (c *conn) dropSub(uri string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := slices.Index(c.subs, uri)
	if i < 0 {
		return false
	}
	c.subs = slices.Delete(c.subs, i, i+1)
	return true
}

// openSubscriptions runs when a session comes up: it opens the notification
// stream of a 2026-07-28 session, or repeats the subscriptions of an older
// one.
func (c *conn) openSubscriptions(ctx context.Context, s *Session) {
	if mcp.IsModernProtocol(s.Protocol) {
		c.listen(s)
		return
	}
	c.mu.Lock()
	subs := slices.Clone(c.subs)
	c.mu.Unlock()
	if len(subs) == 0 {
		return
	}
	if r := s.Capabilities.Resources; r == nil || !r.Subscribe {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	for _, uri := range subs {
		if err := s.Client.Subscribe(ctx, mcp.SubscribeRequest{Params: mcp.SubscribeParams{URI: uri}}); err != nil {
			c.pool.logger.Warn("resubscribe failed", "server", c.cfg.ID, "uri", uri, "err", s.Redact(err.Error()))
		}
	}
}

// listen (re)opens the subscriptions/listen stream of a 2026-07-28 session
// with the kinds the server can report and the subscribed resources. The
// previous stream, if any, is closed first. Nothing is opened when the
// server can report nothing.
func (c *conn) listen(s *Session) {
	caps := s.Capabilities
	c.mu.Lock()
	if c.stopListen != nil {
		c.stopListen()
		c.stopListen = nil
	}
	filter := mcp.SubscriptionFilter{
		ToolsListChanged:     caps.Tools != nil && caps.Tools.ListChanged,
		PromptsListChanged:   caps.Prompts != nil && caps.Prompts.ListChanged,
		ResourcesListChanged: caps.Resources != nil && caps.Resources.ListChanged,
	}
	if caps.Resources != nil && caps.Resources.Subscribe {
		filter.ResourceSubscriptions = slices.Clone(c.subs)
	}
	if filter.IsEmpty() || c.sess != s {
		c.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(c.pool.ctx)
	c.stopListen = cancel
	c.mu.Unlock()
	go func() {
		err := s.Client.Listen(ctx, filter)
		if err != nil && ctx.Err() == nil {
			c.pool.logger.Warn("notification stream closed", "server", c.cfg.ID, "err", s.Redact(err.Error()))
		}
	}()
}

// resourceUpdated (flood.go) publishes a notifications/resources/updated.
