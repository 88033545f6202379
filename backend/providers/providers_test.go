package providers

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/secrets"
	"mcpdesk/backend/store"
)

func TestSaveValidation(t *testing.T) {
	e := newTestEnv(t)
	e.mustSave(t, ProviderInput{Name: "Taken", Type: "openai", BaseURL: "http://localhost:8000/v1"})
	cases := []struct {
		name  string
		in    ProviderInput
		field string
		msg   string
	}{
		{"no name", ProviderInput{Type: "openai", BaseURL: "http://x"}, "name", "Name is required"},
		{"blank name", ProviderInput{Name: "   ", Type: "openai", BaseURL: "http://x"}, "name", "Name is required"},
		{"long name", ProviderInput{Name: strings.Repeat("n", 101), Type: "openai", BaseURL: "http://x"}, "name", "Name is longer"},
		{"name taken", ProviderInput{Name: "taken", Type: "openai", BaseURL: "http://x"}, "name", `another provider is already called "taken"`},
		{"no type", ProviderInput{Name: "A", BaseURL: "http://x"}, "type", "Type is required"},
		{"unknown type", ProviderInput{Name: "A", Type: "anthropic", BaseURL: "http://x"}, "type", `unknown type "anthropic"`},
		{"unknown preset", ProviderInput{Name: "A", Preset: "nope"}, "preset", `unknown preset "nope"`},
		{"preset of another type", ProviderInput{Name: "A", Preset: "openai", Type: "ollama"}, "type", "OpenAI preset"},
		{"no base URL", ProviderInput{Name: "A", Type: "openai"}, "baseUrl", "Base URL is required"},
		{"azure without endpoint", ProviderInput{Name: "A", Preset: "azure"}, "baseUrl", "Base URL is required"},
		{"ftp URL", ProviderInput{Name: "A", Type: "openai", BaseURL: "ftp://x/v1"}, "baseUrl", "must start with http:// or https://"},
		{"relative URL", ProviderInput{Name: "A", Type: "openai", BaseURL: "localhost:8000"}, "baseUrl", "Base URL"},
		{"URL without host", ProviderInput{Name: "A", Type: "openai", BaseURL: "http:///v1"}, "baseUrl", "has no host"},
		{"URL with password", ProviderInput{Name: "A", Type: "openai", BaseURL: "https://u:p@x/v1"}, "baseUrl", "user name or password"},
		{"URL with key in query", ProviderInput{Name: "A", Type: "openai", BaseURL: "https://x/v1?api_key=abc"}, "baseUrl", "key in its query"},
		{"bad env name", ProviderInput{Name: "A", Type: "openai", BaseURL: "http://x", KeyEnv: "1BAD-NAME"}, "keyEnv", "Key from environment variable"},
		{"env name with $", ProviderInput{Name: "A", Type: "openai", BaseURL: "http://x", KeyEnv: "$OPENAI_API_KEY"}, "keyEnv", "not a variable name"},
		{"secret header", ProviderInput{Name: "A", Type: "openai", BaseURL: "http://x", Headers: map[string]string{"Authorization": "Bearer x"}}, "headers", `"Authorization" looks like it carries a secret`},
		{"api key header", ProviderInput{Name: "A", Type: "openai", BaseURL: "http://x", Headers: map[string]string{"x-api-key": "x"}}, "headers", "secret"},
		{"bad header name", ProviderInput{Name: "A", Type: "openai", BaseURL: "http://x", Headers: map[string]string{"Bad Header": "x"}}, "headers", "not a header name"},
		{"header value with newline", ProviderInput{Name: "A", Type: "openai", BaseURL: "http://x", Headers: map[string]string{"X-Title": "a\r\nb"}}, "headers", "line break"},
		{"azure ollama", ProviderInput{Name: "A", Type: "ollama", Azure: true}, "azure", "Azure"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.m.Save(e.ctx, c.in)
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("Save = %v, want a *FieldError", err)
			}
			if fe.Field != c.field || !strings.Contains(fe.Error(), c.msg) {
				t.Errorf("error = %q on %q, want %q on %q", fe.Error(), fe.Field, c.msg, c.field)
			}
		})
	}
	if list, _ := e.m.List(e.ctx); len(list) != 1 {
		t.Errorf("invalid inputs were stored: %+v", list)
	}
}

