package chat

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
)

// TestKeyNeverLeaves runs a successful turn with a tool call under a
// provider key, then looks for the key everywhere it must never be: every
// event sent to the frontend, every value the bound service returns, the
// JSON-RPC log, both exports, the log, and the database files on disk.
func TestKeyNeverLeaves(t *testing.T) {
	var logBuf bytes.Buffer
	en := newEnv(t, envConfig{key: testKey, servers: []mcpconfig.Server{testServer("ours")}, engine: func(o *Options) {
		o.Logger = slog.New(slog.NewTextHandler(&logBuf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}})
	en.llm.RequireKey(testKey)
	en.llm.Script(
		llmtest.ToolTurn(llmtest.ToolCall{ID: "call_0", Name: "ours__echo", Arguments: `{"message":"hello"}`}),
		llmtest.TextTurn("The server said hello."),
	)
	conv := en.newConv(nil)
	en.allow("server", "ours", "")
	res := en.send(conv.ID, "say hello through the tool")
	if d := en.done(res.TurnID); d.Reason != DoneStop {
		t.Fatalf("done = %+v\n%s", d, en.rec.dump())
	}
	if c := callOf(t, en.messages(conv.ID), "call_0"); c.Status != store.ToolCallDone {
		t.Fatalf("the tool call did not run: %+v", c)
	}
	// The key did reach the provider, so the check below means something.
	if got := en.llm.LastRequest().Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Fatalf("the provider got %q", got)
	}

	check := func(where string, b []byte) {
		t.Helper()
		if bytes.Contains(b, []byte(testKey)) || bytes.Contains(b, []byte("LEAKCHECK")) {
			t.Errorf("the key leaked into %s", where)
		}
	}
	for _, e := range en.rec.all() {
		b, _ := json.Marshal(e.payload)
		check("event "+string(e.name), b)
	}
	svc := NewService(en.e, nil)
	view, err := svc.Conversation(conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	list, _ := svc.ListConversations(10, 0)
	hits, _ := svc.Search("hello", 10)
	for where, v := range map[string]any{"Conversation": view, "ListConversations": list, "Search": hits} {
		b, _ := json.Marshal(v)
		check("ChatService."+where, b)
	}
	for _, e := range en.pool.Log().Entries() {
		check("the JSON-RPC log ("+e.Method+")", []byte(e.Payload))
	}
	for _, f := range []ExportFormat{ExportMarkdown, ExportJSON} {
		out, err := svc.Export(conv.ID, f)
		if err != nil {
			t.Fatal(err)
		}
		check("the "+string(f)+" export", []byte(out))
	}
	check("the log", logBuf.Bytes())
	if logBuf.Len() == 0 {
		t.Error("nothing was logged: the log check proves nothing")
	}
	for _, f := range []string{store.DBFileName, store.DBFileName + "-wal", store.DBFileName + "-shm"} {
		b, err := os.ReadFile(filepath.Join(en.dir, f))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		check(f, b)
	}
	if !strings.Contains(lastAssistant(t, en.messages(conv.ID)).Content, "hello") {
		t.Fatal("the answer is missing")
	}
}
