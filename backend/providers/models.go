package providers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"mcpdesk/backend/llm"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
)

// Model is one model of a provider as the model list shows it.
type Model struct {
	ID      string `json:"id"`
	OwnedBy string `json:"ownedBy,omitempty"`
	// Listed is true when the provider's model list has it.
	Listed bool `json:"listed"`
	// Manual is true when the user added it by hand; RemoveManualModel
	// takes it away.
	Manual bool `json:"manual"`
}

// ModelList is a provider's models: the fetched ones merged with the manual
// ones, by id. When the fetch fails, Error says why in words for the user and
// Models still holds the manual entries.
type ModelList struct {
	Provider string  `json:"provider"`
	Models   []Model `json:"models"`
	Error    string  `json:"error,omitempty"`
}

// ConnectionResult is the outcome of TestConnection.
type ConnectionResult struct {
	// OK is Health.Usable.
	OK        bool  `json:"ok"`
	Models    int   `json:"models"`    // how many models the provider listed
	LatencyMs int64 `json:"latencyMs"` // time the test's requests took
	// Model is the model the key was proved with, "" when none was asked.
	Model string `json:"model,omitempty"`
	// Error is Health.Message when the provider is not usable.
	Error  string `json:"error,omitempty"`
	Health Health `json:"health"`
}

// PickerProvider is one group of the model picker: a usable provider and its
// models.
type PickerProvider struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Type   string  `json:"type" ts_type:"'openai' | 'ollama'"`
	Models []Model `json:"models"`
	Error  string  `json:"error,omitempty"`
}

// OllamaStatus says whether an Ollama server answers at URL.
type OllamaStatus struct {
	Running bool   `json:"running"`
	Version string `json:"version,omitempty"`
	URL     string `json:"url"`
}

// pickerFetchTimeout bounds the fetch of one provider's models for the
// picker, so that one dead endpoint does not hold up the others.
const pickerFetchTimeout = 10 * time.Second

// detectTimeout bounds DetectOllama.
const detectTimeout = 1500 * time.Millisecond

// maxManualModel is the longest model id AddManualModel accepts.
const maxManualModel = 256

// Models returns a provider's models: its list (fetched, or reused for
// Options.ModelsTTL unless refresh) merged with the manual entries. Only an
// unknown provider is an error; a failed fetch is reported in ModelList.Error.
func (m *Manager) Models(ctx context.Context, id string, refresh bool) (ModelList, error) {
	p, err := m.st.Provider(ctx, id)
	if err != nil {
		return ModelList{}, err
	}
	return m.models(ctx, p, refresh), nil
}

func (m *Manager) models(ctx context.Context, p store.Provider, refresh bool) ModelList {
	fetched, err := m.fetch(ctx, p, refresh)
	list := ModelList{Provider: p.ID, Models: merge(fetched, p.ManualModels)}
	if err != nil {
		list.Error = err.Error()
	}
	return list
}

// fetch returns p's model list from the cache or the provider. Its errors
// are messages for the user, without the key.
func (m *Manager) fetch(ctx context.Context, p store.Provider, refresh bool) ([]llm.Model, error) {
	if !refresh {
		m.cacheMu.Lock()
		c, ok := m.cache[p.ID]
		m.cacheMu.Unlock()
		if ok && time.Since(c.fetched) < m.opts.ModelsTTL {
			return c.models, nil
		}
	}
	models, _, err := m.listModels(ctx, p)
	if err != nil {
		return nil, err
	}
	m.cacheMu.Lock()
	m.cache[p.ID] = cachedModels{models: models, fetched: time.Now()}
	m.cacheMu.Unlock()
	return models, nil
}

// listModels asks the provider for its models and says how long it took.
func (m *Manager) listModels(ctx context.Context, p store.Provider) ([]llm.Model, time.Duration, error) {
	client, key, err := m.client(p)
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	models, err := client.Models(ctx)
	took := time.Since(start)
	if err != nil {
		if llm.KindOf(err) == llm.KindAuth {
			h := verdict(fromError(p, err, ""))
			m.book.set(p.ID, h)
		}
		msg := userMessage(err)
		m.logger.Info("provider model list failed", "id", p.ID, "kind", string(llm.KindOf(err)), "err", redact(msg, key))
		return nil, took, errors.New(redact(msg, key))
	}
	m.logger.Debug("provider model list", "id", p.ID, "models", len(models), "took", took)
	return models, took, nil
}

// client builds the llm client of p with its key, and returns the key so
// that the caller can scrub it from messages. A provider that needs a key
// and has none is an error.
func (m *Manager) client(p store.Provider) (llm.Client, string, error) {
	return m.clientWith(p, m.resolveKey)
}

// chatClient is client with the key read through the chat's key cache
// (keycache.go).
func (m *Manager) chatClient(p store.Provider) (llm.Client, error) {
	c, _, err := m.clientWith(p, func(p store.Provider) (string, string, string) { return m.keys.get(p, m.resolveKey) })
	return c, err
}

// clientWith builds p's client with the key resolve finds.
func (m *Manager) clientWith(p store.Provider, resolve func(store.Provider) (key, source, problem string)) (llm.Client, string, error) {
	key, src, problem := resolve(p)
	if src == KeyNone && needsKey(p) {
		msg := fmt.Sprintf("%s has no API key. Add one in Settings → Providers", p.Name)
		if p.KeyEnv != "" {
			msg += fmt.Sprintf(", or set the environment variable %s", p.KeyEnv)
		}
		if problem != "" {
			msg += " (" + problem + ")"
		}
		return nil, "", errors.New(msg + ".")
	}
	c, err := m.newClient(p, key)
	if err != nil {
		return nil, "", err
	}
	return c, key, nil
}

