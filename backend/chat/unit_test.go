package chat

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/store"
)

func TestCoalescer(t *testing.T) {
	rec := newRecorder()
	tr := &turn{id: "turn-1", conv: 7}
	c := newCoalescer(rec, tr, 3, time.Hour)
	c.add("a", "")
	c.add("b", "r")
	c.add("c", "")
	if n := len(rec.all()); n != 1 {
		t.Fatalf("%d events after three adds within the interval; want the first at once", n)
	}
	c.flush()
	c.add("d", "")
	c.close()
	c.add("dropped", "")
	var text, reasoning strings.Builder
	for _, e := range rec.all() {
		d := e.payload.(events.ChatDeltaPayload)
		if d.ConversationID != 7 || d.TurnID != "turn-1" || d.MessageID != 3 {
			t.Errorf("delta %+v", d)
		}
		text.WriteString(d.Text)
		reasoning.WriteString(d.Reasoning)
	}
	if text.String() != "abcd" || reasoning.String() != "r" || len(rec.all()) != 3 {
		t.Errorf("text %q reasoning %q in %d events", text.String(), reasoning.String(), len(rec.all()))
	}
}

// Deltas added while the timer flushes are never lost or reordered.
func TestCoalescerConcurrentTimer(t *testing.T) {
	rec := newRecorder()
	c := newCoalescer(rec, &turn{id: "t"}, 1, time.Microsecond)
	var want strings.Builder
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; i < 2000; i++ {
			s := string(rune('a' + i%26))
			want.WriteString(s)
			c.add(s, "")
		}
	})
	wg.Wait()
	c.close()
	var got strings.Builder
	for _, e := range rec.all() {
		got.WriteString(e.payload.(events.ChatDeltaPayload).Text)
	}
	if got.String() != want.String() {
		t.Fatalf("lost or reordered text: %d of %d bytes", got.Len(), want.Len())
	}
}

func TestTitleFrom(t *testing.T) {
	for in, want := range map[string]string{
		"  Hello\n\nworld ":         "Hello world",
		"":                          "",
		strings.Repeat("word ", 30): strings.TrimSpace(strings.Repeat("word ", 12)) + "…",
		strings.Repeat("数", 70):     strings.Repeat("数", 60) + "…",
	} {
		if got := titleFrom(in); got != want {
			t.Errorf("titleFrom(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidateArgs(t *testing.T) {
	e := New(Options{})
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1},"s":{"type":"string","enum":["a","b"]}},"required":["n"],"additionalProperties":false}`)
	for _, tc := range []struct {
		args string
		want []string // substrings of the problem; none when valid
	}{
		{`{"n":2,"s":"a"}`, nil},
		{``, []string{"missing property 'n'"}},
		{`{"n":0,"s":"c","x":1}`, []string{"/n", "minimum", "/s", "additional"}},
		{`[1]`, []string{"must be a JSON object"}},
		{`{"n":`, []string{"not valid JSON"}},
	} {
		args, problem := e.validateArgs(schema, tc.args)
		if tc.want == nil {
			if problem != "" || args["n"] != 2.0 {
				t.Errorf("%s: %q %v", tc.args, problem, args)
			}
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(problem, w) {
				t.Errorf("%s: problem %q lacks %q", tc.args, problem, w)
			}
		}
	}
	// A schema that cannot compile does not block calls.
	if _, problem := e.validateArgs(json.RawMessage(`{"$ref":"https://example.invalid/s.json"}`), `{"a":1}`); problem != "" {
		t.Errorf("uncompilable schema refused the call: %s", problem)
	}
}

func TestToolMessageText(t *testing.T) {
	res := json.RawMessage(`{"content":[{"type":"text","text":"hi"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"resource","resource":{"uri":"test://x","text":"body"}}]}`)
	for _, tc := range []struct {
		c    store.ToolCall
		want string
	}{
		{store.ToolCall{Status: store.ToolCallDone, Result: res}, "hi\n[image image/png shown to the user]\n[resource test://x]\nbody"},
		{store.ToolCall{Status: store.ToolCallDone, Result: json.RawMessage(`{"content":[],"structuredContent":{"sum":3}}`)}, `{"sum":3}`},
		{store.ToolCall{Status: store.ToolCallError, Result: json.RawMessage(`{"content":[{"type":"text","text":"boom"}],"isError":true}`)}, "Error: boom"},
		{store.ToolCall{Status: store.ToolCallError, Error: "timed out"}, "Error: timed out"},
		{store.ToolCall{Status: store.ToolCallDeclined, Approval: store.ApprovalUser}, "declined by user"},
		{store.ToolCall{Status: store.ToolCallCancelled}, "cancelled"},
	} {
		if got := toolMessageText(tc.c); !strings.Contains(got, tc.want) {
			t.Errorf("%+v: %q lacks %q", tc.c, got, tc.want)
		}
	}
}

func TestSamplingContent(t *testing.T) {
	text, imgs := samplingContent(map[string]any{"type": "text", "text": "hello"})
	if text != "hello" || len(imgs) != 0 {
		t.Errorf("%q %v", text, imgs)
	}
	text, imgs = samplingContent([]any{map[string]any{"type": "text", "text": "see"}, map[string]any{"type": "image", "data": "AA", "mimeType": "image/png"}})
	if text != "see" || len(imgs) != 1 || imgs[0].MIMEType != "image/png" {
		t.Errorf("%q %v", text, imgs)
	}
}

// What was shown is kept: the deltas win only when they continue the result.
func TestLongerOf(t *testing.T) {
	for _, c := range []struct{ kept, shown, want string }{
		{"Hello", "Hello, world", "Hello, world"},
		{"Hello, world", "Hello", "Hello, world"},
		{"Hello", "Help", "Hello"},
		{"", "partial", "partial"},
	} {
		if got := longerOf(c.kept, c.shown); got != c.want {
			t.Errorf("longerOf(%q, %q) = %q, want %q", c.kept, c.shown, got, c.want)
		}
	}
}
