package store

// Conversations and their messages (SPEC D1, D6): the chat history the
// sidebar lists, the transcript the chat view renders, and the full-text
// index the search box queries.
//
// # Identifiers
//
// Both tables use INTEGER PRIMARY KEY AUTOINCREMENT. The FTS5 index is an
// external-content table keyed by the messages' integer rowid, so messages
// need one anyway; conversations follow for symmetry and cheap joins.
// AUTOINCREMENT (rather than plain rowid reuse) guarantees an id is never
// handed out twice, so a stale id held by the UI after a delete can never
// open someone else's conversation. The ids are well inside JavaScript's safe
// integer range.
//
// # Order and history
//
// Messages of a conversation are numbered by seq (1, 2, 3…). Regenerate
// keeps every version of an answer (see versions.go): [Store.Messages]
// returns the path of the chosen versions, [Store.AllMessages] every
// version. Edit-and-resend cuts the conversation after a message
// ([Store.DeleteMessagesAfter]) and appends again.
//
// # Search
//
// messages_fts is an FTS5 table over messages.content with the trigram
// tokenizer, kept in sync by triggers. Trigrams make substrings and CJK text
// searchable without a word segmenter ("数据库" finds "数据库连接"). Terms of
// one or two characters cannot be looked up in a trigram index; they become
// LIKE filters instead (see [Store.SearchMessages]).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
)

// ErrNoFTS5 is returned by [Open] when the linked SQLite lacks FTS5.
var ErrNoFTS5 = errors.New("this build of MCP Desk lacks SQLite FTS5: build with -tags sqlite_fts5 (make does this)")

// ErrConversationNotFound is wrapped by errors about a conversation id that
// does not exist; the message names the id.
var ErrConversationNotFound = errors.New("conversation not found")

// ErrMessageNotFound is wrapped by errors about a message id that does not
// exist (or not in the conversation given); the message names the id.
var ErrMessageNotFound = errors.New("message not found")

// ErrToolCallNotFound is wrapped by [Store.UpdateToolCall] when the message
// has no tool call with the given id.
var ErrToolCallNotFound = errors.New("tool call not found")

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

// Limits on what a conversation or message may hold.
const (
	// MaxTitleLen is the longest title, in characters.
	MaxTitleLen = 300
	// MaxToolResultBytes is the largest tool result kept verbatim in a
	// message; a larger one is stored shortened (see [ToolCall]).
	MaxToolResultBytes = 1 << 20
	// toolResultTextBudget is how much text a shortened result keeps.
	toolResultTextBudget = 64 << 10
	// previewLen is the length of ConversationSummary.Preview, in characters.
	previewLen = 160
)

// ToolFilter narrows the tools of one server in a conversation. With Allowed
// set only those tools are offered; Disabled tools are never offered.
type ToolFilter struct {
	Allowed  []string `json:"allowed,omitempty"`
	Disabled []string `json:"disabled,omitempty"`
}

// ConversationSettings are the per-conversation choices of SPEC D1.
type ConversationSettings struct {
	// Provider is the id of the provider the conversation talks to. It is
	// not a foreign key: a conversation outlives a deleted provider, and the
	// chat service reports the missing provider when the user sends.
	Provider string `json:"provider"`
	// Model is the model id at that provider.
	Model        string `json:"model"`
	SystemPrompt string `json:"systemPrompt"`
	// Temperature is nil for the provider's default, else 0…2.
	Temperature *float64 `json:"temperature"`
	// Servers are the ids of the MCP servers whose tools are offered. Nil
	// means every enabled server; an empty list means none.
	Servers []string `json:"servers" ts_type:"string[] | null"`
	// Tools narrows tools per server id. Nil means every tool of the
	// allowed servers.
	Tools map[string]ToolFilter `json:"tools" ts_type:"Record<string, ToolFilter> | null"`
	// MaxSteps caps the agent loop; nil means the application default.
	MaxSteps *int `json:"maxSteps"`
}

// Conversation is one chat with its settings.
type Conversation struct {
	ID       int64                `json:"id"`
	Title    string               `json:"title"`
	Settings ConversationSettings `json:"settings"`
	Pinned   bool                 `json:"pinned"`
	// CreatedAt is when it was created.
	CreatedAt time.Time `json:"createdAt"`
	// UpdatedAt is when a message was last added or changed (or creation).
	// Renaming, pinning and changing settings do not move it, so the
	// sidebar order reflects activity.
	UpdatedAt time.Time `json:"updatedAt"`
}

