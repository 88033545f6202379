package providers

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"time"

	"mcpdesk/backend/llm"
	"mcpdesk/backend/store"
)

// Health codes: what is known about whether a provider can be used. The UI
// translates each (providerHealth.code.<code>) with Health.Params.
const (
	// HealthUntested: configured (a key, or none needed) but not tried yet.
	HealthUntested = "untested"
	// HealthOK: the last Test or chat call proved the key.
	HealthOK = "ok"
	// HealthNoKey: the provider needs a key and has none.
	HealthNoKey = "no_key"
	// HealthEnvUnset: the key should come from an environment variable
	// that is not set. Params: name.
	HealthEnvUnset = "env_unset"
	// HealthKeychainUnreadable: the key is in the OS keychain, which could
	// not be read. Params: reason.
	HealthKeychainUnreadable = "keychain_unreadable"
	// HealthKeyRejected: the provider answered 401 or 403. Params: status.
	HealthKeyRejected = "key_rejected"
	// HealthUnreachable: no answer at all. Params: host, reason.
	HealthUnreachable = "unreachable"
	// HealthModelMissing: the model chosen for this provider (the default
	// or a fallback) does not exist there. Params: model.
	HealthModelMissing = "model_missing"
	// HealthNoModels: the provider lists no models and none was added by
	// hand, so nothing can be asked.
	HealthNoModels = "no_models"
	// HealthQuota: the key is accepted but the account has no credit.
	// Params: status.
	HealthQuota = "quota"
	// HealthRateLimited: the key is accepted; the provider asks to wait.
	// Usable. Params: status.
	HealthRateLimited = "rate_limited"
	// HealthServerError: the provider failed (5xx). Params: status.
	HealthServerError = "server_error"
	// HealthFailed: any other failure; Detail says what.
	HealthFailed = "failed"
)

// Where a Health comes from.
const (
	HealthFromConfig = "config" // the provider's settings, checked at every read
	HealthFromTest   = "test"   // the last Test
	HealthFromChat   = "chat"   // the last chat call to the provider
)

// Health is the verdict on a provider: a code the UI translates with its
// parameters, whether the provider can be used, and where the verdict comes
// from. It never holds a key.
type Health struct {
	Code   string            `json:"code" ts_type:"'untested' | 'ok' | 'no_key' | 'env_unset' | 'keychain_unreadable' | 'key_rejected' | 'unreachable' | 'model_missing' | 'no_models' | 'quota' | 'rate_limited' | 'server_error' | 'failed'"`
	Params map[string]string `json:"params,omitempty"`
	// Usable is false when calls to the provider are known to fail.
	Usable bool   `json:"usable"`
	Source string `json:"source" ts_type:"'config' | 'test' | 'chat'"`
	// At is when a Test or a chat call found this; nil for config.
	At *time.Time `json:"at,omitempty"`
	// Message is one English sentence, for the command line and logs.
	Message string `json:"message"`
	// Detail is the provider's own words (key removed), possibly empty.
	Detail string `json:"detail,omitempty"`
}

// healthBook keeps the verdicts of Tests and chat calls for this run of
// the app, by provider id. A Save or Delete forgets the provider's.
type healthBook struct {
	mu sync.Mutex
	m  map[string]Health
}

func (b *healthBook) get(id string) (Health, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	h, ok := b.m[id]
	return h, ok
}

func (b *healthBook) set(id string, h Health) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string]Health{}
	}
	b.m[id] = h
}

func (b *healthBook) forget(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.m, id)
}

// configHealth is what p's settings say without asking the provider: a
// missing key, an unset variable or an unreadable keychain. ok is false
// when the settings are fine.
func configHealth(p store.Provider, src, problem string) (Health, bool) {
	if src != KeyNone {
		return Health{}, false
	}
	switch {
	case problem != "" && needsKey(p):
		// The key would be in the keychain, which did not answer. A
		// provider that may do without a key (a local server) is tried
		// without one.
		return Health{Code: HealthKeychainUnreadable, Params: map[string]string{"reason": problem}, Source: HealthFromConfig,
			Message: fmt.Sprintf("The OS keychain could not be read, so %s has no key: %s.", p.Name, problem)}, true
	case p.KeyEnv != "":
		// Naming a variable says a key is wanted, whatever the preset.
		return Health{Code: HealthEnvUnset, Params: map[string]string{"name": p.KeyEnv}, Source: HealthFromConfig,
			Message: fmt.Sprintf("%s has no API key: the environment variable %s is not set. Set it and press Test (or Reload environment), or add a key in Settings → Providers.", p.Name, p.KeyEnv)}, true
	case needsKey(p):
		return Health{Code: HealthNoKey, Source: HealthFromConfig,
			Message: fmt.Sprintf("%s has no API key. Add one in Settings → Providers.", p.Name)}, true
	}
	return Health{}, false
}

