package mcppool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

func TestRPCLogRingBounds(t *testing.T) {
	l := NewRPCLog(3, 100, nil)
	defer l.Close()
	for i := range 5 {
		l.Add(events.RPCEntry{Method: string(rune('a' + i)), Payload: "0123456789"})
	}
	got := l.Entries()
	if len(got) != 3 || got[0].Method != "c" || got[2].Method != "e" || got[2].Seq != 5 {
		t.Fatalf("ring by count: %+v", got)
	}
	// Bytes bound: 100 bytes hold at most two 40-byte payloads.
	l2 := NewRPCLog(10, 100, nil)
	defer l2.Close()
	for range 4 {
		l2.Add(events.RPCEntry{Payload: strings.Repeat("x", 40)})
	}
	if n := len(l2.Entries()); n != 2 {
		t.Fatalf("ring by bytes holds %d entries, want 2", n)
	}
	l2.Clear()
	if len(l2.Entries()) != 0 {
		t.Fatal("clear left entries")
	}
}

func TestRPCLogBatchesEvents(t *testing.T) {
	em := newRecordingEmitter()
	l := NewRPCLog(100, 0, em)
	for range 50 {
		l.Add(events.RPCEntry{Method: "m", Payload: "{}"})
	}
	l.Close()
	total, batches := 0, 0
	for _, e := range em.all() {
		if b, ok := e.payload.(events.RPCLogBatch); ok {
			total += len(b.Entries)
			batches++
		}
	}
	if total != 50 {
		t.Fatalf("emitted %d entries, want 50", total)
	}
	if batches > 5 {
		t.Fatalf("50 quick entries went out in %d batches; they should coalesce", batches)
	}
}

func TestRedactor(t *testing.T) {
	r := NewRedactor([]string{"sk-live-123456", `pa"ss\word`, "ab"})
	cases := []struct{ in, mustNot, must string }{
		{`{"env":"sk-live-123456"}`, "sk-live-123456", redactedPlaceholder},
		{`{"x":"pa\"ss\\word"}`, `pa\"ss\\word`, redactedPlaceholder},
		{`{"headers":{"Authorization":"Bearer abcdefghijkl"}}`, "abcdefghijkl", "Authorization"},
		{`{"api_key":"zzzz-yyyy"}`, "zzzz-yyyy", "api_key"},
		{`{"clientSecret":"c-s-1"}`, "c-s-1", "clientSecret"},
		{`{"progressToken":42,"_meta":{"progressToken":"tok-1"}}`, redactedPlaceholder, "tok-1"},
		{`short ab stays`, redactedPlaceholder, "ab"},
	}
	for _, c := range cases {
		got := r.Redact(c.in)
		if strings.Contains(got, c.mustNot) || !strings.Contains(got, c.must) {
			t.Errorf("Redact(%s) = %s", c.in, got)
		}
	}
}

// TestLoggerHasNoSecrets runs real traffic with secret env values and
// headers and checks the logger never holds them.
func TestLoggerHasNoSecrets(t *testing.T) {
	const envSecret = "sk-env-SECRET-0123456789"
	const headerSecret = "hdr-SECRET-9876543210"
	url := startHTTPTestServer(t, "http")
	stdio := stdioServer("stdio")
	stdio.Env = map[string]string{"API_TOKEN": envSecret}
	remote := mcpconfig.Server{ID: "remote", URL: url, Headers: map[string]string{"Authorization": "Bearer " + headerSecret, "X-Api-Key": headerSecret}}
	p, em := newTestPool(t, stdio, remote)
	waitState(t, p, "stdio", events.StateConnected, 15*time.Second)
	waitState(t, p, "remote", events.StateConnected, 15*time.Second)
	// Make the server echo the secret back: it must be scrubbed on the way in.
	res, err := p.CallTool(context.Background(), "stdio", "env", map[string]any{"name": "API_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resultText(res), envSecret) {
		t.Fatal("the tool result itself must carry the value (the test server read its env)")
	}
	if _, err := p.CallTool(context.Background(), "remote", "echo", map[string]any{"message": headerSecret}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * logFlushInterval)
	for _, e := range p.Log().Entries() {
		if strings.Contains(e.Payload, envSecret) || strings.Contains(e.Payload, headerSecret) {
			t.Fatalf("secret in logger entry %s %s: %s", e.Server, e.Method, e.Payload)
		}
	}
	for _, e := range em.all() {
		if b, ok := e.payload.(events.RPCLogBatch); ok {
			for _, x := range b.Entries {
				if strings.Contains(x.Payload, envSecret) || strings.Contains(x.Payload, headerSecret) {
					t.Fatalf("secret in emitted log event: %s", x.Payload)
				}
			}
		}
	}
	// Nor does the frontend's view of the servers.
	views, _ := NewService(p, nil).ListServers()
	for _, v := range views {
		for _, pair := range append(v.Spec.Env, v.Spec.Headers...) {
			if pair.Value != "" || !pair.Keep {
				t.Fatalf("a stored secret value reached the frontend: %+v", pair)
			}
		}
	}
}

// A response is logged as the JSON that json.Marshal makes of it, though
// its result is quoted as it came rather than encoded again.
func TestSerialiseResponse(t *testing.T) {
	for _, resp := range []*transport.JSONRPCResponse{
		{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(7)), Result: json.RawMessage(`{"content":[{"type":"text","text":"a \"b\" é"}]}`)},
		{JSONRPC: "2.0", ID: mcp.NewRequestId("req-1"), Result: json.RawMessage(`{}`)},
		{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(8)), Error: &mcp.JSONRPCErrorDetails{Code: -32601, Message: "no"}},
	} {
		want, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		if got := serialise(resp); got != string(want) {
			t.Errorf("serialise = %s, want %s", got, want)
		}
	}
}

// The ring's storage grows with the entries, up to its capacity, and keeps
// them in order through growing, wrapping and evicting.
func TestRPCLogGrowsAsNeeded(t *testing.T) {
	l := NewRPCLog(200, 1<<20, nil)
	defer l.Close()
	if n := len(l.entries); n != initialLogEntries {
		t.Fatalf("a new logger holds room for %d entries, want %d", n, initialLogEntries)
	}
	add := func(from, to int) {
		for i := from; i < to; i++ {
			l.Add(events.RPCEntry{Method: fmt.Sprint(i)})
		}
	}
	check := func(first, last int) {
		t.Helper()
		got := l.Entries()
		if len(got) != last-first+1 {
			t.Fatalf("held %d entries, want %d", len(got), last-first+1)
		}
		for i, e := range got {
			if e.Method != fmt.Sprint(first+i) {
				t.Fatalf("entry %d is %q, want %d", i, e.Method, first+i)
			}
		}
	}
	add(0, 150)
	check(0, 149)
	if n := len(l.entries); n != 200 {
		t.Errorf("after 150 entries the ring has room for %d, want 200 (64 → 128 → capped)", n)
	}
	add(150, 260) // past the capacity: the oldest 60 go
	check(60, 259)
	if n := len(l.entries); n != 200 {
		t.Errorf("the ring grew past its capacity: %d", n)
	}
	l.Clear()
	if n := len(l.entries); n != initialLogEntries {
		t.Errorf("after Clear the ring keeps room for %d entries, want %d", n, initialLogEntries)
	}
	add(0, 70)
	check(0, 69)
}
