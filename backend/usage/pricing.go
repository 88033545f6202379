package usage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"mcpdesk/backend/store"
)

// Price is what one model costs, in USD per million tokens.
//
// Provider is a preset id ("openai", "anthropic"…), which prices the model
// for every provider made from that preset, or one provider's id, which
// prices it for that provider only. A call is priced by, in order: its
// provider's price for the model, its preset's; each first by exact model id
// and then by the longest model id that is the call's model without a date
// or version suffix ("gpt-4o" prices "gpt-4o-2024-08-06", "claude-sonnet-4"
// prices "claude-sonnet-4-20250514", but "gpt-4o" does not price
// "gpt-4o-mini"). A user's price replaces the shipped one with the same
// provider and model.
//
// Cached prompt tokens cost CachedInputPerM when it is set, else InputPerM;
// the other prompt tokens cost InputPerM. Reasoning tokens are part of the
// completion tokens, as providers count them, and cost OutputPerM.
type Price struct {
	Provider        string   `json:"provider"`
	Model           string   `json:"model"`
	InputPerM       float64  `json:"inputPerM"`
	CachedInputPerM *float64 `json:"cachedInputPerM"`
	OutputPerM      float64  `json:"outputPerM"`
	// Source is "default" for a shipped price and "user" for one the user
	// set (which may replace a shipped one).
	Source string `json:"source" ts_type:"'default' | 'user'"`
}

// Price sources.
const (
	SourceDefault = "default"
	SourceUser    = "user"
)

func perM(v float64) *float64 { return &v }

// defaultPrices are the list prices of the preset providers' common models,
// USD per million tokens (input, cached input, output), as shipped — edit
// them in the app to match your contract. Anthropic's cached rate is the
// cache-read rate; Gemini's are those of prompts up to 200K tokens (longer
// prompts cost more on 2.5 Pro); DeepSeek's are the V3.2 prices of
// September 2025 (cache hit / miss).
var defaultPrices = []Price{
	{Provider: "openai", Model: "gpt-4o", InputPerM: 2.50, CachedInputPerM: perM(1.25), OutputPerM: 10.00},
	{Provider: "openai", Model: "gpt-4o-mini", InputPerM: 0.15, CachedInputPerM: perM(0.075), OutputPerM: 0.60},
	{Provider: "openai", Model: "gpt-4.1", InputPerM: 2.00, CachedInputPerM: perM(0.50), OutputPerM: 8.00},
	{Provider: "openai", Model: "gpt-4.1-mini", InputPerM: 0.40, CachedInputPerM: perM(0.10), OutputPerM: 1.60},
	{Provider: "openai", Model: "gpt-4.1-nano", InputPerM: 0.10, CachedInputPerM: perM(0.025), OutputPerM: 0.40},
	{Provider: "openai", Model: "o3", InputPerM: 2.00, CachedInputPerM: perM(0.50), OutputPerM: 8.00},
	{Provider: "openai", Model: "o3-mini", InputPerM: 1.10, CachedInputPerM: perM(0.55), OutputPerM: 4.40},
	{Provider: "openai", Model: "o4-mini", InputPerM: 1.10, CachedInputPerM: perM(0.275), OutputPerM: 4.40},

	{Provider: "deepseek", Model: "deepseek-chat", InputPerM: 0.28, CachedInputPerM: perM(0.028), OutputPerM: 0.42},
	{Provider: "deepseek", Model: "deepseek-reasoner", InputPerM: 0.28, CachedInputPerM: perM(0.028), OutputPerM: 0.42},

	{Provider: "anthropic", Model: "claude-sonnet-4", InputPerM: 3.00, CachedInputPerM: perM(0.30), OutputPerM: 15.00},
	{Provider: "anthropic", Model: "claude-sonnet-4-5", InputPerM: 3.00, CachedInputPerM: perM(0.30), OutputPerM: 15.00},
	{Provider: "anthropic", Model: "claude-opus-4", InputPerM: 15.00, CachedInputPerM: perM(1.50), OutputPerM: 75.00},
	{Provider: "anthropic", Model: "claude-opus-4-1", InputPerM: 15.00, CachedInputPerM: perM(1.50), OutputPerM: 75.00},
	{Provider: "anthropic", Model: "claude-opus-4-5", InputPerM: 5.00, CachedInputPerM: perM(0.50), OutputPerM: 25.00},
	{Provider: "anthropic", Model: "claude-3-5-haiku", InputPerM: 0.80, CachedInputPerM: perM(0.08), OutputPerM: 4.00},
	{Provider: "anthropic", Model: "claude-haiku-4-5", InputPerM: 1.00, CachedInputPerM: perM(0.10), OutputPerM: 5.00},

	{Provider: "gemini", Model: "gemini-2.5-pro", InputPerM: 1.25, CachedInputPerM: perM(0.125), OutputPerM: 10.00},
	{Provider: "gemini", Model: "gemini-2.5-flash", InputPerM: 0.30, CachedInputPerM: perM(0.03), OutputPerM: 2.50},
	{Provider: "gemini", Model: "gemini-2.5-flash-lite", InputPerM: 0.10, CachedInputPerM: perM(0.01), OutputPerM: 0.40},
	{Provider: "gemini", Model: "gemini-2.0-flash", InputPerM: 0.10, CachedInputPerM: perM(0.025), OutputPerM: 0.40},
	{Provider: "gemini", Model: "gemini-2.0-flash-lite", InputPerM: 0.075, OutputPerM: 0.30},

	{Provider: "groq", Model: "llama-3.3-70b-versatile", InputPerM: 0.59, OutputPerM: 0.79},

	{Provider: "mistral", Model: "mistral-large-latest", InputPerM: 2.00, OutputPerM: 6.00},
	{Provider: "mistral", Model: "mistral-small-latest", InputPerM: 0.10, OutputPerM: 0.30},

	{Provider: "xai", Model: "grok-3", InputPerM: 3.00, CachedInputPerM: perM(0.75), OutputPerM: 15.00},
	{Provider: "xai", Model: "grok-3-mini", InputPerM: 0.30, CachedInputPerM: perM(0.075), OutputPerM: 0.50},
}

