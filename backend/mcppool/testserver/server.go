package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// version is reported in initialize.
const version = "1.0.0"

// maxBig caps the big tool so a typo cannot exhaust memory.
const maxBig = 256 << 20

// progressInterval is how often sleep reports progress.
const progressInterval = 100 * time.Millisecond

// newServer builds the MCP server with every tool, resource and prompt.
func newServer(cfg config) *server.MCPServer {
	opts := []server.ServerOption{
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(true, true),
		server.WithPromptCapabilities(true),
		server.WithLogging(),
		server.WithRecovery(),
		server.WithElicitation(),
	}
	if cfg.instructions != "" {
		opts = append(opts, server.WithInstructions(cfg.instructions))
	}
	if cfg.pageSize > 0 {
		opts = append(opts, server.WithPaginationLimit(cfg.pageSize))
	}
	s := server.NewMCPServer(cfg.name, version, opts...)
	addTools(s)
	for i := 1; i <= cfg.tools; i++ {
		s.AddTool(generatedTool(fmt.Sprintf("tool_%04d", i)))
	}
	addResources(s)
	for i := 1; i <= cfg.resources; i++ {
		uri := fmt.Sprintf("test://generated/%04d", i)
		s.AddResource(mcp.NewResource(uri, fmt.Sprintf("generated %04d", i), mcp.WithMIMEType("text/plain")),
			func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "content of " + req.Params.URI}}, nil
			})
	}
	addPrompts(s)
	if cfg.apps {
		addApps(s, cfg.viewRev)
	}
	return s
}

