package mcppool

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// Multi round-trip requests (SEP-2322) on revision 2026-07-28, through our
// transport wrappers and Elicitor (mcp-go drives the loop): a result that
// asks for input is answered by the Elicitor and the call sent again with a
// new JSON-RPC id, the answers and the request state exactly as received;
// no state is sent when none came; nothing leaks into the next call; and a
// result without resultType is complete.

// acceptingElicitor answers every question accept with content.
type acceptingElicitor struct {
	content map[string]any

	mu    sync.Mutex
	asked []string // server: message
}

func (e *acceptingElicitor) Elicit(_ context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	e.mu.Lock()
	e.asked = append(e.asked, server+": "+req.Params.Message)
	e.mu.Unlock()
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: e.content}}, nil
}

func TestMultiRoundTrip(t *testing.T) {
	// Spaces, escapes and non-ASCII: echoed byte for byte.
	const state = `{"step":1, "nonce":"a b\u00e9 é", "list":[1,2]} `
	confirm := map[string]any{"confirm": map[string]any{"method": "elicitation/create", "params": map[string]any{
		"message":         "Please confirm",
		"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"confirmed": map[string]any{"type": "boolean"}}},
	}}}
	done := func(text string) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "resultType": "complete"}
	}
	s := &statelessServer{call: func(p map[string]any) map[string]any {
		_, answered := p["inputResponses"]
		switch p["name"] {
		case "echo_state":
			if !answered {
				return map[string]any{"resultType": "input_required", "inputRequests": confirm, "requestState": state}
			}
			return done("echoed")
		case "no_state":
			if !answered {
				return map[string]any{"resultType": "input_required", "inputRequests": confirm}
			}
			return done("no state")
		case "no_result_type":
			return map[string]any{"content": []any{map[string]any{"type": "text", "text": "complete by default"}}}
		default:
			return done("unrelated")
		}
	}}
	e := &acceptingElicitor{content: map[string]any{"confirmed": true}}
	sess := connectStateless(t, s, e)
	ctx := context.Background()
	for _, name := range []string{"echo_state", "no_state", "unrelated", "no_result_type"} {
		res, err := sess.Client.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: name, Arguments: map[string]any{}}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.NeedsInput() || len(res.Content) != 1 {
			t.Fatalf("%s: result %+v; want the complete one", name, res)
		}
	}

	calls := s.requests("tools/call")
	byName := map[string][]seenRequest{}
	for _, c := range calls {
		name, _ := c.Params["name"].(string)
		byName[name] = append(byName[name], c)
	}
	for name, n := range map[string]int{"echo_state": 2, "no_state": 2, "unrelated": 1, "no_result_type": 1} {
		if len(byName[name]) != n {
			t.Errorf("%s: sent %d times; want %d", name, len(byName[name]), n)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	first, retry := byName["echo_state"][0], byName["echo_state"][1]
	if bytes.Equal(first.ID, retry.ID) {
		t.Errorf("the retry reused JSON-RPC id %s", first.ID)
	}
	if retry.Params["requestState"] != state {
		t.Errorf("retry params %s; want requestState %q as received", retry.Raw, state)
	}
	answer, _ := retry.Params["inputResponses"].(map[string]any)["confirm"].(map[string]any)
	content, _ := answer["content"].(map[string]any)
	if answer["action"] != "accept" || content["confirmed"] != true {
		t.Errorf("inputResponses %v; want confirm accepted with confirmed true", retry.Params["inputResponses"])
	}
	for _, c := range []seenRequest{first, byName["no_state"][0], byName["unrelated"][0], byName["no_result_type"][0]} {
		if _, ok := c.Params["inputResponses"]; ok {
			t.Errorf("%s sent inputResponses on a first call: %s", c.Params["name"], c.Raw)
		}
		if _, ok := c.Params["requestState"]; ok {
			t.Errorf("%s sent requestState on a first call: %s", c.Params["name"], c.Raw)
		}
	}
	if retry := byName["no_state"][1]; retry.Params["inputResponses"] == nil || retry.Params["requestState"] != nil {
		t.Errorf("no_state retry %s; want inputResponses and no requestState", retry.Raw)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.asked) != 2 || e.asked[0] != "s: Please confirm" {
		t.Errorf("the Elicitor was asked %q; want twice, for server s", e.asked)
	}
}
