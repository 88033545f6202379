package store

// The usage ledger (SPEC E1): one row per model call with its token counts,
// who answered (provider, its preset, model) and for which conversation.
// Costs are not stored: they are computed from the pricing table when the
// ledger is read, so a corrected price corrects the past too.
//
// # Time
//
// usage_records.time is Unix milliseconds (UTC) rather than the DATETIME
// text of the other tables: the ledger is the one table that grows to
// millions of rows, and its aggregates bucket by day with integer
// arithmetic instead of parsing dates.
//
// # The rollup
//
// A GROUP BY over raw rows sorts every row it reads (about 1 µs a row: a
// year of a heavy user's million calls is a second). So triggers keep
// usage_buckets, the same sums per 15-minute bucket (UTC), conversation and
// model, and the aggregates read that instead. Every time zone's offset is a
// multiple of 15 minutes, so a local day is an exact run of buckets for any
// zone; a query's days are computed from the bucket with the caller's
// offset. usage_models numbers the models (provider, preset, model) so that
// the rollup groups and joins on integers, and lists the models a query may
// meet before it runs. usage_records stays the ledger: per-call export and a
// conversation's running total read it.
//
// Records are immutable (a trigger refuses UPDATE); deleting one takes it
// out of its bucket.
//
// # Indexes
//
// usage_buckets is a WITHOUT ROWID table keyed (bucket, conversation,
// model): a date range is one search of its primary key. On usage_records,
// usage_by_time orders the per-call export, usage_by_conversation covers a
// conversation's total (no table reads), and usage_by_model serves look-ups
// by provider and model.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
)

// BucketSize is the width of a usage_buckets bucket.
const BucketSize = 15 * time.Minute

// createUsageRecords is migration 6: the usage ledger and its rollup.
func createUsageRecords(tx *gorm.DB) error {
	for _, stmt := range []string{
		// conversation_id has no foreign key: deleting a conversation
		// does not undo what its calls cost. Ids are never reused
		// (AUTOINCREMENT), so an old id cannot name a new conversation.
		`CREATE TABLE usage_records (
			id                INTEGER PRIMARY KEY,
			time              INTEGER NOT NULL CHECK (time >= 0),
			conversation_id   INTEGER CHECK (conversation_id IS NULL OR conversation_id > 0),
			provider          TEXT NOT NULL CHECK (provider <> ''),
			provider_name     TEXT NOT NULL DEFAULT '',
			preset            TEXT NOT NULL DEFAULT '',
			model             TEXT NOT NULL CHECK (model <> ''),
			kind              TEXT NOT NULL CHECK (kind <> ''),
			prompt_tokens     INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
			completion_tokens INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
			cached_tokens     INTEGER NOT NULL DEFAULT 0 CHECK (cached_tokens >= 0),
			reasoning_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (reasoning_tokens >= 0)
		)`,
		`CREATE INDEX usage_by_time ON usage_records (time)`,
		`CREATE INDEX usage_by_model ON usage_records (provider, model, time)`,
		`CREATE INDEX usage_by_conversation ON usage_records (conversation_id, provider, preset, model,
			prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens)`,
		`CREATE TABLE usage_models (
			id       INTEGER PRIMARY KEY,
			provider TEXT NOT NULL,
			preset   TEXT NOT NULL,
			model    TEXT NOT NULL,
			UNIQUE (provider, preset, model)
		)`,
		// conversation_id 0: no conversation (a primary key column of a
		// WITHOUT ROWID table cannot be NULL).
		`CREATE TABLE usage_buckets (
			bucket            INTEGER NOT NULL,
			conversation_id   INTEGER NOT NULL,
			model_id          INTEGER NOT NULL REFERENCES usage_models (id),
			calls             INTEGER NOT NULL,
			prompt_tokens     INTEGER NOT NULL,
			completion_tokens INTEGER NOT NULL,
			cached_tokens     INTEGER NOT NULL,
			reasoning_tokens  INTEGER NOT NULL,
			PRIMARY KEY (bucket, conversation_id, model_id)
		) WITHOUT ROWID`,
		`CREATE TRIGGER usage_records_bucket_insert AFTER INSERT ON usage_records BEGIN
			INSERT OR IGNORE INTO usage_models (provider, preset, model) VALUES (new.provider, new.preset, new.model);
			INSERT INTO usage_buckets (bucket, conversation_id, model_id, calls,
				prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens)
			VALUES (new.time / 900000, COALESCE(new.conversation_id, 0),
				(SELECT id FROM usage_models WHERE provider = new.provider AND preset = new.preset AND model = new.model), 1,
				new.prompt_tokens, new.completion_tokens, new.cached_tokens, new.reasoning_tokens)
			ON CONFLICT (bucket, conversation_id, model_id) DO UPDATE SET
				calls = calls + 1,
				prompt_tokens = prompt_tokens + excluded.prompt_tokens,
				completion_tokens = completion_tokens + excluded.completion_tokens,
				cached_tokens = cached_tokens + excluded.cached_tokens,
				reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens;
		END`,
		`CREATE TRIGGER usage_records_bucket_delete AFTER DELETE ON usage_records BEGIN
			UPDATE usage_buckets SET
				calls = calls - 1,
				prompt_tokens = prompt_tokens - old.prompt_tokens,
				completion_tokens = completion_tokens - old.completion_tokens,
				cached_tokens = cached_tokens - old.cached_tokens,
				reasoning_tokens = reasoning_tokens - old.reasoning_tokens
			WHERE bucket = old.time / 900000 AND conversation_id = COALESCE(old.conversation_id, 0)
				AND model_id = (SELECT id FROM usage_models WHERE provider = old.provider AND preset = old.preset AND model = old.model);
			DELETE FROM usage_buckets WHERE calls <= 0 AND bucket = old.time / 900000
				AND conversation_id = COALESCE(old.conversation_id, 0)
				AND model_id = (SELECT id FROM usage_models WHERE provider = old.provider AND preset = old.preset AND model = old.model);
		END`,
		`CREATE TRIGGER usage_records_immutable BEFORE UPDATE ON usage_records BEGIN
			SELECT RAISE(ABORT, 'usage records cannot be changed');
		END`,
	} {
		if err := tx.Exec(stmt).Error; err != nil {
			return err
		}
	}
	return nil
}