func TestSaveFillsFromPresetAndEdits(t *testing.T) {
	e := newTestEnv(t)
	p := e.mustSave(t, ProviderInput{Name: " DeepSeek ", Preset: "deepseek", KeyEnv: "DEEPSEEK_API_KEY"})
	if p.Name != "DeepSeek" || p.Type != "openai" || p.BaseURL != "https://api.deepseek.com/v1" || !p.Enabled || !p.NeedsKey || p.HasKey || p.Usable {
		t.Errorf("from preset: %+v", p)
	}
	if !strings.HasPrefix(p.ID, "deepseek-") {
		t.Errorf("id %q does not start with the name's slug", p.ID)
	}
	o := e.mustSave(t, ProviderInput{Name: "Local", Type: "ollama"})
	if o.BaseURL != DefaultOllamaURL || o.NeedsKey || !o.Usable {
		t.Errorf("ollama defaults: %+v", o)
	}
	r := e.mustSave(t, ProviderInput{Name: "OpenRouter", Preset: "openrouter"})
	if r.Headers["X-Title"] != "MCP Desk" {
		t.Errorf("preset headers not applied: %+v", r.Headers)
	}

	// Edit: enabled is kept unless given, manual models survive.
	if _, err := e.m.AddManualModel(e.ctx, p.ID, "deepseek-custom"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.SetEnabled(e.ctx, p.ID, false); err != nil {
		t.Fatal(err)
	}
	q := e.mustSave(t, ProviderInput{ID: p.ID, Name: "DeepSeek 2", Preset: "deepseek", BaseURL: "https://proxy.example/v1/"})
	if q.ID != p.ID || q.Name != "DeepSeek 2" || q.BaseURL != "https://proxy.example/v1" || q.Enabled ||
		!reflect.DeepEqual(q.ManualModels, []string{"deepseek-custom"}) || q.KeyEnv != "" {
		t.Errorf("edited: %+v", q)
	}
	q = e.mustSave(t, ProviderInput{ID: p.ID, Name: "DeepSeek 2", Preset: "deepseek", Enabled: ptr(true)})
	if !q.Enabled {
		t.Error("Enabled: true was not applied")
	}
	if _, err := e.m.Save(e.ctx, ProviderInput{ID: "ghost", Name: "X", Type: "ollama"}); !errors.Is(err, store.ErrProviderNotFound) {
		t.Errorf("edit of an unknown id = %v", err)
	}
	list, err := e.m.List(e.ctx)
	if err != nil || len(list) != 3 || list[0].ID != p.ID || list[1].ID != o.ID {
		t.Fatalf("List = %+v %v", list, err)
	}
}

func TestKeyIsWriteOnlyAndLivesInKeychain(t *testing.T) {
	e := newTestEnv(t)
	p := e.mustSave(t, ProviderInput{Name: "OpenAI", Preset: "openai", APIKey: ptr("  sk-one\n")})
	if !p.HasKey || p.KeySource != KeyFromKeychain || !p.Usable {
		t.Fatalf("after save with key: %+v", p)
	}
	if v, err := e.mem.Get("provider/" + p.ID); err != nil || v != "sk-one" {
		t.Fatalf("keychain holds %q, %v; want the trimmed key", v, err)
	}
	// nil keeps the key.
	p = e.mustSave(t, ProviderInput{ID: p.ID, Name: "OpenAI renamed", Preset: "openai"})
	if v, _ := e.mem.Get("provider/" + p.ID); v != "sk-one" || !p.HasKey {
		t.Fatalf("nil APIKey changed the key: %q %+v", v, p)
	}
	// A value replaces it.
	p = e.mustSave(t, ProviderInput{ID: p.ID, Name: "OpenAI renamed", Preset: "openai", APIKey: ptr("sk-two")})
	if v, _ := e.mem.Get("provider/" + p.ID); v != "sk-two" {
		t.Fatalf("key = %q, want sk-two", v)
	}
	// "" deletes it.
	p = e.mustSave(t, ProviderInput{ID: p.ID, Name: "OpenAI renamed", Preset: "openai", APIKey: ptr("")})
	if _, err := e.mem.Get("provider/" + p.ID); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("key after delete: %v", err)
	}
	if p.HasKey || p.KeySource != KeyNone || p.Usable {
		t.Errorf("view after removing the key: %+v", p)
	}
}

