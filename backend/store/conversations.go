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
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
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

func conversationNotFound(id int64) error { return fmt.Errorf("%w: %d", ErrConversationNotFound, id) }
func messageNotFound(id int64) error      { return fmt.Errorf("%w: %d", ErrMessageNotFound, id) }

// now is the store's clock: UTC, so DATETIME text sorts chronologically.
func now() time.Time { return time.Now().UTC() }

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
