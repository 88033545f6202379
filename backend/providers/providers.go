// Package providers manages the LLM providers of SPEC C2: the endpoints the
// user configured, their API keys, their models and which model is the
// default and which are the fallbacks.
//
// [Manager] is the engine: the chat engine asks it for clients ([Manager.Client],
// [Manager.Targets]) and the bound service [ProviderManager] exposes the part
// the Settings screen needs to the frontend.
//
// # Keys
//
// An API key lives in the OS keychain only, under the account
// "provider/<id>", or in an environment variable the provider names
// (KeyEnv). It never reaches the database, a log line, an error or a value
// returned to a caller: views say only whether there is a key and where it
// comes from. When the keychain cannot be used, saving a key fails and tells
// the user to use an environment variable instead; the key is not kept
// anywhere else.
package providers

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"mcpdesk/backend/llm"
	"mcpdesk/backend/secrets"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
)

// Provider types.
const (
	TypeOpenAI = "openai"
	TypeOllama = "ollama"
)

// Key sources of a Provider view.
const (
	KeyFromKeychain = "keychain"
	KeyFromEnv      = "env"
	KeyNone         = "none"
)

// DefaultOllamaURL is where Ollama listens unless told otherwise.
const DefaultOllamaURL = "http://localhost:11434"

// DefaultModelsTTL is how long a provider's fetched model list is reused.
const DefaultModelsTTL = 5 * time.Minute