func TestKeychainUnavailable(t *testing.T) {
	e := newTestEnv(t)
	e.mem.SetUnavailable("no D-Bus session bus")
	_, err := e.m.Save(e.ctx, ProviderInput{Name: "OpenAI", Preset: "openai", APIKey: ptr("sk-test-SECRET-123")})
	want := "The OS keychain is unavailable (no D-Bus session bus). Set the key in an environment variable and enter its name under 'Key from environment variable' instead."
	if err == nil || err.Error() != want {
		t.Fatalf("Save = %v\nwant %s", err, want)
	}
	var ke *KeychainError
	var ue *secrets.UnavailableError
	if !errors.As(err, &ke) || !errors.As(err, &ue) {
		t.Errorf("error %T does not unwrap to *KeychainError and *secrets.UnavailableError", err)
	}
	if list, _ := e.m.List(e.ctx); len(list) != 0 {
		t.Fatalf("a provider was stored although its key was refused: %+v", list)
	}

	// The env-var route works without the keychain.
	e.vars["OPENAI_API_KEY"] = "sk-from-env"
	p := e.mustSave(t, ProviderInput{Name: "OpenAI", Preset: "openai", KeyEnv: "OPENAI_API_KEY"})
	if !p.HasKey || p.KeySource != KeyFromEnv || !p.Usable || !strings.Contains(p.KeyProblem, "no D-Bus") {
		t.Fatalf("env route with the keychain down: %+v", p)
	}
	// Editing with a key fails and leaves the provider as it was.
	_, err = e.m.Save(e.ctx, ProviderInput{ID: p.ID, Name: "Renamed", Preset: "openai", APIKey: ptr("sk-test-SECRET-123")})
	if err == nil || err.Error() != want {
		t.Fatalf("edit with a key = %v", err)
	}
	if got, _ := e.m.Get(e.ctx, p.ID); got.Name != "OpenAI" {
		t.Errorf("a refused edit changed the provider: %+v", got)
	}
	// Removing a key needs the keychain too.
	if _, err := e.m.Save(e.ctx, ProviderInput{ID: p.ID, Name: "OpenAI", Preset: "openai", APIKey: ptr("")}); err == nil || !strings.Contains(err.Error(), "could not be removed") {
		t.Errorf("removing a key with the keychain down = %v", err)
	}
	// Deleting the provider still works.
	if err := e.m.Delete(e.ctx, p.ID); err != nil {
		t.Errorf("Delete with the keychain down: %v", err)
	}

	e.mem.SetUnavailable("")
	if _, err := e.mem.Get("provider/" + p.ID); !errors.Is(err, secrets.ErrNotFound) {
		t.Errorf("something reached the keychain: %v", err)
	}
}

func TestEnvKeyRoute(t *testing.T) {
	srv := newFakeLLM(t, "sk-env-value", "gpt-a", "gpt-b")
	e := newTestEnv(t)
	p := e.mustSave(t, ProviderInput{Name: "Proxy", Preset: "openai", BaseURL: srv.URL + "/v1", KeyEnv: "MY_PROXY_KEY"})
	if p.HasKey || p.KeySource != KeyNone || p.Usable {
		t.Fatalf("unset variable: %+v", p)
	}
	e.vars["MY_PROXY_KEY"] = "sk-env-value\n"
	p, _ = e.m.Get(e.ctx, p.ID)
	if !p.HasKey || p.KeySource != KeyFromEnv || !p.Usable {
		t.Fatalf("set variable: %+v", p)
	}
	list, err := e.m.Models(e.ctx, p.ID, true)
	if err != nil || list.Error != "" || len(list.Models) != 2 {
		t.Fatalf("Models = %+v %v", list, err)
	}
	if got := srv.auth(); got != "Bearer sk-env-value" {
		t.Errorf("Authorization = %q", got)
	}
	// The keychain wins over the variable.
	p = e.mustSave(t, ProviderInput{ID: p.ID, Name: "Proxy", Preset: "openai", BaseURL: srv.URL + "/v1", KeyEnv: "MY_PROXY_KEY", APIKey: ptr("sk-keychain")})
	if p.KeySource != KeyFromKeychain {
		t.Errorf("source = %q, want keychain", p.KeySource)
	}
}