// ConversationSummary is one row of the sidebar.
type ConversationSummary struct {
	ID       int64  `json:"id"`
	Title    string `json:"title"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Pinned   bool   `json:"pinned"`
	// MessageCount counts every message, tool and hidden ones included.
	MessageCount int `json:"messageCount"`
	// Preview is the start of the last visible user or assistant text,
	// whitespace collapsed, at most 160 characters.
	Preview   string    `json:"preview"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Role is who wrote a message.
type Role string

// The roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// MessageStatus is how far a message got.
type MessageStatus string

// The message statuses.
const (
	// MessageComplete is a finished message (the default).
	MessageComplete MessageStatus = "complete"
	// MessageStreaming is an assistant reply still arriving.
	MessageStreaming MessageStatus = "streaming"
	// MessageInterrupted was stopped by the user or cut by a broken stream
	// or a crash; Content holds what had arrived.
	MessageInterrupted MessageStatus = "interrupted"
	// MessageError failed; Error says why.
	MessageError MessageStatus = "error"
)

// ToolCallStatus is the state of one tool call.
type ToolCallStatus string

// The tool call statuses, in the order a call passes through them.
const (
	ToolCallPending   ToolCallStatus = "pending" // waiting for approval
	ToolCallApproved  ToolCallStatus = "approved"
	ToolCallDeclined  ToolCallStatus = "declined"
	ToolCallRunning   ToolCallStatus = "running"
	ToolCallDone      ToolCallStatus = "done"
	ToolCallError     ToolCallStatus = "error"
	ToolCallCancelled ToolCallStatus = "cancelled"
)

// Approval is how a tool call came to run (or not), SPEC D4.
type Approval string

// The approvals.
const (
	ApprovalUser         Approval = "user"         // the user clicked Run (or Cancel)
	ApprovalConversation Approval = "conversation" // allowed for this conversation
	ApprovalAlways       Approval = "always"       // this tool is always allowed
	ApprovalServerAuto   Approval = "server-auto"  // the server is auto-approved
	ApprovalNever        Approval = "never"        // refused by a "never" policy
	// ApprovalReadOnly: run without asking by the "read-only tools run"
	// default, the tool's annotations saying it only reads.
	ApprovalReadOnly Approval = "read-only"
)

// ToolCall is one tool call an assistant message asked for, with what became
// of it.
type ToolCall struct {
	// ID is the call id the model gave; a RoleTool message answers it.
	ID string `json:"id"`
	// Name is the function name the model used.
	Name string `json:"name"`
	// Arguments is the JSON text that ran (or the model's text, if it was
	// never run); it may be invalid JSON when the model produced that.
	Arguments string `json:"arguments"`
	// Server and Tool are the MCP server id and the tool's own name.
	Server string         `json:"server"`
	Tool   string         `json:"tool"`
	Status ToolCallStatus `json:"status"`
	// Result is the MCP CallToolResult as JSON, if the call returned. One
	// larger than MaxToolResultBytes is stored shortened: its text blocks
	// cut, binary blocks replaced by a note, and ResultTruncated set.
	Result          json.RawMessage `json:"result,omitempty" ts_type:"any"`
	ResultTruncated bool            `json:"resultTruncated,omitempty"`
	// ResultBytes is the size of the original result when it was shortened.
	ResultBytes int    `json:"resultBytes,omitempty"`
	Error       string `json:"error,omitempty"`
	DurationMs  int64  `json:"durationMs,omitempty"`
	// Approval says how the call was allowed or refused, once decided.
	Approval Approval `json:"approval,omitempty"`
}

// TokenUsage counts the tokens a message cost (the sum over the model calls
// that produced it).
type TokenUsage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	CachedTokens     int `json:"cachedTokens"`
	ReasoningTokens  int `json:"reasoningTokens"`
}

// Attachment is a file attached to a user message (SPEC D10), inline.
type Attachment struct {
	Name     string `json:"name,omitempty"`
	MIMEType string `json:"mimeType"`
	Data     string `json:"data"` // base64, no data: prefix
}

// Message is one message of a conversation.
type Message struct {
	ID             int64 `json:"id"`
	ConversationID int64 `json:"conversationId"`
	// Seq numbers the messages of a conversation from 1.
	Seq       int    `json:"seq"`
	Role      Role   `json:"role"`
	Content   string `json:"content"`
	Reasoning string `json:"reasoning"`
	// ToolCalls are the calls of an assistant message; never nil when read.
	ToolCalls []ToolCall `json:"toolCalls"`
	// ToolCallID links a RoleTool message to the call it answers.
	ToolCallID string `json:"toolCallId"`
	// Attachments of a user message; never nil when read.
	Attachments []Attachment `json:"attachments"`
	// Hidden messages go to the model but not on screen (widget state,
	// SPEC D9); they are not searched and not previewed.
	Hidden bool          `json:"hidden"`
	Status MessageStatus `json:"status"`
	Error  string        `json:"error"`
	// Model is the model that wrote an assistant message, as
	// "provider-id/model" (see JoinModel).
	Model     string      `json:"model"`
	Usage     *TokenUsage `json:"usage"`
	CreatedAt time.Time   `json:"createdAt"`
	UpdatedAt time.Time   `json:"updatedAt"`
	// VersionGroup is the id of the user message this message follows:
	// the answer (and what came after it) belongs to that message's
	// answer versions. 0 before the first user message. Set by the store.
	VersionGroup int64 `json:"versionGroup"`
	// Version is which version of VersionGroup's answer this message is
	// part of, from 1. Set by the store.
	Version int `json:"version"`
	// SelectedVersion is, on a user message, the version of its answer
	// shown and sent to the model (see [Store.SelectVersion]).
	SelectedVersion int `json:"selectedVersion"`
	// Versions is, on a user message, how many versions its answer has;
	// filled in when read.
	Versions int `json:"versions"`
}

// JoinModel is how a message names the model that wrote it:
// "provider-id/model". Provider ids never hold "/"; models may.
func JoinModel(provider, model string) string { return provider + "/" + model }

