package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

func ptr[T any](v T) *T { return &v }

// testSettings are valid settings with every optional field set.
func testSettings() ConversationSettings {
	return ConversationSettings{
		Provider:     "openai",
		Model:        "gpt-4o",
		SystemPrompt: "Be brief.",
		Temperature:  ptr(0.7),
		Servers:      []string{"fs", "git"},
		Tools:        map[string]ToolFilter{"fs": {Disabled: []string{"write_file"}}, "git": {Allowed: []string{"log"}}},
		MaxSteps:     ptr(5),
	}
}

func newConversation(t *testing.T, st *Store, title string) Conversation {
	t.Helper()
	c, err := st.CreateConversation(context.Background(), title, ConversationSettings{Provider: "ollama", Model: "llama3"})
	if err != nil {
		t.Fatalf("CreateConversation: %v", err)
	}
	return c
}

func appendMsg(t *testing.T, st *Store, m Message) Message {
	t.Helper()
	out, err := st.AppendMessage(context.Background(), m)
	if err != nil {
		t.Fatalf("AppendMessage(%s %q): %v", m.Role, m.Content, err)
	}
	return out
}

// checkFTS runs FTS5's integrity check, which with rank 1 also compares the
// index against the content table: it fails if the triggers missed a change.
func checkFTS(t *testing.T, st *Store) {
	t.Helper()
	if err := st.DB().Exec(`INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)`).Error; err != nil {
		t.Fatalf("FTS index out of sync with messages: %v", err)
	}
}

