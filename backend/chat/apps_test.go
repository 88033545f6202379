package chat

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"mcpdesk/backend/events"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
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

	// What the view gives the model (ui/update-model-context) is sent on the
	// next turn, as the view's and not the user's, before the message being
	// answered; the latest replaces what it gave before; a turn's later
	// update of the call keeps it.
	msgID := en.messageOf(conv.ID, call.ID)
	if err := en.e.SetViewContext(en.ctx, conv.ID, msgID, call.ID, "first"); err != nil {
		t.Fatal(err)
	}
	if err := en.e.SetViewContext(en.ctx, conv.ID, msgID, call.ID, "The user looked at the counter at 3"); err != nil {
		t.Fatal(err)
	}
	if err := en.e.SetViewContext(en.ctx, conv.ID+1000, msgID, call.ID, "elsewhere"); err == nil {
		t.Fatal("a view's context was stored through another conversation")
	}
	en.llm.Script(llmtest.TextTurn("noted"))
	en.done(en.send(conv.ID, "what did I look at?").TurnID)
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	en.llm.LastRequest().Decode(&req)
	n := len(req.Messages)
	if n < 2 || req.Messages[n-1].Content != "what did I look at?" || req.Messages[n-2].Role != "user" ||
		!strings.Contains(req.Messages[n-2].Content, "[From the view of apps › show_counter (call "+call.ID+")]\nThe user looked at the counter at 3") ||
		!strings.Contains(req.Messages[n-2].Content, "not by the user") || strings.Contains(req.Messages[n-2].Content, "first") {
		t.Fatalf("the request's last messages: %+v", req.Messages[max(0, n-2):])
	}
	for _, m := range en.messages(conv.ID) {
		for _, c := range m.ToolCalls {
			if c.ID == call.ID && c.ViewContext != "The user looked at the counter at 3" {
				t.Fatalf("stored view context %q", c.ViewContext)
			}
		}
	}
}

// An Apps SDK tool (openai/outputTemplate) keeps its widget's URI like an
// MCP Apps view; its widget-only tool is not offered to the model; the
// widget's state is sent on the next turn, marked as the widget's.
func TestAppsSDKWidgetStateReachesTheModel(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("apps", "--apps")}})
	en.waitTool("apps", "show_board")
	conv := en.newConv(nil)
	call, _ := en.callTurn(conv.ID, "apps__show_board", `{"title":"sprint"}`, &ApprovalDecision{Action: "run"})
	if call.ViewURI != "ui://widget/board.html" || call.Status != store.ToolCallDone {
		t.Fatalf("stored call %+v: want its widget ui://widget/board.html", call)
	}
	var offered struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	en.llm.LastRequest().Decode(&offered)
	for _, tl := range offered.Tools {
		if tl.Function.Name == "apps__board_add" {
			t.Fatal("the widget-only board_add was offered to the model")
		}
	}
	msgID := en.messageOf(conv.ID, call.ID)
	if err := en.e.SetWidgetState(en.ctx, conv.ID, msgID, call.ID, `{"picked":"beta"}`); err != nil {
		t.Fatal(err)
	}
	en.llm.Script(llmtest.TextTurn("noted"))
	en.done(en.send(conv.ID, "which card?").TurnID)
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	en.llm.LastRequest().Decode(&req)
	n := len(req.Messages)
	if n < 2 || req.Messages[n-2].Role != "user" ||
		!strings.Contains(req.Messages[n-2].Content, "[Widget state of apps › show_board (call "+call.ID+")]\n{\"picked\":\"beta\"}") {
		t.Fatalf("the request's last messages: %+v", req.Messages[max(0, n-2):])
	}
}

