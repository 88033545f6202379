package llm

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestNewValidates(t *testing.T) {
	if _, err := New(Config{Type: "anthropic-native"}); err == nil || !strings.Contains(err.Error(), `unknown provider type "anthropic-native"`) {
		t.Errorf("unknown type: %v", err)
	}
	if _, err := New(Config{}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty type: %v", err)
	}
	if _, err := New(Config{Type: TypeOpenAI, Azure: true}); err == nil || !strings.Contains(err.Error(), "Azure") {
		t.Errorf("azure without endpoint: %v", err)
	}
	if _, err := New(Config{Type: TypeOpenAI, BaseURL: "api.openai.com/v1"}); err == nil {
		t.Error("base URL without scheme accepted")
	}
	if _, err := New(Config{Type: TypeOllama, BaseURL: "ftp://x"}); err == nil {
		t.Error("ftp base URL accepted")
	}

	c, err := New(Config{Type: "OpenAI", APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	oc := c.(*openAIClient)
	if oc.cls.baseURL != DefaultOpenAIBaseURL || oc.cls.provider != "OpenAI" {
		t.Errorf("defaults: base=%q provider=%q", oc.cls.baseURL, oc.cls.provider)
	}

	c, err = New(Config{Type: TypeOllama})
	if err != nil {
		t.Fatal(err)
	}
	if b := c.(*ollamaClient).cls.baseURL; b != DefaultOllamaBaseURL {
		t.Errorf("ollama default base = %q", b)
	}
}

func TestProviderNameFromPreset(t *testing.T) {
	c := NewOpenAI(Config{BaseURL: "https://api.deepseek.com/v1"}).(*openAIClient)
	if c.cls.provider != "DeepSeek" {
		t.Errorf("provider = %q", c.cls.provider)
	}
	c = NewOpenAI(Config{BaseURL: "http://10.0.0.5:8000/v1"}).(*openAIClient)
	if c.cls.provider != "10.0.0.5:8000" {
		t.Errorf("provider = %q", c.cls.provider)
	}
	c = NewOpenAI(Config{BaseURL: "https://x.openai.azure.com", Azure: true}).(*openAIClient)
	if c.cls.provider != "Azure OpenAI" {
		t.Errorf("provider = %q", c.cls.provider)
	}
}

func TestHTTPClientIsCopiedNotModified(t *testing.T) {
	base := &http.Client{Timeout: 5 * time.Second}
	hc := httpClient(Config{HTTPClient: base, Headers: map[string]string{"X-A": "1"}}, "")
	if base.Transport != nil {
		t.Error("caller's client was modified")
	}
	if hc.Timeout != 5*time.Second {
		t.Error("timeout not kept")
	}
	if _, ok := hc.Transport.(*transport); !ok {
		t.Errorf("transport = %T", hc.Transport)
	}
}

func TestPresets(t *testing.T) {
	want := map[string]struct {
		typ, base, env string
		key            bool
	}{
		"openai":     {TypeOpenAI, "https://api.openai.com/v1", "OPENAI_API_KEY", true},
		"azure":      {TypeOpenAI, "", "AZURE_OPENAI_API_KEY", true},
		"deepseek":   {TypeOpenAI, "https://api.deepseek.com/v1", "DEEPSEEK_API_KEY", true},
		"openrouter": {TypeOpenAI, "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", true},
		"gemini":     {TypeOpenAI, "https://generativelanguage.googleapis.com/v1beta/openai", "GEMINI_API_KEY", true},
		"anthropic":  {TypeOpenAI, "https://api.anthropic.com/v1", "ANTHROPIC_API_KEY", true},
		"groq":       {TypeOpenAI, "https://api.groq.com/openai/v1", "GROQ_API_KEY", true},
		"xai":        {TypeOpenAI, "https://api.x.ai/v1", "XAI_API_KEY", true},
		"mistral":    {TypeOpenAI, "https://api.mistral.ai/v1", "MISTRAL_API_KEY", true},
		"lmstudio":   {TypeOpenAI, "http://localhost:1234/v1", "", false},
		"ollama":     {TypeOllama, "http://localhost:11434", "", false},
		"custom":     {TypeOpenAI, "", "", false},
	}
	ps := Presets()
	if len(ps) != len(want) {
		t.Fatalf("%d presets, want %d", len(ps), len(want))
	}
	for _, p := range ps {
		w, ok := want[p.ID]
		if !ok {
			t.Errorf("unexpected preset %q", p.ID)
			continue
		}
		if p.Type != w.typ || p.BaseURL != w.base || p.KeyEnv != w.env || p.NeedsKey != w.key || p.Name == "" {
			t.Errorf("preset %s = %+v", p.ID, p)
		}
		got, ok := PresetByID(p.ID)
		if !ok || got.ID != p.ID {
			t.Errorf("PresetByID(%q)", p.ID)
		}
	}
	if az, _ := PresetByID("azure"); !az.Azure {
		t.Error("azure preset without Azure flag")
	}
	if _, ok := PresetByID("nope"); ok {
		t.Error("unknown preset found")
	}
	ps[0].Name = "changed"
	or, _ := PresetByID("openrouter")
	or.Headers["X-Title"] = "changed"
	if p, _ := PresetByID("openai"); p.Name != "OpenAI" {
		t.Error("Presets returned shared data")
	}
	if p, _ := PresetByID("openrouter"); p.Headers["X-Title"] != "MCP Desk" {
		t.Error("PresetByID returned a shared map")
	}
}