func TestConversationCRUD(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()

	c, err := st.CreateConversation(ctx, "  Plan the trip  ", testSettings())
	if err != nil {
		t.Fatal(err)
	}
	if c.ID == 0 || c.Title != "Plan the trip" || c.CreatedAt.IsZero() || !c.UpdatedAt.Equal(c.CreatedAt) {
		t.Errorf("created %+v", c)
	}
	got, err := st.GetConversation(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Settings, testSettings()) {
		t.Errorf("settings round trip:\n got %+v\nwant %+v", got.Settings, testSettings())
	}
	if !got.CreatedAt.Equal(c.CreatedAt) || got.Title != c.Title || got.Pinned {
		t.Errorf("got %+v, want %+v", got, c)
	}

	// Nil servers and tools mean "all" and stay nil; an empty list stays empty.
	minimal, err := st.CreateConversation(ctx, "", ConversationSettings{Provider: "p", Model: "m", Servers: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	minimal, _ = st.GetConversation(ctx, minimal.ID)
	if minimal.Settings.Servers == nil || len(minimal.Settings.Servers) != 0 || minimal.Settings.Tools != nil ||
		minimal.Settings.Temperature != nil || minimal.Settings.MaxSteps != nil {
		t.Errorf("minimal settings = %+v", minimal.Settings)
	}

	if err := st.RenameConversation(ctx, c.ID, "Trip to 北京"); err != nil {
		t.Fatal(err)
	}
	if err := st.SetConversationPinned(ctx, c.ID, true); err != nil {
		t.Fatal(err)
	}
	next := ConversationSettings{Provider: "ollama", Model: "qwen3", Temperature: ptr(0.0)}
	upd, err := st.UpdateConversationSettings(ctx, c.ID, next)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(upd.Settings, next) || upd.Title != "Trip to 北京" || !upd.Pinned {
		t.Errorf("after updates: %+v", upd)
	}
	if !upd.UpdatedAt.Equal(c.UpdatedAt) {
		t.Errorf("rename/pin/settings moved UpdatedAt from %v to %v", c.UpdatedAt, upd.UpdatedAt)
	}

	if err := st.DeleteConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	_, err = st.GetConversation(ctx, c.ID)
	if !errors.Is(err, ErrConversationNotFound) || !strings.Contains(err.Error(), fmt.Sprint(c.ID)) {
		t.Errorf("Get after delete = %v, want ErrConversationNotFound naming %d", err, c.ID)
	}
	// A new conversation never reuses the deleted id.
	again := newConversation(t, st, "again")
	if again.ID <= c.ID || again.ID <= minimal.ID {
		t.Errorf("new id %d reuses an old one", again.ID)
	}
}

func TestConversationNotFound(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	const id = 4242
	calls := map[string]error{
		"rename":     st.RenameConversation(ctx, id, "x"),
		"pin":        st.SetConversationPinned(ctx, id, true),
		"delete":     st.DeleteConversation(ctx, id),
		"settings":   func() error { _, err := st.UpdateConversationSettings(ctx, id, testSettings()); return err }(),
		"messages":   func() error { _, err := st.Messages(ctx, id); return err }(),
		"append":     func() error { _, err := st.AppendMessage(ctx, Message{ConversationID: id, Role: RoleUser}); return err }(),
		"exportMD":   func() error { _, err := st.ExportMarkdown(ctx, id); return err }(),
		"exportJSON": func() error { _, err := st.ExportJSON(ctx, id); return err }(),
	}
	for name, err := range calls {
		if !errors.Is(err, ErrConversationNotFound) || !strings.Contains(err.Error(), "4242") {
			t.Errorf("%s = %v, want ErrConversationNotFound naming 4242", name, err)
		}
	}
	msgCalls := map[string]error{
		"get":    func() error { _, err := st.GetMessage(ctx, id); return err }(),
		"update": func() error { _, err := st.UpdateMessage(ctx, Message{ID: id, Role: RoleUser}); return err }(),
		"tool": func() error {
			_, err := st.UpdateToolCall(ctx, id, ToolCall{ID: "x", Status: ToolCallDone})
			return err
		}(),
		"after": func() error { _, err := st.DeleteMessagesAfter(ctx, 1, id); return err }(),
	}
	for name, err := range msgCalls {
		if !errors.Is(err, ErrMessageNotFound) || !strings.Contains(err.Error(), "4242") {
			t.Errorf("%s = %v, want ErrMessageNotFound naming 4242", name, err)
		}
	}
}

func TestConversationValidation(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	bad := map[string]ConversationSettings{
		"no provider":    {Model: "m"},
		"no model":       {Provider: "p", Model: "  "},
		"temperature":    {Provider: "p", Model: "m", Temperature: ptr(2.5)},
		"negative temp":  {Provider: "p", Model: "m", Temperature: ptr(-0.1)},
		"zero max steps": {Provider: "p", Model: "m", MaxSteps: ptr(0)},
	}
	for name, s := range bad {
		if _, err := st.CreateConversation(ctx, "x", s); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := st.CreateConversation(ctx, strings.Repeat("é", MaxTitleLen+1), ConversationSettings{Provider: "p", Model: "m"}); err == nil {
		t.Error("over-long title: no error")
	}
	c := newConversation(t, st, "v")
	badMsgs := map[string]Message{
		"role":          {Role: "robot"},
		"status":        {Role: RoleUser, Status: "done"},
		"tool no id":    {Role: RoleTool, Content: "x"},
		"call no id":    {Role: RoleAssistant, ToolCalls: []ToolCall{{Name: "f", Status: ToolCallPending}}},
		"call status":   {Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "1", Status: "finished"}}},
		"call approval": {Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "1", Status: ToolCallDone, Approval: "maybe"}}},
		"duplicate ids": {Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "1", Status: ToolCallDone}, {ID: "1", Status: ToolCallDone}}},
		"bad result":    {Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "1", Status: ToolCallDone, Result: json.RawMessage(`{nope`)}}},
	}
	for name, m := range badMsgs {
		m.ConversationID = c.ID
		if _, err := st.AppendMessage(ctx, m); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestMessagesRoundTrip(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	c := newConversation(t, st, "tools")

	user := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleUser, Content: "List my files",
		Attachments: []Attachment{{Name: "shot.png", MIMEType: "image/png", Kind: AttachImage, Hash: HashOf([]byte("png")), Size: 3}}})
	asst := appendMsg(t, st, Message{
		ConversationID: c.ID, Role: RoleAssistant, Status: MessageStreaming, Model: "llama3",
		Reasoning: "The user wants a listing.",
		ToolCalls: []ToolCall{
			{ID: "call_1", Name: "fs__list", Arguments: `{"path":"/tmp"}`, Server: "fs", Tool: "list", Status: ToolCallPending},
			{ID: "call_2", Name: "fs__stat", Arguments: `{"path":"/tmp/a"}`, Server: "fs", Tool: "stat", Status: ToolCallPending},
		},
	})
	if user.Seq != 1 || asst.Seq != 2 || asst.ID <= user.ID {
		t.Errorf("seq/ids: user %d/%d assistant %d/%d", user.Seq, user.ID, asst.Seq, asst.ID)
	}

	// Two parallel tool calls report at the same time: neither update is lost.
	var wg sync.WaitGroup
	for _, id := range []string{"call_1", "call_2"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, status := range []ToolCallStatus{ToolCallApproved, ToolCallRunning, ToolCallDone} {
				call := ToolCall{ID: id, Name: "fs__x", Arguments: `{}`, Server: "fs", Tool: "x", Status: status, Approval: ApprovalUser}
				if status == ToolCallDone {
					call.Result = json.RawMessage(`{"content":[{"type":"text","text":"ok ` + id + `"}]}`)
					call.DurationMs = 12
				}
				if _, err := st.UpdateToolCall(ctx, asst.ID, call); err != nil {
					t.Errorf("UpdateToolCall %s: %v", id, err)
				}
			}
		}()
	}
	wg.Wait()
	if _, err := st.UpdateToolCall(ctx, asst.ID, ToolCall{ID: "call_9", Status: ToolCallDone}); !errors.Is(err, ErrToolCallNotFound) {
		t.Errorf("UpdateToolCall of an unknown call = %v", err)
	}

	tool := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleTool, ToolCallID: "call_1", Content: "ok call_1"})

	asst.Content = "Here they are."
	asst.Status = MessageComplete
	asst.Usage = &TokenUsage{PromptTokens: 100, CompletionTokens: 20, CachedTokens: 64, ReasoningTokens: 7}
	got, _ := st.GetMessage(ctx, asst.ID)
	asst.ToolCalls = got.ToolCalls
	asst.Role, asst.Seq = RoleUser, 99 // immutable: ignored
	final, err := st.UpdateMessage(ctx, asst)
	if err != nil {
		t.Fatal(err)
	}
	if final.Role != RoleAssistant || final.Seq != 2 || final.Status != MessageComplete || final.Usage == nil {
		t.Errorf("UpdateMessage returned %+v", final)
	}

	msgs, err := st.Messages(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 3 {
		t.Fatalf("%d messages, want 3", len(msgs))
	}
	if m := msgs[0]; m.ID != user.ID || m.Role != RoleUser || len(m.Attachments) != 1 || m.Attachments[0].Name != "shot.png" ||
		m.ToolCalls == nil || len(m.ToolCalls) != 0 || m.Usage != nil || m.Status != MessageComplete {
		t.Errorf("user message = %+v", m)
	}
	m := msgs[1]
	if m.Content != "Here they are." || m.Reasoning != "The user wants a listing." || m.Model != "llama3" ||
		*m.Usage != (TokenUsage{100, 20, 64, 7}) || !m.CreatedAt.Equal(asst.CreatedAt) || m.UpdatedAt.Before(m.CreatedAt) {
		t.Errorf("assistant message = %+v", m)
	}
	if len(m.ToolCalls) != 2 {
		t.Fatalf("tool calls = %+v", m.ToolCalls)
	}
	for i, want := range []string{"call_1", "call_2"} {
		tc := m.ToolCalls[i]
		if tc.ID != want || tc.Status != ToolCallDone || tc.Approval != ApprovalUser || tc.DurationMs != 12 ||
			!strings.Contains(string(tc.Result), "ok "+want) {
			t.Errorf("tool call %d = %+v", i, tc)
		}
	}
	if msgs[2].ID != tool.ID || msgs[2].ToolCallID != "call_1" || msgs[2].Seq != 3 {
		t.Errorf("tool message = %+v", msgs[2])
	}

	// The conversation moved with its messages.
	conv, _ := st.GetConversation(ctx, c.ID)
	if !conv.UpdatedAt.After(c.UpdatedAt) {
		t.Errorf("UpdatedAt %v did not move past %v", conv.UpdatedAt, c.UpdatedAt)
	}

	// The JSON the frontend gets uses camelCase and arrays, not null.
	b, _ := json.Marshal(msgs[0])
	for _, key := range []string{`"conversationId":`, `"toolCalls":[]`, `"toolCallId":""`, `"attachments":[{`, `"createdAt":`, `"usage":null`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("message JSON %s lacks %s", b, key)
		}
	}
	checkFTS(t, st)
}