// newClient builds the llm client of p with key.
func (m *Manager) newClient(p store.Provider, key string) (llm.Client, error) {
	c, err := llm.New(llm.Config{
		Type: p.Type, Provider: p.Name, BaseURL: p.BaseURL, APIKey: key, Headers: p.Headers,
		Azure: p.Azure, AzureAPIVersion: p.AzureAPIVersion, HTTPClient: m.opts.HTTPClient, Logger: m.logger,
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %s", p.Name, redact(err.Error(), key))
	}
	return c, nil
}

// userMessage returns the sentence for the user of an llm error.
func userMessage(err error) string {
	if e, ok := llm.AsError(err); ok && e.Message != "" {
		return e.Message
	}
	return err.Error()
}

// merge lists fetched and manual models by id; a manual id the provider
// also lists is one entry with both flags.
func merge(fetched []llm.Model, manual []string) []Model {
	index := map[string]int{}
	out := make([]Model, 0, len(fetched)+len(manual))
	for _, f := range fetched {
		if _, dup := index[f.ID]; dup || f.ID == "" {
			continue
		}
		index[f.ID] = len(out)
		out = append(out, Model{ID: f.ID, OwnedBy: f.OwnedBy, Listed: true})
	}
	for _, id := range manual {
		if i, ok := index[id]; ok {
			out[i].Manual = true
			continue
		}
		index[id] = len(out)
		out = append(out, Model{ID: id, Manual: true})
	}
	slices.SortStableFunc(out, func(a, b Model) int { return strings.Compare(strings.ToLower(a.ID), strings.ToLower(b.ID)) })
	return out
}

// forget drops the cached model list of a provider.
func (m *Manager) forget(id string) {
	m.cacheMu.Lock()
	delete(m.cache, id)
	m.cacheMu.Unlock()
	m.keys.drop(id)
}

// AddManualModel adds a model id to a provider's list by hand (one the
// provider does not list, such as a fine-tune or an Azure deployment) and
// returns the provider.
func (m *Manager) AddManualModel(ctx context.Context, id, model string) (Provider, error) {
	model = strings.TrimSpace(model)
	switch {
	case model == "":
		return Provider{}, fieldErr("model", "Model name is required").with(usererr.ProviderModelRequired, nil)
	case len(model) > maxManualModel:
		return Provider{}, fieldErr("model", "Model name is longer than %d characters", maxManualModel).with(usererr.ProviderModelTooLong, usererr.Params{"max": maxManualModel})
	}
	return m.editManual(ctx, id, func(list []string) []string {
		if slices.Contains(list, model) {
			return list
		}
		return append(list, model)
	})
}

// RemoveManualModel removes a model id added by hand and returns the
// provider. Removing one that is not there is not an error.
func (m *Manager) RemoveManualModel(ctx context.Context, id, model string) (Provider, error) {
	model = strings.TrimSpace(model)
	return m.editManual(ctx, id, func(list []string) []string {
		return slices.DeleteFunc(list, func(s string) bool { return s == model })
	})
}

func (m *Manager) editManual(ctx context.Context, id string, edit func([]string) []string) (Provider, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.st.Provider(ctx, id)
	if err != nil {
		return Provider{}, err
	}
	list := edit(slices.Clone(p.ManualModels))
	if err := m.st.SetProviderManualModels(ctx, id, list); err != nil {
		return Provider{}, err
	}
	p.ManualModels = list
	return m.view(p), nil
}

// PickerModels returns the groups of the model picker: every enabled
// provider that has a key or needs none, in display order, with its models.
// Lists are fetched in parallel, each within 10 s.
func (m *Manager) PickerModels(ctx context.Context) ([]PickerProvider, error) {
	rows, err := m.st.Providers(ctx)
	if err != nil {
		return nil, err
	}
	var usable []store.Provider
	for _, p := range rows {
		if m.view(p).Usable {
			usable = append(usable, p)
		}
	}
	out := make([]PickerProvider, len(usable))
	var wg sync.WaitGroup
	for i, p := range usable {
		wg.Go(func() {
			fctx, cancel := context.WithTimeout(ctx, pickerFetchTimeout)
			defer cancel()
			list := m.models(fctx, p, false)
			out[i] = PickerProvider{ID: p.ID, Name: p.Name, Type: p.Type, Models: list.Models, Error: list.Error}
		})
	}
	wg.Wait()
	return out, nil
}

// DetectOllama checks whether Ollama answers GET /api/version at
// Options.OllamaURL, within 1.5 s.
func (m *Manager) DetectOllama(ctx context.Context) OllamaStatus {
	st := OllamaStatus{URL: m.opts.OllamaURL}
	ctx, cancel := context.WithTimeout(ctx, detectTimeout)
	defer cancel()
	v, err := llm.ProbeOllama(ctx, m.opts.OllamaURL, m.opts.HTTPClient)
	if err != nil {
		m.logger.Debug("ollama not detected", "url", m.opts.OllamaURL, "err", err)
		return st
	}
	st.Running, st.Version = true, v
	return st
}
