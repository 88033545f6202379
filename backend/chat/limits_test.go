package chat

import (
	"testing"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
)

// TestLargeToolResultBounded: a tool result of 3 MB (under the server's
// 32 MB message limit) is bounded everywhere the chat keeps or shows it:
// the stored call, the tool message stored and read by the model, and the
// chat:tool-call events the UI receives.
func TestLargeToolResultBounded(t *testing.T) {
	const size = 3 << 20
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
	en.allow(policyAlways, "test", "big")
	conv := en.newConv(nil)
	c, _ := en.callTurn(conv.ID, "test__big", `{"bytes":3145728}`, nil)

	if c.Status != store.ToolCallDone || !c.ResultTruncated || c.ResultBytes < size || len(c.Result) > store.MaxToolResultBytes {
		t.Fatalf("stored call: status %s, truncated %v, %d bytes of %d", c.Status, c.ResultTruncated, len(c.Result), c.ResultBytes)
	}
	for _, m := range en.messages(conv.ID) {
		if m.Role == store.RoleTool && len(m.Content) > store.MaxToolResultBytes {
			t.Fatalf("stored tool message of %d bytes; bound %d", len(m.Content), store.MaxToolResultBytes)
		}
	}
	reqs := en.llm.Requests()
	if got := toolMessage(t, reqs[len(reqs)-1], c.ID); len(got) > store.MaxToolResultBytes || len(got) < 1000 {
		t.Fatalf("the model read a tool message of %d bytes; bound %d", len(got), store.MaxToolResultBytes)
	}
	for _, e := range en.rec.all() {
		if p, ok := e.payload.(events.ChatToolCallPayload); ok && p.Call.ID == c.ID && len(p.Call.Result) > store.MaxToolResultBytes {
			t.Fatalf("the UI was sent a result of %d bytes; bound %d", len(p.Call.Result), store.MaxToolResultBytes)
		}
	}
}