func TestListConversations(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	a := newConversation(t, st, "a")
	b := newConversation(t, st, "b")
	cc := newConversation(t, st, "c")
	appendMsg(t, st, Message{ConversationID: a.ID, Role: RoleUser, Content: "hello\n\n  there"})
	appendMsg(t, st, Message{ConversationID: a.ID, Role: RoleAssistant, Content: strings.Repeat("long answer ", 40)})
	appendMsg(t, st, Message{ConversationID: a.ID, Role: RoleTool, ToolCallID: "x", Content: "tool output is not a preview"})
	appendMsg(t, st, Message{ConversationID: a.ID, Role: RoleUser, Hidden: true, Content: "widget state is not a preview"})
	appendMsg(t, st, Message{ConversationID: b.ID, Role: RoleUser, Content: "hello\n\n  there"})
	if err := st.SetConversationPinned(ctx, cc.ID, true); err != nil {
		t.Fatal(err)
	}

	list, err := st.ListConversations(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, s := range list {
		ids = append(ids, s.ID)
	}
	// Pinned first, then by last activity: b got a message after a.
	if want := []int64{cc.ID, b.ID, a.ID}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("order %v, want %v", ids, want)
	}
	if s := list[2]; s.MessageCount != 4 || !strings.HasPrefix(s.Preview, "long answer long") ||
		len([]rune(s.Preview)) != previewLen || !strings.HasSuffix(s.Preview, "…") || s.Model != "llama3" {
		t.Errorf("summary of a = %+v", s)
	}
	if s := list[1]; s.MessageCount != 1 || s.Preview != "hello there" {
		t.Errorf("summary of b = %+v", s)
	}
	if s := list[0]; s.MessageCount != 0 || s.Preview != "" || !s.Pinned {
		t.Errorf("summary of c = %+v", s)
	}

	page, err := st.ListConversations(ctx, 1, 1)
	if err != nil || len(page) != 1 || page[0].ID != b.ID {
		t.Errorf("page 2 of size 1 = %+v, %v", page, err)
	}
	if page, _ := st.ListConversations(ctx, 10, 3); len(page) != 0 {
		t.Errorf("past the end = %+v", page)
	}
}

