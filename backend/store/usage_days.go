package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// # Days
//
// A year of 15-minute buckets is still hundreds of thousands of rows for a
// heavy user (issue 16: a year's aggregates in at most 100 ms). So the
// ledger keeps a third level: usage_days, the same sums per day of a time
// zone, model and conversation (keyed in that order, see rekeyUsageDays).
// Days depend on the zone, and the window asks in the user's own (one or
// two in a lifetime), so a zone gets its
// days the first time it is asked for (usage_zones; built from the buckets
// once, in a second for a million calls) and triggers keep them from then
// on, for the four zones used last. A query reads whole days of its range
// from usage_days and the hours before its first midnight and after its
// last from usage_buckets, so any range is exact.

// maxUsageZones is how many time zones keep days.
const maxUsageZones = 4

// createUsageDays is migration 11: usage_zones and usage_days, and the
// triggers that keep the days of each zone.
func createUsageDays(tx *gorm.DB) error {
	sums := `calls = calls + 1,
				prompt_tokens = prompt_tokens + excluded.prompt_tokens,
				completion_tokens = completion_tokens + excluded.completion_tokens,
				cached_tokens = cached_tokens + excluded.cached_tokens,
				reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens`
	model := `(SELECT id FROM usage_models WHERE provider = %[1]s.provider AND preset = %[1]s.preset AND model = %[1]s.model)`
	for _, stmt := range []string{
		`CREATE TABLE usage_zones (
			offset_min INTEGER PRIMARY KEY CHECK (offset_min BETWEEN -840 AND 840 AND offset_min % 15 = 0),
			used_at    INTEGER NOT NULL
		)`,
		`CREATE TABLE usage_days (
			offset_min        INTEGER NOT NULL REFERENCES usage_zones (offset_min) ON DELETE CASCADE,
			day               INTEGER NOT NULL,
			conversation_id   INTEGER NOT NULL,
			model_id          INTEGER NOT NULL REFERENCES usage_models (id),
			calls             INTEGER NOT NULL,
			prompt_tokens     INTEGER NOT NULL,
			completion_tokens INTEGER NOT NULL,
			cached_tokens     INTEGER NOT NULL,
			reasoning_tokens  INTEGER NOT NULL,
			PRIMARY KEY (offset_min, day, conversation_id, model_id)
		) WITHOUT ROWID`,
		// The model row may not exist yet: the bucket trigger may run after this one.
		`CREATE TRIGGER usage_records_day_insert AFTER INSERT ON usage_records BEGIN
			INSERT OR IGNORE INTO usage_models (provider, preset, model) VALUES (new.provider, new.preset, new.model);
			INSERT INTO usage_days (offset_min, day, conversation_id, model_id, calls,
				prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens)
			SELECT z.offset_min, (new.time + z.offset_min * 60000) / 86400000, COALESCE(new.conversation_id, 0),
				` + fmt.Sprintf(model, "new") + `, 1,
				new.prompt_tokens, new.completion_tokens, new.cached_tokens, new.reasoning_tokens
			FROM usage_zones z WHERE 1
			ON CONFLICT (offset_min, day, conversation_id, model_id) DO UPDATE SET ` + sums + `;
		END`,
		`CREATE TRIGGER usage_records_day_delete AFTER DELETE ON usage_records BEGIN
			UPDATE usage_days SET
				calls = calls - 1,
				prompt_tokens = prompt_tokens - old.prompt_tokens,
				completion_tokens = completion_tokens - old.completion_tokens,
				cached_tokens = cached_tokens - old.cached_tokens,
				reasoning_tokens = reasoning_tokens - old.reasoning_tokens
			WHERE day = (old.time + offset_min * 60000) / 86400000 AND conversation_id = COALESCE(old.conversation_id, 0)
				AND model_id = ` + fmt.Sprintf(model, "old") + `;
			DELETE FROM usage_days WHERE calls <= 0 AND day = (old.time + offset_min * 60000) / 86400000
				AND conversation_id = COALESCE(old.conversation_id, 0) AND model_id = ` + fmt.Sprintf(model, "old") + `;
		END`,
	} {
		if err := tx.Exec(stmt).Error; err != nil {
			return err
		}
	}
	return nil
}

// rekeyUsageDays is migration 12: usage_days keyed by day and model before
// conversation, so that the sums by day and model (the chart and the
// model table, UsageByDay) are read in key order and need no sort (a year
// of a heavy user: 50,000 rows). The days are built again, in the new
// order, the first time a zone is asked for.
func rekeyUsageDays(tx *gorm.DB) error {
	for _, stmt := range []string{
		`DROP TABLE usage_days`,
		`DELETE FROM usage_zones`,
		`CREATE TABLE usage_days (
			offset_min        INTEGER NOT NULL REFERENCES usage_zones (offset_min) ON DELETE CASCADE,
			day               INTEGER NOT NULL,
			conversation_id   INTEGER NOT NULL,
			model_id          INTEGER NOT NULL REFERENCES usage_models (id),
			calls             INTEGER NOT NULL,
			prompt_tokens     INTEGER NOT NULL,
			completion_tokens INTEGER NOT NULL,
			cached_tokens     INTEGER NOT NULL,
			reasoning_tokens  INTEGER NOT NULL,
			PRIMARY KEY (offset_min, day, model_id, conversation_id)
		) WITHOUT ROWID`,
	} {
		if err := tx.Exec(stmt).Error; err != nil {
			return err
		}
	}
	return nil
}