// SplitModel reads what JoinModel wrote; a string without "/" is a model
// alone.
func SplitModel(s string) (provider, model string) {
	if p, m, ok := strings.Cut(s, "/"); ok && p != "" {
		return p, m
	}
	return "", s
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

func conversationNotFound(id int64) error { return fmt.Errorf("%w: %d", ErrConversationNotFound, id) }
func messageNotFound(id int64) error      { return fmt.Errorf("%w: %d", ErrMessageNotFound, id) }

// now is the store's clock: UTC, so DATETIME text sorts chronologically.
func now() time.Time { return time.Now().UTC() }

// --- conversations ---

// CreateConversation stores a new conversation with title (may be empty:
// the UI shows a placeholder) and settings, and returns it.
func (s *Store) CreateConversation(ctx context.Context, title string, settings ConversationSettings) (Conversation, error) {
	title, err := cleanTitle(title)
	if err != nil {
		return Conversation{}, fmt.Errorf("create conversation: %w", err)
	}
	row := conversationRow{Title: title}
	if err := settings.apply(&row); err != nil {
		return Conversation{}, fmt.Errorf("create conversation: %w", err)
	}
	row.CreatedAt = now()
	row.UpdatedAt = row.CreatedAt
	if err := s.db.WithContext(ctx).Create(&row).Error; err != nil {
		return Conversation{}, fmt.Errorf("create conversation: %w", err)
	}
	return row.conversation()
}

// GetConversation returns one conversation, or an error wrapping
// ErrConversationNotFound.
func (s *Store) GetConversation(ctx context.Context, id int64) (Conversation, error) {
	var rows []conversationRow
	if err := s.db.WithContext(ctx).Where("id = ?", id).Limit(1).Find(&rows).Error; err != nil {
		return Conversation{}, fmt.Errorf("get conversation %d: %w", id, err)
	}
	if len(rows) == 0 {
		return Conversation{}, conversationNotFound(id)
	}
	return rows[0].conversation()
}

// ListConversations returns a page of the sidebar: pinned conversations
// first, then by UpdatedAt, newest first. limit <= 0 means 100; it is capped
// at 1000.
func (s *Store) ListConversations(ctx context.Context, limit, offset int) ([]ConversationSummary, error) {
	if limit <= 0 {
		limit = 100
	}
	limit = min(limit, 1000)
	offset = max(offset, 0)
	var rows []struct {
		ID           int64
		Title        string
		Provider     string
		Model        string
		Pinned       bool
		MessageCount int
		Preview      *string
		CreatedAt    time.Time
		UpdatedAt    time.Time
	}
	// The preview takes a little more than previewLen so that collapsing
	// whitespace still leaves a full line. It comes from the version shown
	// of its own answer (one level: a later turn of a version not shown
	// further up can still be previewed).
	err := s.db.WithContext(ctx).Raw(`
		SELECT c.id, c.title, c.provider, c.model, c.pinned, c.created_at, c.updated_at,
			(SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) AS message_count,
			(SELECT substr(m.content, 1, ?) FROM messages m
			  WHERE m.conversation_id = c.id AND m.role IN ('user', 'assistant')
			    AND m.hidden = 0 AND m.content <> ''
			    AND (m.version_group IS NULL OR m.version =
			         (SELECT g.selected_version FROM messages g WHERE g.id = m.version_group))
			  ORDER BY m.seq DESC LIMIT 1) AS preview
		FROM conversations c
		ORDER BY c.pinned DESC, c.updated_at DESC, c.id DESC
		LIMIT ? OFFSET ?`, previewLen*2, limit, offset).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	out := make([]ConversationSummary, 0, len(rows))
	for _, r := range rows {
		sum := ConversationSummary{
			ID: r.ID, Title: r.Title, Provider: r.Provider, Model: r.Model, Pinned: r.Pinned,
			MessageCount: r.MessageCount, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		}
		if r.Preview != nil {
			sum.Preview = clip(collapseSpace(*r.Preview), previewLen)
		}
		out = append(out, sum)
	}
	return out, nil
}

// RenameConversation sets the title (trimmed, at most MaxTitleLen
// characters). It does not move UpdatedAt.
func (s *Store) RenameConversation(ctx context.Context, id int64, title string) error {
	title, err := cleanTitle(title)
	if err != nil {
		return fmt.Errorf("rename conversation %d: %w", id, err)
	}
	return s.updateConversation(ctx, "rename", id, map[string]any{"title": title})
}

// SetConversationPinned pins or unpins a conversation. It does not move
// UpdatedAt.
func (s *Store) SetConversationPinned(ctx context.Context, id int64, pinned bool) error {
	return s.updateConversation(ctx, "pin", id, map[string]any{"pinned": pinned})
}

// UpdateConversationSettings replaces all settings of a conversation and
// returns it. It does not move UpdatedAt.
func (s *Store) UpdateConversationSettings(ctx context.Context, id int64, settings ConversationSettings) (Conversation, error) {
	var row conversationRow
	if err := settings.apply(&row); err != nil {
		return Conversation{}, fmt.Errorf("update conversation %d settings: %w", id, err)
	}
	err := s.updateConversation(ctx, "update settings of", id, map[string]any{
		"provider": row.Provider, "model": row.Model, "system_prompt": row.SystemPrompt,
		"temperature": row.Temperature, "servers": row.Servers, "tools": row.Tools, "max_steps": row.MaxSteps,
	})
	if err != nil {
		return Conversation{}, err
	}
	return s.GetConversation(ctx, id)
}

// updateConversation sets columns of one conversation; verb names the action
// in errors.
func (s *Store) updateConversation(ctx context.Context, verb string, id int64, cols map[string]any) error {
	res := s.db.WithContext(ctx).Model(&conversationRow{}).Where("id = ?", id).UpdateColumns(cols)
	if res.Error != nil {
		return fmt.Errorf("%s conversation %d: %w", verb, id, res.Error)
	}
	if res.RowsAffected == 0 {
		return conversationNotFound(id)
	}
	return nil
}

// DeleteConversation removes a conversation with all its messages (and their
// search index entries). A missing id is an error wrapping
// ErrConversationNotFound.
func (s *Store) DeleteConversation(ctx context.Context, id int64) error {
	res := s.db.WithContext(ctx).Exec(`DELETE FROM conversations WHERE id = ?`, id)
	if res.Error != nil {
		return fmt.Errorf("delete conversation %d: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return conversationNotFound(id)
	}
	return nil
}

// apply validates the settings and writes them into row.
func (cs ConversationSettings) apply(row *conversationRow) error {
	cs.Provider = strings.TrimSpace(cs.Provider)
	cs.Model = strings.TrimSpace(cs.Model)
	switch {
	case cs.Provider == "" || cs.Model == "":
		return errors.New("a conversation needs a provider and a model")
	case cs.Temperature != nil && !(*cs.Temperature >= 0 && *cs.Temperature <= 2):
		return fmt.Errorf("temperature %v is outside 0…2", *cs.Temperature)
	case cs.MaxSteps != nil && (*cs.MaxSteps < 1 || *cs.MaxSteps > 1000):
		return fmt.Errorf("max steps %d is outside 1…1000", *cs.MaxSteps)
	}
	servers, err := jsonOrNull(cs.Servers, cs.Servers == nil)
	if err != nil {
		return fmt.Errorf("servers: %w", err)
	}
	tools, err := jsonOrNull(cs.Tools, cs.Tools == nil)
	if err != nil {
		return fmt.Errorf("tools: %w", err)
	}
	row.Provider, row.Model, row.SystemPrompt = cs.Provider, cs.Model, cs.SystemPrompt
	row.Temperature, row.MaxSteps, row.Servers, row.Tools = cs.Temperature, cs.MaxSteps, servers, tools
	return nil
}

// conversation decodes a row.
func (r conversationRow) conversation() (Conversation, error) {
	c := Conversation{
		ID: r.ID, Title: r.Title, Pinned: r.Pinned, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		Settings: ConversationSettings{
			Provider: r.Provider, Model: r.Model, SystemPrompt: r.SystemPrompt,
			Temperature: r.Temperature, MaxSteps: r.MaxSteps,
		},
	}
	if err := decodeJSON(r.Servers, &c.Settings.Servers); err != nil {
		return Conversation{}, fmt.Errorf("conversation %d: servers: %w", r.ID, err)
	}
	if err := decodeJSON(r.Tools, &c.Settings.Tools); err != nil {
		return Conversation{}, fmt.Errorf("conversation %d: tools: %w", r.ID, err)
	}
	return c, nil
}

// cleanTitle trims a title and checks its length.
func cleanTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	if !utf8.ValidString(title) {
		return "", errors.New("the title is not valid UTF-8")
	}
	if utf8.RuneCountInString(title) > MaxTitleLen {
		return "", fmt.Errorf("the title is longer than %d characters", MaxTitleLen)
	}
	return title, nil
}

// --- messages ---

// AppendMessage adds m at the end of its conversation and returns it as
// stored, with ID, Seq and times set. Status defaults to complete. It moves
// the conversation's UpdatedAt.
func (s *Store) AppendMessage(ctx context.Context, m Message) (Message, error) {
	if m.Status == "" {
		m.Status = MessageComplete
	}
	if err := m.validate(); err != nil {
		return Message{}, fmt.Errorf("append message: %w", err)
	}
	row, err := m.row()
	if err != nil {
		return Message{}, fmt.Errorf("append message: %w", err)
	}
	t := now()
	row.ID, row.CreatedAt, row.UpdatedAt = 0, t, t
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var next struct{ Exists, Seq int }
		// One query answers both "does the conversation exist" and "what
		// is the next seq".
		if err := tx.Raw(`SELECT
				EXISTS (SELECT 1 FROM conversations WHERE id = ?) AS "exists",
				COALESCE((SELECT MAX(seq) FROM messages WHERE conversation_id = ?), 0) + 1 AS seq`,
			m.ConversationID, m.ConversationID).Scan(&next).Error; err != nil {
			return err
		}
		if next.Exists == 0 {
			return conversationNotFound(m.ConversationID)
		}
		row.Seq = next.Seq
		tip, err := branchTip(tx, m.ConversationID)
		if err != nil {
			return err
		}
		row.VersionGroup, row.Version, row.SelectedVersion = nil, 1, 1
		if tip.ID != 0 {
			row.VersionGroup, row.Version = &tip.ID, tip.SelectedVersion
		}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		return touchConversation(tx, m.ConversationID, t)
	})
	if errors.Is(err, ErrConversationNotFound) {
		return Message{}, err
	}
	if err != nil {
		return Message{}, fmt.Errorf("append message to conversation %d: %w", m.ConversationID, err)
	}
	return row.message()
}

