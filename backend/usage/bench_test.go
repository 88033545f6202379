package usage

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpdesk/backend/store"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchStore != nil {
		benchStore.Close()
	}
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// The benchmark's ledger: a million calls over the two years up to
// benchEnd, seeded once per process into a temporary database.
var (
	benchOnce  sync.Once
	benchDir   string
	benchStore *store.Store
	benchErr   error
	plansOnce  sync.Once
	// benchSeeded is how long seeding took.
	benchSeeded time.Duration
)

const benchCalls = 1_000_000

var benchEnd = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

// benchModels are the models of the seeded calls with a weight each; the
// last ones have no price.
var benchModels = []struct {
	provider, name, preset, model string
	weight                        int
}{
	{"openai-1a", "OpenAI", "openai", "gpt-4o", 20},
	{"openai-1a", "OpenAI", "openai", "gpt-4o-mini", 15},
	{"openai-1a", "OpenAI", "openai", "gpt-4.1-2025-04-14", 8},
	{"openai-1a", "OpenAI", "openai", "o4-mini", 5},
	{"openai-1a", "OpenAI", "openai", "o3", 3},
	{"anthropic-2b", "Anthropic", "anthropic", "claude-sonnet-4-20250514", 12},
	{"anthropic-2b", "Anthropic", "anthropic", "claude-opus-4-1-20250805", 2},
	{"deepseek-3c", "DeepSeek", "deepseek", "deepseek-chat", 10},
	{"deepseek-3c", "DeepSeek", "deepseek", "deepseek-reasoner", 4},
	{"gemini-4d", "Google Gemini", "gemini", "gemini-2.5-pro", 5},
	{"gemini-4d", "Google Gemini", "gemini", "gemini-2.5-flash", 6},
	{"groq-5e", "Groq", "groq", "llama-3.3-70b-versatile", 2},
	{"ollama-6f", "Ollama", "ollama", "llama3.2", 5},
	{"ollama-6f", "Ollama", "ollama", "qwen3:8b", 2},
	{"openrouter-7g", "OpenRouter", "openrouter", "openai/gpt-4o", 1},
}

// seedCalls yields n calls the way people make them: conversations (a
// model each) of a few turns minutes apart, each turn a few model calls
// seconds apart, with the odd fallback to another model and sampling
// request; a few sampling requests belong to no conversation.
func seedCalls(n int) func(yield func(store.UsageRecord) bool) {
	return func(yield func(store.UsageRecord) bool) {
		rng := rand.New(rand.NewPCG(1, 2))
		total := 0
		for _, m := range benchModels {
			total += m.weight
		}
		pick := func() int {
			w := rng.IntN(total)
			for i, m := range benchModels {
				if w -= m.weight; w < 0 {
					return i
				}
			}
			return 0
		}
		start := benchEnd.AddDate(-2, 0, 0)
		span := benchEnd.Sub(start)
		conv := int64(0)
		for made := 0; made < n; {
			conv++
			model := pick()
			at := start.Add(time.Duration(rng.Int64N(int64(span))))
			for turn := 1 + rng.IntN(6); turn > 0 && made < n; turn-- {
				for call := 1 + rng.IntN(8); call > 0 && made < n; call-- {
					m, kind, id := benchModels[model], store.UsageChat, conv
					switch r := rng.IntN(100); {
					case r < 4:
						m, kind = benchModels[pick()], store.UsageFallback
					case r < 6:
						kind = store.UsageSampling
					case r < 7:
						kind, id = store.UsageSampling, 0
					}
					prompt := 500 + rng.Int64N(20000)
					if !at.Before(benchEnd) {
						at = benchEnd.Add(-time.Millisecond)
					}
					rec := store.UsageRecord{
						Time: at, ConversationID: id,
						Provider: m.provider, ProviderName: m.name, Preset: m.preset, Model: m.model, Kind: kind,
						PromptTokens: prompt, CompletionTokens: rng.Int64N(2000), CachedTokens: rng.Int64N(prompt / 2),
						ReasoningTokens: rng.Int64N(300),
					}
					if !yield(rec) {
						return
					}
					made++
					at = at.Add(time.Duration(2+rng.IntN(20)) * time.Second)
				}
				at = at.Add(time.Duration(1+rng.IntN(40)) * time.Minute)
			}
		}
	}
}

// benchEngine returns an Engine over the seeded ledger.
func benchEngine(b *testing.B) *Engine {
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "mcpdesk-usage-bench-")
		if benchErr != nil {
			return
		}
		benchStore, benchErr = store.Open(benchDir, nil)
		if benchErr != nil {
			return
		}
		start := time.Now()
		benchErr = benchStore.AddUsageBatch(context.Background(), seedCalls(benchCalls))
		benchSeeded = time.Since(start)
		if benchErr != nil {
			return
		}
		// The ledger went in as one transaction, so the write-ahead log still
		// holds all of it and every page read searches the log's index. A
		// database that recorded its calls one at a time has had them
		// checkpointed long since (SQLite does it every 1,000 pages).
		db, _ := benchStore.DB().DB()
		_, benchErr = db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return New(Options{Store: benchStore})
}

