package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
)

// contents lists the visible path as "role:content" strings.
func contents(t *testing.T, st *Store, convID int64) []string {
	t.Helper()
	msgs, err := st.Messages(context.Background(), convID)
	if err != nil {
		t.Fatalf("Messages: %v", err)
	}
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = string(m.Role) + ":" + m.Content
	}
	return out
}

func sameList(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// versionsFixture is a conversation where the answer to "q1" has two
// versions, and version 1 was followed by a second question "q2":
//
//	q1 ─┬─ v1: a1 (tool call + result), q2 ── a3
//	    └─ v2: a2 (stopped)
type versionsFixture struct {
	conv          int64
	q1, a1, tool1 Message
	a2, q2, a3    Message
	dir           string
	st            *Store
}

func newVersionsFixture(t *testing.T) versionsFixture {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st := openTest(t, dir)
	c := newConversation(t, st, "versions")
	f := versionsFixture{conv: c.ID, dir: dir, st: st}
	f.q1 = appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleUser, Content: "q1"})
	f.a1 = appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Content: "first answer zebra",
		ToolCalls: []ToolCall{{ID: "call_1", Name: "fs__read", Arguments: `{"p":"x"}`, Status: ToolCallDone,
			Result: json.RawMessage(`{"content":[{"type":"text","text":"file text"}]}`)}}})
	f.tool1 = appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleTool, ToolCallID: "call_1", Content: "file text"})
	u, err := st.BeginVersion(ctx, c.ID, f.q1.ID)
	if err != nil {
		t.Fatalf("BeginVersion: %v", err)
	}
	if u.SelectedVersion != 2 || u.Versions != 2 {
		t.Fatalf("after BeginVersion: selected %d of %d, want 2 of 2", u.SelectedVersion, u.Versions)
	}
	f.a2 = appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Content: "second answer okapi",
		Status: MessageInterrupted})
	if err := st.SelectVersion(ctx, c.ID, f.q1.ID, 1); err != nil {
		t.Fatalf("SelectVersion 1: %v", err)
	}
	f.q2 = appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleUser, Content: "q2"})
	f.a3 = appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Content: "third answer lemur"})
	return f
}

func TestAnswerVersionsFollowTheSelection(t *testing.T) {
	f := newVersionsFixture(t)
	ctx := context.Background()
	outer := t
	cases := []struct {
		name string
		sel  int
		want []string
	}{
		{"version 1 and what followed it", 1, []string{"user:q1", "assistant:first answer zebra", "tool:file text", "user:q2", "assistant:third answer lemur"}},
		{"version 2 without version 1's continuation", 2, []string{"user:q1", "assistant:second answer okapi"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := f.st.SelectVersion(ctx, f.conv, f.q1.ID, tc.sel); err != nil {
				t.Fatal(err)
			}
			if got := contents(t, f.st, f.conv); !sameList(got, tc.want) {
				t.Errorf("visible = %q, want %q", got, tc.want)
			}
			msgs, _ := f.st.Messages(ctx, f.conv)
			if q := msgs[0]; q.Versions != 2 || q.SelectedVersion != tc.sel {
				t.Errorf("q1 shows version %d of %d, want %d of 2", q.SelectedVersion, q.Versions, tc.sel)
			}
			// The choice is stored: a new connection sees it.
			f.st.Close()
			f.st = openTest(outer, f.dir)
			if got := contents(t, f.st, f.conv); !sameList(got, tc.want) {
				t.Errorf("after reopening: visible = %q, want %q", got, tc.want)
			}
		})
	}

	all, err := f.st.AllMessages(ctx, f.conv)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 6 {
		t.Errorf("AllMessages returned %d messages, want all 6", len(all))
	}
	for _, m := range all {
		if m.ID == f.a2.ID && (m.VersionGroup != f.q1.ID || m.Version != 2 || m.Status != MessageInterrupted) {
			t.Errorf("a2 = group %d version %d status %s, want group %d version 2 interrupted", m.VersionGroup, m.Version, m.Status, f.q1.ID)
		}
		if m.ID == f.q2.ID && (m.VersionGroup != f.q1.ID || m.Version != 1) {
			t.Errorf("q2 = group %d version %d, want version 1 of q1's answer", m.VersionGroup, m.Version)
		}
	}
}