func TestCascadeDelete(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	gone := newConversation(t, st, "gone")
	kept := newConversation(t, st, "kept")
	for i := range 5 {
		appendMsg(t, st, Message{ConversationID: gone.ID, Role: RoleUser, Content: fmt.Sprintf("ephemeral note %d", i)})
	}
	appendMsg(t, st, Message{ConversationID: kept.ID, Role: RoleUser, Content: "durable note"})

	if err := st.DeleteConversation(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	var n int64
	st.DB().Model(&messageRow{}).Where("conversation_id = ?", gone.ID).Count(&n)
	if n != 0 {
		t.Errorf("%d messages survived their conversation", n)
	}
	checkFTS(t, st)
	hits, err := st.SearchMessages(ctx, "note", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].ConversationID != kept.ID {
		t.Errorf("search after delete = %+v", hits)
	}
	if err := st.DeleteConversation(ctx, gone.ID); !errors.Is(err, ErrConversationNotFound) {
		t.Errorf("second delete = %v", err)
	}
}

func TestDeleteMessagesAfter(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	c := newConversation(t, st, "edit")
	other := newConversation(t, st, "other")
	var msgs []Message
	for i, role := range []Role{RoleUser, RoleAssistant, RoleUser, RoleAssistant} {
		msgs = append(msgs, appendMsg(t, st, Message{ConversationID: c.ID, Role: role, Content: fmt.Sprintf("turn %d", i)}))
	}
	otherMsg := appendMsg(t, st, Message{ConversationID: other.ID, Role: RoleUser, Content: "turn elsewhere"})

	// A message of another conversation is refused, and nothing goes.
	if _, err := st.DeleteMessagesAfter(ctx, c.ID, otherMsg.ID); !errors.Is(err, ErrMessageNotFound) {
		t.Errorf("cut at a foreign message = %v", err)
	}
	// Edit-and-resend of the second user message: cut after it.
	n, err := st.DeleteMessagesAfter(ctx, c.ID, msgs[2].ID)
	if err != nil || n != 1 {
		t.Fatalf("DeleteMessagesAfter = %d, %v; want 1", n, err)
	}
	// Cutting after the last message is a no-op.
	if n, err := st.DeleteMessagesAfter(ctx, c.ID, msgs[2].ID); err != nil || n != 0 {
		t.Errorf("second cut = %d, %v", n, err)
	}
	// Regenerate the first reply: cut after the first user message.
	if n, err := st.DeleteMessagesAfter(ctx, c.ID, msgs[0].ID); err != nil || n != 2 {
		t.Errorf("cut after first = %d, %v; want 2", n, err)
	}
	left, _ := st.Messages(ctx, c.ID)
	if len(left) != 1 || left[0].ID != msgs[0].ID {
		t.Fatalf("left %+v", left)
	}
	// Appending continues the numbering after what is left.
	reply := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Content: "regenerated"})
	if reply.Seq != 2 {
		t.Errorf("seq after cut = %d, want 2", reply.Seq)
	}
	if got, _ := st.Messages(ctx, other.ID); len(got) != 1 {
		t.Errorf("other conversation lost messages: %+v", got)
	}
	checkFTS(t, st)
	if hits, _ := st.SearchMessages(ctx, "turn", 10); len(hits) != 2 {
		t.Errorf("search after cut = %+v", hits)
	}
}

// searchFixture fills a store with a few conversations for search tests.
func searchFixture(t *testing.T) (*Store, map[string]Message) {
	st := openTest(t, t.TempDir())
	en := newConversation(t, st, "English")
	zh := newConversation(t, st, "中文")
	msgs := map[string]Message{}
	add := func(key string, c Conversation, role Role, content string, hidden bool) {
		m := Message{ConversationID: c.ID, Role: role, Content: content, Hidden: hidden}
		if role == RoleTool {
			m.ToolCallID = "call"
		}
		msgs[key] = appendMsg(t, st, m)
	}
	add("pool", en, RoleUser, "Why is the Database connection pool exhausted?", false)
	add("reply", en, RoleAssistant, "The pool has a maximum of 10 connections; raise it.", false)
	add("go", en, RoleUser, "Write it in Go, please: 50% less memory_usage.", false)
	add("tool", en, RoleTool, `{"rows": 3, "table": "users"}`, false)
	add("hidden", en, RoleUser, "hidden widget state: database", true)
	add("zh", zh, RoleUser, "我们需要检查数据库连接是否正常，然后重新启动服务器。", false)
	add("zh2", zh, RoleAssistant, "数据库已经恢复。", false)
	add("quote", zh, RoleUser, `He said "foo" OR bar NEAR(x) and 3*4 - 1`, false)
	return st, msgs
}

