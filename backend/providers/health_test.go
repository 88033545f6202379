package providers

import (
	"context"
	"strings"
	"testing"

	"mcpdesk/backend/llm"
	"mcpdesk/backend/llm/llmtest"
)

// chatRequests returns the requests of srv to a chat endpoint.
func chatRequests(srv *llmtest.Server) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.AllRequests() {
		if strings.HasSuffix(r.Path, "/chat/completions") || r.Path == "/api/chat" {
			out = append(out, r)
		}
	}
	return out
}

func pathsOf(srv *llmtest.Server) []string {
	var out []string
	for _, r := range srv.AllRequests() {
		out = append(out, r.Method+" "+r.Path)
	}
	return out
}

// TestTestProvesTheKey runs Test against the scripted provider in each of
// the states a user meets, and checks the verdict and the requests made.
func TestTestProvesTheKey(t *testing.T) {
	type setup struct {
		e   *testEnv
		srv *llmtest.Server
	}
	cases := []struct {
		name string
		// build starts the provider, saves it and returns its id.
		build      func(t *testing.T, s *setup) string
		wantCode   string
		wantUsable bool
		wantParams map[string]string
		// check looks at the requests made, when not nil.
		check func(t *testing.T, s *setup)
	}{
		{
			name: "wrong key, models listed without auth",
			build: func(t *testing.T, s *setup) string {
				s.srv = llmtest.NewOpenAI(t)
				s.srv.RequireKey("sk-right")
				s.srv.OpenModels(true)
				return s.e.mustSave(t, ProviderInput{Name: "Open", Preset: "custom", BaseURL: s.srv.BaseURL(), APIKey: ptr("sk-wrong")}).ID
			},
			wantCode: HealthKeyRejected, wantParams: map[string]string{"status": "401"},
			check: func(t *testing.T, s *setup) {
				reqs := chatRequests(s.srv)
				if len(reqs) != 1 {
					t.Fatalf("chat requests = %d (%v), want the one-token completion", len(reqs), pathsOf(s.srv))
				}
			},
		},
		{
			name: "right key: a one-token completion against the default model",
			build: func(t *testing.T, s *setup) string {
				s.srv = llmtest.NewOpenAI(t)
				s.srv.RequireKey("sk-right")
				s.srv.OpenModels(true)
				s.srv.SetModels("a-embed", "chat-1")
				s.srv.Repeat(llmtest.TextTurn("OK"))
				p := s.e.mustSave(t, ProviderInput{Name: "Good", Preset: "custom", BaseURL: s.srv.BaseURL(), APIKey: ptr("sk-right")})
				if err := s.e.m.SetDefaultModel(s.e.ctx, ModelRef{Provider: p.ID, Model: "chat-1"}); err != nil {
					t.Fatal(err)
				}
				return p.ID
			},
			wantCode: HealthOK, wantUsable: true, wantParams: map[string]string{"model": "chat-1"},
			check: func(t *testing.T, s *setup) {
				reqs := chatRequests(s.srv)
				if len(reqs) != 1 {
					t.Fatalf("chat requests = %d, want 1", len(reqs))
				}
				body := reqs[0].Body
				if body["model"] != "chat-1" || body["max_tokens"] != float64(1) {
					t.Errorf("completion = model %v max_tokens %v, want chat-1 and 1", body["model"], body["max_tokens"])
				}
			},
		},
		{
			name: "the default model does not exist there",
			build: func(t *testing.T, s *setup) string {
				s.srv = llmtest.NewOpenAI(t)
				s.srv.SetModels("chat-1")
				p := s.e.mustSave(t, ProviderInput{Name: "Typo", Preset: "custom", BaseURL: s.srv.BaseURL()})
				if err := s.e.m.SetDefaultModel(s.e.ctx, ModelRef{Provider: p.ID, Model: "chat-l"}); err != nil {
					t.Fatal(err)
				}
				return p.ID
			},
			wantCode: HealthModelMissing, wantParams: map[string]string{"model": "chat-l"},
		},
		{
			name: "a listed model that refuses a chat (4xx): the key is accepted",
			build: func(t *testing.T, s *setup) string {
				s.srv = llmtest.NewOpenAI(t)
				s.srv.SetModels("a-embedding")
				p := s.e.mustSave(t, ProviderInput{Name: "Embed", Preset: "custom", BaseURL: s.srv.BaseURL()})
				// The fake knows the model only for listing: the probe of
				// another id gets 404, as an embedding model's chat would.
				s.e.m.AddManualModel(s.e.ctx, p.ID, "not-a-chat-model")
				return p.ID
			},
			wantCode: HealthOK, wantUsable: true, wantParams: map[string]string{"model": "not-a-chat-model"},
		},
		{
			name: "key variable not set",
			build: func(t *testing.T, s *setup) string {
				s.srv = llmtest.NewOpenAI(t)
				return s.e.mustSave(t, ProviderInput{Name: "Env", Preset: "custom", BaseURL: s.srv.BaseURL(), KeyEnv: "MCPDESK_TEST_UNSET"}).ID
			},
			wantCode: HealthEnvUnset, wantParams: map[string]string{"name": "MCPDESK_TEST_UNSET"},
			check: func(t *testing.T, s *setup) {
				if n := len(s.srv.AllRequests()); n != 0 {
					t.Errorf("requests without a key = %v, want none", pathsOf(s.srv))
				}
			},
		},
		{
			name: "unreachable",
			build: func(t *testing.T, s *setup) string {
				return s.e.mustSave(t, ProviderInput{Name: "Gone", Preset: "custom", BaseURL: llmtest.UnreachableURL(t) + "/v1", APIKey: ptr("sk-x")}).ID
			},
			wantCode: HealthUnreachable,
		},
		{
			name: "ollama: list and show",
			build: func(t *testing.T, s *setup) string {
				s.srv = llmtest.NewOllama(t)
				s.srv.SetModels("llama3.2:1b")
				return s.e.mustSave(t, ProviderInput{Name: "Ollama", Type: "ollama", BaseURL: s.srv.BaseURL()}).ID
			},
			wantCode: HealthOK, wantUsable: true, wantParams: map[string]string{"model": "llama3.2:1b"},
			check: func(t *testing.T, s *setup) {
				got := strings.Join(pathsOf(s.srv), ", ")
				if got != "GET /api/tags, POST /api/show" {
					t.Errorf("requests = %s, want the list and a show (no chat: nothing is loaded)", got)
				}
			},
		},
		{
			name: "ollama: the default model is not installed",
			build: func(t *testing.T, s *setup) string {
				s.srv = llmtest.NewOllama(t)
				s.srv.SetModels("llama3.2:1b")
				p := s.e.mustSave(t, ProviderInput{Name: "Ollama", Type: "ollama", BaseURL: s.srv.BaseURL()})
				if err := s.e.m.SetDefaultModel(s.e.ctx, ModelRef{Provider: p.ID, Model: "qwen3:8b"}); err != nil {
					t.Fatal(err)
				}
				return p.ID
			},
			wantCode: HealthModelMissing, wantParams: map[string]string{"model": "qwen3:8b"},
		},
		{
			name: "ollama: nothing installed",
			build: func(t *testing.T, s *setup) string {
				s.srv = llmtest.NewOllama(t)
				s.srv.SetModels()
				return s.e.mustSave(t, ProviderInput{Name: "Ollama", Type: "ollama", BaseURL: s.srv.BaseURL()}).ID
			},
			wantCode: HealthNoModels,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &setup{e: newTestEnv(t)}
			id := c.build(t, s)
			res, err := s.e.m.TestConnection(s.e.ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			h := res.Health
			if h.Code != c.wantCode || h.Usable != c.wantUsable || res.OK != c.wantUsable {
				t.Fatalf("verdict = %+v, want %s usable=%v", h, c.wantCode, c.wantUsable)
			}
			for k, v := range c.wantParams {
				if h.Params[k] != v {
					t.Errorf("param %s = %q, want %q (params %v)", k, h.Params[k], v, h.Params)
				}
			}
			if h.Message == "" || (!h.Usable && res.Error == "") {
				t.Errorf("no message for the user: %+v", res)
			}
			if c.check != nil {
				c.check(t, s)
			}
			// The provider's view shows the same verdict afterwards.
			p, err := s.e.m.Get(s.e.ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if p.Health.Code != c.wantCode || p.Health.Usable != c.wantUsable {
				t.Errorf("view health = %+v, want %s", p.Health, c.wantCode)
			}
			if strings.Contains(p.Health.Message+p.Health.Detail+res.Error, "sk-") {
				t.Errorf("a key reached the verdict: %+v", res)
			}
		})
	}
}

// TestUnsetKeyVariableIsNotReady: a custom endpoint (which may need no key)
// whose key variable is unset was "Ready"; it is not usable and says why.
func TestUnsetKeyVariableIsNotReady(t *testing.T) {
	e := newTestEnv(t)
	p := e.mustSave(t, ProviderInput{Name: "Custom", Preset: "custom", BaseURL: "http://127.0.0.1:1/v1", KeyEnv: "MY_KEY"})
	if p.Usable || p.Health.Code != HealthEnvUnset || p.Health.Usable || p.Health.Params["name"] != "MY_KEY" {
		t.Fatalf("unset variable: usable=%v health=%+v", p.Usable, p.Health)
	}
	e.vars["MY_KEY"] = "sk-now-set"
	p, _ = e.m.Get(e.ctx, p.ID)
	if !p.Usable || p.Health.Code != HealthUntested {
		t.Fatalf("set variable: usable=%v health=%+v", p.Usable, p.Health)
	}
}

// TestTestReloadsTheEnvironment: Test reads the environment again first, so
// a variable set after the start counts.
func TestTestReloadsTheEnvironment(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.RequireKey("sk-late")
	srv.Repeat(llmtest.TextTurn("OK"))
	var e *testEnv
	reloads := 0
	e = newTestEnv(t, func(o *Options) {
		o.ReloadEnv = func(context.Context) bool { reloads++; e.vars["LATE_KEY"] = "sk-late"; return true }
	})
	p := e.mustSave(t, ProviderInput{Name: "Late", Preset: "custom", BaseURL: srv.BaseURL(), KeyEnv: "LATE_KEY"})
	if p.Health.Code != HealthEnvUnset {
		t.Fatalf("before: %+v", p.Health)
	}
	res, err := e.m.TestConnection(e.ctx, p.ID)
	if err != nil || reloads != 1 || res.Health.Code != HealthOK {
		t.Fatalf("Test = %+v, %v after %d reloads; want ok after 1", res.Health, err, reloads)
	}
}

// TestChatRejectionMarksProvider: a 401 during a chat marks the provider
// rejected, with the time, until a call succeeds or the provider changes.
func TestChatRejectionMarksProvider(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.RequireKey("sk-right")
	srv.OpenModels(true)
	e := newTestEnv(t)
	p := e.mustSave(t, ProviderInput{Name: "Chatty", Preset: "custom", BaseURL: srv.BaseURL(), APIKey: ptr("sk-wrong")})
	routes, err := e.m.Routes(e.ctx, ModelRef{Provider: p.ID, Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{Model: "gpt-4o", Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}
	if _, err := routes[0].Target.Client.Stream(e.ctx, req, func(llm.Delta) {}); llm.KindOf(err) != llm.KindAuth {
		t.Fatalf("chat = %v, want an auth error", err)
	}
	got, _ := e.m.Get(e.ctx, p.ID)
	if h := got.Health; h.Code != HealthKeyRejected || h.Usable || h.Source != HealthFromChat || h.At == nil || h.Params["status"] != "401" {
		t.Fatalf("after a 401 in chat: %+v", h)
	}
	// The list (what Settings reads) says the same.
	list, _ := e.m.List(e.ctx)
	if list[0].Health.Code != HealthKeyRejected {
		t.Errorf("List health = %+v", list[0].Health)
	}

	// The key is fixed outside the app (the provider now takes it): the
	// next successful call clears the mark.
	srv.RequireKey("sk-wrong")
	srv.Script(llmtest.TextTurn("hello"))
	if _, err := routes[0].Target.Client.Stream(e.ctx, req, func(llm.Delta) {}); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.m.Get(e.ctx, p.ID); got.Health.Code != HealthOK || !got.Health.Usable {
		t.Errorf("after a successful chat: %+v", got.Health)
	}

	// Saving the provider (a new key) forgets any verdict.
	srv.RequireKey("sk-right")
	routes[0].Target.Client.Stream(e.ctx, req, func(llm.Delta) {})
	saved := e.mustSave(t, ProviderInput{ID: p.ID, Name: "Chatty", Preset: "custom", BaseURL: srv.BaseURL(), APIKey: ptr("sk-right")})
	if saved.Health.Code != HealthUntested {
		t.Errorf("after a save: %+v", saved.Health)
	}
}

// TestReloadEnvironment names the key variables and whether each is set,
// and forgets verdicts that depended on them.
func TestReloadEnvironment(t *testing.T) {
	var e *testEnv
	e = newTestEnv(t, func(o *Options) {
		o.ReloadEnv = func(context.Context) bool { e.vars["SET_LATER"] = "sk-now"; return true }
	})
	a := e.mustSave(t, ProviderInput{Name: "A", Preset: "custom", BaseURL: "http://127.0.0.1:1/v1", KeyEnv: "SET_LATER"})
	e.mustSave(t, ProviderInput{Name: "B", Preset: "custom", BaseURL: "http://127.0.0.1:1/v1", KeyEnv: "NEVER_SET"})
	e.mustSave(t, ProviderInput{Name: "C", Preset: "custom", BaseURL: "http://127.0.0.1:1/v1", KeyEnv: "SET_LATER"})
	e.m.book.set(a.ID, Health{Code: HealthKeyRejected})
	got, err := e.m.ReloadEnvironment(e.ctx)
	if err != nil || !got.Reloaded || len(got.Vars) != 2 {
		t.Fatalf("ReloadEnvironment = %+v, %v", got, err)
	}
	if v := got.Vars[0]; v.Name != "SET_LATER" || !v.Set || strings.Join(v.Providers, ",") != "A,C" {
		t.Errorf("SET_LATER = %+v", v)
	}
	if v := got.Vars[1]; v.Name != "NEVER_SET" || v.Set {
		t.Errorf("NEVER_SET = %+v", v)
	}
	if p, _ := e.m.Get(e.ctx, a.ID); p.Health.Code != HealthUntested || !p.Usable {
		t.Errorf("A after the reload = %+v", p.Health)
	}
}

// TestKeychainDownKeepsKeylessProviders: an unreadable keychain makes a
// provider that needs a key red, but a local endpoint that may do without
// one stays usable (the chat and e2e tests run without a keychain).
func TestKeychainDownKeepsKeylessProviders(t *testing.T) {
	e := newTestEnv(t)
	local := e.mustSave(t, ProviderInput{Name: "Local", Preset: "custom", BaseURL: "http://127.0.0.1:1/v1"})
	openai := e.mustSave(t, ProviderInput{Name: "OpenAI", Preset: "openai"})
	e.mem.SetUnavailable("no D-Bus session bus")
	if p, _ := e.m.Get(e.ctx, local.ID); !p.Usable || p.Health.Code != HealthUntested {
		t.Errorf("local endpoint with the keychain down: usable=%v %+v", p.Usable, p.Health)
	}
	if p, _ := e.m.Get(e.ctx, openai.ID); p.Usable || p.Health.Code != HealthKeychainUnreadable || p.Health.Params["reason"] == "" {
		t.Errorf("OpenAI with the keychain down: usable=%v %+v", p.Usable, p.Health)
	}
}

// TestModelListRejectionMarksProvider: a model list refused with 401 (the
// Models panel, the picker) marks the provider as a Test would.
func TestModelListRejectionMarksProvider(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.RequireKey("sk-right")
	e := newTestEnv(t)
	p := e.mustSave(t, ProviderInput{Name: "Listed", Preset: "custom", BaseURL: srv.BaseURL(), APIKey: ptr("sk-wrong")})
	list, err := e.m.Models(e.ctx, p.ID, true)
	if err != nil || list.Error == "" {
		t.Fatalf("Models = %+v, %v; want the refusal", list, err)
	}
	got, _ := e.m.Get(e.ctx, p.ID)
	if got.Health.Code != HealthKeyRejected || got.Health.Params["status"] != "401" || got.Health.At == nil {
		t.Errorf("after a refused model list: %+v", got.Health)
	}
}
