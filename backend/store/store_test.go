package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"
	gormlogger "gorm.io/gorm/logger"
)

func openTest(t *testing.T, dir string) *Store {
	t.Helper()
	st, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestOpenCreatesFileAndAppliesMigrations(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)

	if want := filepath.Join(dir, DBFileName); st.Path() != want {
		t.Errorf("Path() = %q, want %q", st.Path(), want)
	}
	if _, err := os.Stat(st.Path()); err != nil {
		t.Fatalf("database file: %v", err)
	}
	v, err := st.SchemaVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v != len(migrations) {
		t.Errorf("SchemaVersion = %d, want %d", v, len(migrations))
	}
	var rows []schemaMigration
	if err := st.DB().Order("version").Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(migrations) {
		t.Fatalf("schema_migrations has %d rows, want %d", len(rows), len(migrations))
	}
	for i, r := range rows {
		if r.Version != migrations[i].Version || r.Name != migrations[i].Name || r.AppliedAt.IsZero() {
			t.Errorf("row %d = %+v, want version %d name %q with a time", i, r, migrations[i].Version, migrations[i].Name)
		}
	}
	for _, table := range []string{"settings", "ui_state", "schema_migrations"} {
		if !st.DB().Migrator().HasTable(table) {
			t.Errorf("table %s missing", table)
		}
	}
}

func TestReopenDoesNotRerunMigrations(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var before []schemaMigration
	if err := st.DB().Order("version").Find(&before).Error; err != nil {
		t.Fatal(err)
	}
	if err := st.PutSetting(context.Background(), "kept", 42); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st2 := openTest(t, dir)
	var after []schemaMigration
	if err := st2.DB().Order("version").Find(&after).Error; err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Fatalf("after reopen %d rows, before %d", len(after), len(before))
	}
	for i := range after {
		if !after[i].AppliedAt.Equal(before[i].AppliedAt) {
			t.Errorf("migration %d applied again: %v then %v", after[i].Version, before[i].AppliedAt, after[i].AppliedAt)
		}
	}
	var n int
	if found, err := st2.GetSetting(context.Background(), "kept", &n); err != nil || !found || n != 42 {
		t.Errorf("GetSetting after reopen = %d, %v, %v; want 42, true, nil", n, found, err)
	}
}

func TestMigrateRunsEachStepOnce(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	runs := map[int]int{}
	list := append([]migration(nil), migrations...)
	for _, extra := range []int{len(list) + 1, len(list) + 2} {
		v := extra
		list = append(list, migration{Version: v, Name: fmt.Sprintf("step %d", v), Up: func(tx *gorm.DB) error {
			runs[v]++
			return tx.Exec(fmt.Sprintf("CREATE TABLE t%d (id INTEGER PRIMARY KEY)", v)).Error
		}})
	}
	for range 3 {
		if err := migrate(ctx, st.DB(), st.Path(), list); err != nil {
			t.Fatal(err)
		}
	}
	for v, n := range runs {
		if n != 1 {
			t.Errorf("migration %d ran %d times", v, n)
		}
	}
	if len(runs) != 2 {
		t.Errorf("ran %v, want the two new steps", runs)
	}
	if v, _ := st.SchemaVersion(ctx); v != len(list) {
		t.Errorf("SchemaVersion = %d, want %d", v, len(list))
	}
}

func TestFailingMigrationRollsBack(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	next := len(migrations) + 1
	list := append(append([]migration(nil), migrations...), migration{
		Version: next, Name: "half done",
		Up: func(tx *gorm.DB) error {
			if err := tx.Exec("CREATE TABLE half (id INTEGER)").Error; err != nil {
				return err
			}
			return errors.New("boom")
		},
	})
	err := migrate(ctx, st.DB(), st.Path(), list)
	if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "half done") {
		t.Fatalf("migrate = %v, want an error naming the step and its cause", err)
	}
	if st.DB().Migrator().HasTable("half") {
		t.Error("table of the failed step survived: the step was not in a transaction")
	}
	if v, _ := st.SchemaVersion(ctx); v != len(migrations) {
		t.Errorf("SchemaVersion = %d, want %d", v, len(migrations))
	}
}