func addTools(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("echo",
		mcp.WithDescription("Echoes the message back as \"Echo: <message>\"."),
		mcp.WithString("message", mcp.Required(), mcp.Description("Text to echo")),
		mcp.WithReadOnlyHintAnnotation(true),
	), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		msg, err := req.RequireString("message")
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText("Echo: " + msg), nil
	})

	s.AddTool(mcp.NewTool("add",
		mcp.WithDescription("Adds two numbers and returns the sum as text."),
		mcp.WithNumber("a", mcp.Required(), mcp.Description("First addend")),
		mcp.WithNumber("b", mcp.Required(), mcp.Description("Second addend")),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(true),
	), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		a, errA := req.RequireFloat("a")
		b, errB := req.RequireFloat("b")
		if errA != nil || errB != nil {
			return mcp.NewToolResultError("a and b must be numbers"), nil
		}
		return mcp.NewToolResultText(strconv.FormatFloat(a+b, 'f', -1, 64)), nil
	})

	s.AddTool(mcp.NewTool("sleep",
		mcp.WithDescription("Sleeps for ms milliseconds, reporting progress every 100 ms when asked to; stops when cancelled."),
		mcp.WithInteger("ms", mcp.Required(), mcp.Description("How long to sleep, in milliseconds"), mcp.Min(0)),
		mcp.WithReadOnlyHintAnnotation(true),
	), sleepTool)

	s.AddTool(mcp.NewTool("crash",
		mcp.WithDescription("Exits the server process with status 1 in the middle of the call."),
		mcp.WithDestructiveHintAnnotation(true),
	), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "testserver: crash tool called, exiting with status 1")
		os.Exit(1)
		return nil, nil
	})

	s.AddTool(mcp.NewTool("env",
		mcp.WithDescription("Returns the value of an environment variable of the server process."),
		mcp.WithString("name", mcp.Required(), mcp.Description("Variable name")),
		mcp.WithReadOnlyHintAnnotation(true),
	), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		name, err := req.RequireString("name")
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		v, ok := os.LookupEnv(name)
		if !ok {
			return mcp.NewToolResultErrorf("environment variable %s is not set", name), nil
		}
		return mcp.NewToolResultText(v), nil
	})

	s.AddTool(mcp.NewTool("fail",
		mcp.WithDescription("Always fails: returns a result with isError set."),
	), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultError("this tool always fails"), nil
	})

	s.AddTool(mcp.NewTool("structured",
		mcp.WithDescription("Returns structuredContent {\"sum\": 3}, matching its outputSchema."),
		mcp.WithRawOutputSchema([]byte(`{"type":"object","properties":{"sum":{"type":"number","description":"1 + 2"}},"required":["sum"]}`)),
		mcp.WithReadOnlyHintAnnotation(true),
	), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultStructured(map[string]any{"sum": 3}, `{"sum":3}`), nil
	})

	s.AddTool(mcp.NewTool("big",
		mcp.WithDescription("Returns a text of exactly the given number of bytes."),
		mcp.WithInteger("bytes", mcp.Required(), mcp.Description("Size of the text"), mcp.Min(0), mcp.Max(maxBig)),
		mcp.WithReadOnlyHintAnnotation(true),
	), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		n, err := req.RequireInt("bytes")
		if err != nil || n < 0 || n > maxBig {
			return mcp.NewToolResultErrorf("bytes must be an integer from 0 to %d", maxBig), nil
		}
		return mcp.NewToolResultText(strings.Repeat("x", n)), nil
	})

	s.AddTool(mcp.NewTool("log",
		mcp.WithDescription("Sends a notifications/message log entry at the given level (subject to logging/setLevel)."),
		mcp.WithString("message", mcp.Required(), mcp.Description("Log text")),
		mcp.WithString("level", mcp.Description("Log level"), mcp.DefaultString("info"),
			mcp.Enum("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")),
	), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		msg, err := req.RequireString("message")
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		level := mcp.LoggingLevel(req.GetString("level", "info"))
		n := mcp.NewLoggingMessageNotification(level, "testserver", msg)
		if err := server.ServerFromContext(ctx).SendLogMessageToClient(ctx, n); err != nil {
			return mcp.NewToolResultErrorf("send log message: %v", err), nil
		}
		return mcp.NewToolResultText("logged"), nil
	})

	s.AddTool(mcp.NewTool("confirm",
		mcp.WithDescription("Asks the user to confirm, twice (two elicitations in sequence), on either protocol revision: a server-initiated elicitation/create on 2025-11-25, an input_required result on 2026-07-28."),
		mcp.WithString("action", mcp.Description("What to confirm")),
	), confirmTool)
	s.AddTool(mcp.NewTool("add_tool",
		mcp.WithDescription("Registers another tool that echoes its input, which makes the server send notifications/tools/list_changed."),
		mcp.WithString("name", mcp.Required(), mcp.Description("Name of the new tool")),
	), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		name, err := req.RequireString("name")
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		server.ServerFromContext(ctx).AddTool(generatedTool(name))
		return mcp.NewToolResultText("added " + name), nil
	})

	s.AddTool(mcp.NewTool("update_resource",
		mcp.WithDescription("Sends notifications/resources/updated for a resource URI."),
		mcp.WithString("uri", mcp.Description("Resource URI"), mcp.DefaultString("test://hello")),
	), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		uri := req.GetString("uri", "test://hello")
		server.ServerFromContext(ctx).SendNotificationToAllClients(
			string(mcp.MethodNotificationResourceUpdated), map[string]any{"uri": uri})
		return mcp.NewToolResultText("updated " + uri), nil
	})
}

// sleepTool sleeps for the requested time, reporting progress every
// progressInterval when the request carries a progress token, and returns
// early when the call is cancelled.
func sleepTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ms, err := req.RequireInt("ms")
	if err != nil || ms < 0 {
		return mcp.NewToolResultError("ms must be a non-negative integer"), nil
	}
	var token mcp.ProgressToken
	if req.Params.Meta != nil {
		token = req.Params.Meta.ProgressToken
	}
	start := time.Now()
	done := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer done.Stop()
	tick := time.NewTicker(progressInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-done.C:
			return mcp.NewToolResultText(fmt.Sprintf("slept %d ms", ms)), nil
		case <-tick.C:
			if token == nil {
				continue
			}
			elapsed := min(time.Since(start).Milliseconds(), int64(ms))
			_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
				"progressToken": token,
				"progress":      elapsed,
				"total":         ms,
				"message":       fmt.Sprintf("slept %d of %d ms", elapsed, ms),
			})
		}
	}
}

// generatedTool is a tool that echoes its input under its own name, for
// list benchmarks and list_changed tests.
func generatedTool(name string) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool(name,
		mcp.WithDescription("Generated tool "+name+": returns its input prefixed with its name."),
		mcp.WithString("input", mcp.Description("Any text")),
		mcp.WithReadOnlyHintAnnotation(true),
	)
	return tool, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(name + ": " + req.GetString("input", "")), nil
	}
}

