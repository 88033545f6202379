package store

// The tables of conversations and messages, their FTS5 index and the
// rows gorm maps them to.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
)

// createConversations is migration 5: conversations, messages and the
// trigram full-text index over message content.
func createConversations(tx *gorm.DB) error {
	if err := requireFTS5(tx); err != nil {
		return err
	}
	stmts := []string{
		`CREATE TABLE conversations (
			id            INTEGER PRIMARY KEY AUTOINCREMENT,
			title         TEXT NOT NULL DEFAULT '',
			provider      TEXT NOT NULL,
			model         TEXT NOT NULL,
			system_prompt TEXT NOT NULL DEFAULT '',
			temperature   REAL,
			servers       TEXT CHECK (servers IS NULL OR json_type(servers) = 'array'),
			tools         TEXT CHECK (tools IS NULL OR json_type(tools) = 'object'),
			max_steps     INTEGER CHECK (max_steps IS NULL OR max_steps > 0),
			pinned        INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
			created_at    DATETIME NOT NULL,
			updated_at    DATETIME NOT NULL
		)`,
		`CREATE INDEX conversations_by_recency ON conversations (pinned DESC, updated_at DESC, id DESC)`,
		`CREATE TABLE messages (
			id              INTEGER PRIMARY KEY AUTOINCREMENT,
			conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
			seq             INTEGER NOT NULL,
			role            TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
			content         TEXT NOT NULL DEFAULT '',
			reasoning       TEXT NOT NULL DEFAULT '',
			tool_calls      TEXT CHECK (tool_calls IS NULL OR json_type(tool_calls) = 'array'),
			tool_call_id    TEXT NOT NULL DEFAULT '',
			attachments     TEXT CHECK (attachments IS NULL OR json_type(attachments) = 'array'),
			hidden          INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
			status          TEXT NOT NULL DEFAULT 'complete'
			                CHECK (status IN ('complete', 'streaming', 'interrupted', 'error')),
			error           TEXT NOT NULL DEFAULT '',
			model           TEXT NOT NULL DEFAULT '',
			usage           TEXT CHECK (usage IS NULL OR json_type(usage) = 'object'),
			created_at      DATETIME NOT NULL,
			updated_at      DATETIME NOT NULL,
			UNIQUE (conversation_id, seq)
		)`,
		// External content: the index stores only trigrams and reads the
		// text from messages when it needs it (rebuild, integrity-check).
		// The triggers below are the only writers; 'delete' must be given
		// the old text exactly. Hidden messages are indexed and filtered
		// out by the query, which keeps the triggers unconditional.
		`CREATE VIRTUAL TABLE messages_fts USING fts5 (
			content,
			content = 'messages',
			content_rowid = 'id',
			tokenize = 'trigram'
		)`,
		`CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
			INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
		END`,
		`CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
			INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
		END`,
		// Only a change of the text re-indexes: tool-call status updates and
		// usage writes leave the index alone.
		`CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages
		WHEN old.content IS NOT new.content BEGIN
			INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
			INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
		END`,
	}
	for _, s := range stmts {
		if err := tx.Exec(s).Error; err != nil {
			if strings.Contains(err.Error(), "no such module: fts5") {
				return ErrNoFTS5
			}
			return err
		}
	}
	return nil
}

// requireFTS5 fails with ErrNoFTS5 when SQLite was compiled without FTS5, and
// with a plain error when it is older than 3.34 (no trigram tokenizer).
func requireFTS5(tx *gorm.DB) error {
	var probe struct {
		FTS5    int
		Version string
	}
	err := tx.Raw(`SELECT sqlite_compileoption_used('ENABLE_FTS5') AS fts5, sqlite_version() AS version`).Scan(&probe).Error
	if err != nil {
		return fmt.Errorf("probe SQLite features: %w", err)
	}
	if probe.FTS5 != 1 {
		return ErrNoFTS5
	}
	if !versionAtLeast(probe.Version, 3, 34) {
		return fmt.Errorf("SQLite %s is too old: full-text search needs 3.34 or newer (trigram tokenizer)", probe.Version)
	}
	return nil
}

// versionAtLeast reports whether a "3.46.1" style version is >= major.minor.
func versionAtLeast(v string, major, minor int) bool {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	maj, err1 := strconv.Atoi(parts[0])
	mnr, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return maj > major || maj == major && mnr >= minor
}

// conversationRow is a row of conversations.
type conversationRow struct {
	ID           int64 `gorm:"primaryKey"`
	Title        string
	Provider     string
	Model        string
	SystemPrompt string
	Temperature  *float64
	Servers      *string
	Tools        *string
	MaxSteps     *int
	Pinned       bool
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// TableName names the table of conversationRow.
func (conversationRow) TableName() string { return "conversations" }

// messageRow is a row of messages.
type messageRow struct {
	ID             int64 `gorm:"primaryKey"`
	ConversationID int64
	Seq            int
	Role           string
	Content        string
	Reasoning      string
	ToolCalls      *string
	ToolCallID     string
	Attachments    *string
	Hidden         bool
	Status         string
	Error          string
	Model          string
	Usage          *string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	// VersionGroup is NULL before the first user message.
	VersionGroup    *int64
	Version         int
	SelectedVersion int
}

// TableName names the table of messageRow.
func (messageRow) TableName() string { return "messages" }