func TestAppendGoesToTheSelectedVersion(t *testing.T) {
	f := newVersionsFixture(t)
	ctx := context.Background()
	if err := f.st.SelectVersion(ctx, f.conv, f.q1.ID, 2); err != nil {
		t.Fatal(err)
	}
	// The person goes on from version 2: the new turn belongs to it.
	q3 := appendMsg(t, f.st, Message{ConversationID: f.conv, Role: RoleUser, Content: "q3"})
	if q3.VersionGroup != f.q1.ID || q3.Version != 2 {
		t.Errorf("q3 = group %d version %d, want version 2 of q1's answer", q3.VersionGroup, q3.Version)
	}
	want := []string{"user:q1", "assistant:second answer okapi", "user:q3"}
	if got := contents(t, f.st, f.conv); !sameList(got, want) {
		t.Errorf("visible = %q, want %q", got, want)
	}
	// A new version can only be started for the latest question on the path.
	if _, err := f.st.BeginVersion(ctx, f.conv, f.q1.ID); !errors.Is(err, ErrMessageNotFound) {
		t.Errorf("BeginVersion of an older question: %v, want ErrMessageNotFound", err)
	}
	u, err := f.st.BeginVersion(ctx, f.conv, q3.ID)
	if err != nil {
		t.Fatal(err)
	}
	// q3 had no answer yet: its first answer is version 1.
	if u.SelectedVersion != 1 {
		t.Errorf("first answer of q3 is version %d, want 1", u.SelectedVersion)
	}
}

