package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
)

// usageJSON runs `mcpdesk usage --json` with args.
func usageJSON(t *testing.T, c *cliTranscript, args ...string) usageReport {
	t.Helper()
	code, out, errOut := c.run("", append([]string{"usage", "--json"}, args...)...)
	var rep usageReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("usage --json %v: exit %d\n%s\n%s", args, code, out, errOut)
	}
	return rep
}

// `mcpdesk chat` records its model calls and its tool calls, which
// `mcpdesk usage` and `mcpdesk audit` then show.
func TestChatCommandUsageAndAudit(t *testing.T) {
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
	fake.Script(
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "test__echo", Arguments: `{"message":"audit me"}`}},
			Usage: &llmtest.Usage{Prompt: 120, Completion: 8}},
		llmtest.Turn{Text: []string{"Echoed."}, Usage: &llmtest.Usage{Prompt: 200, Completion: 5, Cached: 100}},
	)
	if code, _, errOut := c.run("", "chat", "--model", "Fake AI/gpt-4o", "--servers", "test", "--approve", "auto", "echo"); code != 0 {
		t.Fatalf("chat: exit %d %s", code, errOut)
	}

	page := auditJSON(t, c)
	if page.Total != 1 {
		t.Fatalf("audit %+v", page)
	}
	if e := page.Entries[0]; e.Source != store.AuditCLI || e.Approval != store.AuditApprovalModeAuto || e.ConversationID == 0 ||
		e.Server != "test" || e.Tool != "echo" || e.Status != store.AuditOK || e.Output != "Echo: audit me" {
		t.Errorf("audit entry %+v", e)
	}

	rep := usageJSON(t, c, "--by", "model")
	if rep.Totals.Calls != 2 || rep.Totals.PromptTokens != 320 || rep.Totals.CachedTokens != 100 || rep.Totals.Cost != nil ||
		len(rep.Rows) != 1 || rep.Rows[0].Model != "gpt-4o" || rep.Rows[0].Cost != nil || len(rep.Unpriced) != 1 {
		t.Errorf("usage by model %+v", rep)
	}
	code, out, _ := c.run("", "usage", "--by", "model")
	if code != 0 || !strings.Contains(out, "Fake AI") || !strings.Contains(out, "no price set") ||
		!strings.Contains(out, "No price set for Fake AI · gpt-4o") {
		t.Errorf("usage table: exit %d\n%s", code, out)
	}
	if rep := usageJSON(t, c, "--by", "conversation"); len(rep.Conversations) != 1 || rep.Conversations[0].Label != "echo" || rep.Conversations[0].Calls != 2 {
		t.Errorf("usage by conversation %+v", rep.Conversations)
	}
}

func TestUsageCommand(t *testing.T) {
	c := &cliTranscript{t: t, dir: t.TempDir()}
	ctx := context.Background()
	st, err := store.Open(c.dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := st.CreateConversation(ctx, "Planning, the trip", store.ConversationSettings{Provider: "openai-1", Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, r := range []store.UsageRecord{
		// (1000 × 2.50 + 100 × 10) / 1e6 = $0.0035
		{Time: now, ConversationID: conv.ID, Provider: "openai-1", ProviderName: "OpenAI", Preset: "openai", Model: "gpt-4o", PromptTokens: 1000, CompletionTokens: 100},
		{Time: now, ConversationID: conv.ID, Provider: "local-2", ProviderName: "Local", Model: "llama3.2", PromptTokens: 50, CompletionTokens: 5},
		{Time: now.AddDate(0, 0, -40), Provider: "openai-1", ProviderName: "OpenAI", Preset: "openai", Model: "gpt-4o", PromptTokens: 9},
	} {
		if _, err := st.AddUsage(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	// The last 30 days by default.
	rep := usageJSON(t, c)
	if rep.By != "day" || rep.Totals.Calls != 2 || len(rep.Rows) != 1 || rep.Rows[0].Calls != 2 || !rep.Totals.CostPartial {
		t.Errorf("default %+v", rep)
	}
	from := now.AddDate(0, 0, -45).Format("2006-01-02")
	if rep := usageJSON(t, c, "--from", from, "--by", "provider"); rep.Totals.Calls != 3 || len(rep.Rows) != 2 || rep.Rows[0].Label != "OpenAI" {
		t.Errorf("--from %s by provider %+v", from, rep)
	}

	code, out, errOut := c.run("", "usage", "--by", "provider")
	if code != 0 {
		t.Fatalf("table: exit %d %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	want := []string{"PROVIDER", "OpenAI", "Local", "TOTAL"}
	var table []string
	for _, l := range lines {
		if l != "" && !strings.HasPrefix(l, "Usage ") && !strings.HasPrefix(l, "No price set") {
			table = append(table, l)
		}
	}
	if len(table) != len(want) {
		t.Fatalf("table:\n%s", out)
	}
	costAt := strings.Index(table[0], "COST")
	for i, w := range want {
		if !strings.HasPrefix(table[i], w) {
			t.Errorf("line %d %q, want %s…", i, table[i], w)
		}
	}
	if table[1][costAt:] != "$0.0035" || table[2][costAt:] != "no price set" || table[3][costAt:] != "$0.0035 + no price set (1 of 2 calls)" {
		t.Errorf("cost column:\n%s", out)
	}
	if !strings.Contains(out, "No price set for Local · llama3.2") {
		t.Errorf("no note on the unpriced model:\n%s", out)
	}
	code, out, _ = c.run("", "usage", "--by", "conversation")
	if code != 0 || !strings.Contains(out, "Planning, the trip") || !strings.Contains(out, "CONVERSATION  ") || !strings.Contains(out, "\n1 ") {
		t.Errorf("by conversation: exit %d\n%s", code, out)
	}

	for _, bad := range []struct {
		args []string
		code int
	}{
		{[]string{"usage", "--by", "week"}, 2},
		{[]string{"usage", "--from", "2025-05-02", "--to", "2025-05-01"}, 1},
		{[]string{"usage", "--from", "yesterday"}, 1},
	} {
		if code, _, _ := c.run("", bad.args...); code != bad.code {
			t.Errorf("%v: exit %d, want %d", bad.args, code, bad.code)
		}
	}
}