// pricesKey is the settings key of the user's prices.
const pricesKey = "usage.prices"

// variantSuffix matches what a dated or versioned model id adds to its
// base: "-2024-08-06", "-20250514", "-001", "-0613", "-latest".
var variantSuffix = regexp.MustCompile(`^-(?:\d{4}-\d{2}-\d{2}|\d{8}|\d{3,4}|latest)$`)

// priceKey identifies a price: provider (preset or provider id) and the
// model id without case.
type priceKey struct{ provider, model string }

func keyOf(p Price) priceKey { return priceKey{p.Provider, strings.ToLower(p.Model)} }

// priceTable is the shipped prices with the user's applied.
type priceTable struct {
	byKey      map[priceKey]Price
	byProvider map[string][]Price
}

func newPriceTable(user []Price) priceTable {
	t := priceTable{byKey: map[priceKey]Price{}, byProvider: map[string][]Price{}}
	for _, p := range defaultPrices {
		p.Source = SourceDefault
		t.byKey[keyOf(p)] = p
	}
	for _, p := range user {
		p.Source = SourceUser
		t.byKey[keyOf(p)] = p
	}
	for _, p := range t.byKey {
		t.byProvider[p.Provider] = append(t.byProvider[p.Provider], p)
	}
	return t
}

// lookup finds the price of model from provider (an id) made from preset.
func (t priceTable) lookup(provider, preset, model string) (Price, bool) {
	m := strings.ToLower(model)
	owners := []string{provider}
	if preset != "" && preset != provider {
		owners = append(owners, preset)
	}
	for _, o := range owners {
		if p, ok := t.byKey[priceKey{o, m}]; ok {
			return p, true
		}
		var best Price
		found := false
		for _, p := range t.byProvider[o] {
			base := strings.ToLower(p.Model)
			if strings.HasPrefix(m, base) && variantSuffix.MatchString(m[len(base):]) && (!found || len(base) > len(best.Model)) {
				best, found = p, true
			}
		}
		if found {
			return best, true
		}
	}
	return Price{}, false
}

