package core

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpdesk/backend/chat"
	"mcpdesk/backend/contract/nonnull"
	"mcpdesk/backend/events"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/mcppool/mcptest"
	"mcpdesk/backend/notify"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/secrets"
	"mcpdesk/backend/settings"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usage"
)

var testServerBin string

func TestMain(m *testing.M) {
	bin, cleanup, err := mcptest.BuildServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testServerBin = bin
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// doneWaiter records chat:done events.
type doneWaiter struct {
	mu    sync.Mutex
	turns map[string]bool
}

func (w *doneWaiter) Emit(name events.Name, payload any) {
	if d, ok := payload.(events.ChatDonePayload); ok {
		w.mu.Lock()
		w.turns[d.TurnID] = true
		w.mu.Unlock()
	}
}

func (w *doneWaiter) done(id string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.turns[id]
}

// TestBoundResultsAreNotNull calls every bound method whose result can
// hold a list or a map — on an app with a server, a provider, a
// conversation with a tool call, usage and audit rows, a saved request —
// and checks that no list or map the generated contract promises reaches
// the UI as null (nonnull.Check). A bound method whose result can hold one
// must be called here or named in notCalled with the reason, so a new one
// cannot slip past.
func TestBoundResultsAreNotNull(t *testing.T) {
	dir := t.TempDir()
	// With the MCP Apps set: views are bound results too.
	cfg := &mcpconfig.Config{Servers: []mcpconfig.Server{{ID: "test", Command: testServerBin, Args: []string{"--apps"}}}}
	if err := mcpconfig.WriteFile(filepath.Join(dir, ConfigFileName), cfg); err != nil {
		t.Fatal(err)
	}
	em := &doneWaiter{turns: map[string]bool{}}
	c := open(t, Options{DataDir: dir, Emitter: em, Secrets: secrets.NewMemory()})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := c.Pool.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Engine.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for {
		if st, _ := c.Pool.Status("test"); st.State == events.StateConnected {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the test server did not connect")
		}
		time.Sleep(20 * time.Millisecond)
	}
	b := c.Bind(Window{Version: "test"})

	// A new installation first: nothing stored yet, lists are empty.
	emptyChecked := 0
	for _, svc := range services(b) {
		v := reflect.ValueOf(svc.v)
		for i := range v.NumMethod() {
			m := v.Type().Method(i)
			name := svc.name + "." + m.Name
			a, ok := emptyArgs[name]
			if !canHoldNull(m.Type) || (m.Type.NumIn() > 1 && !ok) || name == "ProviderManager.DetectOllama" || name == "MCPPool.DetectConfigs" {
				continue
			}
			if out, ok := callBound(t, name, v.Method(i), a); ok {
				emptyChecked++
				checkNotNull(t, "a new installation's "+name, out)
			}
		}
	}
	if emptyChecked < 20 {
		t.Errorf("only %d bound methods were checked on a new installation", emptyChecked)
	}

	// A provider, and a turn that calls a tool.
	llm := llmtest.NewOpenAI(t)
	key := "sk-test-0000"
	prov, err := c.Models.Save(ctx, providers.ProviderInput{Name: "Fake AI", Type: "openai", BaseURL: llm.BaseURL(), APIKey: &key})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Models.SetDefaultModel(ctx, providers.ModelRef{Provider: prov.ID, Model: "gpt-4o"}); err != nil {
		t.Fatal(err)
	}
	llm.Script(
		llmtest.Turn{Text: []string{"Let me echo."}, ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "test__echo", Arguments: `{"message":"hello"}`}},
			Usage: &llmtest.Usage{Prompt: 10, Completion: 2}},
		llmtest.Turn{Text: []string{"hello back"}, Usage: &llmtest.Usage{Prompt: 20, Completion: 2}},
	)
	conv, err := c.Engine.NewConversation(ctx, chat.NewConversationInput{Title: "Hello"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Engine.Send(ctx, chat.SendRequest{ConversationID: conv.ID, Text: "echo hello"}, chat.WithApprovalMode(chat.ApproveAuto))
	if err != nil {
		t.Fatal(err)
	}
	for !em.done(res.TurnID) {
		if ctx.Err() != nil {
			t.Fatal("the turn did not end")
		}
		time.Sleep(20 * time.Millisecond)
	}
	saved, err := b.MCP.SaveRequest(store.SavedRequest{Server: "test", Tool: "echo", Name: "hi", Arguments: map[string]any{"message": "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := c.Store.Messages(ctx, conv.ID)
	if err != nil || len(msgs) < 2 {
		t.Fatalf("messages %v, %v", msgs, err)
	}

	view, err := b.MCP.OpenView("test", "ui://counter/view.html")
	if err != nil {
		t.Fatal(err)
	}

	// The arguments of the methods that take some.
	claude := `{"mcpServers": {"notes": {"command": "node", "args": ["notes.js"]}}}`
	// Those of a new installation, and those that need what was seeded.
	args := maps.Clone(emptyArgs)
	maps.Copy(args, map[string][]any{
		"MCPPool.SetToolEnabled":            {"test", "echo", true},
		"MCPPool.SetEnabled":                {"test", true},
		"MCPPool.CallTool":                  {mcppool.ToolCallRequest{CallID: "bound-1", Server: "test", Tool: "echo", Arguments: map[string]any{"message": "hi"}}},
		"MCPPool.GetPrompt":                 {"test", "greet", map[string]string{"name": "Ada"}},
		"MCPPool.ReadResource":              {"test", "test://hello"},
		"MCPPool.OpenView":                  {"test", "ui://counter/view.html"},
		"MCPPool.CallToolFromView":          {mcppool.ViewToolCall{Token: view.Token, CallID: "bound-view", Tool: "counter_add", Arguments: map[string]any{"count": 1}, UserApproved: true}},
		"MCPPool.OpenEmbeddedView":          {"test", mcppool.EmbeddedUI{URI: "ui://card/1", MIMEType: "text/html", Text: "<p>card</p>"}},
		"MCPPool.Complete":                  {"test", mcppool.CompletionRef{Kind: "prompt", Name: "greet"}, "name", "A", map[string]string{}},
		"MCPPool.PreviewImportData":         {"claude_desktop_config.json", claude},
		"MCPPool.SaveRequest":               {saved},
		"ProviderManager.Models":            {prov.ID, false},
		"ProviderManager.TestConnection":    {prov.ID},
		"ProviderManager.SetEnabled":        {prov.ID, true},
		"ProviderManager.AddManualModel":    {prov.ID, "extra-model"},
		"ProviderManager.RemoveManualModel": {prov.ID, "extra-model"},
		"ProviderManager.Save":              {providers.ProviderInput{ID: prov.ID, Name: "Fake AI", Type: "openai", BaseURL: llm.BaseURL()}},
		"ChatService.Conversation":          {conv.ID},
		"ChatService.RevealMessage":         {conv.ID, msgs[1].ID},
		"ChatService.UpdateSettings":        {conv.ID, conv.Settings},
		"ChatService.NewConversation":       {chat.NewConversationInput{Title: "Second"}},
		"SettingsService.SavePrefs":         {settings.Prefs{Theme: "dark", NotifyOff: []notify.Kind{notify.Task}}},
	})
	notCalled := map[string]string{
		"MCPPool.Import":            "needs a preview's token; backend/importer's tests check its result",
		"MCPPool.PreviewImport":     "PreviewImportData builds the same preview",
		"MCPPool.DetectConfigs":     "reads this machine's real config folders; backend/mcppool's first-run test checks it",
		"MCPPool.SaveServer":        "restarts the server under test; the pool's service tests check it",
		"ChatService.Send":          "starts a turn; its messages are the ones Conversation returns and chat:message carries (checked by the engine's tests)",
		"ChatService.Regenerate":    "starts a turn, as Send",
		"ChatService.EditAndResend": "starts a turn, as Send",
		"ChatService.RetryToolCall": "starts a turn, as Send",
		"ChatService.SelectVersion": "returns the ConversationView that Conversation returns",
	}

	// Reads run first, then what writes, so every read sees the seeded state.
	type call struct {
		name string
		fn   reflect.Value
		args []any
	}
	var calls []call
	checked := 0
	for _, svc := range services(b) {
		v := reflect.ValueOf(svc.v)
		for i := range v.NumMethod() {
			m := v.Type().Method(i)
			name := svc.name + "." + m.Name
			if !canHoldNull(m.Type) {
				continue
			}
			if why, ok := notCalled[name]; ok {
				t.Logf("not called: %s (%s)", name, why)
				delete(notCalled, name)
				continue
			}
			a, ok := args[name]
			if !ok && m.Type.NumIn() > 1 {
				t.Errorf("%s returns a list or a map: give it arguments here, or say in notCalled why it is not called", name)
				continue
			}
			delete(args, name)
			calls = append(calls, call{name, v.Method(i), a})
		}
	}
	for n := range args {
		t.Errorf("args names %s, which is not a bound method whose result holds a list", n)
	}
	for n := range notCalled {
		t.Errorf("notCalled names %s, which is not a bound method whose result holds a list", n)
	}
	sort.SliceStable(calls, func(i, j int) bool { return isRead(calls[i].name) && !isRead(calls[j].name) })
	for _, cl := range calls {
		if out, ok := callBound(t, cl.name, cl.fn, cl.args); ok {
			checked++
			checkNotNull(t, cl.name, out)
		} else {
			t.Errorf("%s failed on the seeded app", cl.name)
		}
	}
	t.Logf("%d bound methods checked", checked)
	if checked < 40 {
		t.Errorf("only %d bound methods were checked", checked)
	}
}

// emptyArgs are arguments that make sense before anything is stored.
var emptyArgs = map[string][]any{
	"MCPPool.ListTools":             {"test"},
	"MCPPool.ListPrompts":           {"test"},
	"MCPPool.ListResources":         {"test", ""},
	"MCPPool.ListResourceTemplates": {"test", ""},
	"MCPPool.ListSavedRequests":     {"test"},
	"MCPPool.ResourceSubscriptions": {"test"},
	"MCPPool.ServerDetail":          {"test"},
	"MCPPool.ToolSelection":         {"test"},
	"ChatService.AvailableTools":    {[]string(nil)},
	"ChatService.ListConversations": {50, 0},
	"ChatService.Search":            {"hello", 10},
	"UsageStats.Audit":              {usage.AuditQuery{}},
	"UsageStats.Summary":            {usage.UsageQuery{}},
}

type boundService struct {
	name string
	v    any
}

func services(b Bound) []boundService {
	return []boundService{{"MCPPool", b.MCP}, {"SettingsService", b.Settings}, {"ProviderManager", b.Providers}, {"ChatService", b.Chat}, {"UsageStats", b.Usage}}
}

// callBound calls a bound method with args (nil and nil slices as the
// zero value of the parameter) and returns its result, or false with the
// error logged when it failed.
func callBound(t *testing.T, name string, fn reflect.Value, args []any) (any, bool) {
	t.Helper()
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
		if a == nil || (in[i].Kind() == reflect.Slice && in[i].IsNil()) {
			in[i] = reflect.Zero(fn.Type().In(i))
		}
	}
	out := fn.Call(in)
	if errV := out[len(out)-1]; errV.Type().Implements(reflect.TypeFor[error]()) && !errV.IsNil() {
		t.Logf("%s: %v", name, errV.Interface())
		return nil, false
	}
	return out[0].Interface(), true
}

func checkNotNull(t *testing.T, what string, v any) {
	t.Helper()
	if probs := nonnull.Check(v); len(probs) > 0 {
		b, _ := json.Marshal(v)
		t.Errorf("%s sends null where the contract promises a list or a map: %s\n%s", what, strings.Join(probs, ", "), clip(string(b), 600))
	}
}

// isRead reports whether a bound method only reads.
func isRead(name string) bool {
	m := name[strings.IndexByte(name, '.')+1:]
	for _, w := range []string{"Save", "Set", "Add", "Remove", "Update", "New", "Allow"} {
		if strings.HasPrefix(m, w) {
			return false
		}
	}
	return true
}

// canHoldNull reports whether a method's first result can hold a slice or
// a map (what encoding/json may write as null).
func canHoldNull(m reflect.Type) bool {
	if m.NumOut() == 0 || (m.NumOut() == 1 && m.Out(0).Implements(reflect.TypeFor[error]())) {
		return false
	}
	return holds(m.Out(0), map[reflect.Type]bool{})
}

func holds(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Slice, reflect.Map:
		return true
	case reflect.Pointer, reflect.Array:
		return holds(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && holds(f.Type, seen) {
				return true
			}
		}
	case reflect.Interface:
		return true
	}
	return false
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
