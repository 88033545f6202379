package mcppool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/store"
)

// ToolCallAuditor keeps the audit log of tool calls (SPEC E2);
// *usage.Engine is one. RecordToolCall logs its own failures.
type ToolCallAuditor interface {
	RecordToolCall(ctx context.Context, e store.AuditEntry)
}

// WithAudit writes every tool call of the Tools tab (CallTool) to the audit
// log, as source "tools" approved by the user.
func WithAudit(a ToolCallAuditor) ServiceOption {
	return func(s *MCPPool) { s.audit = a }
}

// auditEntry describes a finished call of the Tools tab.
func auditEntry(req ToolCallRequest, res *mcp.CallToolResult, took time.Duration, err error) store.AuditEntry {
	args := "{}"
	if len(req.Arguments) > 0 {
		if b, merr := json.Marshal(req.Arguments); merr == nil {
			args = string(b)
		}
	}
	e := store.AuditEntry{
		Time: time.Now().Add(-took), Source: store.AuditTools, Server: req.Server, Tool: req.Tool,
		Arguments: args, Approval: store.ApprovalUser, DurationMs: took.Milliseconds(),
	}
	switch {
	case err == nil && res != nil:
		e.Status, e.Output = store.AuditOK, ResultText(res)
		if res.IsError {
			e.Status = store.AuditError
		}
	case err == nil:
		e.Status, e.Error = store.AuditError, "the server returned no result"
	case errors.Is(err, ErrCancelled) || errors.Is(err, context.Canceled):
		e.Status, e.Error = store.AuditCancelled, err.Error()
	case errors.Is(err, ErrTimeout) || errors.Is(err, context.DeadlineExceeded):
		e.Status, e.Error = store.AuditTimeout, err.Error()
	default:
		e.Status, e.Error = store.AuditError, err.Error()
	}
	return e
}

// ResultText is the text of a tool result as the audit log keeps it: its
// text blocks and embedded text resources, a note for other content, and
// the structured content when there is no text.
func ResultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch v := c.(type) {
		case mcp.TextContent:
			parts = append(parts, v.Text)
		case mcp.EmbeddedResource:
			if r, ok := v.Resource.(mcp.TextResourceContents); ok {
				parts = append(parts, "[resource "+r.URI+"]\n"+r.Text)
			} else {
				parts = append(parts, "[binary resource]")
			}
		case mcp.ImageContent:
			parts = append(parts, "[image "+v.MIMEType+"]")
		case mcp.AudioContent:
			parts = append(parts, "[audio "+v.MIMEType+"]")
		case mcp.ResourceLink:
			parts = append(parts, "[resource link "+v.Name+": "+v.URI+"]")
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			return string(b)
		}
	}
	return strings.Join(parts, "\n")
}