// list returns every price, by provider and model.
func (t priceTable) list() []Price {
	out := make([]Price, 0, len(t.byKey))
	for _, p := range t.byKey {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Price) int {
		return cmp.Or(cmp.Compare(a.Provider, b.Provider), cmp.Compare(strings.ToLower(a.Model), strings.ToLower(b.Model)))
	})
	return out
}

// cost is what tokens cost at p, in USD.
func (p Price) cost(t store.TokenSums) float64 {
	cached := min(t.Cached, t.Prompt)
	cachedRate := p.InputPerM
	if p.CachedInputPerM != nil {
		cachedRate = *p.CachedInputPerM
	}
	return (float64(t.Prompt-cached)*p.InputPerM + float64(cached)*cachedRate + float64(t.Completion)*p.OutputPerM) / 1e6
}

// rate returns p as the store's rate of model id.
func (p Price) rate(id int64) store.ModelRate {
	r := store.ModelRate{ModelID: id, Input: p.InputPerM, Cached: p.InputPerM, Output: p.OutputPerM}
	if p.CachedInputPerM != nil {
		r.Cached = *p.CachedInputPerM
	}
	return r
}

// userPrices reads the user's prices.
func (e *Engine) userPrices(ctx context.Context) ([]Price, error) {
	var list []Price
	if _, err := e.st.GetSetting(ctx, pricesKey, &list); err != nil {
		return nil, fmt.Errorf("read prices: %w", err)
	}
	return list, nil
}

// prices returns the table in force.
func (e *Engine) prices(ctx context.Context) (priceTable, error) {
	user, err := e.userPrices(ctx)
	if err != nil {
		return priceTable{}, err
	}
	return newPriceTable(user), nil
}

// Prices lists every price: the shipped ones, with the user's in their
// place, and the user's own.
func (e *Engine) Prices(ctx context.Context) ([]Price, error) {
	t, err := e.prices(ctx)
	if err != nil {
		return nil, err
	}
	return t.list(), nil
}

// maxPricePerM bounds a price: nothing costs $100,000 per million tokens.
const maxPricePerM = 100_000

// SetPrice stores the user's price for p.Provider (a preset or provider id)
// and p.Model, replacing a shipped or earlier one, and returns it.
func (e *Engine) SetPrice(ctx context.Context, p Price) (Price, error) {
	p.Provider, p.Model = strings.TrimSpace(p.Provider), strings.TrimSpace(p.Model)
	switch {
	case p.Provider == "" || p.Model == "":
		return Price{}, errors.New("a price needs a provider (or preset) and a model")
	case badRate(p.InputPerM) || badRate(p.OutputPerM) || p.CachedInputPerM != nil && badRate(*p.CachedInputPerM):
		return Price{}, fmt.Errorf("prices are USD per million tokens, from 0 to %d", maxPricePerM)
	}
	p.Source = SourceUser
	e.pricesMu.Lock()
	defer e.pricesMu.Unlock()
	list, err := e.userPrices(ctx)
	if err != nil {
		return Price{}, err
	}
	list = slices.DeleteFunc(list, func(q Price) bool { return keyOf(q) == keyOf(p) })
	list = append(list, p)
	if err := e.st.PutSetting(ctx, pricesKey, list); err != nil {
		return Price{}, fmt.Errorf("save price: %w", err)
	}
	return p, nil
}

func badRate(v float64) bool { return math.IsNaN(v) || v < 0 || v > maxPricePerM }

// ResetPrice removes the user's price for provider and model: the shipped
// one applies again, if there is one. Resetting a price the user never set
// is not an error.
func (e *Engine) ResetPrice(ctx context.Context, provider, model string) error {
	key := priceKey{strings.TrimSpace(provider), strings.ToLower(strings.TrimSpace(model))}
	e.pricesMu.Lock()
	defer e.pricesMu.Unlock()
	list, err := e.userPrices(ctx)
	if err != nil {
		return err
	}
	kept := slices.DeleteFunc(slices.Clone(list), func(q Price) bool { return keyOf(q) == key })
	if len(kept) == len(list) {
		return nil
	}
	if err := e.st.PutSetting(ctx, pricesKey, kept); err != nil {
		return fmt.Errorf("reset price: %w", err)
	}
	return nil
}
