package store

// Trust pinning (SPEC G1): the tool definitions standing approvals were
// given for, kept by their hash so that a changed tool can be shown as a
// diff of what was approved, and the hash of the definition each audited
// call ran under. A definition is written once and never changed (its
// hash is its key).

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// pinDefinitions is migration 8: the audit log's definition hash and the
// table of approved tool definitions.
func pinDefinitions(tx *gorm.DB) error {
	for _, stmt := range []string{
		`ALTER TABLE audit_log ADD COLUMN definition_hash TEXT NOT NULL DEFAULT ''`,
		`CREATE TABLE tool_definitions (
			hash       TEXT PRIMARY KEY CHECK (length(hash) = 64),
			definition TEXT NOT NULL CHECK (json_valid(definition)),
			created_at INTEGER NOT NULL
		)`,
	} {
		if err := tx.Exec(stmt).Error; err != nil {
			return err
		}
	}
	return nil
}

// MaxToolDefinition is the largest definition kept (bytes of its JSON);
// a larger one is approved by its hash alone, and a change to it is shown
// without a diff.
const MaxToolDefinition = 256 << 10

// IsDigest reports whether s is a SHA-256 in lower-case hex: how stored
// attachments and tool definitions are named. (As a regular expression,
// [0-9a-f]{64} compiles to 64 copies of the class.)
func IsDigest(s string) bool {
	if len(s) != 64 || strings.ToLower(s) != s {
		return false // before decoding: a request path can be any length
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

type toolDefinitionRow struct {
	Hash       string `gorm:"primaryKey"`
	Definition string
	CreatedAt  int64
}

func (toolDefinitionRow) TableName() string { return "tool_definitions" }

// PutToolDefinition keeps a tool definition (canonical JSON) under its
// hash; keeping one already kept does nothing. A definition larger than
// MaxToolDefinition is not kept, and reports false.
func (s *Store) PutToolDefinition(ctx context.Context, hash string, definition []byte) (bool, error) {
	if !IsDigest(hash) {
		return false, fmt.Errorf("keep tool definition: %q is not a SHA-256 in hex", hash)
	}
	if len(definition) > MaxToolDefinition {
		return false, nil
	}
	row := toolDefinitionRow{Hash: hash, Definition: string(definition), CreatedAt: time.Now().UnixMilli()}
	if err := s.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
		return false, fmt.Errorf("keep tool definition: %w", err)
	}
	return true, nil
}

// ToolDefinition returns the definition kept under hash, and false when
// none is.
func (s *Store) ToolDefinition(ctx context.Context, hash string) ([]byte, bool, error) {
	var row toolDefinitionRow
	err := s.db.WithContext(ctx).Where("hash = ?", hash).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read tool definition: %w", err)
	}
	return []byte(row.Definition), true, nil
}