// health is p's verdict as views show it: its settings first, then the
// last Test or chat call, else untested.
func (m *Manager) health(p store.Provider, src, problem string) Health {
	if h, bad := configHealth(p, src, problem); bad {
		return h
	}
	if h, ok := m.book.get(p.ID); ok {
		return h
	}
	return Health{Code: HealthUntested, Usable: true, Source: HealthFromConfig,
		Message: fmt.Sprintf("%s is set up but has not been tested yet.", p.Name)}
}

// TestConnection makes the cheapest requests that prove provider id can be
// used and returns the verdict, which views show until p changes: the model list, then a
// one-token completion (OpenAI-compatible) or a show request (Ollama) for
// the provider's default model, else a fallback, a model added by hand or
// the first listed one. Many OpenAI-compatible servers list models without
// checking the key, so the list alone proves nothing. Only an unknown
// provider is an error.
func (m *Manager) TestConnection(ctx context.Context, id string) (ConnectionResult, error) {
	if m.opts.ReloadEnv != nil {
		// A variable set since the app started counts (SPEC C2 keys from
		// the environment).
		m.opts.ReloadEnv(ctx)
	}
	p, err := m.st.Provider(ctx, id)
	if err != nil {
		return ConnectionResult{}, err
	}
	res := m.test(ctx, p)
	if res.Health.Source == HealthFromTest {
		m.book.set(p.ID, res.Health)
	}
	m.logger.Info("provider tested", "id", p.ID, "code", res.Health.Code, "usable", res.Health.Usable,
		"models", res.Models, "model", res.Model, "took_ms", res.LatencyMs)
	return res, nil
}

func (m *Manager) test(ctx context.Context, p store.Provider) ConnectionResult {
	key, src, problem := m.resolveKey(p)
	if h, bad := configHealth(p, src, problem); bad {
		return result(h, 0, 0, "")
	}
	client, err := m.newClient(p, key)
	if err != nil {
		return result(verdict(Health{Code: HealthFailed, Detail: err.Error(), Message: err.Error()}), 0, 0, "")
	}
	start := time.Now()
	listed, listErr := client.Models(ctx)
	if listErr == nil {
		m.cacheMu.Lock()
		m.cache[p.ID] = cachedModels{models: listed, fetched: time.Now()}
		m.cacheMu.Unlock()
	}
	if listErr != nil {
		switch llm.KindOf(listErr) {
		case llm.KindAuth, llm.KindUnreachable, llm.KindCancelled:
			return result(verdict(fromError(p, listErr, "")), 0, time.Since(start), "")
		}
	}
	model, chosen := m.probeModel(ctx, p, listed)
	if model == "" {
		if listErr != nil {
			return result(verdict(fromError(p, listErr, "")), 0, time.Since(start), "")
		}
		msg := fmt.Sprintf("%s lists no models. Add a model by hand under Models.", p.Name)
		if p.Type == TypeOllama {
			msg = fmt.Sprintf("%s has no models installed. Install one with \"ollama pull\", then press Test.", p.Name)
		}
		return result(verdict(Health{Code: HealthNoModels, Message: msg}), 0, time.Since(start), "")
	}
	v, ok := client.(llm.Verifier)
	if !ok {
		return result(verdict(Health{Code: HealthOK, Usable: true, Message: fmt.Sprintf("%s answered.", p.Name)}), len(listed), time.Since(start), model)
	}
	verr := v.Verify(ctx, model)
	took := time.Since(start)
	if verr == nil {
		return result(verdict(Health{Code: HealthOK, Usable: true, Params: map[string]string{"model": model},
			Message: fmt.Sprintf("%s accepted the key and answered with %s.", p.Name, model)}), len(listed), took, model)
	}
	h := fromError(p, verr, model)
	if e, ok := llm.AsError(verr); ok && !chosen && (h.Code == HealthModelMissing || h.Code == HealthFailed) && e.Status >= 400 && e.Status < 500 {
		// A model picked from the list that refuses a tiny completion (an
		// embedding model, a token limit) with a 4xx other than 401/403:
		// the provider answered past the key check, which is what the
		// test proves.
		h = Health{Code: HealthOK, Usable: true, Params: map[string]string{"model": model},
			Message: fmt.Sprintf("%s accepted the key.", p.Name)}
	}
	return result(verdict(h), len(listed), took, model)
}

