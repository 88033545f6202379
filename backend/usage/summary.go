package usage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"mcpdesk/backend/store"
)

// UsageQuery selects the model calls a summary or an export covers.
type UsageQuery struct {
	// From and To are the first and last day included, YYYY-MM-DD. An
	// empty To is today; an empty From is 29 days before To (30 days).
	From string `json:"from"`
	To   string `json:"to"`
	// TzOffsetMinutes is the zone of the days, in minutes east of UTC
	// (-new Date().getTimezoneOffset() in JavaScript): a multiple of 15
	// within ±14 hours. 0 means UTC.
	TzOffsetMinutes int `json:"tzOffsetMinutes"`
	// Provider (an id), Model and ConversationID narrow the calls when set.
	Provider       string `json:"provider"`
	Model          string `json:"model"`
	ConversationID int64  `json:"conversationId"`
}

// Totals sums a set of model calls. Reasoning tokens are part of the
// completion tokens and cached tokens part of the prompt tokens.
type Totals struct {
	Calls            int64 `json:"calls"`
	PromptTokens     int64 `json:"promptTokens"`
	CompletionTokens int64 `json:"completionTokens"`
	CachedTokens     int64 `json:"cachedTokens"`
	ReasoningTokens  int64 `json:"reasoningTokens"`
	// Cost is the estimated cost in USD, null when any call has no price
	// set (UnpricedCalls > 0).
	Cost *float64 `json:"cost"`
	// PricedCost is what the calls with a price cost: all of Cost when
	// every call has one, a lower bound otherwise.
	PricedCost    float64 `json:"pricedCost"`
	UnpricedCalls int64   `json:"unpricedCalls"`
	// CostPartial is true when some calls have a price and some do not.
	CostPartial bool `json:"costPartial"`
}

// Row is one line of a breakdown: a day, a provider or a model, with the
// Totals fields.
type Row struct {
	// Key identifies the row within its breakdown; Label names it for
	// people.
	Key   string `json:"key"`
	Label string `json:"label"`
	// Day (YYYY-MM-DD) is set in the breakdown by day; Provider (an id)
	// and Preset in those by provider and model; Model in the one by model.
	Day      string `json:"day,omitempty"`
	Provider string `json:"provider,omitempty"`
	Preset   string `json:"preset,omitempty"`
	Model    string `json:"model,omitempty"`

	Calls            int64    `json:"calls"`
	PromptTokens     int64    `json:"promptTokens"`
	CompletionTokens int64    `json:"completionTokens"`
	CachedTokens     int64    `json:"cachedTokens"`
	ReasoningTokens  int64    `json:"reasoningTokens"`
	Cost             *float64 `json:"cost"`
	PricedCost       float64  `json:"pricedCost"`
	UnpricedCalls    int64    `json:"unpricedCalls"`
	CostPartial      bool     `json:"costPartial"`
}

// ConversationRow is one conversation's line of the breakdown by
// conversation, with the Totals fields.
type ConversationRow struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	// ConversationID is 0 for the calls of no conversation (sampling
	// requests outside a chat turn).
	ConversationID int64  `json:"conversationId"`
	Title          string `json:"title"`
	// Deleted is true when the conversation no longer exists; its calls
	// still count.
	Deleted bool `json:"deleted"`

	Calls            int64    `json:"calls"`
	PromptTokens     int64    `json:"promptTokens"`
	CompletionTokens int64    `json:"completionTokens"`
	CachedTokens     int64    `json:"cachedTokens"`
	ReasoningTokens  int64    `json:"reasoningTokens"`
	Cost             *float64 `json:"cost"`
	PricedCost       float64  `json:"pricedCost"`
	UnpricedCalls    int64    `json:"unpricedCalls"`
	CostPartial      bool     `json:"costPartial"`
}

