package mcppool

import (
	"context"
	"strings"
	"testing"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// TestTaskRequiredTool: server-everything's simulate-research-query must run
// as a task. The pool creates the task, reports its status messages as
// progress, answers the server's question for the task through the desk,
// and returns the final result like any other call.
func TestTaskRequiredTool(t *testing.T) {
	entry := npmServer(t, "server-everything")
	p, em := elicitPool(t, mcpconfig.Server{ID: "everything", Command: "node", Args: []string{entry, "stdio"}},
		func(q events.ElicitationPayload) (events.ElicitationAction, map[string]any) {
			return "accept", map[string]any{"interpretation": pickFirstOneOf(q.RequestedSchema)}
		})
	res, _, err := p.CallToolTracked(context.Background(), "research", "everything", "simulate-research-query",
		map[string]any{"topic": "python", "ambiguous": true})
	if err != nil {
		t.Fatal(err)
	}
	text := resultText(res)
	if res.IsError || !strings.Contains(text, "Research Report") || !strings.Contains(text, "Clarification") {
		t.Fatalf("result: %s", text)
	}
	if len(em.asked) != 1 || !strings.Contains(em.asked[0].Message, "python") {
		t.Fatalf("questions: %+v", em.asked)
	}
	var stages []string
	for _, pr := range em.progressFor("research") {
		stages = append(stages, pr.Message)
	}
	if !strings.Contains(strings.Join(stages, "|"), "Gathering sources") {
		t.Fatalf("status messages as progress: %q", stages)
	}
	// The task traffic is in the logger.
	for _, m := range []string{"tasks/result", "tasks/get"} {
		if len(sent(p, "everything", m)) == 0 {
			t.Errorf("no %s request logged", m)
		}
	}
}

// pickFirstOneOf returns the first const of a schema's oneOf property.
func pickFirstOneOf(requested any) string {
	schema, _ := requested.(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	for _, v := range props {
		prop, _ := v.(map[string]any)
		if list, ok := prop["oneOf"].([]any); ok && len(list) > 0 {
			if first, ok := list[0].(map[string]any); ok {
				s, _ := first["const"].(string)
				return s
			}
		}
	}
	return ""
}
