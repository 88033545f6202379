package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"mcpdesk/backend/llm"
	"mcpdesk/backend/store"
)

// history builds what the model is sent: the conversation's system prompt,
// the instructions of the servers taking part (SPEC A7), one system
// message each, and the stored messages. Every tool call of a reply is
// followed by its result, taken from its tool message or, when there is
// none (a crash, a stop), written from the call's state, so that the
// request is always well formed. Replies with nothing in them are left out.
// msgs are the conversation's stored messages.
func (e *Engine) history(ctx context.Context, conv store.Conversation, msgs []store.Message, servers []string) ([]llm.Message, error) {
	var out []llm.Message
	if sp := strings.TrimSpace(conv.Settings.SystemPrompt); sp != "" {
		out = append(out, llm.Message{Role: llm.RoleSystem, Content: sp})
	}
	if e.tools != nil {
		for _, id := range servers {
			if ins := strings.TrimSpace(e.tools.Instructions(id)); ins != "" {
				out = append(out, llm.Message{Role: llm.RoleSystem,
					Content: fmt.Sprintf("Instructions from the MCP server %q:\n\n%s", id, ins)})
			}
		}
	}
	results := map[string]string{}
	for _, m := range msgs {
		if m.Role == store.RoleTool {
			results[m.ToolCallID] = m.Content
		}
	}
	for _, m := range msgs {
		switch m.Role {
		case store.RoleSystem:
			out = append(out, llm.Message{Role: llm.RoleSystem, Content: m.Content})
		case store.RoleUser:
			um, err := e.userContent(ctx, m)
			if err != nil {
				return nil, err
			}
			out = append(out, um)
		case store.RoleAssistant:
			if m.Content == "" && len(m.ToolCalls) == 0 {
				continue
			}
			am := llm.Message{Role: llm.RoleAssistant, Content: m.Content}
			for _, c := range m.ToolCalls {
				am.ToolCalls = append(am.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: objectOrEmpty(c.Arguments)})
			}
			out = append(out, am)
			for _, c := range m.ToolCalls {
				text, ok := results[c.ID]
				if !ok {
					text = toolMessageText(c)
				}
				out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: text})
			}
		}
	}
	return withViewContext(out, msgs), nil
}

// objectOrEmpty returns args when it is a JSON object, else "{}": a model's
// malformed arguments must not make the next request fail; the tool's error
// message already told it what was wrong.
func objectOrEmpty(args string) string {
	var obj map[string]any
	if json.Unmarshal([]byte(args), &obj) != nil || obj == nil {
		return "{}"
	}
	return args
}
