package chat

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
)

// TestAppOnlyToolsAreNotOfferedToModels: a tool whose MCP Apps visibility
// lacks "model" is in no model's tool list (the specification: the host
// MUST NOT include it); its sibling visible to both is.
func TestAppOnlyToolsAreNotOfferedToModels(t *testing.T) {
	s := server.NewMCPServer("weather", "1.0.0", server.WithToolCapabilities(false))
	view := mcp.NewTool("show_weather", mcp.WithDescription("Shows the weather"))
	view.Meta = &mcp.Meta{AdditionalFields: map[string]any{"ui": map[string]any{"resourceUri": "ui://weather/view.html"}}}
	refresh := mcp.NewTool("refresh_view", mcp.WithDescription("Refreshes the view"))
	refresh.Meta = &mcp.Meta{AdditionalFields: map[string]any{"ui": map[string]any{"resourceUri": "ui://weather/view.html", "visibility": []any{"app"}}}}
	ok := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	}
	s.AddTool(view, ok)
	s.AddTool(refresh, ok)
	h := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(func() { h.CloseClientConnections(); h.Close() })

	en := newEnv(t, envConfig{servers: []mcpconfig.Server{{ID: "weather", Type: mcpconfig.HTTP, URL: h.URL + "/mcp"}}})
	en.waitTool("weather", "show_weather")
	offered, err := en.e.AvailableTools(nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, o := range offered {
		names[o.Name] = true
	}
	if !names["weather__show_weather"] || names["weather__refresh_view"] {
		t.Fatalf("offered %v: want show_weather and not the app-only refresh_view", names)
	}
}

// A call of a tool with a view is stored with the view's URI: the chat
// shows the view with it, after a reload too.
func TestCallOfAToolWithAViewKeepsItsURI(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("apps", "--apps")}})
	en.waitTool("apps", "show_counter")
	conv := en.newConv(nil)
	call, _ := en.callTurn(conv.ID, "apps__show_counter", `{"start":3}`, &ApprovalDecision{Action: "run"})
	if call.ViewURI != "ui://counter/view.html" || call.Status != store.ToolCallDone {
		t.Fatalf("stored call %+v: want its view ui://counter/view.html", call)
	}
	// A tool without a view has none.
	plain, _ := en.callTurn(conv.ID, "apps__echo", `{"message":"hi"}`, &ApprovalDecision{Action: "run"})
	if plain.ViewURI != "" {
		t.Fatalf("echo has a view: %q", plain.ViewURI)
	}
}
