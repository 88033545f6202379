package store

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestAddUsageAndRollup(t *testing.T) {
	ctx := context.Background()
	st := openTest(t, t.TempDir())
	day := time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)
	recs := []UsageRecord{
		{Time: day.Add(10 * time.Hour), ConversationID: 1, Provider: "p1", Preset: "openai", Model: "gpt-4o", PromptTokens: 100, CompletionTokens: 10, CachedTokens: 5, ReasoningTokens: 2},
		{Time: day.Add(10*time.Hour + 5*time.Minute), ConversationID: 1, Provider: "p1", Preset: "openai", Model: "gpt-4o", PromptTokens: 200, CompletionTokens: 20},
		{Time: day.Add(23*time.Hour + 30*time.Minute), Provider: "p1", Preset: "openai", Model: "gpt-4o", Kind: UsageSampling, PromptTokens: 1},
		{Time: day.Add(25 * time.Hour), ConversationID: 2, Provider: "p2", Model: "llama", PromptTokens: 7},
	}
	for _, r := range recs {
		got, err := st.AddUsage(ctx, r)
		if err != nil || got.ID == 0 || got.Kind == "" {
			t.Fatalf("AddUsage = %+v, %v", got, err)
		}
	}
	if _, err := st.AddUsage(ctx, UsageRecord{Model: "x"}); err == nil {
		t.Error("a record without provider was accepted")
	}
	// The two calls of conversation 1 share a bucket.
	var buckets int
	if err := st.sqlDB.QueryRow(`SELECT COUNT(*) FROM usage_buckets`).Scan(&buckets); err != nil || buckets != 3 {
		t.Fatalf("%d buckets (%v), want 3", buckets, err)
	}

	// UTC days, then UTC+1 (the 23:30 call moves to the next day).
	for _, c := range []struct {
		offset time.Duration
		want   map[string]int64 // "day model" → calls
	}{
		{0, map[string]int64{"20209 gpt-4o": 3, "20210 llama": 1}},
		{time.Hour, map[string]int64{"20209 gpt-4o": 2, "20210 gpt-4o": 1, "20210 llama": 1}},
		{-90 * time.Minute, map[string]int64{"20209 gpt-4o": 3, "20209 llama": 1}},
	} {
		groups, err := st.UsageByDay(ctx, UsageFilter{}, c.offset, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, g := range groups {
			got[strconv.FormatInt(g.Day, 10)+" "+g.Model] += g.Calls
		}
		if len(got) != len(c.want) {
			t.Errorf("offset %s: groups %v, want %v", c.offset, got, c.want)
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("offset %s: %s = %d, want %d (all %v)", c.offset, k, got[k], v, got)
			}
		}
	}
	if _, err := st.UsageByDay(ctx, UsageFilter{}, 7*time.Minute, nil); err == nil {
		t.Error("an offset of 7 minutes was accepted")
	}

	// Filters and the conversation's own total.
	groups, err := st.UsageByDay(ctx, UsageFilter{From: day, To: day.Add(24 * time.Hour), ConversationID: 1}, 0, nil)
	if err != nil || len(groups) != 1 || groups[0].Calls != 2 || groups[0].Tokens != (TokenSums{300, 30, 5, 2}) {
		t.Fatalf("conversation 1 on May 1: %+v, %v", groups, err)
	}
	total, err := st.ConversationUsageByModel(ctx, 1)
	if err != nil || len(total) != 1 || total[0].Tokens.Prompt != 300 || total[0].Preset != "openai" {
		t.Fatalf("conversation total %+v, %v", total, err)
	}

	// Records cannot change; deleting one takes it out of its bucket.
	if _, err := st.sqlDB.Exec(`UPDATE usage_records SET prompt_tokens = 1`); err == nil || !strings.Contains(err.Error(), "cannot be changed") {
		t.Errorf("update = %v", err)
	}
	if _, err := st.sqlDB.Exec(`DELETE FROM usage_records WHERE model = 'llama'`); err != nil {
		t.Fatal(err)
	}
	if err := st.sqlDB.QueryRow(`SELECT COUNT(*) FROM usage_buckets`).Scan(&buckets); err != nil || buckets != 2 {
		t.Fatalf("%d buckets after the delete (%v), want 2", buckets, err)
	}
}

