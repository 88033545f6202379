package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// migration is one step of the schema. Up runs inside a transaction that also
// records the step in schema_migrations.
type migration struct {
	Version int
	Name    string
	Up      func(tx *gorm.DB) error
}

// migrations is the schema history, in order. Append only: versions must be
// 1, 2, 3… without gaps, and a shipped entry must never change.
var migrations = []migration{
	{Version: 1, Name: "create settings", Up: func(tx *gorm.DB) error {
		return tx.Exec(`CREATE TABLE settings (
			"key"      TEXT PRIMARY KEY,
			value      TEXT NOT NULL CHECK (json_valid(value)),
			updated_at DATETIME NOT NULL
		)`).Error
	}},
	{Version: 2, Name: "create ui_state", Up: func(tx *gorm.DB) error {
		return tx.Exec(`CREATE TABLE ui_state (
			"key"      TEXT PRIMARY KEY,
			value      TEXT NOT NULL,
			updated_at DATETIME NOT NULL
		)`).Error
	}},
	{Version: 3, Name: "create saved_requests", Up: func(tx *gorm.DB) error {
		return tx.Exec(`CREATE TABLE saved_requests (
			id          INTEGER PRIMARY KEY AUTOINCREMENT,
			server      TEXT NOT NULL,
			tool        TEXT NOT NULL,
			name        TEXT NOT NULL,
			description TEXT NOT NULL DEFAULT '',
			arguments   TEXT NOT NULL CHECK (json_valid(arguments)),
			created_at  DATETIME NOT NULL,
			updated_at  DATETIME NOT NULL,
			UNIQUE (server, name)
		)`).Error
	}},
	{Version: 4, Name: "create providers", Up: createProviders},
	{Version: 5, Name: "create conversations", Up: createConversations},
	{Version: 6, Name: "create usage_records", Up: createUsageRecords},
	{Version: 7, Name: "create audit_log", Up: createAuditLog},
	{Version: 8, Name: "pin tool definitions", Up: pinDefinitions},
	{Version: 9, Name: "answer versions", Up: addAnswerVersions},
	{Version: 10, Name: "attachments by content", Up: createAttachments},
	{Version: 11, Name: "usage days", Up: createUsageDays},
	{Version: 12, Name: "usage days by model", Up: rekeyUsageDays},
}

// SchemaTooNewError reports a database written by a newer MCP Desk, whose
// schema this build does not know. Opening it anyway could corrupt data.
type SchemaTooNewError struct {
	Path     string // database file
	Version  int    // highest version recorded in the database
	Supports int    // highest version this build knows
}

// Error says which database is too new and by how much.
func (e *SchemaTooNewError) Error() string {
	return fmt.Sprintf("database %s was written by a newer MCP Desk (schema %d, this build knows %d): update MCP Desk or choose another data folder",
		e.Path, e.Version, e.Supports)
}

// schemaMigration is a row of schema_migrations.
type schemaMigration struct {
	Version   int `gorm:"primaryKey"`
	Name      string
	AppliedAt time.Time
}

// TableName names the table of schemaMigration.
func (schemaMigration) TableName() string { return "schema_migrations" }

// checkMigrations reports a list that is not numbered 1, 2, 3… or has a step
// without a name or an Up function.
func checkMigrations(list []migration) error {
	for i, m := range list {
		if m.Version != i+1 {
			return fmt.Errorf("migration %d (%q) has version %d, want %d", i, m.Name, m.Version, i+1)
		}
		if m.Name == "" || m.Up == nil {
			return fmt.Errorf("migration %d is missing its name or Up function", m.Version)
		}
	}
	return nil
}

// migrate brings the database at path up to the last version of list. Each
// missing step runs in its own transaction with its record, so a failing step
// leaves the database at the previous version.
func migrate(ctx context.Context, db *gorm.DB, path string, list []migration) error {
	if err := checkMigrations(list); err != nil {
		return fmt.Errorf("migrate database: %w", err)
	}
	db = db.WithContext(ctx)
	if err := db.Exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at DATETIME NOT NULL
	)`).Error; err != nil {
		return fmt.Errorf("migrate database: create schema_migrations: %w", err)
	}
	current, err := schemaVersion(db)
	if err != nil {
		return fmt.Errorf("migrate database: %w", err)
	}
	if current > len(list) {
		return &SchemaTooNewError{Path: path, Version: current, Supports: len(list)}
	}
	for _, m := range list[current:] {
		err := db.Transaction(func(tx *gorm.DB) error {
			// Another process may have applied it since we looked: the
			// transaction holds the write lock, so this check is final.
			var n int64
			if err := tx.Model(&schemaMigration{}).Where("version = ?", m.Version).Count(&n).Error; err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if err := m.Up(tx); err != nil {
				return err
			}
			return tx.Create(&schemaMigration{Version: m.Version, Name: m.Name, AppliedAt: time.Now().UTC()}).Error
		})
		if err != nil {
			return fmt.Errorf("migrate database to version %d (%s): %w", m.Version, m.Name, err)
		}
	}
	return nil
}

// schemaVersion returns the highest applied migration, 0 for a new database.
func schemaVersion(db *gorm.DB) (int, error) {
	var v int
	if err := db.Raw(`SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v).Error; err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// SchemaVersion returns the highest migration applied to the database.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	return schemaVersion(s.db.WithContext(ctx))
}
