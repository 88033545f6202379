package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"

	"mcpdesk/backend/core"
	"mcpdesk/backend/store"
)

const conversationsUsage = `usage:
  mcpdesk conversations list [--limit N]
  mcpdesk conversations show ID
  mcpdesk conversations export ID --format md|json`

// runConversations lists, shows and exports the conversations in the
// database the window uses (SPEC D1, D11).
func runConversations(ctx context.Context, g globals, args []string, env Env) int {
	if len(args) == 0 {
		return usageError(env, "%s", conversationsUsage)
	}
	sub, rest := args[0], args[1:]
	var limit int
	var format string
	fs := newFlags("conversations "+sub, &g, env)
	switch sub {
	case "list", "ls":
		fs.IntVar(&limit, "limit", 100, "most conversations to list")
	case "show":
	case "export":
		fs.StringVar(&format, "format", "md", "md (Markdown) or json")
	case "help", "-h", "--help":
		fmt.Fprintln(env.Stderr, conversationsUsage)
		return exitOK
	default:
		return usageError(env, "unknown conversations command %q\n%s", sub, conversationsUsage)
	}
	pos, err := parseInterleaved(fs, rest)
	if err != nil {
		return exitUsage
	}
	var id int64
	if sub == "list" || sub == "ls" {
		if len(pos) != 0 {
			return usageError(env, "conversations list takes no arguments, got %q", pos)
		}
	} else {
		if len(pos) != 1 {
			return usageError(env, "%s", conversationsUsage)
		}
		if id, err = strconv.ParseInt(pos[0], 10, 64); err != nil || id <= 0 {
			return usageError(env, "conversations %s: %q is not a conversation id", sub, pos[0])
		}
	}

	c, err := openCore(g, core.Options{})
	if err != nil {
		return fail(env, err)
	}
	defer c.Close()
	st := c.Store

	switch sub {
	case "list", "ls":
		list, err := st.ListConversations(ctx, limit, 0)
		if err != nil {
			return fail(env, err)
		}
		return printOrFail(env, list)
	case "show":
		c, err := st.GetConversation(ctx, id)
		if err != nil {
			return fail(env, err)
		}
		msgs, err := st.Messages(ctx, id)
		if err != nil {
			return fail(env, err)
		}
		return printOrFail(env, struct {
			Conversation store.Conversation `json:"conversation"`
			Messages     []store.Message    `json:"messages"`
		}{c, msgs})
	default: // export
		var text string
		switch format {
		case "md", "markdown":
			text, err = st.ExportMarkdown(ctx, id)
		case "json":
			var b []byte
			b, err = st.ExportJSON(ctx, id)
			text = string(jsonSafe(b))
		default:
			return usageError(env, "conversations export: --format must be md or json, not %q", format)
		}
		if err != nil {
			return fail(env, err)
		}
		if _, err := io.WriteString(env.Stdout, text); err != nil {
			return fail(env, err)
		}
		return exitOK
	}
}

func printOrFail(env Env, v any) int {
	if err := printJSON(env, v); err != nil {
		return fail(env, err)
	}
	return exitOK
}

// parseInterleaved parses flags that may come before, between or after
// the positional arguments ("export 3 --format json"); everything after
// "--" is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// fs.Parse stops at the first positional argument, or after "--".
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