// The rollup gives the same sums as the raw ledger, for any zone and
// range, also after deletes.
func TestRollupMatchesLedger(t *testing.T) {
	ctx := context.Background()
	st := openTest(t, t.TempDir())
	rng := rand.New(rand.NewPCG(7, 9))
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	models := []string{"a", "b", "c"}
	var recs []UsageRecord
	for range 3000 {
		recs = append(recs, UsageRecord{
			Time:           start.Add(time.Duration(rng.Int64N(int64(60 * 24 * time.Hour)))),
			ConversationID: rng.Int64N(5), Provider: "p" + models[rng.IntN(2)], Model: models[rng.IntN(3)],
			PromptTokens: rng.Int64N(1000), CompletionTokens: rng.Int64N(100), CachedTokens: rng.Int64N(10), ReasoningTokens: rng.Int64N(5),
		})
	}
	if err := st.AddUsageBatch(ctx, slices.Values(recs)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.sqlDB.Exec(`DELETE FROM usage_records WHERE id % 7 = 0`); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		offset   time.Duration
		from, to time.Time
		conv     int64
	}{
		{0, time.Time{}, time.Time{}, 0},
		{8 * time.Hour, start.AddDate(0, 0, 10).Add(-8 * time.Hour), start.AddDate(0, 0, 40).Add(-8 * time.Hour), 0},
		{-5*time.Hour - 45*time.Minute, start.AddDate(0, 0, 3).Add(5*time.Hour + 45*time.Minute), start.AddDate(0, 0, 4).Add(5*time.Hour + 45*time.Minute), 3},
		// Ranges that end inside days: whole days and their edges in buckets.
		{8 * time.Hour, start.AddDate(0, 0, 2).Add(3*time.Hour + 15*time.Minute), start.AddDate(0, 0, 20).Add(17*time.Hour + 30*time.Minute), 0},
		{5*time.Hour + 30*time.Minute, start.Add(45 * time.Minute), start.AddDate(0, 0, 1).Add(2 * time.Hour), 2},
		{0, start.AddDate(0, 0, 30).Add(6 * time.Hour), time.Time{}, 0},
	}
	check := func(when string) {
		t.Helper()
		for _, c := range cases {
			checkDays(t, st, when, c.offset, UsageFilter{From: c.from, To: c.to, ConversationID: c.conv})
			checkConversations(t, st, when, c.offset, UsageFilter{From: c.from, To: c.to})
		}
	}
	check("built from the buckets")
	// The zones are kept now: new calls and deletes reach their days through the triggers.
	var more []UsageRecord
	for range 1000 {
		more = append(more, UsageRecord{
			Time:           start.Add(time.Duration(rng.Int64N(int64(60 * 24 * time.Hour)))),
			ConversationID: rng.Int64N(5), Provider: "p" + models[rng.IntN(2)], Model: models[rng.IntN(3)] + "-new",
			PromptTokens: rng.Int64N(1000), CompletionTokens: rng.Int64N(100), CachedTokens: rng.Int64N(10), ReasoningTokens: rng.Int64N(5),
		})
	}
	if err := st.AddUsageBatch(ctx, slices.Values(more)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.sqlDB.Exec(`DELETE FROM usage_records WHERE id % 5 = 0`); err != nil {
		t.Fatal(err)
	}
	check("kept by the triggers")
}

// checkConversations compares the sums per conversation with the ledger's.
func checkConversations(t *testing.T, st *Store, when string, offset time.Duration, f UsageFilter) {
	t.Helper()
	ctx := context.Background()
	rows, _, err := st.UsageByConversation(ctx, f, offset, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]TokenSums{}
	for _, r := range rows {
		got[r.ConversationID] = r.Tokens
	}
	want := map[int64]TokenSums{}
	st.UsageRecords(ctx, f, func(r UsageRecord) error {
		s := want[r.ConversationID]
		s.Add(TokenSums{r.PromptTokens, r.CompletionTokens, r.CachedTokens, r.ReasoningTokens})
		want[r.ConversationID] = s
		return nil
	})
	if len(got) != len(want) {
		t.Errorf("%s, offset %s %+v: %d conversations, ledger %d", when, offset, f, len(got), len(want))
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s, offset %s, conversation %d: rollup %+v, ledger %+v", when, offset, k, got[k], w)
		}
	}
}