func hitIDs(hits []SearchHit) []int64 {
	ids := []int64{}
	for _, h := range hits {
		ids = append(ids, h.MessageID)
	}
	return ids
}

func TestSearchMessages(t *testing.T) {
	st, msgs := searchFixture(t)
	ctx := context.Background()
	tests := []struct {
		query string
		want  []string // message keys, any order
	}{
		{"database", []string{"pool"}},          // hidden message left out
		{"DATABASE", []string{"pool"}},          // case-insensitive
		{"onnectio", []string{"pool", "reply"}}, // substring inside words
		{"pool exhausted", []string{"pool"}},    // every term must match
		{"pool raise", []string{"reply"}},       //
		{"数据库", []string{"zh", "zh2"}},          // CJK without segmentation
		{"数据库连接", []string{"zh"}},               // the longer phrase
		{"重新启动 数据库", []string{"zh"}},            //
		{"Go", []string{"go"}},                  // two letters: LIKE fallback
		{"go", []string{"go"}},                  // LIKE is case-insensitive for ASCII
		{"库", []string{"zh", "zh2"}},            // one CJK character
		{"50%", []string{"go"}},                 // % is literal, not a wildcard
		{"y_u", []string{"go"}},                 // _ is literal, not a wildcard
		{"%", []string{"go"}},                   //
		{"_", []string{"go"}},                   //
		{"pool 10", []string{"reply"}},          // long term via FTS, short via LIKE
		{`"users"`, []string{"tool"}},           // quotes are literal characters
		{`"foo" OR bar`, []string{"quote"}},     // no query syntax
		{"NEAR(x)", []string{"quote"}},          //
		{"nothing-like-this", nil},              //
		{"   ", nil},                            //
		{"", nil},                               //
	}
	for _, tt := range tests {
		hits, err := st.SearchMessages(ctx, tt.query, 20)
		if err != nil {
			t.Errorf("SearchMessages(%q): %v", tt.query, err)
			continue
		}
		var want []int64
		for _, k := range tt.want {
			want = append(want, msgs[k].ID)
		}
		got := hitIDs(hits)
		if !sameSet(got, want) {
			t.Errorf("SearchMessages(%q) = %v, want %v", tt.query, got, want)
		}
	}
}

func sameSet(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[int64]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}