// UsageSummary is the Usage screen: totals and breakdowns of the calls a
// UsageQuery selects.
type UsageSummary struct {
	// From, To and TzOffsetMinutes are the range actually covered.
	From            string `json:"from"`
	To              string `json:"to"`
	TzOffsetMinutes int    `json:"tzOffsetMinutes"`
	Totals          Totals `json:"totals"`
	// ByDay has every day of the range, oldest first, days without calls
	// included.
	ByDay []Row `json:"byDay"`
	// ByProvider and ByModel are most expensive first, then most tokens.
	ByProvider []Row `json:"byProvider"`
	ByModel    []Row `json:"byModel"`
	// ByConversation holds the 100 most expensive conversations (then
	// most tokens); Conversations counts them all.
	ByConversation []ConversationRow `json:"byConversation"`
	Conversations  int               `json:"conversations"`
	// Unpriced names the models ("<provider> · <model>") that have calls
	// but no price set.
	Unpriced []string `json:"unpriced"`
}

// summaryConversations is how many conversations a summary lists.
const summaryConversations = 100

// maxDays bounds a query's range.
const maxDays = 3660

// span is a query's range resolved.
type span struct {
	from, to    time.Time // the instants covered: from <= t < to
	first, last time.Time // the first and last day, as UTC midnights
	offset      time.Duration
	zone        *time.Location
}

const dateLayout = "2006-01-02"

// span resolves the days of q in its zone.
func (e *Engine) span(q UsageQuery) (span, error) {
	return resolveSpan(q.From, q.To, q.TzOffsetMinutes, e.now(), true)
}