// verdict completes h as the outcome of a Test made now.
func verdict(h Health) Health {
	now := time.Now().UTC()
	h.Source, h.At = HealthFromTest, &now
	return h
}

func result(h Health, models int, took time.Duration, model string) ConnectionResult {
	r := ConnectionResult{OK: h.Usable, Models: models, LatencyMs: took.Milliseconds(), Model: model, Health: h}
	if !h.Usable {
		r.Error = h.Message
	}
	return r
}

// probeModel picks the model a Test asks: the default model when it is
// p's, else p's first fallback, else p's first model added by hand, else
// the first model p lists. chosen is true for the default or a fallback,
// which the user picked.
func (m *Manager) probeModel(ctx context.Context, p store.Provider, listed []llm.Model) (model string, chosen bool) {
	if def, err := m.DefaultModel(ctx); err == nil && def.Provider == p.ID && def.Model != "" {
		return def.Model, true
	}
	if fbs, err := m.Fallbacks(ctx); err == nil {
		for _, fb := range fbs {
			if fb.Provider == p.ID && fb.Model != "" {
				return fb.Model, true
			}
		}
	}
	if len(p.ManualModels) > 0 {
		return p.ManualModels[0], false
	}
	if len(listed) > 0 {
		return listed[0].ID, false
	}
	return "", false
}

// fromError turns an llm error into a Health (without Source and At).
func fromError(p store.Provider, err error, model string) Health {
	e, ok := llm.AsError(err)
	if !ok {
		return Health{Code: HealthFailed, Message: err.Error(), Detail: err.Error()}
	}
	h := Health{Message: e.Message, Detail: e.Detail}
	status := map[string]string{"status": strconv.Itoa(e.Status)}
	switch e.Kind {
	case llm.KindAuth:
		h.Code, h.Params = HealthKeyRejected, status
	case llm.KindUnreachable:
		h.Code, h.Params = HealthUnreachable, map[string]string{"host": hostOf(p.BaseURL)}
	case llm.KindModelNotFound:
		h.Code, h.Params = HealthModelMissing, map[string]string{"model": model}
	case llm.KindQuota:
		h.Code, h.Params = HealthQuota, status
	case llm.KindRateLimit:
		h.Code, h.Params, h.Usable = HealthRateLimited, status, true
	case llm.KindServer:
		h.Code, h.Params = HealthServerError, status
	default:
		h.Code = HealthFailed
		if h.Detail == "" {
			h.Detail = e.Message
		}
	}
	return h
}

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return raw
}

// watchedClient reports the outcome of every chat call to its Manager, so
// that a key refused during a chat marks the provider in Settings.
type watchedClient struct {
	llm.Client
	m    *Manager
	id   string
	name string
}

// Stream implements llm.Client.
func (c watchedClient) Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta)) (*llm.Result, error) {
	res, err := c.Client.Stream(ctx, req, onDelta)
	c.m.observe(c.id, c.name, err)
	return res, err
}

// ModelTakesImages implements llm.VisionReporter when the wrapped client
// does (Ollama): the chat asks through the wrapper.
func (c watchedClient) ModelTakesImages(ctx context.Context, model string) (takes, known bool) {
	if r, ok := c.Client.(llm.VisionReporter); ok {
		return r.ModelTakesImages(ctx, model)
	}
	return false, false
}

// observe records what a chat call to provider id proved: a 401/403 marks
// it rejected, a success marks it ok (clearing an earlier rejection). Other
// failures say nothing about the key.
func (m *Manager) observe(id, name string, err error) {
	now := time.Now().UTC()
	switch {
	case err == nil:
		if h, ok := m.book.get(id); !ok || !h.Usable {
			m.book.set(id, Health{Code: HealthOK, Usable: true, Source: HealthFromChat, At: &now,
				Message: fmt.Sprintf("%s answered a chat.", name)})
		}
	case llm.KindOf(err) == llm.KindAuth:
		// The key may have been changed outside the app: the next reply
		// reads it again.
		m.keys.drop(id)
		e, _ := llm.AsError(err)
		m.book.set(id, Health{Code: HealthKeyRejected, Params: map[string]string{"status": strconv.Itoa(e.Status)},
			Source: HealthFromChat, At: &now, Message: e.Message, Detail: e.Detail})
		m.logger.Warn("provider key rejected during a chat", "id", id, "status", e.Status)
	}
}