func addResources(s *server.MCPServer) {
	s.AddResource(mcp.NewResource("test://hello", "hello",
		mcp.WithResourceDescription("A plain-text greeting."),
		mcp.WithMIMEType("text/plain"),
	), func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{
			URI: req.Params.URI, MIMEType: "text/plain", Text: "Hello, MCP Desk",
		}}, nil
	})

	s.AddResource(mcp.NewResource("test://data.json", "data",
		mcp.WithResourceDescription("A small JSON document."),
		mcp.WithMIMEType("application/json"),
	), func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{
			URI: req.Params.URI, MIMEType: "application/json", Text: `{"name":"MCP Desk","items":[1,2,3]}`,
		}}, nil
	})

	s.AddResourceTemplate(mcp.NewResourceTemplate("test://items/{id}", "item",
		mcp.WithTemplateDescription("One item by id."),
		mcp.WithTemplateMIMEType("text/plain"),
	), func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		id, ok := strings.CutPrefix(req.Params.URI, "test://items/")
		if !ok || id == "" {
			return nil, fmt.Errorf("no item at %q", req.Params.URI)
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{
			URI: req.Params.URI, MIMEType: "text/plain", Text: "Item " + id,
		}}, nil
	})
}

func addPrompts(s *server.MCPServer) {
	s.AddPrompt(mcp.NewPrompt("greet",
		mcp.WithPromptDescription("Asks the model to greet someone."),
		mcp.WithArgument("name", mcp.RequiredArgument(), mcp.ArgumentDescription("Who to greet")),
	), func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		name := req.Params.Arguments["name"]
		if name == "" {
			return nil, fmt.Errorf("argument name is required")
		}
		return mcp.NewGetPromptResult("A warm greeting", []mcp.PromptMessage{
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("Please greet "+name+" warmly.")),
		}), nil
	})
}

// confirmQuestions are the two questions the confirm tool asks in turn.
var confirmQuestions = []struct {
	key    string
	params mcp.ElicitationParams
}{
	{"who", mcp.ElicitationParams{Message: "Who is asking?", RequestedSchema: map[string]any{
		"type":       "object",
		"properties": map[string]any{"name": map[string]any{"type": "string", "title": "Name"}, "team": map[string]any{"type": "string", "default": "core"}},
		"required":   []string{"name"},
	}}},
	{"sure", mcp.ElicitationParams{Message: "Are you sure?", RequestedSchema: map[string]any{
		"type":       "object",
		"properties": map[string]any{"sure": map[string]any{"type": "boolean", "default": true}},
	}}},
}

// confirmTool asks confirmQuestions in sequence and reports the answers.
func confirmTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	action := req.GetString("action", "it")
	answers := map[string]*mcp.ElicitationResponse{}
	if server.IsModernRequest(ctx) {
		// 2026-07-28: each retry carries the answers of the last round;
		// earlier answers travel in the request state the server handed out.
		if st := req.Params.RequestState; st != "" {
			_ = json.Unmarshal([]byte(st), &answers)
		}
		for _, q := range confirmQuestions {
			if answers[q.key] != nil {
				continue
			}
			if a := server.ElicitationResponse(req.Params.InputResponses, q.key); a != nil {
				answers[q.key] = &a.ElicitationResponse
				continue
			}
			state, _ := json.Marshal(answers)
			q.params.Mode = mcp.ElicitationModeForm
			return server.NewInputRequestBuilder(string(state)).Elicit(q.key, q.params).ToolResult(), nil
		}
	} else {
		srv := server.ServerFromContext(ctx)
		for _, q := range confirmQuestions {
			res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: q.params})
			if err != nil {
				return mcp.NewToolResultError("elicitation failed: " + err.Error()), nil
			}
			answers[q.key] = &res.ElicitationResponse
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "confirming %s:", action)
	for _, q := range confirmQuestions {
		a := answers[q.key]
		fmt.Fprintf(&b, " %s=%s", q.key, a.Action)
		if a.Action == mcp.ElicitationResponseActionAccept {
			data, _ := json.Marshal(a.Content)
			fmt.Fprintf(&b, "%s", data)
		}
	}
	return mcp.NewToolResultText(b.String()), nil
}