// ensureUsageZone makes sure the days of the zone offset east of UTC are
// kept: the first time, they are built from the buckets; the zone used
// longest ago is dropped past maxUsageZones.
func (s *Store) ensureUsageZone(ctx context.Context, offset time.Duration) error {
	min := int64(offset / time.Minute)
	now := time.Now().UnixMilli()
	var usedAt int64
	err := s.sqlDB.QueryRowContext(ctx, `SELECT used_at FROM usage_zones WHERE offset_min = ?`, min).Scan(&usedAt)
	if err == nil {
		if now-usedAt > dayMs { // a write a day at most
			_, _ = s.sqlDB.ExecContext(ctx, `UPDATE usage_zones SET used_at = ? WHERE offset_min = ?`, now, min)
		}
		return nil
	}
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Exec(`INSERT OR IGNORE INTO usage_zones (offset_min, used_at) VALUES (?, ?)`, min, now)
		if res.Error != nil {
			return fmt.Errorf("keep usage days: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return nil // another connection built them meanwhile
		}
		if err := tx.Exec(fmt.Sprintf(`INSERT INTO usage_days (offset_min, day, conversation_id, model_id, calls,
				prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens)
			SELECT ?, (bucket * %d + ?) / %d AS d, conversation_id, model_id, SUM(calls),
				SUM(prompt_tokens), SUM(completion_tokens), SUM(cached_tokens), SUM(reasoning_tokens)
			FROM usage_buckets GROUP BY d, conversation_id, model_id`, BucketSize.Milliseconds(), dayMs),
			min, offset.Milliseconds()).Error; err != nil {
			return fmt.Errorf("build usage days: %w", err)
		}
		return tx.Exec(`DELETE FROM usage_zones WHERE offset_min NOT IN (
			SELECT offset_min FROM usage_zones ORDER BY used_at DESC, offset_min LIMIT ?)`, maxUsageZones).Error
	})
}

// keyConds is the part of f's condition that is not time (provider, model,
// conversation), on a rollup table's columns prefixed with alias.
func (f UsageFilter) keyConds(alias string) (string, []any) {
	g := f
	g.From, g.To = time.Time{}, time.Time{}
	return g.where(true, alias)
}

// usageSource is a subquery of the sums f selects, by day of the zone
// offset east of UTC, conversation and model: whole days from usage_days,
// the edges of the range from usage_buckets. Its columns: day,
// conversation_id, model_id, calls, prompt_tokens, completion_tokens,
// cached_tokens, reasoning_tokens.
func usageSource(f UsageFilter, offset time.Duration) (string, []any) {
	b := BucketSize.Milliseconds()
	off := offset.Milliseconds()
	keys, keyArgs := f.keyConds("")
	cols := "conversation_id, model_id, calls, prompt_tokens, completion_tokens, cached_tokens, reasoning_tokens"
	// The range in buckets, as the bucket queries take it.
	const far = int64(1) << 50
	lo, hi := -far, far
	if !f.From.IsZero() {
		lo = floorDiv(f.From.UnixMilli(), b)
	}
	if !f.To.IsZero() {
		hi = -floorDiv(-f.To.UnixMilli(), b)
	}
	// Whole local days inside it, and their bucket range.
	firstDay := -floorDiv(-(lo*b + off), dayMs)
	endDay := floorDiv(hi*b+off, dayMs)
	if lo == -far {
		firstDay = -far
	}
	if hi == far {
		endDay = far
	}
	var parts []string
	var args []any
	bucketPart := func(from, to int64) {
		parts = append(parts, fmt.Sprintf(`SELECT (bucket * %d + ?) / %d AS day, %s FROM usage_buckets WHERE bucket >= ? AND bucket < ? AND %s`, b, dayMs, cols, keys))
		args = append(append(args, off, from, to), keyArgs...)
	}
	if firstDay >= endDay {
		bucketPart(lo, hi)
	} else {
		parts = append(parts, `SELECT day, `+cols+` FROM usage_days WHERE offset_min = ? AND day >= ? AND day < ? AND `+keys)
		args = append(append(args, off/60000, firstDay, endDay), keyArgs...)
		if firstDay != -far {
			if start := (firstDay*dayMs - off) / b; lo < start {
				bucketPart(lo, start)
			}
		}
		if endDay != far {
			if end := (endDay*dayMs - off) / b; end < hi {
				bucketPart(end, hi)
			}
		}
	}
	return "(" + strings.Join(parts, " UNION ALL ") + ")", args
}