// resolveSpan reads from and to (YYYY-MM-DD, inclusive) in the zone
// offsetMin minutes east of UTC. With defaults, an empty to is today and an
// empty from 29 days before it; without, an empty end is open (zero).
func resolveSpan(from, to string, offsetMin int, now time.Time, defaults bool) (span, error) {
	offset := time.Duration(offsetMin) * time.Minute
	if offset%store.BucketSize != 0 || offset < -14*time.Hour || offset > 14*time.Hour {
		return span{}, fmt.Errorf("tzOffsetMinutes %d: %w", offsetMin, store.ErrBadOffset)
	}
	sp := span{offset: offset, zone: time.FixedZone(zoneName(offsetMin), int(offset.Seconds()))}
	var err error
	if to != "" {
		if sp.last, err = time.Parse(dateLayout, to); err != nil {
			return span{}, fmt.Errorf("to %q: want a date as YYYY-MM-DD", to)
		}
	} else if defaults {
		y, m, d := now.In(sp.zone).Date()
		sp.last = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	if from != "" {
		if sp.first, err = time.Parse(dateLayout, from); err != nil {
			return span{}, fmt.Errorf("from %q: want a date as YYYY-MM-DD", from)
		}
	} else if defaults {
		sp.first = sp.last.AddDate(0, 0, -29)
	}
	if !sp.first.IsZero() && !sp.last.IsZero() {
		if sp.first.After(sp.last) {
			return span{}, fmt.Errorf("from %s is after to %s", from, to)
		}
		if sp.last.Sub(sp.first) >= maxDays*24*time.Hour {
			return span{}, fmt.Errorf("the range %s … %s is longer than %d days", sp.first.Format(dateLayout), sp.last.Format(dateLayout), maxDays)
		}
	}
	// A local midnight is the UTC midnight of the same date minus the
	// offset.
	if !sp.first.IsZero() {
		sp.from = sp.first.Add(-offset)
	}
	if !sp.last.IsZero() {
		sp.to = sp.last.AddDate(0, 0, 1).Add(-offset)
	}
	return sp, nil
}

func zoneName(offsetMin int) string {
	sign := '+'
	if offsetMin < 0 {
		sign, offsetMin = '-', -offsetMin
	}
	return fmt.Sprintf("UTC%c%02d:%02d", sign, offsetMin/60, offsetMin%60)
}

func (sp span) filter(q UsageQuery) store.UsageFilter {
	return store.UsageFilter{From: sp.from, To: sp.to, Provider: q.Provider, Model: q.Model, ConversationID: q.ConversationID}
}

// dayKey is the YYYY-MM-DD of a day number of the store (days since
// 1970-01-01 in the query's zone).
func dayKey(day int64) string { return time.Unix(day*86400, 0).UTC().Format(dateLayout) }

// tally accumulates calls, tokens and cost.
type tally struct {
	calls    int64
	tokens   store.TokenSums
	priced   float64
	unpriced int64
}

// add counts calls with their tokens at price (nil: no price set).
func (t *tally) add(calls int64, tokens store.TokenSums, price *Price) {
	t.calls += calls
	t.tokens.Add(tokens)
	if price == nil {
		t.unpriced += calls
		return
	}
	t.priced += price.cost(tokens)
}

func (t tally) totals() Totals {
	out := Totals{
		Calls: t.calls, PromptTokens: t.tokens.Prompt, CompletionTokens: t.tokens.Completion,
		CachedTokens: t.tokens.Cached, ReasoningTokens: t.tokens.Reasoning,
		PricedCost: roundUSD(t.priced), UnpricedCalls: t.unpriced,
		CostPartial: t.unpriced > 0 && t.unpriced < t.calls,
	}
	if t.unpriced == 0 {
		c := out.PricedCost
		out.Cost = &c
	}
	return out
}

// roundUSD drops the float noise of sums below a billionth of a dollar.
func roundUSD(v float64) float64 { return math.Round(v*1e9) / 1e9 }

func (t tally) row(key, label string) Row {
	x := t.totals()
	return Row{Key: key, Label: label,
		Calls: x.Calls, PromptTokens: x.PromptTokens, CompletionTokens: x.CompletionTokens, CachedTokens: x.CachedTokens,
		ReasoningTokens: x.ReasoningTokens, Cost: x.Cost, PricedCost: x.PricedCost, UnpricedCalls: x.UnpricedCalls, CostPartial: x.CostPartial}
}

// byCost orders rows most expensive first, then most tokens, then by key.
func byCost(a, b Row) int {
	return cmp.Or(cmp.Compare(b.PricedCost, a.PricedCost),
		cmp.Compare(b.PromptTokens+b.CompletionTokens, a.PromptTokens+a.CompletionTokens),
		cmp.Compare(a.Key, b.Key))
}

// modelKey is a model of one provider, as the breakdown by model groups.
type modelKey struct{ provider, model string }

// Summary returns the totals and breakdowns of the calls q selects.
func (e *Engine) Summary(ctx context.Context, q UsageQuery) (UsageSummary, error) {
	return e.summary(ctx, q, summaryConversations)
}

// FullSummary is Summary with every conversation in ByConversation (the
// command line and exports).
func (e *Engine) FullSummary(ctx context.Context, q UsageQuery) (UsageSummary, error) {
	return e.summary(ctx, q, 0)
}

// summary is Summary listing at most convLimit conversations (<= 0: all).
func (e *Engine) summary(ctx context.Context, q UsageQuery, convLimit int) (UsageSummary, error) {
	sp, err := e.span(q)
	if err != nil {
		return UsageSummary{}, err
	}
	f := sp.filter(q)
	models, err := e.st.UsageModels(ctx)
	if err != nil {
		return UsageSummary{}, err
	}
	table, err := e.prices(ctx)
	if err != nil {
		return UsageSummary{}, err
	}
	prices := map[int64]*Price{} // by model id; nil: no price set
	var rates []store.ModelRate
	for _, m := range models {
		prices[m.ID] = nil
		if p, ok := table.lookup(m.Provider, m.Preset, m.Model); ok {
			prices[m.ID] = &p
			rates = append(rates, p.rate(m.ID))
		}
	}
	// The two aggregates are independent: run them side by side.
	var (
		groups          []store.UsageGroup
		convs           []store.ConversationUsage
		nConvs          int
		dayErr, convErr error
		wg              sync.WaitGroup
	)
	wg.Go(func() { groups, dayErr = e.st.UsageByDay(ctx, f, sp.offset, models) })
	wg.Go(func() { convs, nConvs, convErr = e.st.UsageByConversation(ctx, f, sp.offset, rates, convLimit) })
	wg.Wait()
	if err := cmp.Or(dayErr, convErr); err != nil {
		return UsageSummary{}, err
	}

	var total tally
	days := map[int64]*tally{}
	providers := map[string]*tally{}
	presets := map[string]string{}
	modelTallies := map[modelKey]*tally{}
	for _, g := range groups {
		price, listed := prices[g.ModelID]
		if !listed { // a model first recorded since models was read
			if p, ok := table.lookup(g.Provider, g.Preset, g.Model); ok {
				price = &p
			}
		}
		total.add(g.Calls, g.Tokens, price)
		for _, t := range []*tally{
			ensure(days, g.Day), ensure(providers, g.Provider), ensure(modelTallies, modelKey{g.Provider, g.Model}),
		} {
			t.add(g.Calls, g.Tokens, price)
		}
		if presets[g.Provider] == "" {
			presets[g.Provider] = g.Preset
		}
	}
	ids := make([]string, 0, len(providers))
	for id := range providers {
		ids = append(ids, id)
	}
	names, err := e.st.UsageProviderNames(ctx, ids)
	if err != nil {
		return UsageSummary{}, err
	}
	name := func(id string) string {
		if n := names[id]; n != "" {
			return n
		}
		return id
	}

	out := UsageSummary{
		From: sp.first.Format(dateLayout), To: sp.last.Format(dateLayout), TzOffsetMinutes: q.TzOffsetMinutes,
		Totals: total.totals(), ByDay: []Row{}, ByProvider: []Row{}, ByModel: []Row{}, Unpriced: []string{},
	}
	for d := sp.first; !d.After(sp.last); d = d.AddDate(0, 0, 1) {
		t := days[d.Unix()/86400]
		if t == nil {
			t = &tally{}
		}
		r := t.row(d.Format(dateLayout), d.Format(dateLayout))
		r.Day = r.Key
		out.ByDay = append(out.ByDay, r)
	}
	for id, t := range providers {
		r := t.row(id, name(id))
		r.Provider, r.Preset = id, presets[id]
		out.ByProvider = append(out.ByProvider, r)
	}
	for k, t := range modelTallies {
		r := t.row(k.provider+"/"+k.model, name(k.provider)+" · "+k.model)
		r.Provider, r.Preset, r.Model = k.provider, presets[k.provider], k.model
		out.ByModel = append(out.ByModel, r)
		if t.unpriced > 0 {
			out.Unpriced = append(out.Unpriced, r.Label)
		}
	}
	slices.SortFunc(out.ByProvider, byCost)
	slices.SortFunc(out.ByModel, byCost)
	slices.Sort(out.Unpriced)

	out.Conversations = nConvs
	out.ByConversation = make([]ConversationRow, 0, len(convs))
	for _, c := range convs {
		out.ByConversation = append(out.ByConversation, conversationRow(c))
	}
	return out, nil
}

func ensure[K comparable](m map[K]*tally, k K) *tally {
	t := m[k]
	if t == nil {
		t = &tally{}
		m[k] = t
	}
	return t
}

func conversationRow(c store.ConversationUsage) ConversationRow {
	t := tally{calls: c.Calls, tokens: c.Tokens, priced: c.Cost, unpriced: c.UnpricedCalls}
	x := t.totals()
	label := c.Title
	switch {
	case c.ConversationID == 0:
		label = "No conversation"
	case !c.Exists:
		label = fmt.Sprintf("Deleted conversation #%d", c.ConversationID)
	case label == "":
		label = fmt.Sprintf("Untitled conversation #%d", c.ConversationID)
	}
	return ConversationRow{
		Key: strconv.FormatInt(c.ConversationID, 10), Label: label, ConversationID: c.ConversationID, Title: c.Title,
		Deleted: c.ConversationID != 0 && !c.Exists,
		Calls:   x.Calls, PromptTokens: x.PromptTokens, CompletionTokens: x.CompletionTokens, CachedTokens: x.CachedTokens,
		ReasoningTokens: x.ReasoningTokens, Cost: x.Cost, PricedCost: x.PricedCost, UnpricedCalls: x.UnpricedCalls, CostPartial: x.CostPartial,
	}
}

// ConversationTotal sums every call of one conversation, whenever made: the
// running total a conversation shows.
func (e *Engine) ConversationTotal(ctx context.Context, id int64) (Totals, error) {
	if id <= 0 {
		return Totals{}, errors.New("conversation total: no conversation id")
	}
	groups, err := e.st.ConversationUsageByModel(ctx, id)
	if err != nil {
		return Totals{}, err
	}
	table, err := e.prices(ctx)
	if err != nil {
		return Totals{}, err
	}
	var t tally
	for _, g := range groups {
		var price *Price
		if p, ok := table.lookup(g.Provider, g.Preset, g.Model); ok {
			price = &p
		}
		t.add(g.Calls, g.Tokens, price)
	}
	return t.totals(), nil
}
