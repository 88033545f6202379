package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// The seeded corpus is shared by every run of BenchmarkSearch100k in this
// process (-count, -cpu) and removed by TestMain.
const (
	benchConversations = 1_000
	benchMessages      = 100_000
)

var benchCorpus struct {
	once     sync.Once
	dir      string
	st       *Store
	seedTime time.Duration
	err      error
}

// TestMain removes the benchmark corpus, if one was seeded, after the run.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchCorpus.st != nil {
		benchCorpus.st.Close()
	}
	if benchCorpus.dir != "" {
		os.RemoveAll(benchCorpus.dir)
	}
	os.Exit(code)
}

var (
	benchWords = strings.Fields(`the a of to and in is it you that for on with as this be are was
		server tool call result error file path config model token stream request response json schema
		query index table row column cache memory thread process network socket timeout retry latency
		python golang rust typescript function method struct interface channel context deploy build test
		kubernetes docker cluster node pod service ingress volume secret metric alert dashboard log trace`)
	benchHan = []string{"我们", "需要", "检查", "服务器", "是否", "正常", "然后", "重新", "启动", "配置", "文件",
		"模型", "工具", "调用", "结果", "错误", "网络", "超时", "缓存", "内存", "日志", "查询", "索引"}
)

// benchText makes one message of about 40 words; 1 in 100 carries
// "database", 1 in 100 carries "数据库连接", a third are mostly Chinese.
func benchText(r *rand.Rand) string {
	var b strings.Builder
	han := r.IntN(3) == 0
	for i := range 40 + r.IntN(20) {
		if han {
			b.WriteString(benchHan[r.IntN(len(benchHan))])
			if i%8 == 7 {
				b.WriteString("，")
			}
			continue
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(benchWords[r.IntN(len(benchWords))])
	}
	switch r.IntN(100) {
	case 0:
		b.WriteString(" the database connection dropped")
	case 1:
		b.WriteString("，数据库连接失败")
	}
	return b.String()
}

// seedBenchCorpus fills a fresh store with benchMessages messages across
// benchConversations conversations in one transaction with prepared
// inserts. The FTS insert trigger is dropped for the bulk insert and the
// index built once with 'rebuild' before the trigger is restored, all in the
// same transaction: about four times less work than indexing row by row
// (which the append sub-benchmark measures), and the schema ends up exactly
// as Open made it.
func seedBenchCorpus() (string, *Store, time.Duration, error) {
	dir, err := os.MkdirTemp("", "mcpdesk-bench-")
	if err != nil {
		return "", nil, 0, err
	}
	st, err := Open(dir, nil)
	if err != nil {
		return dir, nil, 0, err
	}
	ctx := context.Background()
	start := time.Now()
	tx, err := st.sqlDB.BeginTx(ctx, nil)
	if err != nil {
		return dir, st, 0, err
	}
	defer tx.Rollback()
	var trigger string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert'`).Scan(&trigger); err != nil {
		return dir, st, 0, fmt.Errorf("read insert trigger: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DROP TRIGGER messages_fts_insert`); err != nil {
		return dir, st, 0, err
	}
	convStmt, err := tx.PrepareContext(ctx, `INSERT INTO conversations (id, title, provider, model, created_at, updated_at)
		VALUES (?, ?, 'ollama', 'llama3', ?, ?)`)
	if err != nil {
		return dir, st, 0, err
	}
	msgStmt, err := tx.PrepareContext(ctx, `INSERT INTO messages (conversation_id, seq, role, content, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return dir, st, 0, err
	}
	r := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	perConv := benchMessages / benchConversations
	for c := 1; c <= benchConversations; c++ {
		t := base.Add(time.Duration(c) * time.Hour)
		if _, err := convStmt.ExecContext(ctx, c, fmt.Sprintf("Conversation %d", c), t, t); err != nil {
			return dir, st, 0, err
		}
		for i := 1; i <= perConv; i++ {
			role := "user"
			if i%2 == 0 {
				role = "assistant"
			}
			mt := t.Add(time.Duration(i) * time.Second)
			if _, err := msgStmt.ExecContext(ctx, c, i, role, benchText(r), mt, mt); err != nil {
				return dir, st, 0, err
			}
		}
	}
	convStmt.Close()
	msgStmt.Close()
	for _, q := range []string{`INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')`, trigger} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return dir, st, 0, fmt.Errorf("index: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return dir, st, 0, err
	}
	return dir, st, time.Since(start), nil
}

// BenchmarkSearch100k searches 100,000 messages: an English word, a CJK
// phrase, two words, and two-letter queries that take the LIKE fallback (one
// without hits, one common). The list sub-benchmark reads the first sidebar
// page; append measures AppendMessage (row-by-row indexing through the
// trigger) on the same corpus. Seed time,
// database size and query plans are logged by sub-benchmarks: a parent's own
// log shows only with -v.
func BenchmarkSearch100k(b *testing.B) {
	benchCorpus.once.Do(func() {
		benchCorpus.dir, benchCorpus.st, benchCorpus.seedTime, benchCorpus.err = seedBenchCorpus()
	})
	if benchCorpus.err != nil {
		b.Fatalf("seed: %v", benchCorpus.err)
	}
	st := benchCorpus.st
	ctx := context.Background()

	b.Run("word", func(b *testing.B) {
		benchSearch(b, st, "database")
		logCorpus(b, st)
	})
	b.Run("cjk", func(b *testing.B) { benchSearch(b, st, "数据库连接") })
	b.Run("two-words", func(b *testing.B) { benchSearch(b, st, "database dropped") })
	b.Run("short-rare", func(b *testing.B) {
		benchSearch(b, st, "db") // no hit: the whole table is scanned
		logPlan(b, st, "LIKE fallback", searchLikeQuery([]string{`m.content LIKE ? ESCAPE '\'`}), "%db%", 50)
	})
	b.Run("short-common", func(b *testing.B) { benchSearch(b, st, "go") })
	b.Run("list", func(b *testing.B) {
		for b.Loop() {
			if _, err := st.ListConversations(ctx, 100, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("append", func(b *testing.B) {
		c, err := st.CreateConversation(ctx, "appends", ConversationSettings{Provider: "ollama", Model: "llama3"})
		if err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 4))
		for b.Loop() {
			if _, err := st.AppendMessage(ctx, Message{ConversationID: c.ID, Role: RoleUser, Content: benchText(r)}); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		if err := st.DeleteConversation(ctx, c.ID); err != nil {
			b.Fatal(err)
		}
	})
}

// benchSearch runs SearchMessages(query, 50) b.N times and reports the hits.
func benchSearch(b *testing.B, st *Store, query string) {
	ctx := context.Background()
	var hits int
	for b.Loop() {
		res, err := st.SearchMessages(ctx, query, 50)
		if err != nil {
			b.Fatal(err)
		}
		hits = len(res)
	}
	b.ReportMetric(float64(hits), "hits")
}

// logCorpus logs the seed time, the database size and the plan of the
// indexed search as SearchMessages runs it.
func logCorpus(b *testing.B, st *Store) {
	b.Helper()
	b.ReportMetric(benchCorpus.seedTime.Seconds(), "seed-s")
	if fi, err := os.Stat(st.Path()); err == nil {
		b.Logf("seeded %d messages in %d conversations in %v (database %.1f MB)",
			benchMessages, benchConversations, benchCorpus.seedTime.Round(time.Millisecond), float64(fi.Size())/1e6)
	}
	logPlan(b, st, "indexed search", searchFTSQuery(nil), ftsPhrases([]string{"database"}), 50)
}

// logPlan logs the EXPLAIN QUERY PLAN of query with args.
func logPlan(b *testing.B, st *Store, name, query string, args ...any) {
	b.Helper()
	var plan []struct {
		ID, Parent int
		Detail     string
	}
	if err := st.DB().Raw("EXPLAIN QUERY PLAN "+query, args...).Scan(&plan).Error; err != nil {
		b.Fatalf("explain: %v", err)
	}
	lines := []string{"EXPLAIN QUERY PLAN of the " + name + ":"}
	for _, p := range plan {
		lines = append(lines, fmt.Sprintf("  %d/%d %s", p.ID, p.Parent, p.Detail))
	}
	b.Log(strings.Join(lines, "\n"))
}
