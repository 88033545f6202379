package providers

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"mcpdesk/backend/llm"
	"mcpdesk/backend/store"
)

// DefaultModel returns the default model, or a zero ModelRef when none is
// set.
func (m *Manager) DefaultModel(ctx context.Context) (ModelRef, error) {
	ref, _, err := m.st.DefaultModel(ctx)
	if err != nil {
		return ModelRef{}, err
	}
	return ModelRef{Provider: ref.Provider, Model: ref.Model}, nil
}

// SetDefaultModel makes ref the default model; a zero ref clears it. The
// provider must exist; the model is not checked against its list, which may
// be out of reach right now.
func (m *Manager) SetDefaultModel(ctx context.Context, ref ModelRef) error {
	ref = trimRef(ref)
	if !ref.IsZero() {
		if err := m.checkRef(ctx, ref, "Default model"); err != nil {
			return err
		}
	}
	if err := m.st.SetDefaultModel(ctx, store.ModelRef{Provider: ref.Provider, Model: ref.Model}); err != nil {
		return err
	}
	m.logger.Info("default model set", "provider", ref.Provider, "model", ref.Model)
	return nil
}

// Fallbacks returns the fallback models, in the order they are tried.
func (m *Manager) Fallbacks(ctx context.Context) ([]ModelRef, error) {
	refs, err := m.st.FallbackModels(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]ModelRef, 0, len(refs))
	for _, r := range refs {
		out = append(out, ModelRef{Provider: r.Provider, Model: r.Model})
	}
	return out, nil
}

// SetFallbacks replaces the fallback models with refs, in order. Repeated
// entries are dropped; every provider must exist.
func (m *Manager) SetFallbacks(ctx context.Context, refs []ModelRef) error {
	seen := map[ModelRef]bool{}
	list := make([]store.ModelRef, 0, len(refs))
	for i, r := range refs {
		r = trimRef(r)
		if err := m.checkRef(ctx, r, fmt.Sprintf("Fallback %d", i+1)); err != nil {
			return err
		}
		if seen[r] {
			continue
		}
		seen[r] = true
		list = append(list, store.ModelRef{Provider: r.Provider, Model: r.Model})
	}
	if err := m.st.SetFallbackModels(ctx, list); err != nil {
		return err
	}
	m.logger.Info("fallback models set", "count", len(list))
	return nil
}

func trimRef(r ModelRef) ModelRef {
	return ModelRef{Provider: strings.TrimSpace(r.Provider), Model: strings.TrimSpace(r.Model)}
}

// checkRef reports a ref without a provider or model, or whose provider
// does not exist; what names the ref in the message.
func (m *Manager) checkRef(ctx context.Context, r ModelRef, what string) error {
	switch {
	case r.Provider == "":
		return fieldErr("provider", "%s: choose a provider", what)
	case r.Model == "":
		return fieldErr("model", "%s: choose a model", what)
	}
	if _, err := m.st.Provider(ctx, r.Provider); err != nil {
		if errors.Is(err, store.ErrProviderNotFound) {
			return fieldErr("provider", "%s: there is no provider %q", what, r.Provider)
		}
		return err
	}
	return nil
}

// Client returns a client for the provider of ref (ref.Model is not used),
// with its key. The provider must be enabled and have a key unless it needs
// none.
func (m *Manager) Client(ctx context.Context, ref ModelRef) (llm.Client, error) {
	p, err := m.st.Provider(ctx, ref.Provider)
	if err != nil {
		return nil, err
	}
	if !p.Enabled {
		return nil, fmt.Errorf("%s is disabled. Enable it in Settings → Providers or pick another model.", p.Name)
	}
	c, err := m.chatClient(p)
	return c, err
}

// Route is one model a chat call may try, with what the chat engine needs
// to record who answered (SPEC E1).
type Route struct {
	Ref          ModelRef
	ProviderName string
	// Target is what llm.StreamWithFallback takes. Its Label is
	// "<provider name> · <model>".
	Target llm.Target
}

// Targets returns the models a chat call tries, in order, as
// llm.StreamWithFallback takes them: see Routes.
func (m *Manager) Targets(ctx context.Context, ref ModelRef) ([]llm.Target, error) {
	routes, err := m.Routes(ctx, ref)
	if err != nil {
		return nil, err
	}
	out := make([]llm.Target, len(routes))
	for i, r := range routes {
		out[i] = r.Target
	}
	return out, nil
}

// Routes returns the models a chat call tries, in order: ref (or, when ref
// is zero, the default model) and then the fallbacks, each with a client
// holding its key. The first entry must be usable: a disabled, keyless or
// deleted provider there is an error saying so, since the user chose it.
// Fallbacks whose provider is disabled, keyless or gone are skipped, and
// repeats are dropped. With no ref and no default model, Routes fails with a
// message asking for one.
func (m *Manager) Routes(ctx context.Context, ref ModelRef) ([]Route, error) {
	ref = trimRef(ref)
	if ref.IsZero() {
		def, err := m.DefaultModel(ctx)
		if err != nil {
			return nil, err
		}
		if def.IsZero() {
			return nil, errors.New("No model is chosen and there is no default model. Pick a model, or set a default in Settings → Providers.")
		}
		ref = def
	}
	if ref.Provider == "" || ref.Model == "" {
		return nil, errors.New("Choose a provider and a model.")
	}
	first, err := m.route(ctx, ref)
	if err != nil {
		return nil, err
	}
	out := []Route{first}
	seen := map[ModelRef]bool{ref: true}
	fallbacks, err := m.Fallbacks(ctx)
	if err != nil {
		return nil, err
	}
	for _, fb := range fallbacks {
		if seen[fb] {
			continue
		}
		seen[fb] = true
		r, err := m.route(ctx, fb)
		if err != nil {
			m.logger.Debug("fallback skipped", "provider", fb.Provider, "model", fb.Model, "err", err)
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

// route builds the Route of ref when its provider is usable.
func (m *Manager) route(ctx context.Context, ref ModelRef) (Route, error) {
	p, err := m.st.Provider(ctx, ref.Provider)
	if errors.Is(err, store.ErrProviderNotFound) {
		return Route{}, fmt.Errorf("The provider of %s no longer exists. Pick another model.", ref.Model)
	}
	if err != nil {
		return Route{}, err
	}
	if !p.Enabled {
		return Route{}, fmt.Errorf("%s is disabled. Enable it in Settings → Providers or pick another model.", p.Name)
	}
	c, err := m.chatClient(p)
	if err != nil {
		return Route{}, err
	}
	return Route{
		Ref: ref, ProviderName: p.Name,
		Target: llm.Target{Client: watchedClient{Client: c, m: m, id: p.ID, name: p.Name}, Model: ref.Model, Label: p.Name + " · " + ref.Model},
	}, nil
}
