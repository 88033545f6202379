package main

import (
	"context"
	_ "embed"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The MCP Apps set (--apps, issue 15): tools with views, a tool only views
// may call, a tool only the model may call, and two views — a counter that
// uses every host request it can, and a hostile one that tries every way
// out of its sandbox and reports what happened — and an Apps SDK widget
// (show_board, text/html+skybridge, driven through window.openai) with a
// tool only widgets may call (board_add) — and MCP-UI resources embedded
// in results (show_card: raw HTML that uses every UI action; show_page: an
// external page; show_remote_dom: a remote-DOM script).

//go:embed views/counter.html
var counterView string

//go:embed views/hostile.html
var hostileView string

//go:embed views/board.html
var boardView string

//go:embed views/card.html
var cardView string

//go:embed views/remote.js
var remoteDOMView string

const appMIME = "text/html;profile=mcp-app"

func uiMeta(ui map[string]any) *mcp.Meta {
	return &mcp.Meta{AdditionalFields: map[string]any{"ui": ui}}
}

// rev names a file whose contents end the counter view's HTML ("": none).
func addApps(s *server.MCPServer, rev string) {
	show := mcp.NewTool("show_counter",
		mcp.WithDescription("Shows a counter view starting at start; returns {count: start}."),
		mcp.WithNumber("start", mcp.Description("Where the counter starts")),
		mcp.WithReadOnlyHintAnnotation(true),
	)
	show.Meta = uiMeta(map[string]any{"resourceUri": "ui://counter/view.html"})
	s.AddTool(show, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		n := req.GetFloat("start", 0)
		return mcp.NewToolResultStructured(map[string]any{"count": n}, fmt.Sprintf("count is %g", n)), nil
	})

	add := mcp.NewTool("counter_add",
		mcp.WithDescription("Adds 1 to count (for the counter view only)."),
		mcp.WithNumber("count", mcp.Required()),
	)
	add.Meta = uiMeta(map[string]any{"resourceUri": "ui://counter/view.html", "visibility": []any{"app"}})
	s.AddTool(add, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		n := req.GetFloat("count", 0) + 1
		return mcp.NewToolResultStructured(map[string]any{"count": n}, fmt.Sprintf("count is %g", n)), nil
	})

	secret := mcp.NewTool("model_only",
		mcp.WithDescription("A tool for the model only: views may not call it."),
	)
	secret.Meta = uiMeta(map[string]any{"visibility": []any{"model"}})
	s.AddTool(secret, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("model_only ran"), nil
	})

	hostile := mcp.NewTool("show_hostile",
		mcp.WithDescription("Shows a view that tries to get out of its sandbox."),
		mcp.WithReadOnlyHintAnnotation(true),
	)
	hostile.Meta = uiMeta(map[string]any{"resourceUri": "ui://hostile/view.html"})
	s.AddTool(hostile, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("hostile view shown"), nil
	})

	addBoard(s)
	addCards(s)

	for uri, html := range map[string]string{"ui://counter/view.html": counterView, "ui://hostile/view.html": hostileView} {
		meta := map[string]any{}
		if uri == "ui://counter/view.html" {
			// A declared connect domain: shown to the user, allowed in connect-src.
			meta["ui"] = map[string]any{"csp": map[string]any{"connectDomains": []any{"https://api.counter.example"}}, "prefersBorder": true}
		}
		s.AddResource(mcp.NewResource(uri, uri, mcp.WithMIMEType(appMIME)),
			func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				text := html
				if b, err := os.ReadFile(rev); rev != "" && err == nil && req.Params.URI == "ui://counter/view.html" {
					text += "<!-- rev " + string(b) + " -->\n"
				}
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: appMIME, Text: text, Meta: meta}}, nil
			})
	}
}