func TestCheckMigrations(t *testing.T) {
	up := func(*gorm.DB) error { return nil }
	if err := checkMigrations(migrations); err != nil {
		t.Fatalf("shipped migrations: %v", err)
	}
	bad := map[string][]migration{
		"gap":       {{1, "a", up}, {3, "c", up}},
		"zero":      {{0, "a", up}},
		"unordered": {{2, "b", up}, {1, "a", up}},
		"no name":   {{1, "", up}},
		"no up":     {{1, "a", nil}},
	}
	for name, list := range bad {
		if err := checkMigrations(list); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	future := len(migrations) + 1
	if err := st.DB().Create(&schemaMigration{Version: future, Name: "from the future", AppliedAt: time.Now()}).Error; err != nil {
		t.Fatal(err)
	}
	st.Close()

	_, err = Open(dir, nil)
	var tooNew *SchemaTooNewError
	if !errors.As(err, &tooNew) {
		t.Fatalf("Open = %v, want *SchemaTooNewError", err)
	}
	if tooNew.Version != future || tooNew.Supports != len(migrations) {
		t.Errorf("got %+v", tooNew)
	}
	want := fmt.Sprintf("database %s was written by a newer MCP Desk (schema %d, this build knows %d)", filepath.Join(dir, DBFileName), future, len(migrations))
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error = %q, want prefix %q", err, want)
	}
}

