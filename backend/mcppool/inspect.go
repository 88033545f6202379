package mcppool

import (
	"context"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/usererr"
)

// The inspector's reads. Lists the pool keeps fresh (tools, prompts) come
// from its cache; resources page through the server, since a server may
// hold thousands. A server that did not declare a capability has an empty
// list, not an error.

// Prompts returns the prompts a connected server offers.
func (p *Pool) Prompts(id string) ([]mcp.Prompt, error) {
	c := p.conn(id)
	if c == nil {
		return nil, unknownServer(id)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.prompts), nil
}

// ResourcesPage lists one page of a server's resources from cursor ("" for
// the first page).
func (p *Pool) ResourcesPage(ctx context.Context, id, cursor string) (*mcp.ListResourcesResult, error) {
	var res *mcp.ListResourcesResult
	err := p.Do(ctx, id, func(ctx context.Context, s *Session) error {
		if s.Capabilities.Resources == nil {
			res = &mcp.ListResourcesResult{Resources: []mcp.Resource{}}
			return nil
		}
		req := mcp.ListResourcesRequest{}
		req.Params.Cursor = mcp.Cursor(cursor)
		var err error
		res, err = s.Client.ListResourcesByPage(ctx, req)
		return err
	})
	return res, err
}

// TemplatesPage lists one page of a server's resource templates.
func (p *Pool) TemplatesPage(ctx context.Context, id, cursor string) (*mcp.ListResourceTemplatesResult, error) {
	var res *mcp.ListResourceTemplatesResult
	err := p.Do(ctx, id, func(ctx context.Context, s *Session) error {
		if s.Capabilities.Resources == nil {
			res = &mcp.ListResourceTemplatesResult{ResourceTemplates: []mcp.ResourceTemplate{}}
			return nil
		}
		req := mcp.ListResourceTemplatesRequest{}
		req.Params.Cursor = mcp.Cursor(cursor)
		var err error
		res, err = s.Client.ListResourceTemplatesByPage(ctx, req)
		return err
	})
	return res, err
}

// ReadResource reads one resource, with the server's keychain secrets
// hidden in its text.
func (p *Pool) ReadResource(ctx context.Context, id, uri string) (*mcp.ReadResourceResult, error) {
	var res *mcp.ReadResourceResult
	err := p.Do(ctx, id, func(ctx context.Context, s *Session) error {
		var err error
		res, err = s.Client.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
		res = s.ScrubResource(res)
		return err
	})
	return res, err
}

// GetPrompt gets one prompt with its arguments filled in, with the
// server's keychain secrets hidden in its text.
func (p *Pool) GetPrompt(ctx context.Context, id, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	var res *mcp.GetPromptResult
	err := p.Do(ctx, id, func(ctx context.Context, s *Session) error {
		var err error
		res, err = s.Client.GetPrompt(ctx, mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: name, Arguments: args}})
		res = s.ScrubPrompt(res)
		return err
	})
	return res, err
}

// SetLogLevel asks a server to send log messages (notifications/message,
// shown in the JSON-RPC logger) at level and above (SPEC A9). On 2025-11-25
// that is a logging/setLevel request; on 2026-07-28 the level travels in
// the _meta of every later request.
func (p *Pool) SetLogLevel(ctx context.Context, id string, level mcp.LoggingLevel) error {
	switch level {
	case mcp.LoggingLevelDebug, mcp.LoggingLevelInfo, mcp.LoggingLevelNotice, mcp.LoggingLevelWarning,
		mcp.LoggingLevelError, mcp.LoggingLevelCritical, mcp.LoggingLevelAlert, mcp.LoggingLevelEmergency:
	default:
		return fmt.Errorf("log level must be debug, info, notice, warning, error, critical, alert or emergency, not %q", level)
	}
	return p.Do(ctx, id, func(ctx context.Context, s *Session) error {
		if s.Capabilities.Logging == nil {
			return usererr.New(usererr.CallNoLogging, usererr.Params{"server": id})
		}
		return s.Client.SetLevel(ctx, mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: level}})
	})
}

// CompletionRef names what an argument belongs to: a prompt (Kind
// "prompt", Name its name) or a resource template (Kind "resource", Name
// its URI template).
type CompletionRef struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// Complete asks a server for values of one argument (SPEC A13), given what
// is typed so far and the arguments already filled in. A server without the
// completions capability has no suggestions.
func (p *Pool) Complete(ctx context.Context, id string, ref CompletionRef, arg, value string, filled map[string]string) (mcp.Completion, error) {
	var out mcp.Completion
	var r any
	switch ref.Kind {
	case "prompt":
		r = mcp.PromptReference{Type: "ref/prompt", Name: ref.Name}
	case "resource":
		r = mcp.ResourceReference{Type: "ref/resource", URI: ref.Name}
	default:
		return out, fmt.Errorf("completion reference must be a prompt or a resource, not %q", ref.Kind)
	}
	err := p.Do(ctx, id, func(ctx context.Context, s *Session) error {
		if s.Capabilities.Completions == nil {
			return nil
		}
		res, err := s.Client.Complete(ctx, mcp.CompleteRequest{Params: mcp.CompleteParams{
			Ref: r, Argument: mcp.CompleteArgument{Name: arg, Value: value}, Context: mcp.CompleteContext{Arguments: filled},
		}})
		if err != nil {
			return err
		}
		out = res.Completion
		return nil
	})
	if out.Values == nil {
		out.Values = []string{}
	}
	return out, err
}