// A view's call in a conversation goes through the chat's approval
// policies: asked without one, run under "always", refused under "never";
// in the Tools tab (no conversation) the user is always asked.
func TestViewCallsFollowTheApprovalPolicies(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("apps", "--apps")}})
	en.waitTool("apps", "counter_add")
	conv := en.newConv(nil)
	svc := mcppool.NewService(en.pool, nil, mcppool.WithViewApprover(en.e))
	page, err := svc.OpenView("apps", "ui://counter/view.html")
	if err != nil {
		t.Fatal(err)
	}
	call := func(id string, conversation int64, approved bool) error {
		_, err := svc.CallToolFromView(mcppool.ViewToolCall{Token: page.Token, CallID: id, Tool: "counter_add",
			Arguments: map[string]any{"count": 1}, ConversationID: conversation, UserApproved: approved})
		return err
	}
	code := func(err error) usererr.Code {
		var ue *usererr.Error
		if errors.As(err, &ue) {
			return ue.Code
		}
		return ""
	}
	if err := call("v1", conv.ID, false); code(err) != usererr.ViewNeedsApproval {
		t.Fatalf("no policy, not approved: %v", err)
	}
	if err := call("v2", conv.ID, true); err != nil {
		t.Fatalf("approved by the user: %v", err)
	}
	o, ok := en.e.viewTool("apps", "counter_add")
	if !ok {
		t.Fatal("counter_add not found")
	}
	ref := ToolRef{Server: "apps", Tool: "counter_add"}
	if err := en.e.addPolicy(en.ctx, policyAlways, conv.ID, ref, o); err != nil {
		t.Fatal(err)
	}
	if err := call("v3", conv.ID, false); err != nil {
		t.Fatalf("under \"always\": %v", err)
	}
	if err := call("v4", 0, false); code(err) != usererr.ViewNeedsApproval {
		t.Fatalf("the Tools tab ran a view's call without asking: %v", err)
	}
	if err := en.e.RevokePolicy(en.ctx, PolicyAlways, "apps", "counter_add"); err != nil {
		t.Fatal(err)
	}
	if err := en.e.addPolicy(en.ctx, policyNever, conv.ID, ref, o); err != nil {
		t.Fatal(err)
	}
	if err := call("v5", conv.ID, true); code(err) != usererr.ViewDeclinedByPolicy {
		t.Fatalf("under \"never\", even approved: %v", err)
	}
	if err := en.e.RevokePolicy(en.ctx, PolicyNever, "apps", "counter_add"); err != nil {
		t.Fatal(err)
	}

	// "Don't ask again in this conversation", from the view's dialog.
	other := en.newConv(nil)
	if err := en.e.AllowViewTool(en.ctx, conv.ID, "apps", "counter_add"); err != nil {
		t.Fatal(err)
	}
	if err := call("v6", conv.ID, false); err != nil {
		t.Fatalf("allowed for the conversation: %v", err)
	}
	if err := call("v7", other.ID, false); code(err) != usererr.ViewNeedsApproval {
		t.Fatalf("allowed in another conversation: %v", err)
	}
	if err := en.e.AllowViewTool(en.ctx, conv.ID, "apps", "no_such_tool"); code(err) != usererr.ViewNoSuchTool {
		t.Errorf("an unknown tool: %v", err)
	}
	if err := en.e.AllowViewTool(en.ctx, 999999, "apps", "counter_add"); err == nil {
		t.Error("a policy for a conversation that does not exist")
	}
}

// While the model writes the arguments of a call of a tool with a view,
// they are shown as they arrive (chat:tool-input, status "streaming",
// under the id the stored call then has); a tool without a view is not.
func TestToolInputIsShownWhileTheModelWritesIt(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("apps", "--apps")}})
	en.waitTool("apps", "show_counter")
	conv := en.newConv(nil)
	call, _ := en.callTurn(conv.ID, "apps__show_counter", `{"start": 12345}`, &ApprovalDecision{Action: "run"})
	var partial []store.ToolCall
	for _, r := range en.rec.all() {
		if r.name == events.ChatToolInput {
			partial = append(partial, r.payload.(events.ChatToolInputPayload).Call)
		}
	}
	if len(partial) == 0 {
		t.Fatalf("no chat:tool-input while the call was written: %s", en.rec.dump())
	}
	for _, p := range partial {
		if p.ID != call.ID || p.Status != store.ToolCallStreaming || p.Server != "apps" || p.Tool != "show_counter" ||
			p.ViewURI != "ui://counter/view.html" || !strings.HasPrefix(`{"start": 12345}`, p.Arguments) {
			t.Errorf("partial call %+v; the stored call is %s", p, call.ID)
		}
	}
	before := len(en.rec.all())
	en.callTurn(conv.ID, "apps__echo", `{"message":"hi"}`, &ApprovalDecision{Action: "run"})
	for _, r := range en.rec.all()[before:] {
		if r.name == events.ChatToolInput {
			t.Errorf("a tool without a view was shown while written: %+v", r.payload)
		}
	}
}

// messageOf is the id of the message of conversation conv that holds tool
// call callID (0: none).
func (en *env) messageOf(conv int64, callID string) int64 {
	for _, m := range en.messages(conv) {
		for _, c := range m.ToolCalls {
			if c.ID == callID {
				return m.ID
			}
		}
	}
	return 0
}