// UpdateMessage rewrites the changeable fields of message m.ID — Content,
// Reasoning, ToolCalls, Attachments, Hidden, Status, Error, Model and Usage —
// and returns the message as stored. ConversationID, Seq, Role, ToolCallID
// and CreatedAt never change. It moves the conversation's UpdatedAt.
//
// Use it to finalise a streamed reply. Every change of Content re-indexes
// the whole text for search, so write a streaming reply sparingly (at the
// end, or every few seconds), not per delta. For the status of one tool call
// while others may run in parallel, use [Store.UpdateToolCall], which cannot
// lose a concurrent update.
func (s *Store) UpdateMessage(ctx context.Context, m Message) (Message, error) {
	if m.Status == "" {
		m.Status = MessageComplete
	}
	var out messageRow
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		old, err := findMessage(tx, m.ID)
		if err != nil {
			return err
		}
		m.ConversationID, m.Role, m.ToolCallID = old.ConversationID, Role(old.Role), old.ToolCallID
		if err := m.validate(); err != nil {
			return err
		}
		row, err := m.row()
		if err != nil {
			return err
		}
		row.ID, row.Seq, row.CreatedAt, row.UpdatedAt = old.ID, old.Seq, old.CreatedAt, now()
		row.VersionGroup, row.Version, row.SelectedVersion = old.VersionGroup, old.Version, old.SelectedVersion
		if err := tx.Model(&messageRow{}).Where("id = ?", m.ID).UpdateColumns(map[string]any{
			"content": row.Content, "reasoning": row.Reasoning, "tool_calls": row.ToolCalls,
			"attachments": row.Attachments, "hidden": row.Hidden, "status": row.Status,
			"error": row.Error, "model": row.Model, "usage": row.Usage, "updated_at": row.UpdatedAt,
		}).Error; err != nil {
			return err
		}
		out = row
		return touchConversation(tx, row.ConversationID, row.UpdatedAt)
	})
	if errors.Is(err, ErrMessageNotFound) {
		return Message{}, err
	}
	if err != nil {
		return Message{}, fmt.Errorf("update message %d: %w", m.ID, err)
	}
	msg, err := out.message()
	if err != nil {
		return Message{}, err
	}
	if err := countVersions(s.db.WithContext(ctx), &msg); err != nil {
		return Message{}, fmt.Errorf("update message %d: %w", m.ID, err)
	}
	return msg, nil
}