func BenchmarkUsageAggregates1M(b *testing.B) {
	e := benchEngine(b)
	ctx := context.Background()
	last := benchEnd.AddDate(0, 0, -1).Format(dateLayout)
	for _, days := range []int{30, 365} {
		q := UsageQuery{From: benchEnd.AddDate(0, 0, -days).Format(dateLayout), To: last, TzOffsetMinutes: 480}
		b.Run(fmt.Sprintf("Summary%dd", days), func(b *testing.B) {
			// Logged here: a parent benchmark's log is not printed.
			plansOnce.Do(func() { logPlans(b, e, last) })
			var s UsageSummary
			for b.Loop() {
				var err error
				if s, err = e.Summary(ctx, q); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.Totals.Calls), "calls")
			b.ReportMetric(float64(s.Conversations), "conversations")
		})
	}
	// The two aggregates Summary365d runs side by side, each alone.
	q := UsageQuery{From: benchEnd.AddDate(0, 0, -365).Format(dateLayout), To: last, TzOffsetMinutes: 480}
	sp, err := e.span(q)
	if err != nil {
		b.Fatal(err)
	}
	models, rates := benchRates(b, e)
	b.Run("ByDay365d", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.st.UsageByDay(ctx, sp.filter(q), sp.offset, models); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ByConversation365d", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := e.st.UsageByConversation(ctx, sp.filter(q), sp.offset, rates, summaryConversations); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ConversationTotal", func(b *testing.B) {
		id := int64(1)
		for b.Loop() {
			if _, err := e.ConversationTotal(ctx, id); err != nil {
				b.Fatal(err)
			}
			id = id%40_000 + 1
		}
	})
}

// logPlans logs the query plan of every aggregate once, with the size of
// the rollup, and fails when one reads the ledger instead of its indexes.
func logPlans(b *testing.B, e *Engine, last string) {
	sp, err := resolveSpan(benchEnd.AddDate(0, 0, -365).Format(dateLayout), last, 480, time.Now(), true)
	if err != nil {
		b.Fatal(err)
	}
	_, rates := benchRates(b, e)
	f := store.UsageFilter{From: sp.from, To: sp.to, ConversationID: 1}
	// The first query in a zone builds its days.
	built := time.Now()
	plans, err := e.st.UsageQueryPlans(context.Background(), f, sp.offset, rates)
	b.Logf("the days of the zone UTC+8 built in %s (once)", time.Since(built).Round(time.Millisecond))
	if err != nil {
		b.Fatal(err)
	}
	var records, buckets, days int64
	db, _ := e.st.DB().DB()
	_ = db.QueryRow(`SELECT COUNT(*) FROM usage_records`).Scan(&records)
	_ = db.QueryRow(`SELECT COUNT(*) FROM usage_buckets`).Scan(&buckets)
	_ = db.QueryRow(`SELECT COUNT(*) FROM usage_days`).Scan(&days)
	b.Logf("ledger: %d calls in %d buckets (%.1f calls a bucket) and %d days of a zone, seeded in %s", records, buckets,
		float64(records)/float64(buckets), days, benchSeeded.Round(time.Millisecond))
	for _, name := range []string{"by day and model", "by conversation", "conversation total"} {
		// One line each: the benchmark output keeps only ten lines.
		plan := strings.Join(plans[name], " | ")
		b.Logf("EXPLAIN QUERY PLAN %s: %s", name, plan)
		if strings.Contains(plan, "SCAN usage_records") || strings.Contains(plan, "SCAN usage_buckets") || strings.Contains(plan, "SCAN usage_days") {
			b.Fatalf("%s scans a whole table", name)
		}
		if name == "conversation total" && !strings.Contains(plan, "COVERING INDEX usage_by_conversation") {
			b.Fatalf("%s does not use the covering index", name)
		}
		if name != "conversation total" && !strings.Contains(plan, "PRIMARY KEY (offset_min=? AND day>? AND day<?)") {
			b.Fatalf("%s does not search the days of the rollup", name)
		}
	}
}

// benchRates returns the ledger's models and the rates of those priced, as
// Summary reads them.
func benchRates(b *testing.B, e *Engine) ([]store.UsageModel, []store.ModelRate) {
	b.Helper()
	table, err := e.prices(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	models, err := e.st.UsageModels(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	var rates []store.ModelRate
	for _, m := range models {
		if p, ok := table.lookup(m.Provider, m.Preset, m.Model); ok {
			rates = append(rates, p.rate(m.ID))
		}
	}
	return models, rates
}