// checkDays compares the sums per day and model with the ledger's.
func checkDays(t *testing.T, st *Store, when string, offset time.Duration, f UsageFilter) {
	t.Helper()
	ctx := context.Background()
	c := struct {
		offset   time.Duration
		from, to time.Time
		conv     int64
	}{offset, f.From, f.To, f.ConversationID}
	{
		f := UsageFilter{From: c.from, To: c.to, ConversationID: c.conv}
		groups, err := st.UsageByDay(ctx, f, c.offset, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := map[[2]string]TokenSums{}
		calls := map[[2]string]int64{}
		for _, g := range groups {
			k := [2]string{strconv.FormatInt(g.Day, 10), g.Provider + "/" + g.Model}
			s := got[k]
			s.Add(g.Tokens)
			got[k] = s
			calls[k] += g.Calls
		}
		want := map[[2]string]TokenSums{}
		wantCalls := map[[2]string]int64{}
		err = st.UsageRecords(ctx, UsageFilter{From: c.from, To: c.to, ConversationID: c.conv}, func(r UsageRecord) error {
			k := [2]string{strconv.FormatInt((r.Time.UnixMilli()+c.offset.Milliseconds())/dayMs, 10), r.Provider + "/" + r.Model}
			s := want[k]
			s.Add(TokenSums{r.PromptTokens, r.CompletionTokens, r.CachedTokens, r.ReasoningTokens})
			want[k] = s
			wantCalls[k]++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || len(want) == 0 {
			t.Fatalf("%s, offset %s %+v: %d groups, ledger has %d", when, c.offset, f, len(got), len(want))
		}
		for k, w := range want {
			if got[k] != w || calls[k] != wantCalls[k] {
				t.Errorf("%s, offset %s %v: rollup %+v (%d calls), ledger %+v (%d calls)", when, c.offset, k, got[k], calls[k], w, wantCalls[k])
			}
		}
	}
}

func TestUsageByConversation(t *testing.T) {
	ctx := context.Background()
	st := openTest(t, t.TempDir())
	c1, err := st.CreateConversation(ctx, "Cheap", ConversationSettings{Provider: "p", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := st.CreateConversation(ctx, "Dear", ConversationSettings{Provider: "p", Model: "m"})
	c3, _ := st.CreateConversation(ctx, "Gone", ConversationSettings{Provider: "p", Model: "m"})
	at := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, r := range []UsageRecord{
		{ConversationID: c1.ID, Provider: "p", Preset: "openai", Model: "gpt-4o", PromptTokens: 1_000_000},
		{ConversationID: c2.ID, Provider: "p", Preset: "openai", Model: "gpt-4o", PromptTokens: 1_000_000, CachedTokens: 2_000_000, CompletionTokens: 1_000_000},
		{ConversationID: c2.ID, Provider: "q", Model: "free", PromptTokens: 5},
		{ConversationID: c3.ID, Provider: "q", Model: "free", PromptTokens: 9},
		{Provider: "p", Preset: "openai", Model: "gpt-4o", PromptTokens: 10},
	} {
		r.Time = at
		if _, err := st.AddUsage(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.DeleteConversation(ctx, c3.ID); err != nil {
		t.Fatal(err)
	}
	models, err := st.UsageModels(ctx)
	if err != nil || len(models) != 2 || models[0].Model != "gpt-4o" || models[0].Preset != "openai" || models[1].Model != "free" {
		t.Fatalf("models %+v, %v", models, err)
	}
	rates := []ModelRate{{ModelID: models[0].ID, Input: 2, Cached: 1, Output: 10}}
	rows, total, err := st.UsageByConversation(ctx, UsageFilter{}, 0, rates, 2)
	if err != nil {
		t.Fatal(err)
	}
	// c2: cached tokens count at most the prompt's: 1M × $1 + 1M × $10.
	if total != 4 || len(rows) != 2 || rows[0].ConversationID != c2.ID || rows[0].Cost != 11 || rows[0].UnpricedCalls != 1 ||
		rows[0].Calls != 2 || rows[0].Title != "Dear" || !rows[0].Exists || rows[1].ConversationID != c1.ID || rows[1].Cost != 2 {
		t.Fatalf("top 2 of %d: %+v", total, rows)
	}
	rows, _, err = st.UsageByConversation(ctx, UsageFilter{}, 0, nil, 0)
	if err != nil || len(rows) != 4 {
		t.Fatalf("all without rates: %+v, %v", rows, err)
	}
	// Nothing costs anything: most tokens first.
	if rows[0].ConversationID != c2.ID || rows[1].ConversationID != c1.ID || rows[2].ConversationID != 0 || rows[3].ConversationID != c3.ID {
		t.Errorf("order without rates: %+v", rows)
	}
	for _, r := range rows {
		if r.Cost != 0 || r.UnpricedCalls != r.Calls {
			t.Errorf("without rates %+v", r)
		}
		if r.ConversationID == c3.ID && (r.Exists || r.Title != "") {
			t.Errorf("deleted conversation %+v", r)
		}
	}
}

func TestUsageQueryPlansUseIndexes(t *testing.T) {
	st := openTest(t, t.TempDir())
	// From 06:00 UTC: the hours before the first whole day come from the
	// buckets, the days from usage_days; each by a search of its key.
	from := time.Date(2025, 5, 1, 6, 0, 0, 0, time.UTC)
	plans, err := st.UsageQueryPlans(context.Background(), UsageFilter{From: from, To: from.AddDate(0, 0, 30), ConversationID: 1}, 0,
		[]ModelRate{{ModelID: 1}})
	if err != nil {
		t.Fatal(err)
	}
	days := "SEARCH usage_days USING PRIMARY KEY (offset_min=? AND day>? AND day<?)"
	buckets := "SEARCH usage_buckets USING PRIMARY KEY (bucket>? AND bucket<?)"
	for name, want := range map[string][]string{
		"by day and model":   {days, buckets},
		"by conversation":    {days, buckets},
		"conversation total": {"USING COVERING INDEX usage_by_conversation (conversation_id=?)"},
	} {
		plan := strings.Join(plans[name], "\n")
		for _, w := range want {
			if !strings.Contains(plan, w) {
				t.Errorf("%s plan:\n%s\nwant %q", name, plan, w)
			}
		}
		for _, scan := range []string{"SCAN usage_records", "SCAN usage_buckets", "SCAN usage_days"} {
			if strings.Contains(plan, scan) {
				t.Errorf("%s plan scans a table:\n%s", name, plan)
			}
		}
	}
}

// Migration 12 keys the days by model before conversation: the sums read
// the same after it (the days are built again when a zone is next asked
// for), and the sums by day and model of whole days need no sort.
func TestUsageDaysRekeyed(t *testing.T) {
	ctx := context.Background()
	st := openTest(t, t.TempDir())
	rng := rand.New(rand.NewPCG(12, 12))
	start := time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)
	for i := range 300 {
		r := UsageRecord{Time: start.Add(time.Duration(rng.IntN(10*24*60)) * time.Minute), ConversationID: int64(1 + rng.IntN(7)),
			Provider: "p", Model: "m" + strconv.Itoa(rng.IntN(4)), PromptTokens: int64(1 + rng.IntN(1000)), CompletionTokens: int64(i)}
		if _, err := st.AddUsage(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	offset := 8 * time.Hour
	f := UsageFilter{From: start.Add(-offset).AddDate(0, 0, 1), To: start.Add(-offset).AddDate(0, 0, 8)}
	sums := func() ([]UsageGroup, []ConversationUsage) {
		t.Helper()
		days, err := st.UsageByDay(ctx, f, offset, nil)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(days, func(a, b UsageGroup) int { return int(a.Day-b.Day)*100 + int(a.ModelID-b.ModelID) })
		convs, _, err := st.UsageByConversation(ctx, f, offset, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return days, convs
	}
	days, convs := sums()
	if len(days) == 0 || len(convs) != 7 {
		t.Fatalf("before: %d day groups, %d conversations", len(days), len(convs))
	}
	if err := st.DB().Transaction(rekeyUsageDays); err != nil {
		t.Fatal(err)
	}
	var zones int64
	st.DB().Raw(`SELECT COUNT(*) FROM usage_zones`).Scan(&zones)
	if zones != 0 {
		t.Errorf("%d zones kept their days across the migration", zones)
	}
	days2, convs2 := sums()
	if !slices.Equal(days, days2) || !slices.Equal(convs, convs2) {
		t.Errorf("sums changed:\nby day %+v\nthen   %+v\nby conversation %+v\nthen            %+v", days, days2, convs, convs2)
	}
	// New calls are kept in the new order too.
	if _, err := st.AddUsage(ctx, UsageRecord{Time: start.Add(50 * time.Hour), ConversationID: 3, Provider: "p", Model: "m1", PromptTokens: 5}); err != nil {
		t.Fatal(err)
	}
	if days3, _ := sums(); slices.Equal(days, days3) {
		t.Error("a call recorded after the migration is not in the days")
	}
	plans, err := st.UsageQueryPlans(ctx, f, offset, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plan := strings.Join(plans["by day and model"], " | "); strings.Contains(plan, "TEMP B-TREE") || !strings.Contains(plan, "SEARCH usage_days USING PRIMARY KEY") {
		t.Errorf("by day and model of whole days: %s", plan)
	}
}
