package providers

import (
	"context"
	"time"
)

// callTimeout bounds a bound call that talks to a provider.
const callTimeout = 30 * time.Second

// ProviderManager is the service bound to the frontend: every exported
// method is callable from JavaScript and runs on its own goroutine. It
// exposes what the Settings → Providers screen and the model picker need,
// and never a key: keys only go in, through ProviderInput.APIKey. Clients
// for the chat engine come from the Manager, which is not bound.
type ProviderManager struct {
	m   *Manager
	ctx context.Context
}

// ServiceOption configures NewService.
type ServiceOption func(*ProviderManager)

// WithContext sets the context every call runs under, typically one the
// app cancels at shutdown. The default is context.Background().
func WithContext(ctx context.Context) ServiceOption {
	return func(s *ProviderManager) {
		if ctx != nil {
			s.ctx = ctx
		}
	}
}

// NewService returns the bound service over m.
func NewService(m *Manager, opts ...ServiceOption) *ProviderManager {
	s := &ProviderManager{m: m, ctx: context.Background()}
	for _, o := range opts {
		o(s)
	}
	return s
}

// List returns every provider in display order.
func (s *ProviderManager) List() ([]Provider, error) { return s.m.List(s.ctx) }

// Presets returns the ready-made provider configurations.
func (s *ProviderManager) Presets() []Preset { return Presets() }

// Save adds (id "") or edits a provider and returns it as stored. apiKey is
// write-only: absent keeps the key, "" removes it, a value goes to the OS
// keychain (and Save fails, changing nothing, when the keychain cannot be
// used).
func (s *ProviderManager) Save(in ProviderInput) (Provider, error) { return s.m.Save(s.ctx, in) }

// Delete removes a provider, its key and the model preferences naming it.
func (s *ProviderManager) Delete(id string) error { return s.m.Delete(s.ctx, id) }

// SetEnabled enables or disables a provider and returns it.
func (s *ProviderManager) SetEnabled(id string, enabled bool) (Provider, error) {
	return s.m.SetEnabled(s.ctx, id, enabled)
}

// TestConnection reads the environment again, then proves the provider's
// key with the cheapest request (see Manager.TestConnection) and returns the
// verdict, which the provider's view shows from then on.
func (s *ProviderManager) TestConnection(id string) (ConnectionResult, error) {
	ctx, cancel := context.WithTimeout(s.ctx, callTimeout)
	defer cancel()
	return s.m.TestConnection(ctx, id)
}

// ReloadEnvironment reads the login shell's environment again, so that a
// key variable set since MCP Desk started counts, and says which key
// variables are set now. MCP servers already running keep their old
// environment until they restart.
func (s *ProviderManager) ReloadEnvironment() (EnvReload, error) {
	ctx, cancel := context.WithTimeout(s.ctx, callTimeout)
	defer cancel()
	return s.m.ReloadEnvironment(ctx)
}

// Models returns the provider's models (fetched, cached for a few minutes
// unless refresh) merged with the manual ones.
func (s *ProviderManager) Models(id string, refresh bool) (ModelList, error) {
	ctx, cancel := context.WithTimeout(s.ctx, callTimeout)
	defer cancel()
	return s.m.Models(ctx, id, refresh)
}

// AddManualModel adds a model id by hand and returns the provider.
func (s *ProviderManager) AddManualModel(id, model string) (Provider, error) {
	return s.m.AddManualModel(s.ctx, id, model)
}

// RemoveManualModel removes a model id added by hand and returns the
// provider.
func (s *ProviderManager) RemoveManualModel(id, model string) (Provider, error) {
	return s.m.RemoveManualModel(s.ctx, id, model)
}

// DefaultModel returns the default model; both fields are "" when none is
// set.
func (s *ProviderManager) DefaultModel() (ModelRef, error) { return s.m.DefaultModel(s.ctx) }

// SetDefaultModel sets the default model; an empty ref clears it.
func (s *ProviderManager) SetDefaultModel(ref ModelRef) error {
	return s.m.SetDefaultModel(s.ctx, ref)
}

// Fallbacks returns the fallback models in the order they are tried.
func (s *ProviderManager) Fallbacks() ([]ModelRef, error) { return s.m.Fallbacks(s.ctx) }

// SetFallbacks replaces the fallback models.
func (s *ProviderManager) SetFallbacks(refs []ModelRef) error { return s.m.SetFallbacks(s.ctx, refs) }

// PickerModels returns the model picker's groups: enabled providers that
// have a key or need none, with their models.
func (s *ProviderManager) PickerModels() ([]PickerProvider, error) {
	ctx, cancel := context.WithTimeout(s.ctx, callTimeout)
	defer cancel()
	return s.m.PickerModels(ctx)
}

// DetectOllama reports whether Ollama is running on this machine.
func (s *ProviderManager) DetectOllama() OllamaStatus { return s.m.DetectOllama(s.ctx) }
