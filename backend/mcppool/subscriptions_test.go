package mcppool

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// updates returns the resource-updated events for server and uri.
func (r *recordingEmitter) updates(server, uri string) int {
	n := 0
	for _, e := range r.all() {
		if u, ok := e.payload.(events.ResourceUpdatedPayload); ok && u.Server == server && u.URI == uri {
			n++
		}
	}
	return n
}

// sent returns the payloads of the requests of method sent to server.
func sent(p *Pool, server, method string) []string {
	var out []string
	for _, e := range p.Log().Entries() {
		if e.Server == server && e.Method == method && e.Direction == events.Outgoing {
			out = append(out, e.Payload)
		}
	}
	return out
}

// TestSubscribeModern: on 2026-07-28 a subscription is a
// subscriptions/listen stream naming the URI; an update reaches the UI, and
// unsubscribing reopens the stream without it.
func TestSubscribeModern(t *testing.T) {
	p, em := newTestPool(t, stdioServer("ours"))
	st := waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	if !mcp.IsModernProtocol(st.ProtocolVersion) {
		t.Fatalf("test server negotiated %s, want 2026-07-28", st.ProtocolVersion)
	}
	// The stream is open from the start, opted in to list changes.
	waitFor(t, 5*time.Second, "a subscriptions/listen request", func() bool { return len(sent(p, "ours", "subscriptions/listen")) > 0 })
	if first := sent(p, "ours", "subscriptions/listen")[0]; !strings.Contains(first, `"toolsListChanged":true`) {
		t.Fatalf("listen filter lacks tool list changes: %s", first)
	}
	ctx := context.Background()
	if err := p.Subscribe(ctx, "ours", "test://hello"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "a listen request naming test://hello", func() bool {
		l := sent(p, "ours", "subscriptions/listen")
		return strings.Contains(l[len(l)-1], `"resourceSubscriptions":["test://hello"]`)
	})
	if subs, _ := p.Subscriptions("ours"); len(subs) != 1 || subs[0] != "test://hello" {
		t.Fatalf("subscriptions: %v", subs)
	}
	if _, err := p.CallTool(ctx, "ours", "update_resource", map[string]any{"uri": "test://hello"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "a resource-updated event", func() bool { return em.updates("ours", "test://hello") > 0 })

	if err := p.Unsubscribe(ctx, "ours", "test://hello"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "a listen request without the URI", func() bool {
		l := sent(p, "ours", "subscriptions/listen")
		return !strings.Contains(l[len(l)-1], "test://hello")
	})
	if subs, _ := p.Subscriptions("ours"); len(subs) != 0 {
		t.Fatalf("subscriptions after unsubscribe: %v", subs)
	}
}

// TestSubscribeLegacy: on 2025-11-25 subscribing sends resources/subscribe,
// and a restart subscribes again.
func TestSubscribeLegacy(t *testing.T) {
	srv := stdioServer("old")
	srv.ProtocolVersion = "2025-11-25"
	p, em := newTestPool(t, srv)
	waitState(t, p, "old", events.StateConnected, 15*time.Second)
	ctx := context.Background()
	if err := p.Subscribe(ctx, "old", "test://data.json"); err != nil {
		t.Fatal(err)
	}
	if got := sent(p, "old", "resources/subscribe"); len(got) != 1 || !strings.Contains(got[0], "test://data.json") {
		t.Fatalf("resources/subscribe requests: %v", got)
	}
	if len(sent(p, "old", "subscriptions/listen")) != 0 {
		t.Fatal("a 2025-11-25 session must not use subscriptions/listen")
	}
	if _, err := p.CallTool(ctx, "old", "update_resource", map[string]any{"uri": "test://data.json"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "a resource-updated event", func() bool { return em.updates("old", "test://data.json") > 0 })

	if err := p.Restart("old"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 15*time.Second, "resubscribe after restart", func() bool { return len(sent(p, "old", "resources/subscribe")) == 2 })

	if err := p.Unsubscribe(ctx, "old", "test://data.json"); err != nil {
		t.Fatal(err)
	}
	if got := sent(p, "old", "resources/unsubscribe"); len(got) != 1 {
		t.Fatalf("resources/unsubscribe requests: %v", got)
	}
	// Unsubscribing what is not subscribed sends nothing.
	if err := p.Unsubscribe(ctx, "old", "test://data.json"); err != nil || len(sent(p, "old", "resources/unsubscribe")) != 1 {
		t.Fatalf("second unsubscribe: %v", err)
	}
}

// TestSubscribeUnsupported: a server without the capability says so.
func TestSubscribeUnsupported(t *testing.T) {
	p, _ := newTestPool(t, stdioServer("ours"))
	waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	if err := p.Subscribe(context.Background(), "ours", ""); err == nil {
		t.Fatal("empty URI accepted")
	}
	if err := p.Subscribe(context.Background(), "nope", "x://y"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("unknown server: %v", err)
	}
}

// TestEverythingSubscription subscribes to a resource of the reference
// server and turns its simulated updates on: the update arrives.
func TestEverythingSubscription(t *testing.T) {
	entry := npmServer(t, "server-everything")
	p, em := newTestPool(t, mcpconfig.Server{ID: "everything", Command: "node", Args: []string{entry, "stdio"}})
	waitState(t, p, "everything", events.StateConnected, 30*time.Second)
	ctx := context.Background()
	page, err := p.ResourcesPage(ctx, "everything", "")
	if err != nil || len(page.Resources) == 0 {
		t.Fatalf("resources: %v", err)
	}
	uri := page.Resources[0].URI
	if err := p.Subscribe(ctx, "everything", uri); err != nil {
		t.Fatal(err)
	}
	res, err := p.CallTool(ctx, "everything", "toggle-subscriber-updates", nil)
	if err != nil || res.IsError {
		t.Fatalf("toggle-subscriber-updates: %+v %v", res, err)
	}
	t.Cleanup(func() { _, _ = p.CallTool(context.Background(), "everything", "toggle-subscriber-updates", nil) })
	waitFor(t, 8*time.Second, "an update for "+uri, func() bool { return em.updates("everything", uri) > 0 })
	if err := p.Unsubscribe(ctx, "everything", uri); err != nil {
		t.Fatal(err)
	}
}
