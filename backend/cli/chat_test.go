package cli

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
)

// chatEvent is one line of `mcpdesk chat --json`.
type chatEvent struct {
	Event   string         `json:"event"`
	Payload map[string]any `json:"payload"`
}

func TestChatCommand(t *testing.T) {
	useMemoryKeychain(t)
	fake := llmtest.NewOpenAI(t)
	c := &cliTranscript{t: t, dir: t.TempDir()}
	if err := mcpconfig.WriteFile(filepath.Join(c.dir, "mcp.config.json"), &mcpconfig.Config{Servers: []mcpconfig.Server{
		{ID: "test", Command: testServerBin},
	}}); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := c.run("", "providers", "add", "--name", "Fake AI", "--type", "openai", "--base-url", fake.BaseURL()); code != 0 {
		t.Fatalf("providers add: %s", errOut)
	}

	// --json with --approve auto: a tool call, then the answer.
	fake.Script(
		llmtest.ToolTurn(llmtest.ToolCall{ID: "c1", Name: "test__echo", Arguments: `{"message":"from the cli"}`}),
		llmtest.TextTurn("The echo ", "worked."),
	)
	code, out, errOut := c.run("", "chat", "--model", "fake ai/gpt-4o", "--servers", "test", "--approve", "auto", "--json", "Please", "echo")
	if code != 0 {
		t.Fatalf("chat --json: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	var evs []chatEvent
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e chatEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || !strings.HasPrefix(e.Event, "chat:") {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		evs = append(evs, e)
	}
	var text strings.Builder
	var convID float64
	toolDone := false
	for _, e := range evs {
		switch e.Event {
		case "chat:delta":
			s, _ := e.Payload["text"].(string)
			text.WriteString(s)
		case "chat:tool-call":
			call, _ := e.Payload["call"].(map[string]any)
			if call["status"] == "done" && call["approval"] == "server-auto" {
				toolDone = true
			}
		}
		convID, _ = e.Payload["conversationId"].(float64)
	}
	last := evs[len(evs)-1]
	if last.Event != "chat:done" || last.Payload["reason"] != "stop" {
		t.Errorf("last event %+v", last)
	}
	if !toolDone || text.String() != "The echo worked." {
		t.Errorf("tool done %v, text %q", toolDone, text.String())
	}
	if got := fake.Requests()[0].Body["messages"].([]any)[0].(map[string]any)["content"]; got != "Please echo" {
		t.Errorf("message sent %v", got)
	}

	// Text output, continuing the conversation: the answer on stdout, the
	// tool call on stderr.
	fake.Script(
		llmtest.ToolTurn(llmtest.ToolCall{ID: "c2", Name: "test__add", Arguments: `{"a":1,"b":2}`}),
		llmtest.TextTurn("One and two make three."),
	)
	id := strings.TrimSuffix(strings.TrimSuffix(jsonNumber(convID), ".0"), ".")
	code, out, errOut = c.run("", "chat", "--conversation", id, "--approve", "auto", "add 1 and 2")
	if code != 0 {
		t.Fatalf("chat: exit %d: %s", code, errOut)
	}
	if out != "One and two make three.\n" {
		t.Errorf("stdout %q", out)
	}
	if !strings.Contains(errOut, "→ test › add") || !strings.Contains(errOut, "← test › add") || !strings.Contains(errOut, ": 3") {
		t.Errorf("stderr %q", errOut)
	}
	if n := len(fake.LastRequest().Messages()); n != 7 {
		t.Errorf("the continued conversation sent %d messages", n)
	}

	// --approve never declines.
	fake.Script(llmtest.ToolTurn(llmtest.ToolCall{ID: "c3", Name: "test__echo", Arguments: `{"message":"no"}`}), llmtest.TextTurn("Declined."))
	code, _, errOut = c.run("", "chat", "--conversation", id, "--approve", "never", "echo no")
	if code != 0 || !strings.Contains(errOut, "declined") {
		t.Errorf("never: exit %d stderr %q", code, errOut)
	}

	// conversations list / show / export.
	code, out, _ = c.run("", "conversations", "list")
	var list []struct {
		ID    int64  `json:"id"`
		Title string `json:"title"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0].Title != "Please echo" {
		t.Fatalf("list: exit %d %s", code, out)
	}
	code, out, _ = c.run("", "conversations", "show", id)
	if code != 0 || !strings.Contains(out, `"One and two make three."`) {
		t.Errorf("show: exit %d %s", code, out)
	}
	code, out, _ = c.run("", "conversations", "export", id, "--format", "md")
	if code != 0 || !strings.HasPrefix(out, "# Please echo") || !strings.Contains(out, "One and two make three.") {
		t.Errorf("export md: exit %d %s", code, out)
	}
	code, out, _ = c.run("", "conversations", "export", "--format", "json", id)
	var exp struct {
		Format   string `json:"format"`
		Messages []any  `json:"messages"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &exp) != nil || exp.Format != "mcpdesk.conversation/v1" || len(exp.Messages) != 12 {
		t.Errorf("export json: exit %d, %d messages, %s", code, len(exp.Messages), clipForLog(out))
	}

	// Errors are readable and exit non-zero.
	if code, _, errOut := c.run("", "chat", "--model", "Nobody/x", "hi"); code != 1 || !strings.Contains(errOut, `"Fake AI"`) {
		t.Errorf("unknown provider: exit %d %q", code, errOut)
	}
	fake.Script(llmtest.ErrorTurn(404, ""))
	if code, _, errOut := c.run("", "chat", "--model", "Fake AI/nope", "hi"); code != 1 || !strings.Contains(errOut, "nope") {
		t.Errorf("unknown model: exit %d %q", code, errOut)
	}
	if code, _, _ := c.run("", "conversations", "export", "999", "--format", "md"); code != 1 {
		t.Errorf("export of a missing conversation: exit %d", code)
	}
	if code, _, _ := c.run("", "chat"); code != 2 {
		t.Errorf("chat without a message: exit %d", code)
	}
}

func jsonNumber(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

func clipForLog(s string) string {
	if len(s) > 500 {
		return s[:500] + "…"
	}
	return s
}
