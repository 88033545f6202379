package usage

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/store"
)

// emitted keeps the events an Engine emits.
type emitted struct {
	mu  sync.Mutex
	evs []events.UsageChangedPayload
}

func (e *emitted) Emit(name events.Name, payload any) {
	if p, ok := payload.(events.UsageChangedPayload); ok && name == events.UsageChanged {
		e.mu.Lock()
		e.evs = append(e.evs, p)
		e.mu.Unlock()
	}
}

// fixture is an Engine over a real database holding a table of recorded
// calls over three days, four providers and six models.
type fixture struct {
	t     *testing.T
	ctx   context.Context
	st    *store.Store
	e     *Engine
	em    *emitted
	convA store.Conversation // titled with a comma and quotes
	convB store.Conversation
	convC store.Conversation // deleted after its call
}

var may1 = time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, ctx: ctx, st: st, em: &emitted{}}
	f.e = New(Options{Store: st, Emitter: f.em, Now: func() time.Time { return may1.Add(50 * time.Hour) }})
	for _, p := range []store.Provider{
		{ID: "openai-a1", Name: "OpenAI", Type: "openai", Preset: "openai", BaseURL: "https://api.openai.com/v1", Enabled: true},
		{ID: "ds-b2", Name: "DeepSeek", Type: "openai", Preset: "deepseek", BaseURL: "https://api.deepseek.com/v1", Enabled: true},
		{ID: "local-c3", Name: "Local", Type: "ollama", BaseURL: "http://localhost:11434", Enabled: true},
		{ID: "groq-d4", Name: "Groq", Type: "openai", Preset: "groq", BaseURL: "https://api.groq.com/openai/v1", Enabled: true},
	} {
		if _, err := st.CreateProvider(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	conv := func(title string) store.Conversation {
		c, err := st.CreateConversation(ctx, title, store.ConversationSettings{Provider: "openai-a1", Model: "gpt-4o"})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	f.convA, f.convB, f.convC = conv(`First chat, with "quotes"`), conv("Second"), conv("Third")
	// Sampling with gpt-4o-mini is priced by the user's price, not the
	// shipped one.
	if _, err := f.e.SetPrice(ctx, Price{Provider: "openai", Model: "gpt-4o-mini", InputPerM: 1, OutputPerM: 2}); err != nil {
		t.Fatal(err)
	}
	at := func(day, h, m int) time.Time {
		return may1.AddDate(0, 0, day).Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
	}
	for _, r := range []store.UsageRecord{
		// Before and after the range (UTC): 04-30 23:59 and 05-04 00:00.
		{Time: at(-1, 23, 59), ConversationID: f.convA.ID, Provider: "openai-a1", Model: "gpt-4o", PromptTokens: 1_000_000},
		{Time: at(3, 0, 0), ConversationID: f.convA.ID, Provider: "openai-a1", Model: "gpt-4o", PromptTokens: 1_000_000},
		// (800 × 2.50 + 200 × 1.25 + 500 × 10) / 1e6 = 0.00725
		{Time: at(0, 10, 0), ConversationID: f.convA.ID, Provider: "openai-a1", Model: "gpt-4o", PromptTokens: 1000, CompletionTokens: 500, CachedTokens: 200},
		// A dated variant priced as gpt-4o: (2000 × 2.50 + 100 × 10) / 1e6 = 0.006
		{Time: at(0, 11, 0), ConversationID: f.convA.ID, Provider: "openai-a1", Model: "gpt-4o-2024-08-06", PromptTokens: 2000, CompletionTokens: 100, ReasoningTokens: 40},
		// Cached rate: (6000 × 0.28 + 4000 × 0.028 + 1000 × 0.42) / 1e6 = 0.002212
		{Time: at(1, 9, 0), ConversationID: f.convB.ID, Provider: "ds-b2", Model: "deepseek-reasoner", PromptTokens: 10000, CompletionTokens: 1000, CachedTokens: 4000, ReasoningTokens: 600},
		// No cached rate: all prompt tokens at the input rate: (1000 × 0.59 + 100 × 0.79) / 1e6 = 0.000669
		{Time: at(1, 12, 0), ConversationID: f.convC.ID, Provider: "groq-d4", Model: "llama-3.3-70b-versatile", Kind: store.UsageFallback, PromptTokens: 1000, CompletionTokens: 100, CachedTokens: 400},
		// No price: tokens, no cost.
		{Time: at(1, 23, 30), ConversationID: f.convB.ID, Provider: "local-c3", Model: "llama3.2", PromptTokens: 500, CompletionTokens: 50},
		// The user's price: (100 × 1 + 20 × 2) / 1e6 = 0.00014
		{Time: at(2, 0, 10), Provider: "openai-a1", Model: "gpt-4o-mini", Kind: store.UsageSampling, PromptTokens: 100, CompletionTokens: 20},
	} {
		f.e.RecordUsage(ctx, r)
	}
	if err := st.DeleteConversation(ctx, f.convC.ID); err != nil {
		t.Fatal(err)
	}
	return f
}

func near(got *float64, want float64) bool { return got != nil && math.Abs(*got-want) < 1e-12 }

func TestSummaryAggregatesAndCosts(t *testing.T) {
	f := newFixture(t)
	s, err := f.e.Summary(f.ctx, UsageQuery{From: "2025-05-01", To: "2025-05-03"})
	if err != nil {
		t.Fatal(err)
	}
	tot := s.Totals
	if tot.Calls != 6 || tot.PromptTokens != 14600 || tot.CompletionTokens != 1770 || tot.CachedTokens != 4600 || tot.ReasoningTokens != 640 {
		t.Errorf("totals %+v", tot)
	}
	if tot.Cost != nil || !tot.CostPartial || tot.UnpricedCalls != 1 || math.Abs(tot.PricedCost-0.016271) > 1e-12 {
		t.Errorf("total cost %v partial %v priced %v unpriced %d", tot.Cost, tot.CostPartial, tot.PricedCost, tot.UnpricedCalls)
	}
	if s.From != "2025-05-01" || s.To != "2025-05-03" || len(s.ByDay) != 3 {
		t.Fatalf("range %s … %s, %d days", s.From, s.To, len(s.ByDay))
	}
	if d := s.ByDay[0]; d.Day != "2025-05-01" || d.Calls != 2 || !near(d.Cost, 0.01325) {
		t.Errorf("May 1 %+v", d)
	}
	if d := s.ByDay[1]; d.Calls != 3 || d.Cost != nil || !d.CostPartial || math.Abs(d.PricedCost-0.002881) > 1e-12 {
		t.Errorf("May 2 %+v", d)
	}
	if d := s.ByDay[2]; d.Calls != 1 || !near(d.Cost, 0.00014) {
		t.Errorf("May 3 %+v", d)
	}

	type want struct {
		key   string
		calls int64
		cost  float64 // -1: null
	}
	check := func(what string, rows []Row, wants []want) {
		t.Helper()
		if len(rows) != len(wants) {
			t.Fatalf("%s: %d rows, want %d: %+v", what, len(rows), len(wants), rows)
		}
		for i, w := range wants {
			r := rows[i]
			if r.Key != w.key || r.Calls != w.calls || (w.cost < 0) != (r.Cost == nil) || w.cost >= 0 && !near(r.Cost, w.cost) {
				t.Errorf("%s row %d: %+v, want %+v", what, i, r, w)
			}
		}
	}
	check("by provider", s.ByProvider, []want{{"openai-a1", 3, 0.01339}, {"ds-b2", 1, 0.002212}, {"groq-d4", 1, 0.000669}, {"local-c3", 1, -1}})
	check("by model", s.ByModel, []want{
		{"openai-a1/gpt-4o", 1, 0.00725}, {"openai-a1/gpt-4o-2024-08-06", 1, 0.006}, {"ds-b2/deepseek-reasoner", 1, 0.002212},
		{"groq-d4/llama-3.3-70b-versatile", 1, 0.000669}, {"openai-a1/gpt-4o-mini", 1, 0.00014}, {"local-c3/llama3.2", 1, -1},
	})
	if r := s.ByProvider[0]; r.Label != "OpenAI" || r.Preset != "openai" || r.Provider != "openai-a1" {
		t.Errorf("provider row %+v", r)
	}
	if r := s.ByModel[5]; r.Label != "Local · llama3.2" || r.CostPartial || r.UnpricedCalls != 1 {
		t.Errorf("unpriced model row %+v", r)
	}
	if strings.Join(s.Unpriced, "|") != "Local · llama3.2" {
		t.Errorf("unpriced %q", s.Unpriced)
	}

	convs := s.ByConversation
	if s.Conversations != 4 || len(convs) != 4 {
		t.Fatalf("%d conversations: %+v", s.Conversations, convs)
	}
	if c := convs[0]; c.ConversationID != f.convA.ID || c.Label != f.convA.Title || c.Calls != 2 || !near(c.Cost, 0.01325) {
		t.Errorf("first conversation %+v", c)
	}
	if c := convs[1]; c.ConversationID != f.convB.ID || c.Cost != nil || !c.CostPartial || math.Abs(c.PricedCost-0.002212) > 1e-12 {
		t.Errorf("second conversation %+v", c)
	}
	if c := convs[2]; c.ConversationID != f.convC.ID || !c.Deleted || c.Label != "Deleted conversation #3" || !near(c.Cost, 0.000669) {
		t.Errorf("deleted conversation %+v", c)
	}
	if c := convs[3]; c.ConversationID != 0 || c.Label != "No conversation" || !near(c.Cost, 0.00014) {
		t.Errorf("no conversation %+v", c)
	}

	// Local days at UTC+1: the 04-30 23:59 call falls on May 1, the
	// 23:30 call on May 3, and the call at 05-04 00:00 UTC is outside.
	s, err = f.e.Summary(f.ctx, UsageQuery{From: "2025-05-01", To: "2025-05-03", TzOffsetMinutes: 60})
	if err != nil {
		t.Fatal(err)
	}
	if got := [3]int64{s.ByDay[0].Calls, s.ByDay[1].Calls, s.ByDay[2].Calls}; got != [3]int64{3, 2, 2} || s.Totals.Calls != 7 {
		t.Errorf("UTC+1 days %v, total %d", got, s.Totals.Calls)
	}

	// Filters.
	s, err = f.e.Summary(f.ctx, UsageQuery{From: "2025-05-01", To: "2025-05-03", Provider: "ds-b2"})
	if err != nil || s.Totals.Calls != 1 || !near(s.Totals.Cost, 0.002212) || len(s.ByModel) != 1 {
		t.Errorf("provider filter: %+v, %v", s.Totals, err)
	}
	s, err = f.e.Summary(f.ctx, UsageQuery{From: "2025-05-01", To: "2025-05-03", Model: "llama3.2"})
	if err != nil || s.Totals.Calls != 1 || s.Totals.Cost != nil || s.Totals.CostPartial {
		t.Errorf("model filter: %+v, %v", s.Totals, err)
	}
	s, err = f.e.Summary(f.ctx, UsageQuery{From: "2025-05-01", To: "2025-05-03", ConversationID: f.convA.ID})
	if err != nil || s.Totals.Calls != 2 || len(s.ByConversation) != 1 {
		t.Errorf("conversation filter: %+v, %v", s.Totals, err)
	}

	// Without dates: the 30 days up to today (the fixture's clock says
	// May 3).
	s, err = f.e.Summary(f.ctx, UsageQuery{})
	if err != nil || s.From != "2025-04-04" || s.To != "2025-05-03" || len(s.ByDay) != 30 || s.Totals.Calls != 7 {
		t.Errorf("default range %s … %s, %d days, %d calls, %v", s.From, s.To, len(s.ByDay), s.Totals.Calls, err)
	}
}

func TestConversationTotal(t *testing.T) {
	f := newFixture(t)
	// All of conversation A's calls, inside the range or not.
	tot, err := f.e.ConversationTotal(f.ctx, f.convA.ID)
	if err != nil || tot.Calls != 4 || !near(tot.Cost, 5.01325) {
		t.Fatalf("conversation A %+v, %v", tot, err)
	}
	tot, err = f.e.ConversationTotal(f.ctx, f.convB.ID)
	if err != nil || tot.Calls != 2 || tot.Cost != nil || !tot.CostPartial {
		t.Fatalf("conversation B %+v, %v", tot, err)
	}
	if tot, err := f.e.ConversationTotal(f.ctx, 999); err != nil || tot.Calls != 0 || !near(tot.Cost, 0) {
		t.Errorf("unknown conversation %+v, %v", tot, err)
	}
}

func TestRecordUsageFillsProviderAndEmits(t *testing.T) {
	f := newFixture(t)
	var calls []store.UsageRecord
	err := f.st.UsageRecords(f.ctx, store.UsageFilter{}, func(r store.UsageRecord) error { calls = append(calls, r); return nil })
	if err != nil || len(calls) != 8 {
		t.Fatalf("%d records, %v", len(calls), err)
	}
	for _, r := range calls {
		if r.ProviderName == "" || r.Provider == "ds-b2" && r.Preset != "deepseek" || r.Provider == "local-c3" && r.Preset != "" {
			t.Errorf("record %+v", r)
		}
	}
	f.em.mu.Lock()
	defer f.em.mu.Unlock()
	if len(f.em.evs) != 8 || f.em.evs[2].ConversationID != f.convA.ID || f.em.evs[7].ConversationID != 0 {
		t.Errorf("usage:changed events %+v", f.em.evs)
	}
	// A record the store refuses is logged, not recorded, and not announced.
	f.e.RecordUsage(f.ctx, store.UsageRecord{Provider: "x"})
	if len(f.em.evs) != 8 {
		t.Errorf("a refused record was announced")
	}
}

func TestPriceLookup(t *testing.T) {
	table := newPriceTable([]Price{
		{Provider: "openai", Model: "gpt-4o", InputPerM: 9, OutputPerM: 9},     // replaces the shipped price
		{Provider: "my-proxy-1", Model: "gpt-4o", InputPerM: 1, OutputPerM: 1}, // for one provider
		{Provider: "openrouter", Model: "openai/gpt-4o", InputPerM: 3, OutputPerM: 4},
	})
	for _, c := range []struct {
		provider, preset, model string
		want                    string // "provider/model source", "" for none
	}{
		{"p", "openai", "gpt-4o", "openai/gpt-4o user"},
		{"p", "openai", "gpt-4o-2024-08-06", "openai/gpt-4o user"},
		{"p", "openai", "GPT-4o-Mini", "openai/gpt-4o-mini default"},
		{"p", "openai", "gpt-4o-mini-2024-07-18", "openai/gpt-4o-mini default"},
		{"p", "openai", "gpt-4o-audio-preview", ""},
		{"p", "openai", "gpt-4.1-nano-2025-04-14", "openai/gpt-4.1-nano default"},
		{"p", "openai", "o3-mini", "openai/o3-mini default"},
		{"p", "openai", "o3-2025-04-16", "openai/o3 default"},
		{"p", "openai", "o1", ""},
		{"my-proxy-1", "openai", "gpt-4o", "my-proxy-1/gpt-4o user"},
		{"my-proxy-1", "openai", "gpt-4o-mini", "openai/gpt-4o-mini default"},
		{"my-proxy-1", "", "gpt-4o-2024-11-20", "my-proxy-1/gpt-4o user"},
		{"p", "anthropic", "claude-sonnet-4-20250514", "anthropic/claude-sonnet-4 default"},
		{"p", "anthropic", "claude-opus-4-5-20251101", "anthropic/claude-opus-4-5 default"},
		{"p", "anthropic", "claude-opus-4-1-20250805", "anthropic/claude-opus-4-1 default"},
		{"p", "anthropic", "claude-3-5-haiku-latest", "anthropic/claude-3-5-haiku default"},
		{"p", "gemini", "gemini-2.5-flash-lite", "gemini/gemini-2.5-flash-lite default"},
		{"p", "gemini", "gemini-2.5-flash-preview-05-20", ""},
		{"p", "gemini", "gemini-2.0-flash-001", "gemini/gemini-2.0-flash default"},
		{"p", "deepseek", "deepseek-reasoner", "deepseek/deepseek-reasoner default"},
		{"p", "xai", "grok-3-mini", "xai/grok-3-mini default"},
		{"p", "groq", "llama-3.3-70b-versatile", "groq/llama-3.3-70b-versatile default"},
		{"p", "mistral", "mistral-small-latest", "mistral/mistral-small-latest default"},
		{"p", "openrouter", "openai/gpt-4o", "openrouter/openai/gpt-4o user"},
		{"p", "azure", "gpt-4o", ""}, // an Azure deployment is named by its owner
		{"p", "", "gpt-4o", ""},
		{"p", "ollama", "llama3.2", ""},
	} {
		p, ok := table.lookup(c.provider, c.preset, c.model)
		got := ""
		if ok {
			got = p.Provider + "/" + p.Model + " " + p.Source
		}
		if got != c.want {
			t.Errorf("%s (%s) %s: %q, want %q", c.provider, c.preset, c.model, got, c.want)
		}
	}
	// Every shipped model of the brief has a price.
	for _, m := range []string{"openai/gpt-4o", "openai/gpt-4o-mini", "openai/gpt-4.1", "openai/gpt-4.1-mini", "openai/gpt-4.1-nano",
		"openai/o3", "openai/o3-mini", "openai/o4-mini", "deepseek/deepseek-chat", "deepseek/deepseek-reasoner",
		"anthropic/claude-sonnet-4", "anthropic/claude-opus-4", "anthropic/claude-3-5-haiku", "gemini/gemini-2.5-pro",
		"gemini/gemini-2.5-flash", "gemini/gemini-2.0-flash", "groq/llama-3.3-70b-versatile", "mistral/mistral-large-latest",
		"mistral/mistral-small-latest", "xai/grok-3", "xai/grok-3-mini"} {
		preset, model, _ := strings.Cut(m, "/")
		if _, ok := newPriceTable(nil).lookup("p", preset, model); !ok {
			t.Errorf("no shipped price for %s", m)
		}
	}
}

func TestSetAndResetPrice(t *testing.T) {
	f := newFixture(t)
	before, err := f.e.Prices(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	// gpt-4o-mini: the fixture's price replaces the shipped one.
	n := 0
	for _, p := range before {
		if p.Provider == "openai" && p.Model == "gpt-4o-mini" {
			n++
			if p.Source != SourceUser || p.InputPerM != 1 || p.CachedInputPerM != nil {
				t.Errorf("gpt-4o-mini %+v", p)
			}
		}
	}
	if n != 1 || len(before) != len(defaultPrices) {
		t.Fatalf("%d prices, %d for gpt-4o-mini", len(before), n)
	}
	// A price for one provider id beats its preset's, variants included.
	p, err := f.e.SetPrice(f.ctx, Price{Provider: " openai-a1 ", Model: "GPT-4o", InputPerM: 0, CachedInputPerM: perM(0), OutputPerM: 0, Source: "default"})
	if err != nil || p.Source != SourceUser || p.Provider != "openai-a1" {
		t.Fatalf("SetPrice = %+v, %v", p, err)
	}
	tot, _ := f.e.ConversationTotal(f.ctx, f.convA.ID)
	if !near(tot.Cost, 0) {
		t.Errorf("conversation A at the provider's price of 0: %+v", tot.Cost)
	}
	for _, bad := range []Price{
		{Provider: "openai", InputPerM: 1},
		{Model: "x", InputPerM: 1},
		{Provider: "openai", Model: "x", InputPerM: -1},
		{Provider: "openai", Model: "x", OutputPerM: math.NaN()},
		{Provider: "openai", Model: "x", CachedInputPerM: perM(1e9)},
	} {
		if _, err := f.e.SetPrice(f.ctx, bad); err == nil {
			t.Errorf("SetPrice(%+v) accepted", bad)
		}
	}
	if err := f.e.ResetPrice(f.ctx, "openai-a1", "gpt-4o"); err != nil {
		t.Fatal(err)
	}
	if err := f.e.ResetPrice(f.ctx, "openai", "gpt-4o-mini"); err != nil {
		t.Fatal(err)
	}
	if err := f.e.ResetPrice(f.ctx, "nobody", "nothing"); err != nil {
		t.Errorf("reset of a price never set: %v", err)
	}
	tot, _ = f.e.ConversationTotal(f.ctx, f.convA.ID)
	if !near(tot.Cost, 5.01325) {
		t.Errorf("conversation A after reset: %v", *tot.Cost)
	}
	after, _ := f.e.Prices(f.ctx)
	for _, p := range after {
		if p.Source != SourceDefault {
			t.Errorf("after the resets: %+v", p)
		}
	}
	// The sampling call is priced at the shipped gpt-4o-mini price again.
	s, _ := f.e.Summary(f.ctx, UsageQuery{From: "2025-05-03", To: "2025-05-03"})
	if !near(s.Totals.Cost, (100*0.15+20*0.60)/1e6) {
		t.Errorf("May 3 at the shipped price: %v", s.Totals.Cost)
	}
}

func TestQueryErrors(t *testing.T) {
	f := newFixture(t)
	for _, q := range []UsageQuery{
		{From: "2025-05-03", To: "2025-05-01"},
		{From: "May 1"},
		{To: "2025-13-01"},
		{TzOffsetMinutes: 7},
		{TzOffsetMinutes: 15 * 60},
		{From: "2000-01-01", To: "2025-01-01"},
	} {
		if _, err := f.e.Summary(f.ctx, q); err == nil {
			t.Errorf("Summary(%+v) accepted", q)
		}
	}
	if _, err := f.e.Summary(f.ctx, UsageQuery{TzOffsetMinutes: 5*60 + 45}); err != nil {
		t.Errorf("Nepal's offset: %v", err)
	}
	if _, err := f.e.ConversationTotal(f.ctx, 0); err == nil {
		t.Error("ConversationTotal(0) accepted")
	}
	var buf strings.Builder
	if err := f.e.WriteCSV(f.ctx, &buf, UsageQuery{}, "week"); err == nil {
		t.Error("export by week accepted")
	}
}

// fakeSaver answers the save dialog with a fixed path.
type fakeSaver struct {
	path        string
	title, name string
}

func (s *fakeSaver) SaveFile(title, name string) (string, error) {
	s.title, s.name = title, name
	return s.path, nil
}

func TestServiceExportAndSave(t *testing.T) {
	f := newFixture(t)
	saver := &fakeSaver{path: filepath.Join(t.TempDir(), "usage.csv")}
	svc := NewService(f.e, saver, WithContext(f.ctx))
	q := UsageQuery{From: "2025-05-01", To: "2025-05-03"}
	text, err := svc.ExportCSV(q, ByDay)
	if err != nil {
		t.Fatal(err)
	}
	path, err := svc.SaveCSV(q, ByDay)
	if err != nil || path != saver.path || saver.name != "mcpdesk-usage-by-day-2025-05-01-to-2025-05-03.csv" {
		t.Fatalf("SaveCSV = %q, %v (default name %q)", path, err, saver.name)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != text {
		t.Errorf("saved file %q, %v; want the export", b, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".mcpdesk-usage-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	saver.path = "" // cancelled
	if path, err := svc.SaveCSV(q, ByDay); path != "" || err != nil {
		t.Errorf("cancelled SaveCSV = %q, %v", path, err)
	}
	if _, err := NewService(f.e, nil).SaveCSV(q, ByDay); err == nil {
		t.Error("SaveCSV without a dialog succeeded")
	}
	// The page gets at most 16 MB.
	lw := &limitWriter{w: new(bytes.Buffer), n: 10}
	if _, err := lw.Write(make([]byte, 11)); !errors.Is(err, errExportTooLarge) {
		t.Errorf("limit: %v", err)
	}
	if tot, err := svc.ConversationTotal(f.convA.ID); err != nil || tot.Calls != 4 {
		t.Errorf("ConversationTotal %+v, %v", tot, err)
	}
	if prices, err := svc.Prices(); err != nil || len(prices) == 0 {
		t.Errorf("Prices: %d, %v", len(prices), err)
	}
}
