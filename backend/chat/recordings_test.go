package chat

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
)

// The UI's tests replay what this engine really emits (issue 13): each
// scenario below runs a real turn — real database, real MCP servers as
// subprocesses, the scripted model — and its events, with the user's
// answers in between, are the recording the UI test plays back
// (frontend/src/test/recordings, read by frontend/src/test/replay.ts).
//
//	go test -tags sqlite_fts5 ./backend/chat -run TestRecordings -update
//
// rewrites them; without -update a recording that differs from what the
// engine emits fails, so a change in Go reaches the UI tests.
var update = flag.Bool("update", false, "rewrite the event recordings the UI tests replay")

// recordingsDir is where the UI's tests find the recordings.
var recordingsDir = filepath.Join("..", "..", "frontend", "src", "test", "recordings")

// Recording is one file: what happened, in order.
type Recording struct {
	// Scenario says what the recording shows.
	Scenario string `json:"scenario"`
	// Steps are the user's calls (Call set) and the events that followed
	// (Event set), in order. The first is the Send that started the turn.
	Steps []Step `json:"steps"`
}

// Step is one call of the user or one event of the backend.
type Step struct {
	Call    string          `json:"call,omitempty"`
	Args    json.RawMessage `json:"args,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Event   events.Name     `json:"event,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// tape records one scenario: the user's calls, each placed after the
// events emitted before it.
type tape struct {
	en    *env
	start int
	calls []tapedCall
}

type tapedCall struct {
	at           int // events emitted before the call
	name         string
	args, result any
}

func (en *env) tape() *tape {
	settle(en.rec)
	return &tape{en: en, start: len(en.rec.all())}
}

// do makes a call of the user with args: once the events so far settle,
// the call is noted before what it causes, then fn runs it. Its result
// (nil for none) is what the UI gets back.
func (tp *tape) do(name string, fn func() (any, error), args ...any) any {
	tp.en.t.Helper()
	settle(tp.en.rec)
	at := len(tp.en.rec.all())
	res, err := fn()
	if err != nil {
		tp.en.t.Fatalf("%s: %v", name, err)
	}
	tp.calls = append(tp.calls, tapedCall{at: at, name: name, args: args, result: res})
	return res
}

// send sends text as the user.
func (tp *tape) send(conv int64, text string) SendResult {
	req := SendRequest{ConversationID: conv, Text: text, Attachments: []store.Attachment{}}
	return tp.do("Send", func() (any, error) { return tp.en.e.Send(tp.en.ctx, req) }, req).(SendResult)
}

// settle waits until no event came for a while, so that a call is placed
// after everything its question caused. (For a stable recording only;
// nothing is asserted on time.)
func settle(r *recorder) {
	n := -1
	for n != len(r.all()) {
		n = len(r.all())
		time.Sleep(150 * time.Millisecond)
	}
}

// recorded are the events the UI's chat reacts to.
func recorded(name events.Name) bool {
	return strings.HasPrefix(string(name), "chat:") || name == events.Elicitation || name == events.ElicitationDone
}

// recording builds the Recording: the taped calls among the chat events,
// consecutive deltas of one message merged (the engine coalesces them by
// time), and what differs from run to run replaced by fixed values.
func (tp *tape) recording(scenario string) Recording {
	settle(tp.en.rec)
	all := tp.en.rec.all()
	rec := Recording{Scenario: scenario, Steps: []Step{}}
	calls := tp.calls
	for i := tp.start; i <= len(all); i++ {
		for len(calls) > 0 && calls[0].at == i {
			c := calls[0]
			calls = calls[1:]
			s := Step{Call: c.name, Args: mustJSON(tp.en.t, c.args)}
			if c.result != nil {
				s.Result = mustJSON(tp.en.t, c.result)
			}
			rec.Steps = append(rec.Steps, s)
		}
		if i == len(all) || !recorded(all[i].name) {
			continue
		}
		e := all[i]
		if d, ok := e.payload.(events.ChatDeltaPayload); ok && len(rec.Steps) > 0 {
			last := &rec.Steps[len(rec.Steps)-1]
			var prev events.ChatDeltaPayload
			if last.Event == events.ChatDelta && json.Unmarshal(last.Payload, &prev) == nil && prev.MessageID == d.MessageID {
				prev.Text += d.Text
				prev.Reasoning += d.Reasoning
				last.Payload = mustJSON(tp.en.t, prev)
				continue
			}
		}
		rec.Steps = append(rec.Steps, Step{Event: e.name, Payload: mustJSON(tp.en.t, e.payload)})
	}
	return tp.normalise(rec)
}

func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var (
	timeField     = regexp.MustCompile(`"(createdAt|updatedAt)":"[^"]*"`)
	durationField = regexp.MustCompile(`,"durationMs":\d+`)
	turnID        = regexp.MustCompile(`turn-[0-9a-f]{8,}`)
)

// normalise replaces what differs between runs: times, durations, the
// random turn ids (numbered in order), and the provider's id (the UI's
// tests call their provider "openai").
func (tp *tape) normalise(rec Recording) Recording {
	turns := map[string]string{}
	fix := func(raw json.RawMessage) json.RawMessage {
		if raw == nil {
			return nil
		}
		s := string(raw)
		s = timeField.ReplaceAllString(s, `"$1":"2026-01-02T03:04:05Z"`)
		// A call's duration is left out (as Go does for 0 ms): it differs
		// between runs, and under a millisecond Go leaves it out anyway.
		s = durationField.ReplaceAllString(s, "")
		s = turnID.ReplaceAllStringFunc(s, func(id string) string {
			if _, ok := turns[id]; !ok {
				turns[id] = fmt.Sprintf("turn-%d", len(turns)+1)
			}
			return turns[id]
		})
		s = strings.ReplaceAll(s, tp.en.provider.ID, "openai")
		return json.RawMessage(s)
	}
	for i := range rec.Steps {
		s := &rec.Steps[i]
		s.Args, s.Result, s.Payload = fix(s.Args), fix(s.Result), fix(s.Payload)
	}
	return rec
}

// check compares a recording with its file, or writes it with -update.
func checkRecording(t *testing.T, name string, rec Recording) {
	t.Helper()
	got, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join(recordingsDir, name+".json")
	if *update {
		if err := os.MkdirAll(recordingsDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v; write it with: go test -tags sqlite_fts5 ./backend/chat -run TestRecordings -update", err)
	}
	if !bytes.Equal(got, want) {
		g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		line := func(l []string, i int) string {
			if i < len(l) {
				return l[i]
			}
			return "(end)"
		}
		t.Fatalf("the engine no longer emits what %s holds, which the UI tests replay; "+
			"check the change, then: go test -tags sqlite_fts5 ./backend/chat -run TestRecordings -update\n"+
			"first difference, line %d:\n  recorded: %s\n  now:      %s", path, i+1, line(w, i), line(g, i))
	}
}

func TestRecordings(t *testing.T) {
	t.Run("text-turn", func(t *testing.T) {
		en := newEnv(t, envConfig{})
		en.llm.Script(llmtest.Turn{
			Reasoning: []string{"The user says hello."},
			Text:      []string{"Hello ", "from **Go**."},
			Usage:     &llmtest.Usage{Prompt: 120, Completion: 9},
		})
		conv := en.newConv(nil)
		tp := en.tape()
		res := tp.send(conv.ID, "Hi")
		en.done(res.TurnID)
		checkRecording(t, "text-turn", tp.recording("A reply with reasoning, streamed, with its usage."))
	})

	for _, action := range []string{"run", "cancel"} {
		name := map[string]string{"run": "approval-run", "cancel": "approval-cancel"}[action]
		t.Run(name, func(t *testing.T) {
			en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
			en.waitTool("test", "echo")
			en.llm.Script(
				llmtest.Turn{Text: []string{"Let me echo it."}, ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "test__echo", Arguments: `{"message":"hi"}`}}},
				llmtest.TextTurn(map[string]string{"run": "The tool said hi.", "cancel": "Okay, I will not run it."}[action]),
			)
			conv := en.newConv(nil)
			tp := en.tape()
			res := tp.send(conv.ID, "Echo hi")
			a := en.approval(res.TurnID, "call_1")
			d := ApprovalDecision{Action: action, Policy: "once"} // as the approval card sends it
			tp.do("Approve", func() (any, error) { return nil, en.e.Approve(en.ctx, a.ID, d) }, a.ID, d)
			en.done(res.TurnID)
			checkRecording(t, name, tp.recording("A tool call the user is asked about, answered "+action+"."))
		})
	}

	t.Run("elicitation", func(t *testing.T) {
		en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
		en.waitTool("test", "confirm")
		en.allow(policyAlways, "test", "confirm")
		en.llm.Script(llmtest.ToolTurn(llmtest.ToolCall{ID: "ask", Name: "test__confirm", Arguments: `{"action":"deploy"}`}), llmtest.TextTurn("Deployed."))
		conv := en.newConv(nil)
		tp := en.tape()
		res := tp.send(conv.ID, "Deploy")
		var answered []string
		// The answers as the UI's form sends them: defaults filled in.
		for _, content := range []map[string]any{{"name": "Ada", "team": "core"}, {"sure": true}} {
			e := en.rec.waitFor(t, "elicitation", func(e rec) bool {
				p, ok := e.payload.(events.ElicitationPayload)
				return ok && !contains(answered, p.ID)
			})
			id := e.payload.(events.ElicitationPayload).ID
			answered = append(answered, id)
			tp.do("AnswerElicitation", func() (any, error) { return nil, en.desk.Answer(id, events.ElicitAccept, content) },
				id, events.ElicitAccept, content)
		}
		en.done(res.TurnID)
		checkRecording(t, "elicitation", tp.recording("A tool (always allowed) whose server asks the user two questions during a chat."))
	})

	t.Run("sampling", func(t *testing.T) {
		en := newEnv(t, envConfig{servers: []mcpconfig.Server{everythingServer(t)}})
		en.waitTool("everything", "trigger-sampling-request")
		en.allow(policyAlways, "everything", "trigger-sampling-request")
		en.llm.Script(
			llmtest.ToolTurn(llmtest.ToolCall{ID: "s1", Name: "everything__trigger-sampling-request", Arguments: `{"prompt":"Say hi","maxTokens":50}`}),
			llmtest.TextTurn("Hi from the sampled model"),
			llmtest.TextTurn("The server got its answer."),
		)
		conv := en.newConv(nil)
		tp := en.tape()
		res := tp.send(conv.ID, "Sample")
		e := en.rec.waitFor(t, "chat:sampling", func(e rec) bool { _, ok := e.payload.(events.ChatSamplingPayload); return ok })
		s := e.payload.(events.ChatSamplingPayload)
		a := SamplingAnswer{Approve: true}
		tp.do("AnswerSampling", func() (any, error) { return nil, en.e.AnswerSampling(s.ID, a) }, s.ID, a)
		en.done(res.TurnID)
		checkRecording(t, "sampling", tp.recording("A tool whose server asks the conversation's model (sampling); the user approves."))
	})

	t.Run("auth-error", func(t *testing.T) {
		en := newEnv(t, envConfig{key: "sk-wrong-key-000000000000"})
		en.llm.RequireKey("sk-the-right-key-0000000000000000")
		conv := en.newConv(nil)
		tp := en.tape()
		res := tp.send(conv.ID, "Hi")
		en.done(res.TurnID)
		checkRecording(t, "auth-error", tp.recording("The provider refuses the key (401)."))
	})

	t.Run("stop", func(t *testing.T) {
		en := newEnv(t, envConfig{})
		en.llm.Script(llmtest.Turn{Text: []string{"Hello", " world", " never sent"}, Delay: time.Hour})
		conv := en.newConv(nil)
		tp := en.tape()
		res := tp.send(conv.ID, "Talk")
		en.rec.waitFor(t, "first delta", func(e rec) bool {
			d, ok := e.payload.(events.ChatDeltaPayload)
			return ok && d.TurnID == res.TurnID
		})
		tp.do("Stop", func() (any, error) { return nil, en.e.Stop(conv.ID) }, conv.ID)
		en.done(res.TurnID)
		checkRecording(t, "stop", tp.recording("The user stops a reply mid-stream; the partial answer is kept."))
	})

	t.Run("regenerate", func(t *testing.T) {
		en := newEnv(t, envConfig{})
		en.llm.Script(llmtest.TextTurn("The first answer."), llmtest.TextTurn("A second answer."))
		conv := en.newConv(nil)
		tp := en.tape()
		res := tp.send(conv.ID, "Answer me")
		en.done(res.TurnID)
		again := tp.do("Regenerate", func() (any, error) { return en.e.Regenerate(en.ctx, conv.ID) }, conv.ID).(SendResult)
		en.done(again.TurnID)
		// The user goes back to the first version (‹).
		tp.do("SelectVersion", func() (any, error) { return en.e.SelectVersion(en.ctx, conv.ID, again.UserMessage.ID, 1) },
			conv.ID, again.UserMessage.ID, 1)
		checkRecording(t, "regenerate", tp.recording("An answer, then Regenerate: a second version; the user goes back to the first."))
	})

	t.Run("rate-limited", func(t *testing.T) {
		en := newEnv(t, envConfig{})
		en.llm.Script(llmtest.RateLimited("1"), llmtest.TextTurn("Fine now."))
		conv := en.newConv(nil)
		tp := en.tape()
		res := tp.send(conv.ID, "Hi")
		en.done(res.TurnID)
		checkRecording(t, "rate-limited", tp.recording("The provider rate-limits the first call (429, Retry-After 1); the turn waits and tries again."))
	})

	t.Run("tool-error", func(t *testing.T) {
		en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
		en.waitTool("test", "fail")
		en.allow(policyAlways, "test", "fail")
		en.llm.Script(llmtest.ToolTurn(llmtest.ToolCall{ID: "call_f", Name: "test__fail", Arguments: `{}`}), llmtest.TextTurn("The tool failed, sorry."))
		conv := en.newConv(nil)
		tp := en.tape()
		res := tp.send(conv.ID, "Try the tool")
		en.done(res.TurnID)
		checkRecording(t, "tool-error", tp.recording("An always-allowed tool that fails; the model is told and answers."))
	})

	t.Run("max-steps", func(t *testing.T) {
		en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}})
		en.waitTool("test", "echo")
		en.allow(policyAlways, "test", "echo")
		en.llm.Script(
			llmtest.ToolTurn(llmtest.ToolCall{ID: "call_a", Name: "test__echo", Arguments: `{"message":"one"}`}),
			llmtest.ToolTurn(llmtest.ToolCall{ID: "call_b", Name: "test__echo", Arguments: `{"message":"two"}`}),
		)
		two := 2
		conv := en.newConv(func(s *store.ConversationSettings) { s.MaxSteps = &two })
		tp := en.tape()
		res := tp.send(conv.ID, "Loop")
		en.done(res.TurnID)
		checkRecording(t, "max-steps", tp.recording("The model keeps calling tools until the conversation's step limit (2) ends the turn."))
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