// UpdateToolCall replaces the tool call with call.ID in message messageID
// (read, change and write in one immediate transaction, so parallel calls of
// one message never overwrite each other) and returns the message as stored.
func (s *Store) UpdateToolCall(ctx context.Context, messageID int64, call ToolCall) (Message, error) {
	var out Message
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := findMessage(tx, messageID)
		if err != nil {
			return err
		}
		m, err := row.message()
		if err != nil {
			return err
		}
		i := -1
		for j, c := range m.ToolCalls {
			if c.ID == call.ID {
				i = j
				break
			}
		}
		if i < 0 {
			return fmt.Errorf("%w: %q in message %d", ErrToolCallNotFound, call.ID, messageID)
		}
		m.ToolCalls[i] = call
		if err := m.validate(); err != nil {
			return err
		}
		newRow, err := m.row()
		if err != nil {
			return err
		}
		t := now()
		if err := tx.Model(&messageRow{}).Where("id = ?", messageID).
			UpdateColumns(map[string]any{"tool_calls": newRow.ToolCalls, "updated_at": t}).Error; err != nil {
			return err
		}
		m.ToolCalls, m.UpdatedAt = nil, t
		if err := decodeJSON(newRow.ToolCalls, &m.ToolCalls); err != nil {
			return err
		}
		out = m
		return touchConversation(tx, m.ConversationID, t)
	})
	if errors.Is(err, ErrMessageNotFound) || errors.Is(err, ErrToolCallNotFound) {
		return Message{}, err
	}
	if err != nil {
		return Message{}, fmt.Errorf("update tool call %q of message %d: %w", call.ID, messageID, err)
	}
	return out, nil
}

// GetMessage returns one message, or an error wrapping ErrMessageNotFound.
func (s *Store) GetMessage(ctx context.Context, id int64) (Message, error) {
	row, err := findMessage(s.db.WithContext(ctx), id)
	if errors.Is(err, ErrMessageNotFound) {
		return Message{}, err
	}
	if err != nil {
		return Message{}, fmt.Errorf("get message %d: %w", id, err)
	}
	m, err := row.message()
	if err != nil {
		return Message{}, err
	}
	if err := countVersions(s.db.WithContext(ctx), &m); err != nil {
		return Message{}, fmt.Errorf("get message %d: %w", id, err)
	}
	return m, nil
}

// RecoverInterrupted marks what a crash left half done: messages still
// streaming become interrupted, and their tool calls that were pending,
// approved or running become cancelled. Call it once at startup, before any
// chat runs. It returns how many messages it changed.
func (s *Store) RecoverInterrupted(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []messageRow
		if err := tx.Where("status = ?", MessageStreaming).Find(&rows).Error; err != nil {
			return err
		}
		for _, r := range rows {
			m, err := r.message()
			if err != nil {
				return err
			}
			for i, c := range m.ToolCalls {
				switch c.Status {
				case ToolCallPending, ToolCallApproved, ToolCallRunning:
					m.ToolCalls[i].Status = ToolCallCancelled
				}
			}
			calls, err := jsonOrNull(m.ToolCalls, len(m.ToolCalls) == 0)
			if err != nil {
				return err
			}
			if err := tx.Model(&messageRow{}).Where("id = ?", r.ID).UpdateColumns(map[string]any{
				"status": MessageInterrupted, "tool_calls": calls,
			}).Error; err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("recover interrupted messages: %w", err)
	}
	return n, nil
}