func TestPragmasInForce(t *testing.T) {
	st := openTest(t, t.TempDir())
	// Ask on several connections at once so more than one pooled connection
	// is checked: the pragmas are per connection.
	sqlDB, err := st.DB().DB()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var conns []interface{ Close() error }
	for i := range 3 {
		conn, err := sqlDB.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, conn)
		checks := []struct {
			pragma string
			want   string
		}{
			{"journal_mode", "wal"},
			{"foreign_keys", "1"},
			{"busy_timeout", "5000"},
			{"synchronous", "1"}, // NORMAL
		}
		for _, c := range checks {
			var got string
			if err := conn.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
				t.Fatalf("conn %d: PRAGMA %s: %v", i, c.pragma, err)
			}
			if got != c.want {
				t.Errorf("conn %d: PRAGMA %s = %q, want %q", i, c.pragma, got, c.want)
			}
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

func TestSettingsRoundTrip(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()

	type prefs struct {
		Theme string   `json:"theme"`
		Tags  []string `json:"tags"`
		N     int      `json:"n"`
	}
	var got prefs
	found, err := st.GetSetting(ctx, "prefs", &got)
	if err != nil || found {
		t.Fatalf("unset: found=%v err=%v", found, err)
	}

	in := prefs{Theme: "dark", Tags: []string{"a", "é"}, N: 3}
	if err := st.PutSetting(ctx, "prefs", in); err != nil {
		t.Fatal(err)
	}
	found, err = st.GetSetting(ctx, "prefs", &got)
	if err != nil || !found {
		t.Fatalf("set: found=%v err=%v", found, err)
	}
	if got.Theme != "dark" || got.N != 3 || len(got.Tags) != 2 || got.Tags[1] != "é" {
		t.Errorf("got %+v, want %+v", got, in)
	}

	// Overwrite keeps one row.
	if err := st.PutSetting(ctx, "prefs", prefs{Theme: "light"}); err != nil {
		t.Fatal(err)
	}
	got = prefs{}
	if _, err := st.GetSetting(ctx, "prefs", &got); err != nil || got.Theme != "light" {
		t.Errorf("after overwrite got %+v, %v", got, err)
	}
	var n int64
	st.DB().Model(&settingRow{}).Count(&n)
	if n != 1 {
		t.Errorf("settings has %d rows, want 1", n)
	}

	// Stored as JSON.
	var raw string
	st.DB().Raw(`SELECT value FROM settings WHERE "key" = ?`, "prefs").Scan(&raw)
	if raw != `{"theme":"light","tags":null,"n":0}` {
		t.Errorf("stored %s", raw)
	}

	if err := st.PutSetting(ctx, "bad", func() {}); err == nil {
		t.Error("PutSetting of a func: no error")
	}
	if err := st.PutSetting(ctx, "", 1); err == nil {
		t.Error("PutSetting with empty key: no error")
	}
	var wrongType int
	if _, err := st.GetSetting(ctx, "prefs", &wrongType); err == nil {
		t.Error("GetSetting into the wrong type: no error")
	}
}

func TestUIStateRoundTrip(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	if v, ok, err := st.GetUIState(ctx, "panel"); err != nil || ok || v != "" {
		t.Fatalf("unset = %q, %v, %v", v, ok, err)
	}
	for _, want := range []string{"[30,70]", "", "not json at all"} {
		if err := st.PutUIState(ctx, "panel", want); err != nil {
			t.Fatal(err)
		}
		v, ok, err := st.GetUIState(ctx, "panel")
		if err != nil || !ok || v != want {
			t.Errorf("GetUIState = %q, %v, %v; want %q, true, nil", v, ok, err, want)
		}
	}
	if err := st.PutUIState(ctx, "", "x"); err == nil {
		t.Error("PutUIState with empty key: no error")
	}
}

func TestContextFlowsIntoQueries(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := st.PutSetting(ctx, "k", 1); !errors.Is(err, context.Canceled) {
		t.Errorf("PutSetting with a cancelled context = %v, want context.Canceled", err)
	}
	if _, _, err := st.GetUIState(ctx, "k"); !errors.Is(err, context.Canceled) {
		t.Errorf("GetUIState with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)
	// A second Store on the same file plays a second process.
	other := openTest(t, dir)
	ctx := context.Background()

	const writers, each = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := st
			if w%2 == 1 {
				s = other
			}
			for i := range each {
				if err := s.PutSetting(ctx, fmt.Sprintf("w%d/%d", w, i), i); err != nil {
					errs <- err
					return
				}
				if err := s.PutUIState(ctx, "shared", fmt.Sprint(w, i)); err != nil {
					errs <- err
					return
				}
				// A read-then-write transaction: the case that fails with
				// "database is locked" under deferred transactions.
				err := s.DB().WithContext(ctx).Transaction(func(tx *gorm.DB) error {
					var n int64
					if err := tx.Model(&settingRow{}).Count(&n).Error; err != nil {
						return err
					}
					return tx.Exec(`INSERT INTO ui_state("key", value, updated_at) VALUES (?, ?, ?)
						ON CONFLICT("key") DO UPDATE SET value = excluded.value`, "count", fmt.Sprint(n), time.Now()).Error
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("writer: %v", err)
	}
	var n int64
	st.DB().Model(&settingRow{}).Count(&n)
	if n != writers*each {
		t.Errorf("settings has %d rows, want %d", n, writers*each)
	}
}

func TestLoggerNeverLogsParameterValues(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	st, err := Open(t.TempDir(), logger)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const secret = "sk-very-secret-value"
	// A failing query is logged at Error with its SQL.
	err = st.DB().Exec("INSERT INTO no_such_table(x) VALUES (?)", secret).Error
	if err == nil {
		t.Fatal("insert into a missing table succeeded")
	}
	out := buf.String()
	if !strings.Contains(out, "no_such_table") {
		t.Errorf("the failed query was not logged: %q", out)
	}
	if strings.Contains(out, secret) {
		t.Errorf("log contains a parameter value: %q", out)
	}
}

func TestOpenRejectsQuestionMarkInPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "what?")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, nil); err == nil || !strings.Contains(err.Error(), "'?'") {
		t.Errorf("Open = %v, want an error about '?'", err)
	}
}

func TestResolveDir(t *testing.T) {
	base := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(base, "xdg"))
	t.Setenv("HOME", filepath.Join(base, "home")) // for platforms without XDG

	check := func(t *testing.T, flag, want string) {
		t.Helper()
		got, err := ResolveDir(flag)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("ResolveDir(%q) = %q, want %q", flag, got, want)
		}
		fi, err := os.Stat(got)
		if err != nil || !fi.IsDir() {
			t.Fatalf("not created: %v", err)
		}
		if perm := fi.Mode().Perm(); perm != 0o700 {
			t.Errorf("mode %v, want 0700", perm)
		}
	}

	t.Run("user config dir", func(t *testing.T) {
		t.Setenv(EnvDataDir, "")
		cfg, err := os.UserConfigDir()
		if err != nil {
			t.Fatal(err)
		}
		check(t, "", filepath.Join(cfg, "mcpdesk"))
		if !strings.HasPrefix(cfg, base) {
			t.Errorf("UserConfigDir %q ignores XDG_CONFIG_HOME/HOME", cfg)
		}
	})
	t.Run("env over user config dir", func(t *testing.T) {
		t.Setenv(EnvDataDir, filepath.Join(base, "env", "data"))
		check(t, "", filepath.Join(base, "env", "data"))
	})
	t.Run("flag over env", func(t *testing.T) {
		t.Setenv(EnvDataDir, filepath.Join(base, "env2"))
		check(t, filepath.Join(base, "flag"), filepath.Join(base, "flag"))
		if _, err := os.Stat(filepath.Join(base, "env2")); !os.IsNotExist(err) {
			t.Error("env folder was created although the flag won")
		}
	})
	t.Run("relative flag becomes absolute", func(t *testing.T) {
		t.Chdir(base)
		check(t, "rel", filepath.Join(base, "rel"))
	})
}

