package chat

import (
	"errors"
	"testing"

	"mcpdesk/backend/mcppool"
)

// TestStopIsACancelByTheUser: a chat's Stop ends its tool calls with a
// cause the MCP logger reads as cancelled by the user.
func TestStopIsACancelByTheUser(t *testing.T) {
	if !errors.Is(errStopped, mcppool.ErrCancelled) {
		t.Fatal("errStopped is not mcp.ErrCancelled: a chat's stopped tool call would be logged as given up, not cancelled by the user")
	}
}
