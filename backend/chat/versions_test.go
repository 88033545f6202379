package chat

import (
	"errors"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
)

// summary lists messages as "role:content" (tool calls as "role:[calls]").
func summary(msgs []store.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		s := string(m.Role) + ":" + m.Content
		for _, c := range m.ToolCalls {
			s += "[" + c.ID + "]"
		}
		out[i] = s
	}
	return out
}

func equal(a, b []string) bool {
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

// modelSaw lists the role:content of a model request's messages.
func modelSaw(r llmtest.Request) []string {
	var out []string
	for _, m := range r.Messages() {
		role, _ := m["role"].(string)
		content, _ := m["content"].(string)
		out = append(out, role+":"+content)
	}
	return out
}

// Regenerate keeps the answer it replaces; switching back shows it and
// the next turn is built on it.
func TestRegenerateKeepsEveryVersion(t *testing.T) {
	en := newEnv(t, envConfig{})
	en.llm.Script(llmtest.TextTurn("first answer"), llmtest.TextTurn("second answer"), llmtest.TextTurn("follow-up answer"))
	conv := en.newConv(nil)
	en.done(en.send(conv.ID, "question").TurnID)

	res, err := en.e.Regenerate(en.ctx, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if u := res.UserMessage; u.SelectedVersion != 2 || u.Versions != 2 {
		t.Errorf("regenerate answers version %d of %d, want 2 of 2", u.SelectedVersion, u.Versions)
	}
	en.done(res.TurnID)
	if got, want := summary(en.messages(conv.ID)), []string{"user:question", "assistant:second answer"}; !equal(got, want) {
		t.Fatalf("after regenerate: %q, want %q", got, want)
	}
	// The old answer is not in the context of the new one.
	if got, want := modelSaw(en.llm.LastRequest()), []string{"user:question"}; !equal(got, want) {
		t.Errorf("regenerate sent %q, want %q", got, want)
	}

	cases := []struct {
		version int
		want    []string
	}{
		{1, []string{"user:question", "assistant:first answer"}},
		{2, []string{"user:question", "assistant:second answer"}},
		{1, []string{"user:question", "assistant:first answer"}},
	}
	for _, tc := range cases {
		v, err := en.e.SelectVersion(en.ctx, conv.ID, res.UserMessage.ID, tc.version)
		if err != nil {
			t.Fatalf("SelectVersion %d: %v", tc.version, err)
		}
		if got := summary(v.Messages); !equal(got, tc.want) {
			t.Errorf("version %d shows %q, want %q", tc.version, got, tc.want)
		}
		if u := v.Messages[0]; u.SelectedVersion != tc.version || u.Versions != 2 {
			t.Errorf("version %d: the question says %d of %d", tc.version, u.SelectedVersion, u.Versions)
		}
	}

	// Version 1 is selected: the next turn is built on it.
	en.done(en.send(conv.ID, "and then?").TurnID)
	want := []string{"user:question", "assistant:first answer", "user:and then?"}
	if got := modelSaw(en.llm.LastRequest()); !equal(got, want) {
		t.Errorf("the follow-up sent %q, want %q", got, want)
	}
}

// Stop during a regeneration keeps what the new version had streamed, as a
// stopped version, and the versions before stay.
func TestStopDuringRegenerateKeepsBothVersions(t *testing.T) {
	en := newEnv(t, envConfig{})
	en.llm.Script(
		llmtest.TextTurn("the good answer"),
		llmtest.Turn{Text: []string{"half of a", " never sent"}, Delay: time.Hour},
	)
	conv := en.newConv(nil)
	en.done(en.send(conv.ID, "question").TurnID)

	res, err := en.e.Regenerate(en.ctx, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	en.rec.waitFor(t, "first delta of the new version", func(e rec) bool {
		d, ok := e.payload.(events.ChatDeltaPayload)
		return ok && d.TurnID == res.TurnID
	})
	// Switching while the reply is written would redirect it.
	if _, err := en.e.SelectVersion(en.ctx, conv.ID, res.UserMessage.ID, 1); !errors.Is(err, ErrBusy) {
		t.Errorf("SelectVersion during the reply = %v, want ErrBusy", err)
	}
	// Opening a search hit meanwhile opens the conversation as it is.
	first := en.messages(conv.ID)
	v, err := en.e.RevealMessage(en.ctx, conv.ID, first[0].ID)
	if err != nil || v.Running != res.TurnID {
		t.Errorf("RevealMessage during the reply = running %q, %v; want the turn, no error", v.Running, err)
	}
	if err := en.e.Stop(conv.ID); err != nil {
		t.Fatal(err)
	}
	if d := en.done(res.TurnID); d.Reason != DoneCancelled {
		t.Fatalf("done = %+v", d)
	}

	msgs := en.messages(conv.ID)
	if got, want := summary(msgs), []string{"user:question", "assistant:half of a"}; !equal(got, want) {
		t.Fatalf("after stop: %q, want %q", got, want)
	}
	if m := msgs[1]; m.Status != store.MessageInterrupted || m.Version != 2 {
		t.Errorf("stopped reply: status %s version %d, want interrupted version 2", m.Status, m.Version)
	}
	// The search hit in version 1 opens version 1.
	var good int64
	all, _ := en.st.AllMessages(en.ctx, conv.ID)
	for _, m := range all {
		if m.Content == "the good answer" {
			good = m.ID
		}
	}
	v, err = en.e.RevealMessage(en.ctx, conv.ID, good)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(v.Messages), []string{"user:question", "assistant:the good answer"}; !equal(got, want) {
		t.Errorf("version 1 after the stop: %q, want %q", got, want)
	}
	if v.Running != "" {
		t.Errorf("a finished conversation reports turn %q running", v.Running)
	}
	if u := v.Messages[0]; u.Versions != 2 {
		t.Errorf("the question has %d versions, want 2", u.Versions)
	}
	// A new engine over the same file (a restart) still has both.
	en.restart()
	all, err = en.st.AllMessages(en.ctx, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(all), []string{"user:question", "assistant:the good answer", "assistant:half of a"}; !equal(got, want) {
		t.Errorf("after a restart: %q, want %q", got, want)
	}
}

// A version keeps its tool calls and their results; the model gets the
// calls of the version selected.
func TestVersionsKeepTheirToolCalls(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
	en.waitTool("test", "echo")
	en.allow(policyAlways, "test", "echo")
	en.llm.Script(
		llmtest.ToolTurn(llmtest.ToolCall{ID: "e1", Name: "test__echo", Arguments: `{"message":"ping"}`}),
		llmtest.TextTurn("echoed"),
		llmtest.TextTurn("no tools this time"),
		llmtest.TextTurn("built on the tool version"),
	)
	conv := en.newConv(nil)
	en.done(en.send(conv.ID, "echo ping").TurnID)
	withTools := summary(en.messages(conv.ID))
	if want := []string{"user:echo ping", "assistant:[e1]", "tool:", "assistant:echoed"}; len(withTools) != 4 || withTools[1] != want[1] || withTools[3] != want[3] {
		t.Fatalf("first version = %q", withTools)
	}

	res, err := en.e.Regenerate(en.ctx, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	en.done(res.TurnID)
	if got, want := summary(en.messages(conv.ID)), []string{"user:echo ping", "assistant:no tools this time"}; !equal(got, want) {
		t.Fatalf("second version = %q, want %q", got, want)
	}
	v, err := en.e.SelectVersion(en.ctx, conv.ID, res.UserMessage.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(v.Messages); !equal(got, withTools) {
		t.Errorf("version 1 again = %q, want %q", got, withTools)
	}
	if c := callOf(t, v.Messages, "e1"); c.Status != store.ToolCallDone {
		t.Errorf("the call of version 1 is %s, want done", c.Status)
	}
	en.done(en.send(conv.ID, "next").TurnID)
	if out := toolMessage(t, en.llm.LastRequest(), "e1"); out == "" {
		t.Error("the model did not get version 1's tool result")
	}
}