// Usage kinds: what a model call was for.
const (
	UsageChat     = "chat"     // a step of a chat turn, answered by the chosen model
	UsageFallback = "fallback" // a step of a chat turn, answered by a fallback model
	UsageSampling = "sampling" // a server's sampling request (SPEC A11)
	UsageTitle    = "title"    // naming a conversation
)

// UsageRecord is one model call's token usage. Reasoning tokens are part of
// the completion tokens and cached tokens part of the prompt tokens, as
// providers report them.
type UsageRecord struct {
	ID   int64     `json:"id"`
	Time time.Time `json:"time"`
	// ConversationID is 0 for a call that belongs to no conversation.
	ConversationID int64 `json:"conversationId"`
	// Provider is the provider's id; ProviderName and Preset are what it
	// was called and which preset it came from when the call was made.
	Provider         string `json:"provider"`
	ProviderName     string `json:"providerName"`
	Preset           string `json:"preset"`
	Model            string `json:"model"`
	Kind             string `json:"kind"`
	PromptTokens     int64  `json:"promptTokens"`
	CompletionTokens int64  `json:"completionTokens"`
	CachedTokens     int64  `json:"cachedTokens"`
	ReasoningTokens  int64  `json:"reasoningTokens"`
}

// AddUsage appends r to the ledger (a zero Time is now) and returns it with
// its id.
func (s *Store) AddUsage(ctx context.Context, r UsageRecord) (UsageRecord, error) {
	if r.Provider == "" || r.Model == "" {
		return UsageRecord{}, errors.New("record usage: a provider and a model are required")
	}
	if r.Kind == "" {
		r.Kind = UsageChat
	}
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	r.Time = r.Time.UTC().Truncate(time.Millisecond)
	res, err := s.sqlDB.ExecContext(ctx, insertUsageSQL, usageArgs(r)...)
	if err != nil {
		return UsageRecord{}, fmt.Errorf("record usage: %w", err)
	}
	if r.ID, err = res.LastInsertId(); err != nil {
		return UsageRecord{}, fmt.Errorf("record usage: %w", err)
	}
	return r, nil
}

