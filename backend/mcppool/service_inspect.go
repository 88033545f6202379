package mcppool

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
)

// The inspector's part of the bound surface: the Tools, Resources and
// Prompts screens. MCP objects travel as the protocol's own JSON. Calls run
// under the pool's context; a running tool call is stopped with CancelCall.

// ToolCallRequest is one tool call from the UI. CallID is chosen by the UI;
// it names the call for CancelCall and tags its progress events.
type ToolCallRequest struct {
	CallID    string         `json:"callId"`
	Server    string         `json:"server"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// ToolCallOutcome is a finished tool call. A tool that failed says so in
// Result.IsError; an error from CallTool means the call itself failed.
type ToolCallOutcome struct {
	Result     mcp.CallToolResult `json:"result"`
	DurationMs float64            `json:"durationMs"`
}

// ListTools returns the tools a server offers, as last listed, each with
// its definition hash and what looks suspicious in it (SPEC G1).
func (s *MCPPool) ListTools(server string) ([]ListedTool, error) {
	tools, err := s.pool.listedTools(server)
	return nonNilSlice(tools), err
}

// CallTool calls a tool and waits for its result; progress arrives as
// mcp:progress events carrying req.CallID. The call goes to the audit log
// (WithAudit).
func (s *MCPPool) CallTool(req ToolCallRequest) (ToolCallOutcome, error) {
	ctx := s.pool.context()
	hash := s.pool.toolHash(req.Server, req.Tool)
	res, took, err := s.pool.CallToolTracked(ctx, req.CallID, req.Server, req.Tool, req.Arguments)
	if s.audit != nil {
		e := auditEntry(req, res, took, err)
		e.DefinitionHash = hash
		s.audit.RecordToolCall(context.WithoutCancel(ctx), e)
	}
	if err == nil && res == nil {
		err = errors.New("the server sent no result")
	}
	if err != nil {
		return ToolCallOutcome{}, fmt.Errorf("%s › %s: %w", req.Server, req.Tool, err)
	}
	return ToolCallOutcome{Result: *res, DurationMs: float64(took.Microseconds()) / 1000}, nil
}

// CancelCall stops a running tool call; the server is told with
// notifications/cancelled.
func (s *MCPPool) CancelCall(callID string) error {
	s.pool.CancelCall(callID)
	return nil
}

// ListResources returns one page of a server's resources ("" = first).
func (s *MCPPool) ListResources(server, cursor string) (*mcp.ListResourcesResult, error) {
	return s.pool.ResourcesPage(s.pool.context(), server, cursor)
}

// ListResourceTemplates returns one page of a server's resource templates.
func (s *MCPPool) ListResourceTemplates(server, cursor string) (*mcp.ListResourceTemplatesResult, error) {
	return s.pool.TemplatesPage(s.pool.context(), server, cursor)
}

// ReadResource reads one resource.
func (s *MCPPool) ReadResource(server, uri string) (*mcp.ReadResourceResult, error) {
	return s.pool.ReadResource(s.pool.context(), server, uri)
}

// SubscribeResource asks a server to report changes of a resource; each
// report arrives as an mcp:resource-updated event.
func (s *MCPPool) SubscribeResource(server, uri string) error {
	return s.pool.Subscribe(s.pool.context(), server, uri)
}

// UnsubscribeResource stops the reports SubscribeResource asked for.
func (s *MCPPool) UnsubscribeResource(server, uri string) error {
	return s.pool.Unsubscribe(s.pool.context(), server, uri)
}

// ResourceSubscriptions lists the resources of a server the user subscribed to.
func (s *MCPPool) ResourceSubscriptions(server string) ([]string, error) {
	subs, err := s.pool.Subscriptions(server)
	return nonNilSlice(subs), err
}

// ListPrompts returns the prompts a server offers, as last listed.
func (s *MCPPool) ListPrompts(server string) ([]mcp.Prompt, error) {
	prompts, err := s.pool.Prompts(server)
	return nonNilSlice(prompts), err
}

// GetPrompt gets a prompt with its arguments filled in.
func (s *MCPPool) GetPrompt(server, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	return s.pool.GetPrompt(s.pool.context(), server, name, args)
}

// AnswerElicitation answers a server's question (an mcp:elicitation event):
// action is accept (with content), decline or cancel.
func (s *MCPPool) AnswerElicitation(id string, action events.ElicitationAction, content map[string]any) error {
	if s.desk == nil {
		return fmt.Errorf("this window does not answer servers' questions")
	}
	return s.desk.Answer(id, action, content)
}

// Complete suggests values for one argument of a prompt or resource
// template as the user types.
func (s *MCPPool) Complete(server string, ref CompletionRef, arg, value string, filled map[string]string) (mcp.Completion, error) {
	return s.pool.Complete(s.pool.context(), server, ref, arg, value, filled)
}

// ToolSelection reports which tools of a server are offered to models and
// an estimate of the tokens their definitions cost.
func (s *MCPPool) ToolSelection(server string) (ToolSelection, error) {
	return s.pool.ToolSelection(server)
}

// SetToolEnabled turns one tool on or off for models; the server keeps
// running, and the inspector can still call it.
func (s *MCPPool) SetToolEnabled(server, tool string, enabled bool) (ToolSelection, error) {
	if err := s.pool.SetToolEnabled(server, tool, enabled); err != nil {
		return ToolSelection{}, err
	}
	return s.pool.ToolSelection(server)
}

// SetLogLevel sets the lowest level of log message a server sends:
// debug, info, notice, warning, error, critical, alert or emergency.
func (s *MCPPool) SetLogLevel(server string, level mcp.LoggingLevel) error {
	return s.pool.SetLogLevel(s.pool.context(), server, level)
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
