package store

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// exportFixture is a conversation with one of everything the exports render.
func exportFixture(t *testing.T) (*Store, Conversation) {
	t.Helper()
	st := openTest(t, t.TempDir())
	if _, err := st.CreateProvider(context.Background(), Provider{ID: "ollama", Name: "Ollama", Type: "ollama", BaseURL: "http://localhost:11434"}); err != nil {
		t.Fatal(err)
	}
	c, err := st.CreateConversation(context.Background(), "Disk report", ConversationSettings{
		Provider: "ollama", Model: "qwen3:8b", SystemPrompt: "You are terse.", Temperature: ptr(0.2),
	})
	if err != nil {
		t.Fatal(err)
	}
	add := func(m Message) Message {
		m.ConversationID = c.ID
		return appendMsg(t, st, m)
	}
	img, err := st.PutAttachment(context.Background(), "image/png", []byte("PNG-BYTES"))
	if err != nil {
		t.Fatal(err)
	}
	csv, _ := st.PutAttachment(context.Background(), "text/csv", []byte("mount,used\n/tmp,1.2G\n"))
	add(Message{Role: RoleUser, Content: "How full is /tmp?",
		Attachments: []Attachment{
			{Name: "df.png", MIMEType: "image/png", Kind: AttachImage, Hash: img, Size: 9},
			{Name: "mounts.csv", MIMEType: "text/csv", Kind: AttachText, Hash: csv, Size: 21},
			// Pruned since: named, without its bytes.
			{Name: "gone.txt", MIMEType: "text/plain", Kind: AttachText, Hash: HashOf([]byte("gone")), Size: 4},
		}})
	add(Message{Role: RoleAssistant, Model: "ollama/qwen3:8b", Reasoning: "I should call du.", ToolCalls: []ToolCall{
		{ID: "call_1", Name: "shell__du", Server: "shell", Tool: "du", Arguments: `{"path":"/tmp","depth":1}`,
			Status: ToolCallDone, DurationMs: 42, Approval: ApprovalUser,
			Result: json.RawMessage(`{"content":[{"type":"text","text":"1.2G\t/tmp"},{"type":"image","mimeType":"image/png","data":"AAAA"}]}`)},
		{ID: "call_2", Name: "shell__rm", Server: "shell", Tool: "rm", Arguments: `{"path":"/tmp/*"}`,
			Status: ToolCallDeclined, Approval: ApprovalUser},
	}})
	add(Message{Role: RoleTool, ToolCallID: "call_1", Content: "1.2G\t/tmp"})
	add(Message{Role: RoleTool, ToolCallID: "call_2", Content: "declined by user"})
	add(Message{Role: RoleUser, Hidden: true, Content: "SECRET-LOOKING widget state"})
	add(Message{Role: RoleAssistant, Status: MessageInterrupted,
		Content: "Here is a script:\n\n```sh\ndu -sh /tmp\n```\n"})
	return st, c
}

func TestExportMarkdown(t *testing.T) {
	st, c := exportFixture(t)
	md, err := st.ExportMarkdown(context.Background(), c.ID)
	if err != nil {
		t.Fatal(err)
	}

	// The skeleton, in order: title, facts, system prompt, the role headings.
	var skeleton []string
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "- **") || strings.HasPrefix(line, "<summary>") ||
			strings.HasPrefix(line, "**Tool call**") {
			skeleton = append(skeleton, line)
		}
	}
	want := []string{
		"# Disk report",
		"- **Model:** Ollama · qwen3:8b",
		"- **Created:** " + c.CreatedAt.Format("2006-01-02 15:04 UTC"),
		"- **Temperature:** 0.2",
		"<summary>System prompt</summary>",
		"## User",
		"<summary>Text of mounts.csv</summary>",
		"## Assistant",
		"<summary>Reasoning</summary>",
		"**Tool call** `shell / du` — done, 42 ms, approval: user",
		"**Tool call** `shell / rm` — declined, approval: user",
		"## Assistant",
	}
	if strings.Join(skeleton, "\n") != strings.Join(want, "\n") {
		t.Errorf("skeleton:\n%s\nwant:\n%s\n\nfull export:\n%s", strings.Join(skeleton, "\n"), strings.Join(want, "\n"), md)
	}

	for _, fragment := range []string{
		"<details>\n<summary>Reasoning</summary>\n\nI should call du.\n\n</details>\n",
		"```json\n{\n  \"path\": \"/tmp\",\n  \"depth\": 1\n}\n```\n", // key order kept
		"Result:\n\n```text\n1.2G\t/tmp\n[image image/png]\n```\n",
		"Result:\n\n```text\nDeclined\n```\n",
		"*Attached: df.png (image/png)*\n\n![df.png](data:image/png;base64,UE5HLUJZVEVT)\n",
		"*Attached: mounts.csv (text/csv)*\n\n<details>\n<summary>Text of mounts.csv</summary>\n\n```\nmount,used\n/tmp,1.2G\n```",
		"*Attached: gone.txt (text/plain)*\n",
		"```sh\ndu -sh /tmp\n```", // the reply's own fence survives as Markdown
		"*(interrupted)*",
		"You are terse.",
	} {
		if !strings.Contains(md, fragment) {
			t.Errorf("export lacks %q:\n%s", fragment, md)
		}
	}
	// Tool messages answering a call shown above are folded into it; hidden
	// messages and attachment data stay out.
	for _, absent := range []string{"## Tool result", "declined by user", "SECRET-LOOKING", "AAAA"} {
		if strings.Contains(md, absent) {
			t.Errorf("export contains %q:\n%s", absent, md)
		}
	}
	if n := len(regexp.MustCompile("(?m)^## ").FindAllString(md, -1)); n != 3 {
		t.Errorf("%d role headings, want 3", n)
	}
}