func TestDeleteRemovesKeyAndPreferences(t *testing.T) {
	e := newTestEnv(t)
	a := e.mustSave(t, ProviderInput{Name: "A", Preset: "openai", APIKey: ptr("sk-a")})
	b := e.mustSave(t, ProviderInput{Name: "B", Type: "ollama"})
	if err := e.m.SetDefaultModel(e.ctx, ModelRef{a.ID, "gpt-a"}); err != nil {
		t.Fatal(err)
	}
	if err := e.m.SetFallbacks(e.ctx, []ModelRef{{b.ID, "llama"}, {a.ID, "gpt-b"}}); err != nil {
		t.Fatal(err)
	}
	if err := e.m.Delete(e.ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.mem.Get("provider/" + a.ID); !errors.Is(err, secrets.ErrNotFound) {
		t.Errorf("keychain entry survived Delete: %v", err)
	}
	if def, _ := e.m.DefaultModel(e.ctx); !def.IsZero() {
		t.Errorf("default survived: %+v", def)
	}
	if fb, _ := e.m.Fallbacks(e.ctx); !reflect.DeepEqual(fb, []ModelRef{{b.ID, "llama"}}) {
		t.Errorf("fallbacks = %+v", fb)
	}
	if err := e.m.Delete(e.ctx, a.ID); !errors.Is(err, store.ErrProviderNotFound) {
		t.Errorf("second Delete = %v", err)
	}
	// A new provider of the same name gets a new id and no old key.
	a2 := e.mustSave(t, ProviderInput{Name: "A", Preset: "openai"})
	if a2.ID == a.ID || a2.HasKey {
		t.Errorf("re-created provider: %+v (old id %s)", a2, a.ID)
	}
}

func TestModelsCacheAndManualEntries(t *testing.T) {
	srv := newFakeLLM(t, "", "b-model", "a-model")
	e := newTestEnv(t, func(o *Options) { o.ModelsTTL = time.Hour })
	p := e.mustSave(t, ProviderInput{Name: "Local", Preset: "custom", BaseURL: srv.URL + "/v1"})
	if _, err := e.m.AddManualModel(e.ctx, p.ID, " a-model "); err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.AddManualModel(e.ctx, p.ID, "my-finetune"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.AddManualModel(e.ctx, p.ID, "my-finetune"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.AddManualModel(e.ctx, p.ID, "  "); err == nil {
		t.Error("an empty manual model was accepted")
	}
	list, err := e.m.Models(e.ctx, p.ID, false)
	if err != nil || list.Error != "" {
		t.Fatal(list.Error, err)
	}
	want := []Model{
		{ID: "a-model", OwnedBy: "fake", Listed: true, Manual: true},
		{ID: "b-model", OwnedBy: "fake", Listed: true},
		{ID: "my-finetune", Manual: true},
	}
	if !reflect.DeepEqual(list.Models, want) {
		t.Errorf("Models =\n%+v\nwant\n%+v", list.Models, want)
	}
	if _, err := e.m.Models(e.ctx, p.ID, false); err != nil {
		t.Fatal(err)
	}
	if n := srv.hits.Load(); n != 1 {
		t.Errorf("second Models fetched again: %d requests", n)
	}
	if _, err := e.m.Models(e.ctx, p.ID, true); err != nil {
		t.Fatal(err)
	}
	if n := srv.hits.Load(); n != 2 {
		t.Errorf("refresh did not fetch: %d requests", n)
	}
	// Saving the provider drops its cached list.
	e.mustSave(t, ProviderInput{ID: p.ID, Name: "Local", Preset: "custom", BaseURL: srv.URL + "/v1"})
	e.m.Models(e.ctx, p.ID, false)
	if n := srv.hits.Load(); n != 3 {
		t.Errorf("Save did not drop the cache: %d requests", n)
	}
	if _, err := e.m.RemoveManualModel(e.ctx, p.ID, "my-finetune"); err != nil {
		t.Fatal(err)
	}
	list, _ = e.m.Models(e.ctx, p.ID, false)
	if len(list.Models) != 2 {
		t.Errorf("after RemoveManualModel: %+v", list.Models)
	}
	if _, err := e.m.Models(e.ctx, "ghost", false); !errors.Is(err, store.ErrProviderNotFound) {
		t.Errorf("unknown provider = %v", err)
	}

	// A failed fetch still lists the manual models and says why.
	srv.Close()
	list, err = e.m.Models(e.ctx, p.ID, true)
	if err != nil || list.Error == "" || len(list.Models) != 1 || list.Models[0].ID != "a-model" || list.Models[0].Listed {
		t.Errorf("Models with the endpoint down = %+v, %v", list, err)
	}
}

func TestOllamaModels(t *testing.T) {
	srv := newFakeLLM(t, "", "llama3.2:1b", "qwen3:4b")
	e := newTestEnv(t)
	p := e.mustSave(t, ProviderInput{Name: "Ollama", Type: "ollama", BaseURL: srv.URL})
	list, err := e.m.Models(e.ctx, p.ID, false)
	if err != nil || list.Error != "" || len(list.Models) != 2 || list.Models[0].ID != "llama3.2:1b" {
		t.Fatalf("ollama models = %+v %v", list, err)
	}
}

func TestTestConnection(t *testing.T) {
	srv := newFakeLLM(t, "sk-right", "m1", "m2", "m3")
	e := newTestEnv(t)
	good := e.mustSave(t, ProviderInput{Name: "Good", Preset: "openai", BaseURL: srv.URL + "/v1", APIKey: ptr("sk-right")})
	res, err := e.m.TestConnection(e.ctx, good.ID)
	if err != nil || !res.OK || res.Models != 3 || res.Error != "" || res.LatencyMs < 0 {
		t.Fatalf("good key: %+v %v", res, err)
	}
	bad := e.mustSave(t, ProviderInput{Name: "Bad", Preset: "openai", BaseURL: srv.URL + "/v1", APIKey: ptr("sk-wrong")})
	res, err = e.m.TestConnection(e.ctx, bad.ID)
	if err != nil || res.OK || !strings.Contains(res.Error, "The API key for Bad was rejected (401)") {
		t.Fatalf("bad key: %+v %v", res, err)
	}
	none := e.mustSave(t, ProviderInput{Name: "Keyless", Preset: "openai", BaseURL: srv.URL + "/v1", KeyEnv: "UNSET_VAR"})
	res, _ = e.m.TestConnection(e.ctx, none.ID)
	if res.OK || !strings.Contains(res.Error, "Keyless has no API key") || !strings.Contains(res.Error, "UNSET_VAR") {
		t.Errorf("no key: %+v", res)
	}
	down := e.mustSave(t, ProviderInput{Name: "Down", Type: "ollama", BaseURL: "http://127.0.0.1:1"})
	res, _ = e.m.TestConnection(e.ctx, down.ID)
	if res.OK || !strings.Contains(res.Error, "Could not reach") {
		t.Errorf("down: %+v", res)
	}
	if _, err := e.m.TestConnection(e.ctx, "ghost"); !errors.Is(err, store.ErrProviderNotFound) {
		t.Errorf("unknown provider = %v", err)
	}
}

func TestPickerModels(t *testing.T) {
	srv := newFakeLLM(t, "", "m1")
	e := newTestEnv(t)
	keyed := e.mustSave(t, ProviderInput{Name: "Keyed", Preset: "openai", BaseURL: srv.URL + "/v1", APIKey: ptr("sk-1")})
	e.mustSave(t, ProviderInput{Name: "Keyless", Preset: "openai", BaseURL: srv.URL + "/v1"})
	e.mustSave(t, ProviderInput{Name: "Disabled", Preset: "openai", BaseURL: srv.URL + "/v1", APIKey: ptr("sk-2"), Enabled: ptr(false)})
	ollama := e.mustSave(t, ProviderInput{Name: "Ollama", Type: "ollama", BaseURL: srv.URL})
	e.mustSave(t, ProviderInput{Name: "Ollama off", Type: "ollama", BaseURL: srv.URL, Enabled: ptr(false)})
	custom := e.mustSave(t, ProviderInput{Name: "vLLM", Preset: "custom", BaseURL: srv.URL + "/v1"})
	envKeyed := e.mustSave(t, ProviderInput{Name: "Env", Preset: "groq", BaseURL: srv.URL + "/v1", KeyEnv: "GROQ_KEY"})
	e.vars["GROQ_KEY"] = "gsk-x"
	down := e.mustSave(t, ProviderInput{Name: "Down", Type: "ollama", BaseURL: "http://127.0.0.1:1"})
	if _, err := e.m.AddManualModel(e.ctx, down.ID, "kept-anyway"); err != nil {
		t.Fatal(err)
	}

	groups, err := e.m.PickerModels(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range groups {
		ids = append(ids, g.ID)
	}
	want := []string{keyed.ID, ollama.ID, custom.ID, envKeyed.ID, down.ID}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("picker providers = %v, want %v", ids, want)
	}
	for _, g := range groups[:4] {
		if g.Error != "" || len(g.Models) != 1 || g.Models[0].ID != "m1" {
			t.Errorf("group %s = %+v", g.Name, g)
		}
	}
	if g := groups[4]; g.Error == "" || len(g.Models) != 1 || g.Models[0].ID != "kept-anyway" {
		t.Errorf("unreachable group = %+v", g)
	}
}

func TestTargetsOrderWithFallbacks(t *testing.T) {
	e := newTestEnv(t)
	a := e.mustSave(t, ProviderInput{Name: "A", Preset: "openai", APIKey: ptr("sk-a")})
	b := e.mustSave(t, ProviderInput{Name: "B", Type: "ollama"})
	off := e.mustSave(t, ProviderInput{Name: "Off", Type: "ollama", Enabled: ptr(false)})
	keyless := e.mustSave(t, ProviderInput{Name: "Keyless", Preset: "mistral"})

	if _, err := e.m.Targets(e.ctx, ModelRef{}); err == nil || !strings.Contains(err.Error(), "no default model") {
		t.Fatalf("no ref, no default = %v", err)
	}
	if err := e.m.SetDefaultModel(e.ctx, ModelRef{a.ID, "gpt-a"}); err != nil {
		t.Fatal(err)
	}
	fb := []ModelRef{{off.ID, "x"}, {b.ID, "llama"}, {keyless.ID, "mistral-large"}, {a.ID, "gpt-a"}, {a.ID, "gpt-b"}, {b.ID, "llama"}}
	if err := e.m.SetFallbacks(e.ctx, fb); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.m.Fallbacks(e.ctx); len(got) != 5 {
		t.Errorf("repeated fallback kept: %+v", got)
	}

	labels := func(ref ModelRef) []string {
		t.Helper()
		ts, err := e.m.Targets(e.ctx, ref)
		if err != nil {
			t.Fatalf("Targets(%+v): %v", ref, err)
		}
		var out []string
		for _, x := range ts {
			if x.Client == nil || x.Model == "" {
				t.Errorf("target %+v has no client or model", x)
			}
			out = append(out, x.Label)
		}
		return out
	}
	// The default first, then the usable fallbacks; disabled and keyless
	// skipped, the default not repeated.
	if got, want := labels(ModelRef{}), []string{"A · gpt-a", "B · llama", "A · gpt-b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("default route = %v, want %v", got, want)
	}
	// An explicit ref replaces the default.
	if got, want := labels(ModelRef{b.ID, "qwen"}), []string{"B · qwen", "B · llama", "A · gpt-a", "A · gpt-b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("explicit route = %v, want %v", got, want)
	}
	routes, _ := e.m.Routes(e.ctx, ModelRef{b.ID, "qwen"})
	if routes[0].Ref != (ModelRef{b.ID, "qwen"}) || routes[0].ProviderName != "B" || routes[2].Ref != (ModelRef{a.ID, "gpt-a"}) {
		t.Errorf("routes = %+v", routes)
	}
	// A chosen model whose provider cannot be used is an error, not a
	// silent switch.
	if _, err := e.m.Targets(e.ctx, ModelRef{off.ID, "x"}); err == nil || !strings.Contains(err.Error(), "Off is disabled") {
		t.Errorf("disabled choice = %v", err)
	}
	if _, err := e.m.Targets(e.ctx, ModelRef{keyless.ID, "m"}); err == nil || !strings.Contains(err.Error(), "Keyless has no API key") {
		t.Errorf("keyless choice = %v", err)
	}
	// Client follows the same rules.
	if c, err := e.m.Client(e.ctx, ModelRef{Provider: a.ID}); err != nil || c == nil {
		t.Errorf("Client(A) = %v, %v", c, err)
	}
	if _, err := e.m.Client(e.ctx, ModelRef{Provider: off.ID}); err == nil {
		t.Error("Client of a disabled provider succeeded")
	}
	if _, err := e.m.Client(e.ctx, ModelRef{Provider: "ghost"}); !errors.Is(err, store.ErrProviderNotFound) {
		t.Errorf("Client of an unknown provider = %v", err)
	}
}

func TestModelPreferenceValidation(t *testing.T) {
	e := newTestEnv(t)
	a := e.mustSave(t, ProviderInput{Name: "A", Type: "ollama"})
	cases := []struct {
		err error
		msg string
	}{
		{e.m.SetDefaultModel(e.ctx, ModelRef{Provider: a.ID}), "Default model: choose a model"},
		{e.m.SetDefaultModel(e.ctx, ModelRef{Model: "m"}), "Default model: choose a provider"},
		{e.m.SetDefaultModel(e.ctx, ModelRef{"ghost", "m"}), `Default model: there is no provider "ghost"`},
		{e.m.SetFallbacks(e.ctx, []ModelRef{{a.ID, "m"}, {a.ID, ""}}), "Fallback 2: choose a model"},
	}
	for _, c := range cases {
		if c.err == nil || c.err.Error() != c.msg {
			t.Errorf("error = %v, want %q", c.err, c.msg)
		}
	}
	if err := e.m.SetDefaultModel(e.ctx, ModelRef{a.ID, " llama "}); err != nil {
		t.Fatal(err)
	}
	if def, _ := e.m.DefaultModel(e.ctx); def != (ModelRef{a.ID, "llama"}) {
		t.Errorf("default = %+v", def)
	}
	if err := e.m.SetDefaultModel(e.ctx, ModelRef{}); err != nil {
		t.Fatal(err)
	}
	if def, _ := e.m.DefaultModel(e.ctx); !def.IsZero() {
		t.Errorf("default after clearing = %+v", def)
	}
}

func TestDetectOllama(t *testing.T) {
	srv := newFakeLLM(t, "")
	up := newTestEnv(t, func(o *Options) { o.OllamaURL = srv.URL })
	if st := up.m.DetectOllama(context.Background()); !st.Running || st.Version != "0.9.1" || st.URL != srv.URL {
		t.Errorf("running: %+v", st)
	}
	// A closed port, and something that is not Ollama.
	down := newTestEnv(t)
	if st := down.m.DetectOllama(context.Background()); st.Running {
		t.Errorf("closed port: %+v", st)
	}
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	notOllama := newTestEnv(t, func(o *Options) { o.OllamaURL = other.URL })
	if st := notOllama.m.DetectOllama(context.Background()); st.Running {
		t.Errorf("a 404 server: %+v", st)
	}
	// The default is localhost:11434.
	if m := NewManager(Options{}); m.opts.OllamaURL != "http://localhost:11434" {
		t.Errorf("default Ollama URL = %q", m.opts.OllamaURL)
	}
}

func TestNewID(t *testing.T) {
	for name, prefix := range map[string]string{
		"OpenAI":                        "openai-",
		"  My vLLM box (work)  ":        "my-vllm-box-work-",
		"本地模型":                          "provider-",
		strings.Repeat("long name ", 9): "long-name-long-name-long-",
	} {
		id := newID(name)
		if !strings.HasPrefix(id, prefix) || len(id) != len(prefix)+6 {
			t.Errorf("newID(%q) = %q, want %q + 6 characters", name, id, prefix)
		}
	}
	if newID("x") == newID("x") {
		t.Error("two ids for the same name are equal")
	}
}
