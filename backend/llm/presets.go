package llm

// Preset is a known provider the user can add in one click (SPEC C1).
type Preset struct {
	// ID is stable and used in settings ("openai", "ollama", …).
	ID string `json:"id"`
	// Name is the display name.
	Name string `json:"name"`
	// Type is TypeOpenAI or TypeOllama.
	Type string `json:"type"`
	// BaseURL is the default endpoint; empty when the user must supply one
	// (Azure, custom).
	BaseURL string `json:"baseUrl"`
	// KeyEnv is the environment variable that conventionally holds the key
	// (offered as an import source), empty when there is none.
	KeyEnv string `json:"keyEnv,omitempty"`
	// KeyURL is where the user creates a key.
	KeyURL string `json:"keyUrl,omitempty"`
	// NeedsKey is true when requests fail without a key.
	NeedsKey bool `json:"needsKey"`
	// Azure selects Azure OpenAI request shaping (see Config.Azure).
	Azure bool `json:"azure,omitempty"`
	// Headers are suggested extra request headers (e.g. OpenRouter's
	// X-Title attribution).
	Headers map[string]string `json:"headers,omitempty"`
}

var presets = []Preset{
	{ID: "openai", Name: "OpenAI", Type: TypeOpenAI, BaseURL: "https://api.openai.com/v1",
		KeyEnv: "OPENAI_API_KEY", KeyURL: "https://platform.openai.com/api-keys", NeedsKey: true},
	{ID: "azure", Name: "Azure OpenAI", Type: TypeOpenAI, BaseURL: "",
		KeyEnv: "AZURE_OPENAI_API_KEY", KeyURL: "https://portal.azure.com/", NeedsKey: true, Azure: true},
	{ID: "deepseek", Name: "DeepSeek", Type: TypeOpenAI, BaseURL: "https://api.deepseek.com/v1",
		KeyEnv: "DEEPSEEK_API_KEY", KeyURL: "https://platform.deepseek.com/api_keys", NeedsKey: true},
	{ID: "openrouter", Name: "OpenRouter", Type: TypeOpenAI, BaseURL: "https://openrouter.ai/api/v1",
		KeyEnv: "OPENROUTER_API_KEY", KeyURL: "https://openrouter.ai/settings/keys", NeedsKey: true,
		Headers: map[string]string{"X-Title": "MCP Desk"}},
	{ID: "gemini", Name: "Google Gemini", Type: TypeOpenAI, BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai",
		KeyEnv: "GEMINI_API_KEY", KeyURL: "https://aistudio.google.com/apikey", NeedsKey: true},
	{ID: "anthropic", Name: "Anthropic", Type: TypeOpenAI, BaseURL: "https://api.anthropic.com/v1",
		KeyEnv: "ANTHROPIC_API_KEY", KeyURL: "https://console.anthropic.com/settings/keys", NeedsKey: true},
	{ID: "groq", Name: "Groq", Type: TypeOpenAI, BaseURL: "https://api.groq.com/openai/v1",
		KeyEnv: "GROQ_API_KEY", KeyURL: "https://console.groq.com/keys", NeedsKey: true},
	{ID: "xai", Name: "xAI", Type: TypeOpenAI, BaseURL: "https://api.x.ai/v1",
		KeyEnv: "XAI_API_KEY", KeyURL: "https://console.x.ai/", NeedsKey: true},
	{ID: "mistral", Name: "Mistral", Type: TypeOpenAI, BaseURL: "https://api.mistral.ai/v1",
		KeyEnv: "MISTRAL_API_KEY", KeyURL: "https://console.mistral.ai/api-keys", NeedsKey: true},
	{ID: "lmstudio", Name: "LM Studio", Type: TypeOpenAI, BaseURL: "http://localhost:1234/v1"},
	{ID: "ollama", Name: "Ollama", Type: TypeOllama, BaseURL: DefaultOllamaBaseURL},
	{ID: "custom", Name: "Custom (OpenAI-compatible)", Type: TypeOpenAI, BaseURL: ""},
}

// Presets returns the known providers in display order. The slice is a
// copy; callers may modify it.
func Presets() []Preset {
	out := make([]Preset, len(presets))
	for i, p := range presets {
		out[i] = p.clone()
	}
	return out
}

// PresetByID returns the preset with the given ID.
func PresetByID(id string) (Preset, bool) {
	for _, p := range presets {
		if p.ID == id {
			return p.clone(), true
		}
	}
	return Preset{}, false
}

func (p Preset) clone() Preset {
	if p.Headers != nil {
		h := make(map[string]string, len(p.Headers))
		for k, v := range p.Headers {
			h[k] = v
		}
		p.Headers = h
	}
	return p
}