// findMessage reads one message row or returns an error wrapping
// ErrMessageNotFound.
func findMessage(tx *gorm.DB, id int64) (messageRow, error) {
	var rows []messageRow
	if err := tx.Where("id = ?", id).Limit(1).Find(&rows).Error; err != nil {
		return messageRow{}, err
	}
	if len(rows) == 0 {
		return messageRow{}, messageNotFound(id)
	}
	return rows[0], nil
}

// requireConversation returns an error wrapping ErrConversationNotFound when
// id does not exist.
func requireConversation(tx *gorm.DB, id int64) error {
	var n int64
	if err := tx.Model(&conversationRow{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return err
	}
	if n == 0 {
		return conversationNotFound(id)
	}
	return nil
}

// touchConversation moves a conversation's updated_at to t.
func touchConversation(tx *gorm.DB, id int64, t time.Time) error {
	return tx.Exec(`UPDATE conversations SET updated_at = ? WHERE id = ?`, t, id).Error
}

// validate checks the enumerations and the JSON-bearing fields of m.
func (m *Message) validate() error {
	switch m.Role {
	case RoleSystem, RoleUser, RoleAssistant, RoleTool:
	default:
		return fmt.Errorf("unknown role %q", m.Role)
	}
	switch m.Status {
	case MessageComplete, MessageStreaming, MessageInterrupted, MessageError:
	default:
		return fmt.Errorf("unknown message status %q", m.Status)
	}
	if m.Role == RoleTool && m.ToolCallID == "" {
		return errors.New("a tool message needs the id of the call it answers")
	}
	seen := make(map[string]bool, len(m.ToolCalls))
	for i, c := range m.ToolCalls {
		if c.ID == "" {
			return fmt.Errorf("tool call %d has no id", i)
		}
		if seen[c.ID] {
			return fmt.Errorf("tool call id %q appears twice", c.ID)
		}
		seen[c.ID] = true
		switch c.Status {
		case ToolCallPending, ToolCallApproved, ToolCallDeclined, ToolCallRunning,
			ToolCallDone, ToolCallError, ToolCallCancelled:
		default:
			return fmt.Errorf("tool call %q: unknown status %q", c.ID, c.Status)
		}
		switch c.Approval {
		case "", ApprovalUser, ApprovalConversation, ApprovalAlways, ApprovalServerAuto, ApprovalNever, ApprovalReadOnly:
		default:
			return fmt.Errorf("tool call %q: unknown approval %q", c.ID, c.Approval)
		}
		if len(c.Result) > 0 && !json.Valid(c.Result) {
			return fmt.Errorf("tool call %q: result is not valid JSON", c.ID)
		}
	}
	return nil
}

// row encodes m, shortening tool results that are too large.
func (m Message) row() (messageRow, error) {
	calls := make([]ToolCall, len(m.ToolCalls))
	for i, c := range m.ToolCalls {
		calls[i] = shortenResult(c)
	}
	toolCalls, err := jsonOrNull(calls, len(calls) == 0)
	if err != nil {
		return messageRow{}, fmt.Errorf("tool calls: %w", err)
	}
	attachments, err := jsonOrNull(m.Attachments, len(m.Attachments) == 0)
	if err != nil {
		return messageRow{}, fmt.Errorf("attachments: %w", err)
	}
	usage, err := jsonOrNull(m.Usage, m.Usage == nil)
	if err != nil {
		return messageRow{}, fmt.Errorf("usage: %w", err)
	}
	return messageRow{
		ID: m.ID, ConversationID: m.ConversationID, Seq: m.Seq, Role: string(m.Role),
		Content: m.Content, Reasoning: m.Reasoning, ToolCalls: toolCalls, ToolCallID: m.ToolCallID,
		Attachments: attachments, Hidden: m.Hidden, Status: string(m.Status), Error: m.Error,
		Model: m.Model, Usage: usage, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt,
		VersionGroup: groupOrNull(m.VersionGroup), Version: max(m.Version, 1),
		SelectedVersion: max(m.SelectedVersion, 1),
	}, nil
}

// message decodes a row.
func (r messageRow) message() (Message, error) {
	m := Message{
		ID: r.ID, ConversationID: r.ConversationID, Seq: r.Seq, Role: Role(r.Role),
		Content: r.Content, Reasoning: r.Reasoning, ToolCallID: r.ToolCallID, Hidden: r.Hidden,
		Status: MessageStatus(r.Status), Error: r.Error, Model: r.Model,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		Version: r.Version, SelectedVersion: r.SelectedVersion,
	}
	if r.VersionGroup != nil {
		m.VersionGroup = *r.VersionGroup
	}
	if m.Role == RoleUser {
		m.Versions = max(m.SelectedVersion, 1)
	} else {
		m.SelectedVersion = 0
	}
	if err := decodeJSON(r.ToolCalls, &m.ToolCalls); err != nil {
		return Message{}, fmt.Errorf("message %d: tool calls: %w", r.ID, err)
	}
	if err := decodeJSON(r.Attachments, &m.Attachments); err != nil {
		return Message{}, fmt.Errorf("message %d: attachments: %w", r.ID, err)
	}
	if err := decodeJSON(r.Usage, &m.Usage); err != nil {
		return Message{}, fmt.Errorf("message %d: usage: %w", r.ID, err)
	}
	if m.ToolCalls == nil {
		m.ToolCalls = []ToolCall{}
	}
	if m.Attachments == nil {
		m.Attachments = []Attachment{}
	}
	return m, nil
}

// shortenResult returns c with a Result of at most about MaxToolResultBytes:
// a larger CallToolResult keeps its isError and its text (cut to 64 KiB in
// all), and each image, audio or embedded blob becomes a one-line note.
func shortenResult(c ToolCall) ToolCall {
	if len(c.Result) <= MaxToolResultBytes {
		return c
	}
	var res struct {
		Content []map[string]any `json:"content"`
		IsError bool             `json:"isError"`
	}
	var text strings.Builder
	if err := json.Unmarshal(c.Result, &res); err != nil || res.Content == nil {
		// Not a CallToolResult we can read: keep the start of the raw JSON.
		text.WriteString(string(c.Result))
	} else {
		for _, block := range res.Content {
			if text.Len() > 0 {
				text.WriteString("\n")
			}
			switch block["type"] {
			case "text":
				s, _ := block["text"].(string)
				text.WriteString(s)
			case "resource":
				r, _ := block["resource"].(map[string]any)
				uri, _ := r["uri"].(string)
				s, _ := r["text"].(string)
				fmt.Fprintf(&text, "[resource %s]\n%s", uri, s)
			default:
				mime, _ := block["mimeType"].(string)
				fmt.Fprintf(&text, "[%v %s omitted]", block["type"], mime)
			}
		}
	}
	short := clipBytes(text.String(), toolResultTextBudget)
	note := fmt.Sprintf("\n… [result shortened from %d bytes]", len(c.Result))
	b, _ := json.Marshal(map[string]any{
		"content": []map[string]any{{"type": "text", "text": short + note}},
		"isError": res.IsError,
	})
	c.ResultBytes = len(c.Result)
	c.Result = b
	c.ResultTruncated = true
	return c
}

// --- search ---

// Snippet markers: SearchHit.Snippet wraps every match in SnippetStart …
// SnippetEnd. They are ASCII control characters (STX, ETX) that never occur
// in chat text, so the UI can split on them and escape each part before
// highlighting; no HTML is ever built here.
const (
	SnippetStart = "\x02"
	SnippetEnd   = "\x03"
)

// snippetLen is the length of a snippet window, in characters (markers and
// ellipses not counted); snippetLead of them come before the first match.
const (
	snippetLen  = 64
	snippetLead = 20
)

// SearchHit is one message that matches a search.
type SearchHit struct {
	ConversationID    int64  `json:"conversationId"`
	ConversationTitle string `json:"conversationTitle"`
	MessageID         int64  `json:"messageId"`
	Role              Role   `json:"role"`
	// Snippet is about 64 characters around the first match, whitespace
	// collapsed, "…" where cut, every match between SnippetStart and
	// SnippetEnd.
	Snippet   string    `json:"snippet"`
	CreatedAt time.Time `json:"createdAt"`
	// Version is the version of the answer the message belongs to and
	// Versions how many that answer has; Versions is 1 when it has one
	// (a hit in another version than the one shown says which).
	Version  int `json:"version"`
	Versions int `json:"versions"`
}

// SearchMessages finds messages whose text contains every whitespace-
// separated term of query, case-insensitively, best match first (bm25 rank,
// then newest). Hidden messages are not searched. limit <= 0 means 50; it is
// capped at 500.
//
// Terms of three or more characters go to the trigram index, each as a
// quoted FTS5 string, so the query syntax (OR, NEAR, *, -, column filters,
// quotes) is never interpreted: user text cannot make the MATCH fail. Shorter
// terms, which a trigram index cannot look up, are LIKE filters on the rows
// the index found; a query of only short terms is a LIKE scan of the
// messages from the newest back, which stops once limit rows matched.
//
// Snippets are cut in Go from the returned rows only: FTS5's snippet() would
// run for every match before the sort (a word found in 1,000 messages costs
// about 20% more with it), and the LIKE path needs the same code anyway.
func (s *Store) SearchMessages(ctx context.Context, query string, limit int) ([]SearchHit, error) {
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, 500)
	long, short := splitTerms(query)
	if len(long) == 0 && len(short) == 0 {
		return []SearchHit{}, nil
	}
	var (
		where []string
		args  []any
	)
	for _, t := range short {
		where = append(where, `m.content LIKE ? ESCAPE '\'`)
		args = append(args, "%"+escapeLike(t)+"%")
	}
	var rows []struct {
		ConversationID int64
		Title          string
		MessageID      int64
		Role           string
		Content        string
		CreatedAt      time.Time
		Version        int
		Versions       int
	}
	db := s.db.WithContext(ctx)
	var err error
	if len(long) > 0 {
		args = append([]any{ftsPhrases(long)}, args...)
		err = db.Raw(searchFTSQuery(where), append(args, limit)...).Scan(&rows).Error
	} else {
		err = db.Raw(searchLikeQuery(where), append(args, limit)...).Scan(&rows).Error
	}
	if err != nil {
		return nil, fmt.Errorf("search messages: %w", err)
	}
	marker := termsPattern(append(long, short...))
	out := make([]SearchHit, 0, len(rows))
	for _, r := range rows {
		out = append(out, SearchHit{
			ConversationID: r.ConversationID, ConversationTitle: r.Title, MessageID: r.MessageID,
			Role: Role(r.Role), Snippet: snippet(r.Content, marker), CreatedAt: r.CreatedAt,
			Version: max(r.Version, 1), Versions: max(r.Versions, r.Version, 1),
		})
	}
	return out, nil
}