func TestSelectVersionRejectsWhatDoesNotExist(t *testing.T) {
	f := newVersionsFixture(t)
	ctx := context.Background()
	cases := []struct {
		name    string
		conv    int64
		msg     int64
		version int
		want    error
	}{
		{"no version 3", f.conv, f.q1.ID, 3, ErrVersionNotFound},
		{"version 0", f.conv, f.q1.ID, 0, ErrVersionNotFound},
		{"not a user message", f.conv, f.a1.ID, 1, ErrMessageNotFound},
		{"another conversation", f.conv + 1, f.q1.ID, 1, ErrMessageNotFound},
		{"no such message", f.conv, 99999, 1, ErrMessageNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := f.st.SelectVersion(ctx, tc.conv, tc.msg, tc.version); !errors.Is(err, tc.want) {
				t.Errorf("SelectVersion = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestSearchFindsEveryVersionAndRevealOpensIt(t *testing.T) {
	f := newVersionsFixture(t)
	ctx := context.Background()
	cases := []struct {
		name     string
		selected int    // version of q1's answer shown before the search
		query    string // text only in a version not shown
		hit      int64
		version  [2]int // the hit's version and how many its answer has
		want     []string
	}{
		{"stopped version 2 while 1 is shown", 1, "okapi", f.a2.ID, [2]int{2, 2},
			[]string{"user:q1", "assistant:second answer okapi"}},
		{"version 1 while 2 is shown", 2, "zebra", f.a1.ID, [2]int{1, 2},
			[]string{"user:q1", "assistant:first answer zebra", "tool:file text", "user:q2", "assistant:third answer lemur"}},
		{"a later turn of version 1 while 2 is shown", 2, "lemur", f.a3.ID, [2]int{1, 1},
			[]string{"user:q1", "assistant:first answer zebra", "tool:file text", "user:q2", "assistant:third answer lemur"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := f.st.SelectVersion(ctx, f.conv, f.q1.ID, tc.selected); err != nil {
				t.Fatal(err)
			}
			hits, err := f.st.SearchMessages(ctx, tc.query, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) != 1 || hits[0].MessageID != tc.hit {
				t.Fatalf("search %q = %+v, want message %d", tc.query, hits, tc.hit)
			}
			if got := [2]int{hits[0].Version, hits[0].Versions}; got != tc.version {
				t.Errorf("search %q: version %d of %d, want %d of %d", tc.query, got[0], got[1], tc.version[0], tc.version[1])
			}
			if err := f.st.RevealMessage(ctx, f.conv, hits[0].MessageID); err != nil {
				t.Fatal(err)
			}
			if got := contents(t, f.st, f.conv); !sameList(got, tc.want) {
				t.Errorf("after opening the hit: visible = %q, want %q", got, tc.want)
			}
		})
	}
	if err := f.st.RevealMessage(ctx, f.conv+1, f.a1.ID); !errors.Is(err, ErrMessageNotFound) {
		t.Errorf("RevealMessage in another conversation = %v, want ErrMessageNotFound", err)
	}
	checkFTS(t, f.st)
}

func TestDeleteMessagesAfterKeepsOtherVersions(t *testing.T) {
	cases := []struct {
		name    string
		anchor  func(f versionsFixture) int64
		deleted int64
		// all lists every message left, versions not shown included.
		all []string
	}{
		{"edit q2: only its answer goes", func(f versionsFixture) int64 { return f.q2.ID }, 1,
			[]string{"q1", "first answer zebra", "file text", "second answer okapi", "q2"}},
		{"retry a1's call: the rest of version 1 goes, version 2 stays", func(f versionsFixture) int64 { return f.a1.ID }, 3,
			[]string{"q1", "first answer zebra", "second answer okapi"}},
		{"edit q1: every version of its answer goes", func(f versionsFixture) int64 { return f.q1.ID }, 5,
			[]string{"q1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newVersionsFixture(t)
			ctx := context.Background()
			n, err := f.st.DeleteMessagesAfter(ctx, f.conv, tc.anchor(f))
			if err != nil {
				t.Fatal(err)
			}
			if n != tc.deleted {
				t.Errorf("deleted %d, want %d", n, tc.deleted)
			}
			all, _ := f.st.AllMessages(ctx, f.conv)
			var got []string
			for _, m := range all {
				got = append(got, m.Content)
			}
			if !sameList(got, tc.all) {
				t.Errorf("left %q, want %q", got, tc.all)
			}
			checkFTS(t, f.st)
		})
	}
}

// TestMigrationGivesOldConversationsOneVersion opens a database written
// before answer versions (schema 8) and checks that its linear history is
// version 1 of each answer, and that a regenerate then keeps it.
func TestMigrationGivesOldConversationsOneVersion(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	path := filepath.Join(dir, DBFileName)
	dsn, err := buildDSN(path)
	if err != nil {
		t.Fatal(err)
	}
	old, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, old, path, migrations[:8]); err != nil {
		t.Fatalf("migrate to 8: %v", err)
	}
	ts := time.Now().UTC()
	if err := old.Exec(`INSERT INTO conversations (id, title, provider, model, created_at, updated_at) VALUES (1, 'old', 'p', 'm', ?, ?)`, ts, ts).Error; err != nil {
		t.Fatal(err)
	}
	for i, m := range []struct{ role, content string }{
		{"user", "old q1"}, {"assistant", "old a1"}, {"user", "old q2"}, {"assistant", "old a2"}, {"tool", "old result"},
	} {
		callID := ""
		if m.role == "tool" {
			callID = "c1"
		}
		if err := old.Exec(`INSERT INTO messages (conversation_id, seq, role, content, tool_call_id, created_at, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?)`,
			i+1, m.role, m.content, callID, ts, ts).Error; err != nil {
			t.Fatal(err)
		}
	}
	sqlDB, _ := old.DB()
	sqlDB.Close()

	st := openTest(t, dir)
	if v, _ := st.SchemaVersion(ctx); v != len(migrations) {
		t.Fatalf("schema %d after Open, want %d", v, len(migrations))
	}
	want := []string{"user:old q1", "assistant:old a1", "user:old q2", "assistant:old a2", "tool:old result"}
	if got := contents(t, st, 1); !sameList(got, want) {
		t.Fatalf("migrated conversation = %q, want %q", got, want)
	}
	msgs, _ := st.Messages(ctx, 1)
	groups := []int64{0, msgs[0].ID, msgs[0].ID, msgs[2].ID, msgs[2].ID}
	for i, m := range msgs {
		if m.VersionGroup != groups[i] || m.Version != 1 {
			t.Errorf("%s %q: group %d version %d, want group %d version 1", m.Role, m.Content, m.VersionGroup, m.Version, groups[i])
		}
	}
	if _, err := st.BeginVersion(ctx, 1, msgs[2].ID); err != nil {
		t.Fatalf("regenerate after migration: %v", err)
	}
	appendMsg(t, st, Message{ConversationID: 1, Role: RoleAssistant, Content: "new a2"})
	if got := contents(t, st, 1); !sameList(got, []string{"user:old q1", "assistant:old a1", "user:old q2", "assistant:new a2"}) {
		t.Errorf("after regenerate = %q", got)
	}
	if err := st.SelectVersion(ctx, 1, msgs[2].ID, 1); err != nil {
		t.Fatal(err)
	}
	if got := contents(t, st, 1); !sameList(got, want) {
		t.Errorf("old version after regenerate = %q, want %q", got, want)
	}
	checkFTS(t, st)
}

func TestExportsCarryEveryVersion(t *testing.T) {
	f := newVersionsFixture(t)
	ctx := context.Background()
	md, err := f.st.ExportMarkdown(ctx, f.conv)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"**Answer version 1 of 2** (selected)", "first answer zebra", "fs__read", "file text", "third answer lemur",
		"**Answer version 2 of 2** (stopped)", "second answer okapi",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown export lacks %q:\n%s", want, md)
		}
	}
	if i, j := strings.Index(md, "Answer version 1 of 2"), strings.Index(md, "Answer version 2 of 2"); i < 0 || j < i {
		t.Errorf("versions out of order in the Markdown export")
	}

	b, err := f.st.ExportJSON(ctx, f.conv)
	if err != nil {
		t.Fatal(err)
	}
	var doc ConversationExport
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Messages) != 6 {
		t.Fatalf("JSON export has %d messages, want all 6 of both versions", len(doc.Messages))
	}
	q1 := doc.Messages[0]
	if q1.SelectedVersion != 1 || q1.Versions != 2 {
		t.Errorf("JSON q1 selects %d of %d, want 1 of 2", q1.SelectedVersion, q1.Versions)
	}
	for _, m := range doc.Messages {
		if m.Content == "second answer okapi" && (m.Version != 2 || m.VersionGroup != q1.ID) {
			t.Errorf("JSON a2 = group %d version %d, want version 2 of %d", m.VersionGroup, m.Version, q1.ID)
		}
	}
	if !strings.Contains(string(b), `"selectedVersion": 1`) || !strings.Contains(string(b), `"version": 2`) {
		t.Errorf("JSON export does not name the versions:\n%s", b)
	}
}