const insertUsageSQL = `INSERT INTO usage_records (time, conversation_id, provider, provider_name, preset, model, kind,
	prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

func usageArgs(r UsageRecord) []any {
	var conv any
	if r.ConversationID != 0 {
		conv = r.ConversationID
	}
	return []any{r.Time.UnixMilli(), conv, r.Provider, r.ProviderName, r.Preset, r.Model, r.Kind,
		max(r.PromptTokens, 0), max(r.CompletionTokens, 0), max(r.CachedTokens, 0), max(r.ReasoningTokens, 0)}
}

// AddUsageBatch appends the records of seq in one transaction with one
// prepared statement (imports, tests and benchmarks). A zero Time is now.
func (s *Store) AddUsageBatch(ctx context.Context, seq iter.Seq[UsageRecord]) error {
	tx, err := s.sqlDB.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("record usage: %w", err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, insertUsageSQL)
	if err != nil {
		return fmt.Errorf("record usage: %w", err)
	}
	defer stmt.Close()
	now := time.Now()
	for r := range seq {
		if r.Provider == "" || r.Model == "" {
			return errors.New("record usage: a provider and a model are required")
		}
		if r.Kind == "" {
			r.Kind = UsageChat
		}
		if r.Time.IsZero() {
			r.Time = now
		}
		if _, err := stmt.ExecContext(ctx, usageArgs(r)...); err != nil {
			return fmt.Errorf("record usage: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("record usage: %w", err)
	}
	return nil
}

// UsageFilter selects ledger rows. Zero fields select everything.
type UsageFilter struct {
	// From and To bound the call time: From <= time < To. The aggregates
	// read 15-minute buckets and take From down and To up to a bucket
	// boundary (a local midnight always is one).
	From, To       time.Time
	Provider       string
	Model          string
	ConversationID int64
}

// where returns the condition on usage_records (byBucket false) or
// usage_buckets (true), whose columns are prefixed with alias, and its
// arguments.
func (f UsageFilter) where(byBucket bool, alias string) (string, []any) {
	conds := []string{"1"}
	var args []any
	bucket := BucketSize.Milliseconds()
	if !f.From.IsZero() {
		if byBucket {
			conds, args = append(conds, alias+"bucket >= ?"), append(args, floorDiv(f.From.UnixMilli(), bucket))
		} else {
			conds, args = append(conds, alias+"time >= ?"), append(args, f.From.UnixMilli())
		}
	}
	if !f.To.IsZero() {
		if byBucket {
			conds, args = append(conds, alias+"bucket < ?"), append(args, -floorDiv(-f.To.UnixMilli(), bucket))
		} else {
			conds, args = append(conds, alias+"time < ?"), append(args, f.To.UnixMilli())
		}
	}
	switch {
	case !byBucket:
		if f.Provider != "" {
			conds, args = append(conds, alias+"provider = ?"), append(args, f.Provider)
		}
		if f.Model != "" {
			conds, args = append(conds, alias+"model = ?"), append(args, f.Model)
		}
	case f.Provider != "" && f.Model != "":
		conds = append(conds, alias+"model_id IN (SELECT id FROM usage_models WHERE provider = ? AND model = ?)")
		args = append(args, f.Provider, f.Model)
	case f.Provider != "":
		conds, args = append(conds, alias+"model_id IN (SELECT id FROM usage_models WHERE provider = ?)"), append(args, f.Provider)
	case f.Model != "":
		conds, args = append(conds, alias+"model_id IN (SELECT id FROM usage_models WHERE model = ?)"), append(args, f.Model)
	}
	if f.ConversationID != 0 {
		conds, args = append(conds, alias+"conversation_id = ?"), append(args, f.ConversationID)
	}
	return strings.Join(conds, " AND "), args
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// TokenSums are summed token counts.
type TokenSums struct {
	Prompt, Completion, Cached, Reasoning int64
}

// Add adds o to t.
func (t *TokenSums) Add(o TokenSums) {
	t.Prompt += o.Prompt
	t.Completion += o.Completion
	t.Cached += o.Cached
	t.Reasoning += o.Reasoning
}

// UsageModel is a model as the ledger names it, numbered.
type UsageModel struct {
	ID       int64
	Provider string // provider id
	Preset   string
	Model    string
}

// UsageModels lists every model the ledger has met.
func (s *Store) UsageModels(ctx context.Context) ([]UsageModel, error) {
	rows, err := s.sqlDB.QueryContext(ctx, `SELECT id, provider, preset, model FROM usage_models ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list usage models: %w", err)
	}
	defer rows.Close()
	var out []UsageModel
	for rows.Next() {
		var m UsageModel
		if err := rows.Scan(&m.ID, &m.Provider, &m.Preset, &m.Model); err != nil {
			return nil, fmt.Errorf("list usage models: %w", err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list usage models: %w", err)
	}
	return out, nil
}

// UsageGroup sums the calls of one model on one day, or over a
// conversation.
type UsageGroup struct {
	// Day counts days since 1970-01-01 in the zone of the query's offset
	// (UsageByDay only).
	Day int64
	// ModelID numbers the model in usage_models (UsageByDay only).
	ModelID  int64
	Provider string
	Preset   string
	Model    string
	Calls    int64
	Tokens   TokenSums
}

const dayMs = 24 * 60 * 60 * 1000

// ErrBadOffset is returned for a zone offset that is not a whole number of
// 15-minute steps within ±14 hours.
var ErrBadOffset = errors.New("the time zone offset must be a multiple of 15 minutes within ±14 hours")

func usageByDaySQL(f UsageFilter, offset time.Duration) (string, []any) {
	src, args := usageSource(f, offset)
	return `SELECT day, model_id,
		SUM(calls), SUM(prompt_tokens), SUM(completion_tokens), SUM(cached_tokens), SUM(reasoning_tokens)
	FROM ` + src + `
	GROUP BY day, model_id`, args
}

// UsageByDay sums the calls f selects per day and model, in no particular
// order. Days are those of the zone offset east of UTC, which must be a
// multiple of 15 minutes. models names the models by id (UsageModels); a
// group of a model it lacks is named by the ledger.
func (s *Store) UsageByDay(ctx context.Context, f UsageFilter, offset time.Duration, models []UsageModel) ([]UsageGroup, error) {
	if offset%BucketSize != 0 || offset < -14*time.Hour || offset > 14*time.Hour {
		return nil, ErrBadOffset
	}
	if err := s.ensureUsageZone(ctx, offset); err != nil {
		return nil, err
	}
	byID := make(map[int64]UsageModel, len(models))
	for _, m := range models {
		byID[m.ID] = m
	}
	q, args := usageByDaySQL(f, offset)
	rows, err := s.sqlDB.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sum usage by day: %w", err)
	}
	defer rows.Close()
	var out []UsageGroup
	for rows.Next() {
		var g UsageGroup
		if err := rows.Scan(&g.Day, &g.ModelID,
			&g.Calls, &g.Tokens.Prompt, &g.Tokens.Completion, &g.Tokens.Cached, &g.Tokens.Reasoning); err != nil {
			return nil, fmt.Errorf("sum usage by day: %w", err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sum usage by day: %w", err)
	}
	rows.Close()
	for i, g := range out {
		m, ok := byID[g.ModelID]
		if !ok { // recorded since models was read
			if err := s.sqlDB.QueryRowContext(ctx, `SELECT id, provider, preset, model FROM usage_models WHERE id = ?`, g.ModelID).
				Scan(&m.ID, &m.Provider, &m.Preset, &m.Model); err != nil {
				return nil, fmt.Errorf("sum usage by day: model %d: %w", g.ModelID, err)
			}
			byID[m.ID] = m
		}
		out[i].Provider, out[i].Preset, out[i].Model = m.Provider, m.Preset, m.Model
	}
	return out, nil
}

// ModelRate is the price of one model of usage_models, in USD per million
// tokens. Cached is the rate of cached prompt tokens (pass Input when the
// model has no cached rate).
type ModelRate struct {
	ModelID               int64
	Input, Cached, Output float64
}

// ConversationUsage sums the calls of one conversation.
type ConversationUsage struct {
	// ConversationID is 0 for the calls that belong to no conversation.
	ConversationID int64
	// Title is the conversation's, and Exists false once it was deleted.
	Title  string
	Exists bool
	Calls  int64
	Tokens TokenSums
	// Cost is what the priced calls cost in USD; UnpricedCalls counts the
	// calls of models without a rate, which Cost leaves out.
	Cost          float64
	UnpricedCalls int64
}

// usageByConversationSQL ranks the conversations by cost in two steps, for
// speed (a year holds tens of thousands of conversations):
//   - top sums each conversation's cost and tokens, the two things the
//     order needs, and keeps the first limit;
//   - sums adds up the rest (calls, each kind of token, unpriced calls) for
//     those conversations only.
//
// A model's rate is a CASE arm, not a join with a table of rates: a join
// looks the rate up again for every row.
func usageByConversationSQL(f UsageFilter, offset time.Duration, rates []ModelRate, limit int) (string, []any) {
	// The cost of a row: uncached prompt tokens at the input rate, cached
	// ones at the cached rate, completion (reasoning included) at the
	// output rate; NULL for a model without a rate.
	const cached = "MIN(b.cached_tokens, b.prompt_tokens)"
	cost, priced := "NULL", "b.calls"
	var costArgs, pricedArgs []any
	if len(rates) > 0 {
		arm := "WHEN ? THEN ((b.prompt_tokens - " + cached + ") * ? + " + cached + " * ? + b.completion_tokens * ?)"
		cost = "CASE b.model_id " + strings.TrimSuffix(strings.Repeat(arm+" ", len(rates)), " ") + " END"
		priced = "CASE WHEN b.model_id IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(rates)), ", ") + ") THEN 0 ELSE b.calls END"
		for _, r := range rates {
			costArgs = append(costArgs, r.ModelID, r.Input, r.Cached, r.Output)
			pricedArgs = append(pricedArgs, r.ModelID)
		}
	}
	src, srcArgs := usageSource(f, offset)
	if limit <= 0 {
		limit = -1
	}
	q := `WITH top AS (
		SELECT b.conversation_id AS id, TOTAL((` + cost + `) / 1000000.0) AS cost,
			SUM(b.prompt_tokens + b.completion_tokens) AS tokens, COUNT(*) OVER () AS n
		FROM ` + src + ` b
		GROUP BY b.conversation_id
		ORDER BY cost DESC, tokens DESC, b.conversation_id DESC
		LIMIT ?
	), sums AS (
		SELECT b.conversation_id AS id, SUM(b.calls) AS calls, SUM(b.prompt_tokens) AS p, SUM(b.completion_tokens) AS c,
			SUM(b.cached_tokens) AS ca, SUM(b.reasoning_tokens) AS r, SUM(` + priced + `) AS unpriced
		FROM ` + src + ` b
		WHERE b.conversation_id IN (SELECT id FROM top)
		GROUP BY b.conversation_id
	)
	SELECT top.id, COALESCE(c.title, ''), c.id IS NOT NULL, s.calls, s.p, s.c, s.ca, s.r, top.cost, s.unpriced, top.n
	FROM top
	JOIN sums s ON s.id = top.id
	LEFT JOIN conversations c ON c.id = top.id
	ORDER BY top.cost DESC, top.tokens DESC, top.id DESC`
	return q, slices.Concat(costArgs, srcArgs, []any{limit}, pricedArgs, srcArgs)
}

// UsageByConversation sums the calls f selects per conversation (its
// range read by days of the zone offset east of UTC, see usage_days.go), with their
// cost at rates (models without a rate count as unpriced), most expensive
// first, then most tokens. It returns at most limit conversations (<= 0:
// all) and how many there are in all.
func (s *Store) UsageByConversation(ctx context.Context, f UsageFilter, offset time.Duration, rates []ModelRate, limit int) ([]ConversationUsage, int, error) {
	if offset%BucketSize != 0 || offset < -14*time.Hour || offset > 14*time.Hour {
		return nil, 0, ErrBadOffset
	}
	if err := s.ensureUsageZone(ctx, offset); err != nil {
		return nil, 0, err
	}
	q, args := usageByConversationSQL(f, offset, rates, limit)
	rows, err := s.sqlDB.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("sum usage by conversation: %w", err)
	}
	defer rows.Close()
	var out []ConversationUsage
	total := 0
	for rows.Next() {
		var c ConversationUsage
		if err := rows.Scan(&c.ConversationID, &c.Title, &c.Exists, &c.Calls, &c.Tokens.Prompt, &c.Tokens.Completion,
			&c.Tokens.Cached, &c.Tokens.Reasoning, &c.Cost, &c.UnpricedCalls, &total); err != nil {
			return nil, 0, fmt.Errorf("sum usage by conversation: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("sum usage by conversation: %w", err)
	}
	return out, total, nil
}

// ConversationUsageByModel sums every call of one conversation per model,
// from the ledger itself.
func (s *Store) ConversationUsageByModel(ctx context.Context, conversationID int64) ([]UsageGroup, error) {
	rows, err := s.sqlDB.QueryContext(ctx, conversationTotalSQL, conversationID)
	if err != nil {
		return nil, fmt.Errorf("sum conversation usage: %w", err)
	}
	defer rows.Close()
	var out []UsageGroup
	for rows.Next() {
		var g UsageGroup
		if err := rows.Scan(&g.Provider, &g.Preset, &g.Model,
			&g.Calls, &g.Tokens.Prompt, &g.Tokens.Completion, &g.Tokens.Cached, &g.Tokens.Reasoning); err != nil {
			return nil, fmt.Errorf("sum conversation usage: %w", err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sum conversation usage: %w", err)
	}
	return out, nil
}

const conversationTotalSQL = `SELECT provider, preset, model,
	COUNT(*), SUM(prompt_tokens), SUM(completion_tokens), SUM(cached_tokens), SUM(reasoning_tokens)
FROM usage_records WHERE conversation_id = ?
GROUP BY provider, preset, model`

// UsageQueryPlans returns SQLite's EXPLAIN QUERY PLAN of each aggregate the
// usage screen runs for f, by name, for checking that they use the rollup's
// key and the covering indexes.
func (s *Store) UsageQueryPlans(ctx context.Context, f UsageFilter, offset time.Duration, rates []ModelRate) (map[string][]string, error) {
	byDay, dayArgs := usageByDaySQL(f, offset)
	if err := s.ensureUsageZone(ctx, offset); err != nil {
		return nil, err
	}
	byConv, convArgs := usageByConversationSQL(f, offset, rates, 100)
	queries := map[string]struct {
		sql  string
		args []any
	}{
		"by day and model":   {byDay, dayArgs},
		"by conversation":    {byConv, convArgs},
		"conversation total": {conversationTotalSQL, []any{f.ConversationID}},
	}
	out := map[string][]string{}
	for name, q := range queries {
		rows, err := s.sqlDB.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q.sql, q.args...)
		if err != nil {
			return nil, fmt.Errorf("explain %s: %w", name, err)
		}
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				rows.Close()
				return nil, fmt.Errorf("explain %s: %w", name, err)
			}
			out[name] = append(out[name], detail)
		}
		rows.Close()
	}
	return out, nil
}

// UsageRecords calls fn for each record f selects, oldest first.
func (s *Store) UsageRecords(ctx context.Context, f UsageFilter, fn func(UsageRecord) error) error {
	where, args := f.where(false, "")
	rows, err := s.sqlDB.QueryContext(ctx, `SELECT id, time, COALESCE(conversation_id, 0), provider, provider_name, preset, model, kind,
		prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens
	FROM usage_records WHERE `+where+` ORDER BY time, id`, args...)
	if err != nil {
		return fmt.Errorf("read usage: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r UsageRecord
		var ms int64
		if err := rows.Scan(&r.ID, &ms, &r.ConversationID, &r.Provider, &r.ProviderName, &r.Preset, &r.Model, &r.Kind,
			&r.PromptTokens, &r.CompletionTokens, &r.CachedTokens, &r.ReasoningTokens); err != nil {
			return fmt.Errorf("read usage: %w", err)
		}
		r.Time = time.UnixMilli(ms).UTC()
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read usage: %w", err)
	}
	return nil
}

// UsageProviderNames returns a name for each provider id: its current name
// when it still exists, else a name it had in a recorded call. Ids with
// neither are left out.
func (s *Store) UsageProviderNames(ctx context.Context, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.sqlDB.QueryContext(ctx, `SELECT id, name FROM providers`)
	if err != nil {
		return nil, fmt.Errorf("read provider names: %w", err)
	}
	current := map[string]string{}
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read provider names: %w", err)
		}
		current[id] = name
	}
	rows.Close()
	for _, id := range ids {
		if name, ok := current[id]; ok {
			out[id] = name
			continue
		}
		var name string
		err := s.sqlDB.QueryRowContext(ctx,
			`SELECT provider_name FROM usage_records WHERE provider = ? AND provider_name <> '' LIMIT 1`, id).Scan(&name)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return nil, fmt.Errorf("read provider names: %w", err)
		default:
			out[id] = name
		}
	}
	return out, nil
}