// addBoard adds the Apps SDK set: tools described only with the Apps
// SDK's openai/* keys, and its widget.
func addBoard(s *server.MCPServer) {
	const uri = "ui://widget/board.html"
	show := mcp.NewTool("show_board",
		mcp.WithDescription("Shows a board of cards titled title (an Apps SDK widget)."),
		mcp.WithString("title", mcp.Description("The board's title")),
		mcp.WithReadOnlyHintAnnotation(true),
	)
	show.Meta = &mcp.Meta{AdditionalFields: map[string]any{"openai/outputTemplate": uri,
		"openai/toolInvocation/invoking": "Setting up the board", "openai/toolInvocation/invoked": "Board ready"}}
	s.AddTool(show, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := mcp.NewToolResultStructured(map[string]any{"items": []any{"alpha", "beta", "gamma"}}, "a board of 3 cards")
		r.Meta = &mcp.Meta{AdditionalFields: map[string]any{"board/id": "b-1"}}
		return r, nil
	})
	add := mcp.NewTool("board_add",
		mcp.WithDescription("Adds a card to the board (for the board widget only)."),
		mcp.WithString("card", mcp.Required()),
	)
	add.Meta = &mcp.Meta{AdditionalFields: map[string]any{"openai/widgetAccessible": true, "openai/visibility": "private"}}
	s.AddTool(add, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultStructured(map[string]any{"items": []any{"alpha", "beta", "gamma", req.GetString("card", "")}}, "added"), nil
	})
	reset := mcp.NewTool("board_reset",
		mcp.WithDescription("Clears the board (private: neither the model nor the widget may call it)."),
	)
	reset.Meta = &mcp.Meta{AdditionalFields: map[string]any{"openai/visibility": "private"}}
	s.AddTool(reset, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("the board is empty"), nil
	})
	s.AddResource(mcp.NewResource(uri, "board widget", mcp.WithMIMEType("text/html+skybridge")),
		func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "text/html+skybridge", Text: boardView,
				Meta: map[string]any{"openai/widgetPrefersBorder": true, "openai/widgetCSP": map[string]any{"connect_domains": []any{}, "resource_domains": []any{}}}}}, nil
		})
}

// addCards adds the MCP-UI set: results that embed ui:// resources.
func addCards(s *server.MCPServer) {
	card := mcp.NewTool("show_card",
		mcp.WithDescription("Shows a card (an MCP-UI raw-HTML resource) about topic."),
		mcp.WithString("topic", mcp.Description("What the card is about")),
		mcp.WithReadOnlyHintAnnotation(true),
	)
	s.AddTool(card, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := mcp.NewToolResultStructured(map[string]any{"topic": req.GetString("topic", ""), "votes": 0}, "a card")
		r.Content = append(r.Content, mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "ui://card/1", MIMEType: "text/html", Text: cardView}))
		return r, nil
	})
	vote := mcp.NewTool("card_vote",
		mcp.WithDescription("Counts a vote for the card."),
		mcp.WithString("choice", mcp.Required()),
	)
	s.AddTool(vote, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultStructured(map[string]any{"votes": 1, "choice": req.GetString("choice", "")}, "voted"), nil
	})
	inline := mcp.NewTool("show_inline_counter",
		mcp.WithDescription("Returns the counter view embedded in its result, as MCP-UI 6 and later do (an MCP Apps view)."),
		mcp.WithReadOnlyHintAnnotation(true),
	)
	s.AddTool(inline, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := mcp.NewToolResultStructured(map[string]any{"count": 7}, "count is 7")
		r.Content = append(r.Content, mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "ui://inline/counter", MIMEType: appMIME, Text: counterView}))
		return r, nil
	})
	dom := mcp.NewTool("show_remote_dom",
		mcp.WithDescription("Returns an MCP-UI remote-DOM card: a script that builds its UI from ui-* elements and acts through MCP-UI messages."),
		mcp.WithReadOnlyHintAnnotation(true),
	)
	s.AddTool(dom, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := mcp.NewToolResultText("a remote-DOM card")
		r.Content = append(r.Content, mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "ui://dom/1",
			MIMEType: "application/vnd.mcp-ui.remote-dom+javascript; framework=react",
			Text:     remoteDOMView}))
		return r, nil
	})
	page := mcp.NewTool("show_page",
		mcp.WithDescription("Shows the page at url (an MCP-UI text/uri-list resource)."),
		mcp.WithString("url", mcp.Required()),
		mcp.WithReadOnlyHintAnnotation(true),
	)
	s.AddTool(page, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := mcp.NewToolResultText("a page")
		r.Content = append(r.Content, mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "ui://page/1", MIMEType: "text/uri-list",
			Text: "# the page\n" + req.GetString("url", "") + "\n"}))
		return r, nil
	})
}