// BenchmarkAppendAtDepth measures AppendMessage, which follows the selected
// versions from the first question to the latest (one index lookup per
// turn), and Messages, which filters the path, in conversations of 10 and
// 1,000 turns.
func BenchmarkAppendAtDepth(b *testing.B) {
	for _, turns := range []int{10, 1000} {
		b.Run(fmt.Sprintf("turns=%d", turns), func(b *testing.B) {
			st, err := Open(b.TempDir(), nil)
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			ctx := context.Background()
			c, err := st.CreateConversation(ctx, "deep", ConversationSettings{Provider: "p", Model: "m"})
			if err != nil {
				b.Fatal(err)
			}
			for i := range turns {
				for _, role := range []Role{RoleUser, RoleAssistant} {
					if _, err := st.AppendMessage(ctx, Message{ConversationID: c.ID, Role: role, Content: fmt.Sprintf("%s %d", role, i)}); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.Run("append", func(b *testing.B) {
				for b.Loop() {
					if _, err := st.AppendMessage(ctx, Message{ConversationID: c.ID, Role: RoleAssistant, Content: "more"}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("messages", func(b *testing.B) {
				for b.Loop() {
					if _, err := st.Messages(ctx, c.ID); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

func TestPreviewFollowsTheVersionShown(t *testing.T) {
	ctx := context.Background()
	st := openTest(t, t.TempDir())
	c := newConversation(t, st, "preview")
	q := appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleUser, Content: "question"})
	appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Content: "kept answer"})
	if _, err := st.BeginVersion(ctx, c.ID, q.ID); err != nil {
		t.Fatal(err)
	}
	appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleAssistant, Content: "newer answer"})
	for _, tc := range []struct {
		version int
		want    string
	}{{2, "newer answer"}, {1, "kept answer"}} {
		if err := st.SelectVersion(ctx, c.ID, q.ID, tc.version); err != nil {
			t.Fatal(err)
		}
		list, err := st.ListConversations(ctx, 10, 0)
		if err != nil {
			t.Fatal(err)
		}
		if list[0].Preview != tc.want {
			t.Errorf("version %d shown: preview %q, want %q", tc.version, list[0].Preview, tc.want)
		}
	}
}

// BenchmarkMigrateAnswerVersions times migration 9 on a database of 100,000
// messages in 1,000 conversations written before answer versions.
func BenchmarkMigrateAnswerVersions(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		path := filepath.Join(dir, DBFileName)
		dsn, err := buildDSN(path)
		if err != nil {
			b.Fatal(err)
		}
		old, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{})
		if err != nil {
			b.Fatal(err)
		}
		if err := migrate(ctx, old, path, migrations[:8]); err != nil {
			b.Fatal(err)
		}
		ts := time.Now().UTC()
		err = old.Transaction(func(tx *gorm.DB) error {
			for c := 1; c <= 1000; c++ {
				if err := tx.Exec(`INSERT INTO conversations (id, title, provider, model, created_at, updated_at) VALUES (?, 't', 'p', 'm', ?, ?)`, c, ts, ts).Error; err != nil {
					return err
				}
				for i := 1; i <= 100; i++ {
					role := "user"
					if i%2 == 0 {
						role = "assistant"
					}
					if err := tx.Exec(`INSERT INTO messages (conversation_id, seq, role, content, created_at, updated_at) VALUES (?, ?, ?, 'text', ?, ?)`, c, i, role, ts, ts).Error; err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		sqlDB, _ := old.DB()
		sqlDB.Close()
		b.StartTimer()
		st, err := Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		st.Close()
		b.StartTimer()
	}
}

// A user's message and its reply's row appended in one commit are stored as
// two appends would store them: the reply answers the message, on the
// version the person is on, and a new conversation takes its title.
func TestAppendMessagesAsOneCommit(t *testing.T) {
	f := newVersionsFixture(t)
	ctx := context.Background()
	if err := f.st.SelectVersion(ctx, f.conv, f.q1.ID, 2); err != nil {
		t.Fatal(err)
	}
	out, err := f.st.AppendMessages(ctx, "ignored: the conversation has a title",
		Message{ConversationID: f.conv, Role: RoleUser, Content: "q3"},
		Message{ConversationID: f.conv, Role: RoleAssistant, Status: MessageStreaming, Model: "p/m"})
	if err != nil {
		t.Fatal(err)
	}
	q3, a := out[0], out[1]
	if q3.VersionGroup != f.q1.ID || q3.Version != 2 {
		t.Errorf("q3 = group %d version %d, want version 2 of q1's answer", q3.VersionGroup, q3.Version)
	}
	if a.VersionGroup != q3.ID || a.Version != 1 || a.Seq != q3.Seq+1 || a.Status != MessageStreaming {
		t.Errorf("reply = group %d version %d seq %d status %s, want version 1 of q3's answer (%d) at seq %d, streaming",
			a.VersionGroup, a.Version, a.Seq, a.Status, q3.ID, q3.Seq+1)
	}
	want := []string{"user:q1", "assistant:second answer okapi", "user:q3", "assistant:"}
	if got := contents(t, f.st, f.conv); !sameList(got, want) {
		t.Errorf("visible = %q, want %q", got, want)
	}
	c, err := f.st.GetConversation(ctx, f.conv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Title == "ignored: the conversation has a title" {
		t.Errorf("a conversation with a title was renamed")
	}

	// A new conversation is named by its first message, in the same commit.
	fresh, err := f.st.CreateConversation(ctx, "", ConversationSettings{Provider: "ollama", Model: "llama3"})
	if err != nil {
		t.Fatal(err)
	}
	out, err = f.st.AppendMessages(ctx, "first question",
		Message{ConversationID: fresh.ID, Role: RoleUser, Content: "first question"},
		Message{ConversationID: fresh.ID, Role: RoleAssistant, Status: MessageStreaming})
	if err != nil {
		t.Fatal(err)
	}
	if out[0].VersionGroup != 0 || out[1].VersionGroup != out[0].ID {
		t.Errorf("first exchange: user group %d, reply group %d, want 0 and %d", out[0].VersionGroup, out[1].VersionGroup, out[0].ID)
	}
	if c, err := f.st.GetConversation(ctx, fresh.ID); err != nil || c.Title != "first question" {
		t.Errorf("new conversation's title = %q (%v), want %q", c.Title, err, "first question")
	}

	// Nothing is written when one message is refused.
	before := contents(t, f.st, fresh.ID)
	if _, err := f.st.AppendMessages(ctx, "",
		Message{ConversationID: fresh.ID, Role: RoleUser, Content: "q"},
		Message{ConversationID: fresh.ID, Role: "robot"}); err == nil {
		t.Error("a message with an unknown role was appended")
	}
	if _, err := f.st.AppendMessages(ctx, "",
		Message{ConversationID: fresh.ID, Role: RoleUser, Content: "q"},
		Message{ConversationID: f.conv, Role: RoleAssistant}); err == nil {
		t.Error("messages of two conversations were appended together")
	}
	if got := contents(t, f.st, fresh.ID); !sameList(got, before) {
		t.Errorf("after refused appends: visible = %q, want %q", got, before)
	}
}