func TestSavedRequests(t *testing.T) {
	st, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	a, err := st.SaveRequest(ctx, SavedRequest{Server: "s", Tool: "echo", Name: " hello ", Arguments: map[string]any{"message": "hi", "n": 2.0}})
	if err != nil || a.ID == 0 || a.Name != "hello" {
		t.Fatalf("insert: %+v %v", a, err)
	}
	if _, err := st.SaveRequest(ctx, SavedRequest{Server: "s", Tool: "add", Name: "hello"}); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("duplicate name: %v", err)
	}
	if _, err := st.SaveRequest(ctx, SavedRequest{Server: "other", Tool: "add", Name: "hello"}); err != nil {
		t.Fatalf("same name on another server: %v", err)
	}
	if _, err := st.SaveRequest(ctx, SavedRequest{Server: "s", Tool: "add", Name: "  "}); err == nil {
		t.Fatal("an empty name was accepted")
	}
	a.Name, a.Description = "renamed", "says hi"
	b, err := st.SaveRequest(ctx, a)
	if err != nil || b.ID != a.ID || !b.CreatedAt.Equal(a.CreatedAt) {
		t.Fatalf("update: %+v %v", b, err)
	}
	list, err := st.SavedRequests(ctx, "s")
	if err != nil || len(list) != 1 || list[0].Name != "renamed" || list[0].Arguments["message"] != "hi" || list[0].Description != "says hi" {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := st.DeleteSavedRequest(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if list, _ := st.SavedRequests(ctx, "s"); len(list) != 0 {
		t.Fatalf("after delete: %+v", list)
	}
}

// traceSpy records which statements reach the logger and whether their SQL
// was rendered.
type traceSpy struct {
	gormlogger.Interface
	traced, rendered int
}

func (s *traceSpy) Trace(_ context.Context, _ time.Time, fc func() (string, int64), _ error) {
	s.traced++
	if fc != nil {
		fc()
		s.rendered++
	}
}

func TestQuietTracePassesOnlyWhatIsLogged(t *testing.T) {
	spy := &traceSpy{Interface: gormlogger.Discard}
	q := quietTrace{spy}
	calls := 0
	fc := func() (string, int64) { calls++; return "SELECT 1", 1 }
	ctx := context.Background()
	q.Trace(ctx, time.Now(), fc, nil)                         // fast, fine: skipped
	q.Trace(ctx, time.Now(), fc, gorm.ErrRecordNotFound)      // not an error here: skipped
	q.Trace(ctx, time.Now().Add(-2*slowQuery), fc, nil)       // slow: logged
	q.Trace(ctx, time.Now(), fc, errors.New("no such table")) // failed: logged
	if spy.traced != 2 || calls != 2 {
		t.Errorf("the logger saw %d statements and %d were rendered, want 2 and 2", spy.traced, calls)
	}
	if _, ok := q.LogMode(gormlogger.Info).(quietTrace); ok {
		t.Error("at Info every statement is logged, so none may be skipped")
	}
	if _, ok := q.LogMode(gormlogger.Warn).(quietTrace); !ok {
		t.Error("at Warn the quiet wrapper stays")
	}
}