// searchVersions is how many versions the answer of a hit has, found
// through the messages_by_version index.
const searchVersions = `COALESCE((SELECT MAX(v.version) FROM messages v WHERE v.version_group = m.version_group), 1)`

// searchFTSQuery is the indexed search; its first argument is the MATCH
// expression, then one per extra condition, then the limit.
func searchFTSQuery(extra []string) string {
	cond := ""
	for _, w := range extra {
		cond += " AND " + w
	}
	return `SELECT m.conversation_id, c.title, m.id AS message_id, m.role, m.created_at, m.content,
			m.version, ` + searchVersions + ` AS versions
		FROM messages_fts
		JOIN messages m ON m.id = messages_fts.rowid
		JOIN conversations c ON c.id = m.conversation_id
		WHERE messages_fts MATCH ? AND m.hidden = 0` + cond + `
		ORDER BY messages_fts.rank, m.created_at DESC, m.id DESC
		LIMIT ?`
}

// searchLikeQuery is the scan for queries of only short terms; one argument
// per condition, then the limit. Ids grow with insertion, so walking the
// rowid backwards is newest first without a sort, and the scan ends at the
// limit.
func searchLikeQuery(where []string) string {
	return `SELECT m.conversation_id, c.title, m.id AS message_id, m.role, m.created_at, m.content,
			m.version, ` + searchVersions + ` AS versions
		FROM messages m
		JOIN conversations c ON c.id = m.conversation_id
		WHERE m.hidden = 0 AND ` + strings.Join(where, " AND ") + `
		ORDER BY m.id DESC
		LIMIT ?`
}

