// Package store owns MCP Desk's SQLite database: where it lives, how it is
// opened, its schema and the small repositories the services use.
//
// # Opening
//
// [ResolveDir] picks the data folder and [Open] opens <dir>/mcpdesk.db through
// gorm with the SQLite pragmas in the DSN, so every pooled connection gets
// them: WAL journal, foreign keys on, a 5 s busy timeout, synchronous NORMAL,
// and BEGIN IMMEDIATE for transactions (a writer waits for the lock up front
// instead of failing with "database is locked" when it upgrades a read lock).
// gorm logs to the injected slog.Logger at Warn and never logs SQL parameter
// values.
//
// # Migrations
//
// The schema is versioned. Table schema_migrations records every migration
// that ran; [Open] applies the missing ones in order, each in its own
// transaction together with its record, and refuses a database whose version
// is newer than this build knows (see [SchemaTooNewError]).
//
// To change the schema, append one entry to the migrations slice in
// migrations.go, with the next version number:
//
//	{Version: 3, Name: "create conversations", Up: func(tx *gorm.DB) error {
//		return tx.Exec(`CREATE TABLE conversations (...)`).Error
//	}},
//
// Never edit or reorder a migration that has shipped: write a new one. Write
// DDL as SQL rather than AutoMigrate of a model, so that a migration keeps
// meaning the same thing when the model changes later.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	gormlogger "gorm.io/gorm/logger"
	"gorm.io/gorm/schema"
)

// EnvDataDir is the environment variable that overrides the data folder.
const EnvDataDir = "MCPDESK_DATA_DIR"

// DBFileName is the name of the database file inside the data folder.
const DBFileName = "mcpdesk.db"

// busyTimeout is how long a connection waits for a lock held by another one.
const busyTimeout = 5 * time.Second

// slowQuery is the duration above which gorm logs a query at Warn.
const slowQuery = 200 * time.Millisecond

// ResolveDir returns the data folder: flagDir if set, else $MCPDESK_DATA_DIR,
// else os.UserConfigDir()/mcpdesk. It creates the folder (0700) and returns an
// absolute path.
func ResolveDir(flagDir string) (string, error) {
	dir := flagDir
	if dir == "" {
		dir = os.Getenv(EnvDataDir)
	}
	if dir == "" {
		base, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("resolve data folder: %w", err)
		}
		dir = filepath.Join(base, "mcpdesk")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolve data folder %q: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return "", fmt.Errorf("create data folder: %w", err)
	}
	return abs, nil
}

// Store is the opened database. It is safe for concurrent use.
type Store struct {
	db     *gorm.DB
	sqlDB  *sql.DB
	path   string
	logger *slog.Logger
}

// Open opens (creating) <dir>/mcpdesk.db with the pragmas described in the
// package documentation, sets a gorm logger that writes to logger at Warn
// without SQL parameter values, and runs the versioned migrations. A nil
// logger discards gorm's messages.
func Open(dir string, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if dir == "" {
		return nil, errors.New("open database: empty data folder")
	}
	path, err := filepath.Abs(filepath.Join(dir, DBFileName))
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	dsn, err := buildDSN(path)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{
		Logger: quietTrace{gormlogger.NewSlogLogger(logger, gormlogger.Config{
			LogLevel:                  gormlogger.Warn,
			SlowThreshold:             slowQuery,
			IgnoreRecordNotFoundError: true,
			ParameterizedQueries:      true,
		})},
		NowFunc:        func() time.Time { return time.Now().UTC() },
		NamingStrategy: modelNames{},
	})
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	s := &Store{db: db, sqlDB: sqlDB, path: path, logger: logger}
	// Touch the file now so a bad path or a corrupt file fails here, not on
	// the first query of some later call.
	if err := sqlDB.Ping(); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	if err := migrate(context.Background(), db, path, migrations); err != nil {
		sqlDB.Close()
		return nil, err
	}
	// Files no message refers to: left by a composer that was closed, or by
	// a deleted conversation. An hour's grace keeps what a composer of
	// another process could still be sending.
	if _, err := s.PruneAttachments(context.Background(), time.Now().UTC().Add(-time.Hour)); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return s, nil
}

// buildDSN returns the go-sqlite3 DSN for path with the pragmas MCP Desk
// relies on. go-sqlite3 applies them to every new connection of the pool.
func buildDSN(path string) (string, error) {
	// go-sqlite3 splits the DSN at the first '?', so a path cannot carry one.
	if strings.ContainsRune(path, '?') {
		return "", fmt.Errorf("database path %q contains '?': choose another data folder", path)
	}
	return path +
		"?_journal_mode=WAL" +
		"&_foreign_keys=on" +
		fmt.Sprintf("&_busy_timeout=%d", busyTimeout.Milliseconds()) +
		"&_synchronous=NORMAL" +
		"&_txlock=immediate", nil
}

// DB returns the gorm handle. Callers should pass their context with
// WithContext.
func (s *Store) DB() *gorm.DB { return s.db }

// Path returns the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// Close closes every connection of the pool.
func (s *Store) Close() error {
	if err := s.sqlDB.Close(); err != nil {
		return fmt.Errorf("close database: %w", err)
	}
	return nil
}

// modelNames names tables only by their row types' TableName methods.
// gorm asks its namer for a table name for every struct it maps, the rows
// and the structs a query scans into alike. Every row type here names its
// table, so the name is used only for scan targets, which are no table:
// it is their snake-cased type name, not gorm's English plural. The plural
// would compile jinzhu/inflection's rules, which MCP Desk's fork of it
// compiles on first use (backend/third_party).
type modelNames struct{ schema.NamingStrategy }

func (n modelNames) TableName(typeName string) string { return n.ColumnName("", typeName) }

// quietTrace passes to its logger only the statements it will write (those
// that failed or were slow, at the Warn level the store logs at). gorm's
// slog logger renders every statement's SQL before it decides not to log
// it, which cost each statement of the chat's hot path several
// microseconds.
type quietTrace struct{ gormlogger.Interface }

func (l quietTrace) LogMode(level gormlogger.LogLevel) gormlogger.Interface {
	inner := l.Interface.LogMode(level)
	if level >= gormlogger.Info {
		return inner // every statement is logged: nothing to skip
	}
	return quietTrace{inner}
}

func (l quietTrace) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	if (err == nil || errors.Is(err, gorm.ErrRecordNotFound)) && time.Since(begin) <= slowQuery {
		return
	}
	l.Interface.Trace(ctx, begin, fc, err)
}

// ParamsFilter passes on the logger's filter, which keeps parameter values
// (a key, a message) out of the SQL it logs.
func (l quietTrace) ParamsFilter(ctx context.Context, sql string, params ...any) (string, []any) {
	if f, ok := l.Interface.(gorm.ParamsFilter); ok {
		return f.ParamsFilter(ctx, sql, params...)
	}
	return sql, params
}
