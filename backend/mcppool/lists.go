package mcppool

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// Bounded lists. A server lists its tools, resources and prompts in pages;
// mcp-go follows the cursors as long as the server hands out new ones, so a
// hostile server could make the pool hold lists without end. The pool keeps
// what it lists and shows it (and offers the tools to models), so a list is
// bounded: at most maxListPages pages, maxListItems items and the server's
// message limit in bytes in all. Past a bound the pool keeps what it has
// and reports the list as cut.
const (
	maxListPages = 100
	maxListItems = 10_000
)

// listCutError says a server's list passed a bound and was cut.
type listCutError struct {
	what   string // "tools", "resources", "prompts"
	reason string
}

func (e *listCutError) Error() string {
	return fmt.Sprintf("the server's %s list was cut: %s", e.what, e.reason)
}

// listBounded pages through a list with page until the last page or a
// bound. It returns the items listed so far with the error.
func listBounded[T any](ctx context.Context, what string, limitBytes int64,
	page func(ctx context.Context, cursor mcp.Cursor) ([]T, mcp.Cursor, error)) ([]T, error) {
	var items []T
	var size int64
	seen := map[mcp.Cursor]bool{"": true}
	cursor := mcp.Cursor("")
	for pages := 1; ; pages++ {
		got, next, err := page(ctx, cursor)
		if err != nil {
			return items, err
		}
		for _, it := range got {
			if len(items) == maxListItems {
				return items, &listCutError{what, fmt.Sprintf("more than %d %s", maxListItems, what)}
			}
			b, _ := json.Marshal(it)
			if size += int64(len(b)); size > limitBytes {
				return items, &listCutError{what, fmt.Sprintf("larger than %s in all (limit: maxMessageBytes)", formatSize(limitBytes))}
			}
			items = append(items, it)
		}
		switch {
		case next == "":
			return items, nil
		case seen[next]:
			return items, &listCutError{what, fmt.Sprintf("the server repeated the page cursor %.40q", string(next))}
		case pages == maxListPages:
			return items, &listCutError{what, fmt.Sprintf("more than %d pages", maxListPages)}
		}
		seen[next] = true
		cursor = next
	}
}

// listTools lists every tool of sess within the bounds.
func (c *conn) listTools(ctx context.Context, sess *Session) ([]mcp.Tool, error) {
	return listBounded(ctx, "tools", messageLimitOf(c.cfg), func(ctx context.Context, cursor mcp.Cursor) ([]mcp.Tool, mcp.Cursor, error) {
		req := mcp.ListToolsRequest{}
		req.Params.Cursor = cursor
		res, err := sess.Client.ListToolsByPage(ctx, req)
		if err != nil {
			return nil, "", err
		}
		return res.Tools, res.NextCursor, nil
	})
}

// listResources lists every resource of sess within the bounds.
func (c *conn) listResources(ctx context.Context, sess *Session) ([]mcp.Resource, error) {
	return listBounded(ctx, "resources", messageLimitOf(c.cfg), func(ctx context.Context, cursor mcp.Cursor) ([]mcp.Resource, mcp.Cursor, error) {
		req := mcp.ListResourcesRequest{}
		req.Params.Cursor = cursor
		res, err := sess.Client.ListResourcesByPage(ctx, req)
		if err != nil {
			return nil, "", err
		}
		return res.Resources, res.NextCursor, nil
	})
}

// listPrompts lists every prompt of sess within the bounds.
func (c *conn) listPrompts(ctx context.Context, sess *Session) ([]mcp.Prompt, error) {
	return listBounded(ctx, "prompts", messageLimitOf(c.cfg), func(ctx context.Context, cursor mcp.Cursor) ([]mcp.Prompt, mcp.Cursor, error) {
		req := mcp.ListPromptsRequest{}
		req.Params.Cursor = cursor
		res, err := sess.Client.ListPromptsByPage(ctx, req)
		if err != nil {
			return nil, "", err
		}
		return res.Prompts, res.NextCursor, nil
	})
}