// splitTerms splits a query at whitespace into terms the trigram index can
// look up (three characters or more) and shorter ones. Invalid UTF-8 is
// dropped, and so are duplicates.
func splitTerms(query string) (long, short []string) {
	seen := map[string]bool{}
	for _, t := range strings.Fields(strings.ToValidUTF8(query, " ")) {
		if seen[t] {
			continue
		}
		seen[t] = true
		if utf8.RuneCountInString(t) >= 3 {
			long = append(long, t)
		} else {
			short = append(short, t)
		}
	}
	return long, short
}

// ftsPhrases quotes each term as an FTS5 string — doubling any '"' inside —
// and joins them with spaces, which FTS5 reads as AND. Inside a string every
// character is literal, so no user text is ever parsed as query syntax.
func ftsPhrases(terms []string) string {
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	return strings.Join(quoted, " ")
}

// escapeLike escapes the LIKE wildcards of s for ESCAPE '\'.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// termsPattern matches any of terms case-insensitively, the longest first
// where one term starts another.
func termsPattern(terms []string) *regexp.Regexp {
	sorted := slices.Clone(terms)
	slices.SortFunc(sorted, func(a, b string) int { return len(b) - len(a) })
	quoted := make([]string, len(sorted))
	for i, t := range sorted {
		quoted[i] = regexp.QuoteMeta(t)
	}
	return regexp.MustCompile(`(?i)` + strings.Join(quoted, "|"))
}

// snippet cuts a window of content, whitespace collapsed, from snippetLead
// characters before the first match of marker, and wraps every match in it
// in SnippetStart … SnippetEnd. Without a match it is the start of content.
func snippet(content string, marker *regexp.Regexp) string {
	text := collapseSpace(content)
	loc := marker.FindStringIndex(text)
	if loc == nil {
		return clip(text, snippetLen)
	}
	start := loc[0]
	for n := 0; n < snippetLead && start > 0; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:start])
		start -= size
	}
	end := start
	for n := 0; n < snippetLen && end < len(text); n++ {
		_, size := utf8.DecodeRuneInString(text[end:])
		end += size
	}
	// Never cut a match in two.
	for _, m := range marker.FindAllStringIndex(text[start:], -1) {
		if start+m[0] < end && start+m[1] > end {
			end = start + m[1]
		}
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	b.WriteString(marker.ReplaceAllStringFunc(text[start:end], func(m string) string {
		return SnippetStart + m + SnippetEnd
	}))
	if end < len(text) {
		b.WriteString("…")
	}
	return b.String()
}

// --- helpers ---

// jsonOrNull encodes v, or returns nil (SQL NULL) when null is true.
func jsonOrNull(v any, null bool) (*string, error) {
	if null {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}

// decodeJSON decodes a nullable JSON column into into; NULL leaves it alone.
func decodeJSON(s *string, into any) error {
	if s == nil {
		return nil
	}
	return json.Unmarshal([]byte(*s), into)
}

// collapseSpace trims s and turns every run of whitespace into one space.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip shortens s to n characters, ending with "…" when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// clipBytes shortens s to at most n bytes without splitting a character.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