func TestExportMarkdownEdgeCases(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	c := newConversation(t, st, "")
	appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleTool, ToolCallID: "orphan", Content: "lonely result"})
	appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Status: MessageError, Error: "rate\nlimited",
		ToolCalls: []ToolCall{{ID: "x", Name: "f", Arguments: "not json ````", Status: ToolCallError, Error: "boom"}}})
	md, err := st.ExportMarkdown(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, fragment := range []string{
		"# Untitled conversation\n",
		"## Tool result\n\nResult of call `orphan`:\n\n```text\nlonely result\n```\n",
		"**Tool call** `f` — error\n",
		"`````json\nnot json ````\n`````\n", // the fence outgrows the content's backticks
		"```text\nError: boom\n```",
		"*Error: rate limited*",
	} {
		if !strings.Contains(md, fragment) {
			t.Errorf("export lacks %q:\n%s", fragment, md)
		}
	}
}

func TestExportJSON(t *testing.T) {
	st, c := exportFixture(t)
	b, err := st.ExportJSON(context.Background(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var doc ConversationExport
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("export is not JSON: %v\n%s", err, b)
	}
	if doc.Format != "mcpdesk.conversation/v1" || doc.ExportedAt.IsZero() {
		t.Errorf("header = %q %v", doc.Format, doc.ExportedAt)
	}
	if doc.Conversation.ID != c.ID || doc.Conversation.Title != "Disk report" || doc.Conversation.Settings.Model != "qwen3:8b" {
		t.Errorf("conversation = %+v", doc.Conversation)
	}
	// Everything is there, hidden messages included, in order.
	if len(doc.Messages) != 6 {
		t.Fatalf("%d messages, want 6", len(doc.Messages))
	}
	for i, m := range doc.Messages {
		if m.Seq != i+1 {
			t.Errorf("message %d has seq %d", i, m.Seq)
		}
	}
	if tc := doc.Messages[1].ToolCalls[0]; tc.Server != "shell" || tc.Tool != "du" || tc.DurationMs != 42 || len(tc.Result) == 0 {
		t.Errorf("tool call = %+v", tc)
	}
	if !doc.Messages[4].Hidden {
		t.Error("hidden message missing from the JSON export")
	}
	// Each attached file once, by its hash, with its bytes.
	if f := doc.Attachments[HashOf([]byte("PNG-BYTES"))]; f.MIMEType != "image/png" || string(f.Data) != "PNG-BYTES" || len(doc.Attachments) != 2 {
		t.Errorf("attachments = %+v", doc.Attachments)
	}
	// The top-level keys, and camelCase throughout.
	var top map[string]json.RawMessage
	json.Unmarshal(b, &top)
	for _, k := range []string{"format", "exportedAt", "conversation", "messages", "providers", "attachments"} {
		if _, ok := top[k]; !ok {
			t.Errorf("top-level key %q missing", k)
		}
	}
	for _, k := range []string{`"systemPrompt"`, `"toolCalls"`, `"durationMs"`, `"conversationId"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("export lacks key %s", k)
		}
	}
	if strings.Contains(string(b), `"system_prompt"`) || strings.Contains(string(b), `"ConversationID"`) {
		t.Error("export leaks Go or SQL field names")
	}
}

// TestExportNamesModels: the Markdown names a model by its provider's name
// as Settings shows it, never by the provider's internal id; a provider
// removed since falls back to its id, marked. The JSON keeps the ids and
// adds the names.
func TestExportNamesModels(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	for _, p := range []Provider{
		{ID: "fake-llm-7entat", Name: "Fake LLM", Type: "openai", BaseURL: "http://127.0.0.1:1"},
		{ID: "other-9q", Name: "Other", Type: "openai", BaseURL: "http://127.0.0.1:1"},
	} {
		if _, err := st.CreateProvider(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	c, err := st.CreateConversation(ctx, "Names", ConversationSettings{Provider: "fake-llm-7entat", Model: "fake-1"})
	if err != nil {
		t.Fatal(err)
	}
	add := func(m Message) { m.ConversationID = c.ID; appendMsg(t, st, m) }
	add(Message{Role: RoleUser, Content: "Hi"})
	add(Message{Role: RoleAssistant, Model: "fake-llm-7entat/fake-1", Content: "by the conversation's model"})
	add(Message{Role: RoleUser, Content: "Again"})
	add(Message{Role: RoleAssistant, Model: "other-9q/org/model-2", Content: "by a fallback"})
	add(Message{Role: RoleUser, Content: "Once more"})
	add(Message{Role: RoleAssistant, Model: "gone-3k/old", Content: "by a provider deleted since"})

	md, err := st.ExportMarkdown(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- **Model:** Fake LLM · fake-1\n",
		"## Assistant\n\n*Model: Other · org/model-2*\n",
		"## Assistant\n\n*Model: gone-3k (removed) · old*\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "fake-llm-7entat") || strings.Contains(md, "other-9q") {
		t.Errorf("Markdown shows a provider's internal id:\n%s", md)
	}
	if n := strings.Count(md, "\n*Model:"); n != 2 {
		t.Errorf("%d answers name their model, want the 2 by another model than the conversation's:\n%s", n, md)
	}

	// The conversation's provider removed: its id stays, marked.
	if err := st.DeleteProvider(ctx, "fake-llm-7entat"); err != nil {
		t.Fatal(err)
	}
	if md, err = st.ExportMarkdown(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "- **Model:** fake-llm-7entat (removed) · fake-1\n") {
		t.Errorf("a removed provider does not fall back to its id:\n%s", md)
	}

	b, err := st.ExportJSON(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var doc ConversationExport
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"other-9q": "Other"}; !reflect.DeepEqual(doc.Providers, want) {
		t.Errorf("JSON providers = %v, want %v", doc.Providers, want)
	}
	if doc.Conversation.Settings.Provider != "fake-llm-7entat" || doc.Messages[3].Model != "other-9q/org/model-2" {
		t.Errorf("JSON lost the ids: %+v %q", doc.Conversation.Settings, doc.Messages[3].Model)
	}
}

func TestSplitModel(t *testing.T) {
	for _, tc := range []struct{ in, provider, model string }{
		{"fake-llm-7entat/fake-1", "fake-llm-7entat", "fake-1"},
		{"openrouter/openai/gpt-4o", "openrouter", "openai/gpt-4o"},
		{"qwen3:8b", "", "qwen3:8b"},
		{"/x", "", "/x"},
		{"", "", ""},
	} {
		if p, m := SplitModel(tc.in); p != tc.provider || m != tc.model {
			t.Errorf("SplitModel(%q) = %q, %q; want %q, %q", tc.in, p, m, tc.provider, tc.model)
		}
		if tc.provider != "" && JoinModel(tc.provider, tc.model) != tc.in {
			t.Errorf("JoinModel does not undo SplitModel(%q)", tc.in)
		}
	}
}

func TestModelLabel(t *testing.T) {
	names := ProviderNames{"fake-llm-7entat": "Fake LLM"}
	for _, tc := range []struct {
		names           ProviderNames
		provider, model string
		want            string
	}{
		{names, "fake-llm-7entat", "fake-1", "Fake LLM · fake-1"},
		{names, "gone-3k", "old", "gone-3k (removed) · old"},
		{names, "", "qwen3:8b", "qwen3:8b"},
		{nil, "fake-llm-7entat", "fake-1", "fake-llm-7entat · fake-1"}, // names not read: nothing is claimed removed
	} {
		if got := tc.names.ModelLabel(tc.provider, tc.model); got != tc.want {
			t.Errorf("ModelLabel(%q, %q) = %q, want %q", tc.provider, tc.model, got, tc.want)
		}
	}
}