// Provider is what callers learn about a configured provider. It never holds
// the key: HasKey and KeySource say whether there is one and where from.
type Provider struct {
	ID              string            `json:"id"`
	Name            string            `json:"name"`
	Type            string            `json:"type" ts_type:"'openai' | 'ollama'"`
	Preset          string            `json:"preset"`
	BaseURL         string            `json:"baseUrl"`
	KeyEnv          string            `json:"keyEnv"`
	Azure           bool              `json:"azure"`
	AzureAPIVersion string            `json:"azureApiVersion"`
	Headers         map[string]string `json:"headers"`
	Enabled         bool              `json:"enabled"`
	ManualModels    []string          `json:"manualModels"`
	// NeedsKey is false for Ollama, for presets of local servers and for
	// custom endpoints, which may or may not want one.
	NeedsKey  bool   `json:"needsKey"`
	HasKey    bool   `json:"hasKey"`
	KeySource string `json:"keySource" ts_type:"'keychain' | 'env' | 'none'"`
	// KeyProblem says why the keychain could not be read, when it could not.
	KeyProblem string `json:"keyProblem,omitempty"`
	// Usable is true when the provider is enabled and its settings allow
	// calls: a key, or none needed and no key variable named that is
	// unset. Only usable providers appear in the model picker.
	Usable bool `json:"usable"`
	// Health is the verdict on the provider: its settings, else the last
	// Test or chat call of this run, else untested.
	Health    Health    `json:"health"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// ProviderInput adds (ID "") or edits a provider.
type ProviderInput struct {
	ID              string            `json:"id"`
	Name            string            `json:"name"`
	Type            string            `json:"type"` // "openai" | "ollama"; "" takes the preset's
	Preset          string            `json:"preset"`
	BaseURL         string            `json:"baseUrl"` // "" takes the preset's, or Ollama's default
	KeyEnv          string            `json:"keyEnv"`  // environment variable holding the key, or ""
	Azure           bool              `json:"azure"`
	AzureAPIVersion string            `json:"azureApiVersion"`
	Headers         map[string]string `json:"headers"` // non-secret headers only
	// Enabled nil means true for a new provider and unchanged for an edit.
	Enabled *bool `json:"enabled,omitempty"`
	// APIKey is write-only: nil keeps the stored key, "" deletes it, and any
	// other value is stored in the OS keychain.
	APIKey *string `json:"apiKey,omitempty"`
}

// ModelRef names one model of one provider.
type ModelRef struct {
	Provider string `json:"provider"` // provider id
	Model    string `json:"model"`    // model id as the provider knows it
}

// IsZero reports whether r names nothing.
func (r ModelRef) IsZero() bool { return r == ModelRef{} }

// Preset is a ready-made provider configuration (SPEC C1).
type Preset struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Type     string `json:"type" ts_type:"'openai' | 'ollama'"`
	BaseURL  string `json:"baseUrl"`
	KeyEnv   string `json:"keyEnv"` // the variable the provider's own tools read
	KeyURL   string `json:"keyUrl"` // where to get a key
	NeedsKey bool   `json:"needsKey"`
	Azure    bool   `json:"azure"`
	// Headers are suggested extra headers, used when a new provider of
	// this preset is saved without headers.
	Headers map[string]string `json:"headers"`
}

// Options configures a Manager. NewManager copies it.
type Options struct {
	Store   *store.Store  // required
	Secrets secrets.Store // required: the OS keychain in the app
	// LookupEnv reads environment variables; the default is os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Logger receives structured logs; the default discards. No key is
	// ever logged.
	Logger *slog.Logger
	// HTTPClient makes provider and Ollama-detection requests; nil uses
	// the llm package's default and http.DefaultClient.
	HTTPClient *http.Client
	// OllamaURL is where DetectOllama looks; default DefaultOllamaURL.
	OllamaURL string
	// ModelsTTL is how long fetched model lists are reused; default
	// DefaultModelsTTL.
	ModelsTTL time.Duration
	// ReloadEnv, when set, reads the environment again (the login shell's,
	// in the app) before every Test, so that a variable set since the app
	// started counts. LookupEnv must see what it read. It reports whether
	// the environment could be read again (false: only a restart of the
	// app sees new variables).
	ReloadEnv func(ctx context.Context) bool
}

// Manager is the provider engine. It is safe for concurrent use.
type Manager struct {
	opts    Options
	st      *store.Store
	secrets secrets.Store
	logger  *slog.Logger

	// mu serializes changes, so that a key written to the keychain and
	// the row that goes with it change together.
	mu sync.Mutex

	cacheMu sync.Mutex
	cache   map[string]cachedModels

	// book keeps the verdicts of Tests and chat calls (health.go).
	book healthBook

	// keys are the keys the chat's routes use (keycache.go).
	keys keyCache
}

type cachedModels struct {
	models  []llm.Model
	fetched time.Time
}

// NewManager returns a Manager over opts.Store and opts.Secrets.
func NewManager(opts Options) *Manager {
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.OllamaURL == "" {
		opts.OllamaURL = DefaultOllamaURL
	}
	if opts.ModelsTTL <= 0 {
		opts.ModelsTTL = DefaultModelsTTL
	}
	return &Manager{
		opts:    opts,
		st:      opts.Store,
		secrets: opts.Secrets,
		logger:  opts.Logger,
		cache:   map[string]cachedModels{},
	}
}

// Presets returns the ready-made configurations, in display order.
func Presets() []Preset {
	list := llm.Presets()
	out := make([]Preset, 0, len(list))
	for _, p := range list {
		out = append(out, presetView(p))
	}
	return out
}

func presetView(p llm.Preset) Preset {
	h := p.Headers
	if h == nil {
		h = map[string]string{}
	}
	return Preset{ID: p.ID, Name: p.Name, Type: p.Type, BaseURL: p.BaseURL, KeyEnv: p.KeyEnv, KeyURL: p.KeyURL, NeedsKey: p.NeedsKey, Azure: p.Azure, Headers: h}
}

// List returns every provider in display order.
func (m *Manager) List(ctx context.Context) ([]Provider, error) {
	rows, err := m.st.Providers(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Provider, 0, len(rows))
	for _, p := range rows {
		out = append(out, m.view(p))
	}
	return out, nil
}

// Get returns one provider, or an error wrapping store.ErrProviderNotFound.
func (m *Manager) Get(ctx context.Context, id string) (Provider, error) {
	p, err := m.st.Provider(ctx, id)
	if err != nil {
		return Provider{}, err
	}
	return m.view(p), nil
}

// Save adds (in.ID "") or edits a provider and returns it as stored. It
// validates every field first and reports the first wrong one as a
// *FieldError. A key in in.APIKey goes to the keychain; when the keychain
// cannot be used, Save fails with a *KeychainError and changes nothing.
func (m *Manager) Save(ctx context.Context, in ProviderInput) (Provider, error) {
	p, err := normalize(in)
	if err != nil {
		return Provider{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()

	var old store.Provider
	if in.ID != "" {
		if old, err = m.st.Provider(ctx, in.ID); err != nil {
			return Provider{}, fmt.Errorf("save provider: %w", err)
		}
		p.ID = in.ID
		p.Enabled = old.Enabled
	} else {
		p.ID = newID(p.Name)
		p.Enabled = true
	}
	if in.Enabled != nil {
		p.Enabled = *in.Enabled
	}
	if err := m.checkNameFree(ctx, p.Name, p.ID); err != nil {
		return Provider{}, err
	}
	key := in.APIKey
	if in.ID == "" && key != nil && strings.TrimSpace(*key) == "" {
		key = nil // a new provider has no key to remove
	}

	// The keychain first: if it refuses the key, nothing has changed yet.
	undo, keyAction, err := m.applyKey(p.ID, key)
	if err != nil {
		return Provider{}, err
	}
	var saved store.Provider
	if in.ID == "" {
		saved, err = m.st.CreateProvider(ctx, p)
	} else {
		saved, err = m.st.UpdateProvider(ctx, p)
	}
	if err != nil {
		undo()
		if errors.Is(err, store.ErrProviderNameTaken) {
			return Provider{}, nameTaken(p.Name)
		}
		return Provider{}, fmt.Errorf("save provider %q: %w", p.Name, err)
	}
	m.forget(saved.ID)
	m.book.forget(saved.ID)
	m.logger.Info("provider saved", "id", saved.ID, "name", saved.Name, "type", saved.Type,
		"new", in.ID == "", "key", keyAction, "key_env", saved.KeyEnv)
	return m.view(saved), nil
}

// Delete removes a provider, its keychain entry and the model preferences
// that name it. When the keychain cannot be reached the provider is still
// removed and the entry, whose id is never reused, is left behind with a
// warning in the log.
func (m *Manager) Delete(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.st.Provider(ctx, id)
	if err != nil {
		return fmt.Errorf("delete provider: %w", err)
	}
	if err := m.secrets.Delete(account(id)); err != nil {
		m.logger.Warn("provider key not removed from the keychain", "id", id, "err", err)
	}
	if err := m.st.DeleteProvider(ctx, id); err != nil {
		return err
	}
	m.forget(id)
	m.book.forget(id)
	m.logger.Info("provider deleted", "id", id, "name", p.Name)
	return nil
}

// SetEnabled enables or disables a provider and returns it.
func (m *Manager) SetEnabled(ctx context.Context, id string, enabled bool) (Provider, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.st.SetProviderEnabled(ctx, id, enabled); err != nil {
		return Provider{}, err
	}
	m.logger.Info("provider enabled changed", "id", id, "enabled", enabled)
	return m.Get(ctx, id)
}

// checkNameFree returns a *FieldError when a provider other than id is
// called name, compared without case.
func (m *Manager) checkNameFree(ctx context.Context, name, id string) error {
	list, err := m.st.Providers(ctx)
	if err != nil {
		return err
	}
	for _, p := range list {
		if p.ID != id && strings.EqualFold(p.Name, name) {
			return nameTaken(name)
		}
	}
	return nil
}

func nameTaken(name string) error {
	return fieldErr("name", "Name: another provider is already called %q", name).with(usererr.ProviderNameTaken, usererr.Params{"name": name})
}

// view turns a stored provider into what callers see.
func (m *Manager) view(p store.Provider) Provider {
	src, problem := m.keySource(p)
	_, badConfig := configHealth(p, src, problem)
	v := Provider{
		ID: p.ID, Name: p.Name, Type: p.Type, Preset: p.Preset, BaseURL: p.BaseURL, KeyEnv: p.KeyEnv,
		Azure: p.Azure, AzureAPIVersion: p.AzureAPIVersion, Headers: p.Headers, Enabled: p.Enabled,
		ManualModels: p.ManualModels, NeedsKey: needsKey(p), HasKey: src != KeyNone, KeySource: src,
		KeyProblem: problem, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
	}
	v.Usable = v.Enabled && !badConfig
	v.Health = m.health(p, src, problem)
	return v
}

// needsKey reports whether calls to p fail without a key: Ollama and local
// presets need none, and a custom endpoint may not either.
func needsKey(p store.Provider) bool {
	if p.Type == TypeOllama {
		return false
	}
	if pr, ok := llm.PresetByID(p.Preset); ok {
		return pr.NeedsKey
	}
	return false
}

// newID returns a provider id: a slug of name and a random suffix, so that
// ids are readable in the keychain and never reused.
func newID(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 24 {
			break
		}
	}
	slug := strings.Trim(b.String(), "-")
	if slug == "" {
		slug = "provider"
	}
	return slug + "-" + strings.ToLower(rand.Text()[:6])
}