func TestSearchHostileQueriesDoNotError(t *testing.T) {
	st, _ := searchFixture(t)
	ctx := context.Background()
	for _, q := range []string{
		`"`, `""`, `"""`, `foo" OR bar`, `NEAR(`, `NEAR(a b`, `*`, `***`, `-`, `---`, `^`, `a:b`, `content:pool`,
		`(`, `)`, `pool*`, `-pool`, `AND`, `OR OR OR`, `NOT`, `{content}`, `'; DROP TABLE messages; --`,
		"\x00", "\x02\x03", `\`, `%%%`, "pool\"", "\xff\xfe invalid utf8",
	} {
		if _, err := st.SearchMessages(ctx, q, 10); err != nil {
			t.Errorf("SearchMessages(%q): %v", q, err)
		}
	}
	// The table survived the "injection".
	if hits, err := st.SearchMessages(ctx, "database", 10); err != nil || len(hits) != 1 {
		t.Errorf("after hostile queries: %v, %v", hits, err)
	}
}

func TestSearchHitShape(t *testing.T) {
	st, msgs := searchFixture(t)
	ctx := context.Background()

	hits, err := st.SearchMessages(ctx, "数据库连接", 10)
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits %+v, %v", hits, err)
	}
	h := hits[0]
	if h.ConversationID != msgs["zh"].ConversationID || h.ConversationTitle != "中文" || h.Role != RoleUser ||
		!h.CreatedAt.Equal(msgs["zh"].CreatedAt) {
		t.Errorf("hit = %+v", h)
	}
	if want := "我们需要检查" + SnippetStart + "数据库连接" + SnippetEnd + "是否正常"; !strings.Contains(h.Snippet, want) {
		t.Errorf("snippet %q lacks %q", h.Snippet, want)
	}

	// The fallback marks short terms the same way, matching case-insensitively.
	hits, _ = st.SearchMessages(ctx, "go", 10)
	if len(hits) != 1 || !strings.Contains(hits[0].Snippet, "in "+SnippetStart+"Go"+SnippetEnd+",") {
		t.Errorf("fallback snippet = %+v", hits)
	}
	// A long message gets a window with ellipses around the match.
	c := newConversation(t, st, "long")
	long := strings.Repeat("filler text ", 40) + "xy marks the spot " + strings.Repeat("more filler ", 40)
	appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Content: long})
	hits, _ = st.SearchMessages(ctx, "xy", 10)
	if len(hits) != 1 || !strings.HasPrefix(hits[0].Snippet, "…") || !strings.HasSuffix(hits[0].Snippet, "…") ||
		!strings.Contains(hits[0].Snippet, SnippetStart+"xy"+SnippetEnd+" marks") || len([]rune(hits[0].Snippet)) > snippetLen+6 {
		t.Errorf("window snippet = %+v", hits)
	}
	hits, _ = st.SearchMessages(ctx, "marks the spot", 10)
	if len(hits) != 1 || !strings.Contains(hits[0].Snippet, SnippetStart+"marks"+SnippetEnd) || !strings.HasPrefix(hits[0].Snippet, "…") {
		t.Errorf("FTS window snippet = %+v", hits)
	}
}

func TestSearchOrderAndLimit(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	c := newConversation(t, st, "rank")
	// bm25 prefers a short message dense with the term over a long one.
	weak := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleUser, Content: "kubernetes " + strings.Repeat("unrelated words ", 50)})
	strong := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleUser, Content: "kubernetes kubernetes"})
	var equal []Message
	for i := range 3 {
		equal = append(equal, appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleUser, Content: fmt.Sprintf("helm chart %d", i)}))
		time.Sleep(2 * time.Millisecond)
	}
	hits, err := st.SearchMessages(ctx, "kubernetes", 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := hitIDs(hits); !reflect.DeepEqual(got, []int64{strong.ID, weak.ID}) {
		t.Errorf("rank order %v, want %v", got, []int64{strong.ID, weak.ID})
	}
	// Equal rank: newest first. Limit applies.
	hits, _ = st.SearchMessages(ctx, "helm chart", 2)
	if got := hitIDs(hits); !reflect.DeepEqual(got, []int64{equal[2].ID, equal[1].ID}) {
		t.Errorf("recency order %v", got)
	}
	hits, _ = st.SearchMessages(ctx, "rt", 2)
	if got := hitIDs(hits); !reflect.DeepEqual(got, []int64{equal[2].ID, equal[1].ID}) {
		t.Errorf("fallback order %v", got)
	}
}

func TestSearchFollowsUpdatesAndDeletes(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	c := newConversation(t, st, "sync")
	m := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Status: MessageStreaming, Content: "draft about penguins"})
	search := func(q string) int {
		t.Helper()
		hits, err := st.SearchMessages(ctx, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(hits)
	}
	if search("penguins") != 1 {
		t.Fatal("fresh message not found")
	}
	m.Content, m.Status = "final answer about walruses", MessageComplete
	if _, err := st.UpdateMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	if search("penguins") != 0 || search("walruses") != 1 {
		t.Error("index did not follow the content update")
	}
	// An update that leaves the text alone keeps the index entry.
	m.Error = "nothing"
	if _, err := st.UpdateMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	if search("walruses") != 1 {
		t.Error("non-text update lost the index entry")
	}
	checkFTS(t, st)
	if _, err := st.DeleteMessagesAfter(ctx, c.ID, appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleUser, Content: "x"}).ID); err != nil {
		t.Fatal(err)
	}
	if err := st.DB().Exec(`DELETE FROM messages WHERE id = ?`, m.ID).Error; err != nil {
		t.Fatal(err)
	}
	if search("walruses") != 0 {
		t.Error("deleted message still found")
	}
	checkFTS(t, st)
}

func TestToolResultShortened(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	c := newConversation(t, st, "big")
	bigText := strings.Repeat("0123456789", MaxToolResultBytes/10+1)
	bigImage := strings.Repeat("A", MaxToolResultBytes)
	result, _ := json.Marshal(map[string]any{
		"content": []map[string]any{
			{"type": "text", "text": bigText},
			{"type": "image", "mimeType": "image/png", "data": bigImage},
		},
		"isError": true,
	})
	small := json.RawMessage(`{"content":[{"type":"text","text":"small"}]}`)
	m := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, ToolCalls: []ToolCall{
		{ID: "big", Status: ToolCallDone, Result: result},
		{ID: "small", Status: ToolCallDone, Result: small},
	}})
	got, _ := st.GetMessage(ctx, m.ID)
	big := got.ToolCalls[0]
	if !big.ResultTruncated || big.ResultBytes != len(result) || len(big.Result) > toolResultTextBudget+1024 {
		t.Fatalf("big result: truncated=%v bytes=%d stored=%d", big.ResultTruncated, big.ResultBytes, len(big.Result))
	}
	var res struct {
		Content []struct{ Type, Text string }
		IsError bool
	}
	if err := json.Unmarshal(big.Result, &res); err != nil || !res.IsError || len(res.Content) != 1 ||
		!strings.HasPrefix(res.Content[0].Text, "0123456789") || !strings.Contains(res.Content[0].Text, "shortened from") {
		t.Errorf("shortened result = %.200s, %v", big.Result, err)
	}
	if s := got.ToolCalls[1]; s.ResultTruncated || string(s.Result) != string(small) {
		t.Errorf("small result changed: %+v", s)
	}
	// A result that is not a CallToolResult is shortened as text.
	odd := ToolCall{ID: "odd", Status: ToolCallDone, Result: json.RawMessage(`"` + strings.Repeat("z", MaxToolResultBytes) + `"`)}
	if out := shortenResult(odd); !out.ResultTruncated || !json.Valid(out.Result) {
		t.Errorf("odd result: %+v", out.ResultTruncated)
	}
}

func TestRecoverInterrupted(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	c := newConversation(t, st, "crash")
	done := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Content: "fine"})
	half := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Status: MessageStreaming, Content: "half", ToolCalls: []ToolCall{
		{ID: "1", Status: ToolCallRunning}, {ID: "2", Status: ToolCallDone}, {ID: "3", Status: ToolCallPending},
	}})
	n, err := st.RecoverInterrupted(ctx)
	if err != nil || n != 1 {
		t.Fatalf("RecoverInterrupted = %d, %v", n, err)
	}
	got, _ := st.GetMessage(ctx, half.ID)
	if got.Status != MessageInterrupted || got.Content != "half" {
		t.Errorf("half = %+v", got)
	}
	for i, want := range []ToolCallStatus{ToolCallCancelled, ToolCallDone, ToolCallCancelled} {
		if got.ToolCalls[i].Status != want {
			t.Errorf("call %d status %s, want %s", i, got.ToolCalls[i].Status, want)
		}
	}
	if got, _ := st.GetMessage(ctx, done.ID); got.Status != MessageComplete {
		t.Errorf("complete message changed: %+v", got)
	}
	if n, _ := st.RecoverInterrupted(ctx); n != 0 {
		t.Errorf("second run changed %d", n)
	}
}

func TestConversationsSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	st, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := st.CreateConversation(ctx, "persist", testSettings())
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.AppendMessage(ctx, Message{ConversationID: c.ID, Role: RoleUser, Content: "remember 数据库连接 please",
		Usage: &TokenUsage{PromptTokens: 1}})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()

	st2 := openTest(t, dir)
	got, err := st2.GetConversation(ctx, c.ID)
	if err != nil || !reflect.DeepEqual(got.Settings, testSettings()) || !got.CreatedAt.Equal(c.CreatedAt) {
		t.Errorf("conversation after reopen = %+v, %v", got, err)
	}
	msgs, err := st2.Messages(ctx, c.ID)
	if err != nil || len(msgs) != 1 || msgs[0].Content != m.Content || msgs[0].Usage.PromptTokens != 1 {
		t.Errorf("messages after reopen = %+v, %v", msgs, err)
	}
	for _, q := range []string{"数据库", "remember", "em"} {
		if hits, err := st2.SearchMessages(ctx, q, 5); err != nil || len(hits) != 1 || hits[0].MessageID != m.ID {
			t.Errorf("search %q after reopen = %+v, %v", q, hits, err)
		}
	}
	checkFTS(t, st2)
}

func TestConversationsHonourContext(t *testing.T) {
	st := openTest(t, t.TempDir())
	c := newConversation(t, st, "ctx")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := st.AppendMessage(ctx, Message{ConversationID: c.ID, Role: RoleUser}); !errors.Is(err, context.Canceled) {
		t.Errorf("AppendMessage = %v, want context.Canceled", err)
	}
	if _, err := st.SearchMessages(ctx, "anything", 5); !errors.Is(err, context.Canceled) {
		t.Errorf("SearchMessages = %v, want context.Canceled", err)
	}
	if _, err := st.ListConversations(ctx, 5, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("ListConversations = %v, want context.Canceled", err)
	}
}

func TestSQLiteHasTrigramFTS5(t *testing.T) {
	st := openTest(t, t.TempDir())
	var v string
	st.DB().Raw(`SELECT sqlite_version()`).Scan(&v)
	if !versionAtLeast(v, 3, 34) {
		t.Errorf("bundled SQLite %s predates the trigram tokenizer", v)
	}
	for _, tt := range []struct {
		v    string
		want bool
	}{{"3.46.1", true}, {"3.34.0", true}, {"3.33.9", false}, {"4.0.0", true}, {"2.99", false}, {"junk", false}} {
		if got := versionAtLeast(tt.v, 3, 34); got != tt.want {
			t.Errorf("versionAtLeast(%q) = %v", tt.v, got)
		}
	}
	if !strings.Contains(ErrNoFTS5.Error(), "-tags sqlite_fts5") {
		t.Errorf("ErrNoFTS5 = %q", ErrNoFTS5)
	}
}

// An Apps SDK widget's state is JSON kept with its tool call: set,
// replaced, kept by the turn's later update, refused when not JSON or too
// long, cleared with "".
func TestWidgetStateOfAToolCall(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	c := newConversation(t, st, "widgets")
	other := newConversation(t, st, "other")
	call := ToolCall{ID: "call_1", Name: "apps__show_board", Arguments: `{}`, Server: "apps", Tool: "show_board", Status: ToolCallRunning, ViewURI: "ui://widget/board.html"}
	asst := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Status: MessageStreaming, ToolCalls: []ToolCall{call}})
	for _, s := range []string{`{"picked":"alpha"}`, `{"picked":"beta"}`} {
		if err := st.SetWidgetState(ctx, c.ID, asst.ID, "call_1", s); err != nil {
			t.Fatal(err)
		}
	}
	call.Status = ToolCallDone
	m, err := st.UpdateToolCall(ctx, asst.ID, call)
	if err != nil || m.ToolCalls[0].WidgetState != `{"picked":"beta"}` {
		t.Fatalf("after the turn's update: %+v %v", m.ToolCalls, err)
	}
	for _, bad := range []string{"not json", `{"a":`, `"` + strings.Repeat("x", MaxViewContext) + `"`} {
		if err := st.SetWidgetState(ctx, c.ID, asst.ID, "call_1", bad); !errors.Is(err, ErrWidgetState) {
			t.Errorf("state %.20q: %v", bad, err)
		}
	}
	if err := st.SetWidgetState(ctx, other.ID, asst.ID, "call_1", `{}`); !errors.Is(err, ErrMessageNotFound) {
		t.Errorf("from another conversation: %v", err)
	}
	if err := st.SetWidgetState(ctx, c.ID, asst.ID, "call_1", ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.GetMessage(ctx, asst.ID); got.ToolCalls[0].WidgetState != "" {
		t.Errorf("cleared state is %q", got.ToolCalls[0].WidgetState)
	}
}

// A view's storage is a JSON object of strings kept with its tool call,
// kept by the turn's later update, refused when malformed or too large.
func TestViewStorageOfAToolCall(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	c := newConversation(t, st, "storage")
	call := ToolCall{ID: "call_1", Name: "apps__show", Arguments: `{}`, Server: "apps", Tool: "show", Status: ToolCallRunning, ViewURI: "ui://a/v"}
	asst := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Status: MessageStreaming, ToolCalls: []ToolCall{call}})
	if err := st.SetViewStorage(ctx, c.ID, asst.ID, "call_1", `{"note":"count 3"}`); err != nil {
		t.Fatal(err)
	}
	call.Status = ToolCallDone
	if m, err := st.UpdateToolCall(ctx, asst.ID, call); err != nil || m.ToolCalls[0].ViewStorage != `{"note":"count 3"}` {
		t.Fatalf("after the turn's update: %+v %v", m.ToolCalls, err)
	}
	for _, bad := range []string{`[]`, `{"a":1}`, `null`, `{"a":"` + strings.Repeat("x", MaxViewStorage) + `"}`} {
		if err := st.SetViewStorage(ctx, c.ID, asst.ID, "call_1", bad); !errors.Is(err, ErrViewStorage) {
			t.Errorf("storage %.20q: %v", bad, err)
		}
	}
}

// A view's context belongs to its tool call: SetViewContext replaces it,
// a later UpdateToolCall of the running call keeps it, another
// conversation cannot set it, and a long one is cut.
func TestViewContextOfAToolCall(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	c := newConversation(t, st, "views")
	other := newConversation(t, st, "other")
	asst := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Status: MessageStreaming,
		ToolCalls: []ToolCall{{ID: "call_1", Name: "apps__show", Arguments: `{}`, Server: "apps", Tool: "show", Status: ToolCallRunning, ViewURI: "ui://a/v"}}})
	if err := st.SetViewContext(ctx, c.ID, asst.ID, "call_1", "seen 3"); err != nil {
		t.Fatal(err)
	}
	// The turn finishes the call without knowing of the context.
	done := ToolCall{ID: "call_1", Name: "apps__show", Arguments: `{}`, Server: "apps", Tool: "show", Status: ToolCallDone, ViewURI: "ui://a/v"}
	m, err := st.UpdateToolCall(ctx, asst.ID, done)
	if err != nil || m.ToolCalls[0].ViewContext != "seen 3" || m.ToolCalls[0].Status != ToolCallDone {
		t.Fatalf("after the turn's update: %+v %v", m.ToolCalls, err)
	}
	if err := st.SetViewContext(ctx, other.ID, asst.ID, "call_1", "x"); !errors.Is(err, ErrMessageNotFound) {
		t.Errorf("from another conversation: %v", err)
	}
	if err := st.SetViewContext(ctx, c.ID, asst.ID, "call_9", "x"); !errors.Is(err, ErrToolCallNotFound) {
		t.Errorf("unknown call: %v", err)
	}
	if err := st.SetViewContext(ctx, c.ID, asst.ID, "call_1", strings.Repeat("é", MaxViewContext)); err != nil {
		t.Fatal(err)
	}
	got, err := st.GetMessage(ctx, asst.ID)
	if err != nil {
		t.Fatal(err)
	}
	vc := got.ToolCalls[0].ViewContext
	if len(vc) > MaxViewContext+64 || !strings.HasSuffix(vc, "[cut: the view gave more than 16 KB]") || !utf8.ValidString(vc) {
		t.Errorf("a long context is %d bytes, valid %v", len(vc), utf8.ValidString(vc))
	}
}
