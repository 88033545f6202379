package store

// Answer versions: Regenerate keeps the answer it replaces.
//
// # Model
//
// Every message after the first user message belongs to the answer of the
// user message it follows: messages.version_group is that user message's
// id, messages.version the version of its answer (from 1). A user message
// the person sends later belongs to the version it followed, so a version
// holds everything said after it — its assistant messages with their tool
// calls, the tool results, and any later turns. The versions of an answer
// form a tree, but seq still orders every message of a conversation.
//
// messages.selected_version, on a user message, is the version of its
// answer that is shown and sent to the model. The visible conversation is
// the path through the selected versions: walking the messages by seq, a
// message is on it when its group's user message is on it and its version
// is the one that message selects ([onPath]).
//
// New messages go to the end of that path: [Store.AppendMessage] puts a
// message into the selected version of the last user message on it (the
// branch tip). [Store.BeginVersion] starts a new version of the tip's
// answer and selects it; [Store.SelectVersion] switches; [Store.RevealMessage]
// selects the versions that lead to a message (a search hit).

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gorm.io/gorm"
)

// ErrVersionNotFound is wrapped by [Store.SelectVersion] for a version the
// answer does not have.
var ErrVersionNotFound = errors.New("answer version not found")

// addAnswerVersions is migration 9: version_group, version and
// selected_version on messages. Existing conversations had one version of
// each answer: every message joins version 1 of the user message before it.
func addAnswerVersions(tx *gorm.DB) error {
	stmts := []string{
		`ALTER TABLE messages ADD COLUMN version_group INTEGER`,
		`ALTER TABLE messages ADD COLUMN version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1)`,
		`ALTER TABLE messages ADD COLUMN selected_version INTEGER NOT NULL DEFAULT 1 CHECK (selected_version >= 1)`,
		`UPDATE messages SET version_group = (
			SELECT p.id FROM messages p
			WHERE p.conversation_id = messages.conversation_id AND p.role = 'user' AND p.seq < messages.seq
			ORDER BY p.seq DESC LIMIT 1)`,
		`CREATE INDEX messages_by_version ON messages (version_group, version)`,
	}
	for _, s := range stmts {
		if err := tx.Exec(s).Error; err != nil {
			return err
		}
	}
	return nil
}

// groupOrNull is the version_group column of a message: NULL for 0.
func groupOrNull(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// tipRow is the last user message on the path of selected versions.
type tipRow struct {
	ID              int64
	SelectedVersion int
}

// branchTip returns the last user message on the visible path of a
// conversation, zero when it has no user message. It follows the selected
// versions from the first user message down, one index lookup per turn.
func branchTip(tx *gorm.DB, conversationID int64) (tipRow, error) {
	var rows []tipRow
	err := tx.Raw(`WITH RECURSIVE path (id, selected_version, depth) AS (
			SELECT id, selected_version, 0 FROM (
				SELECT id, selected_version FROM messages
				WHERE conversation_id = ? AND role = 'user' AND version_group IS NULL
				ORDER BY seq LIMIT 1)
			UNION ALL
			SELECT m.id, m.selected_version, p.depth + 1
			FROM messages m JOIN path p ON m.version_group = p.id AND m.version = p.selected_version
			WHERE m.role = 'user'
		)
		SELECT id, selected_version FROM path ORDER BY depth DESC, id DESC LIMIT 1`, conversationID).Scan(&rows).Error
	if err != nil {
		return tipRow{}, fmt.Errorf("find the latest message of yours: %w", err)
	}
	if len(rows) == 0 {
		return tipRow{}, nil
	}
	return rows[0], nil
}

// onPath returns the rows (in seq order) on the path of selected versions,
// with Versions set on user messages.
func onPath(rows []messageRow) ([]Message, error) {
	counts := versionCounts(rows)
	selected := map[int64]int{} // user messages on the path → their selected version
	out := make([]Message, 0, len(rows))
	for _, r := range rows {
		if r.VersionGroup != nil {
			if v, ok := selected[*r.VersionGroup]; !ok || v != r.Version {
				continue
			}
		}
		m, err := r.message()
		if err != nil {
			return nil, err
		}
		if m.Role == RoleUser {
			selected[m.ID] = m.SelectedVersion
			m.Versions = max(m.SelectedVersion, counts[m.ID])
		}
		out = append(out, m)
	}
	return out, nil
}

// versionCounts maps each user message id to the highest version of its
// answer among rows.
func versionCounts(rows []messageRow) map[int64]int {
	counts := map[int64]int{}
	for _, r := range rows {
		if r.VersionGroup != nil {
			counts[*r.VersionGroup] = max(counts[*r.VersionGroup], r.Version)
		}
	}
	return counts
}

// countVersions sets m.Versions of a user message from the database.
func countVersions(tx *gorm.DB, m *Message) error {
	if m.Role != RoleUser {
		return nil
	}
	var n int
	if err := tx.Raw(`SELECT COALESCE(MAX(version), 0) FROM messages WHERE version_group = ?`, m.ID).
		Scan(&n).Error; err != nil {
		return fmt.Errorf("count answer versions: %w", err)
	}
	m.Versions = max(n, m.SelectedVersion, 1)
	return nil
}

// conversationRows reads every message row of a conversation by seq, or an
// error wrapping ErrConversationNotFound.
func conversationRows(db *gorm.DB, conversationID int64) ([]messageRow, error) {
	var rows []messageRow
	err := db.Where("conversation_id = ?", conversationID).Order("seq").Find(&rows).Error
	if err == nil && len(rows) == 0 {
		// An empty answer only has to say whether the conversation exists.
		err = requireConversation(db, conversationID)
	}
	if errors.Is(err, ErrConversationNotFound) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("read messages of conversation %d: %w", conversationID, err)
	}
	return rows, nil
}

// Messages returns the conversation as it is shown and sent to the model:
// its messages in order along the selected version of every answer. It
// returns an error wrapping ErrConversationNotFound for a missing id.
func (s *Store) Messages(ctx context.Context, conversationID int64) ([]Message, error) {
	rows, err := conversationRows(s.db.WithContext(ctx), conversationID)
	if err != nil {
		return nil, err
	}
	return onPath(rows)
}

// AllMessages returns every message of a conversation in seq order, the
// versions not selected included, with Versions set on user messages
// (exports).
func (s *Store) AllMessages(ctx context.Context, conversationID int64) ([]Message, error) {
	rows, err := conversationRows(s.db.WithContext(ctx), conversationID)
	if err != nil {
		return nil, err
	}
	counts := versionCounts(rows)
	out := make([]Message, 0, len(rows))
	for _, r := range rows {
		m, err := r.message()
		if err != nil {
			return nil, err
		}
		if m.Role == RoleUser {
			m.Versions = max(m.SelectedVersion, counts[m.ID])
		}
		out = append(out, m)
	}
	return out, nil
}

// BeginVersion starts a new version of the answer to user message
// userMessageID, which must be the last user message on the conversation's
// visible path, and selects it: the messages appended next form it. The
// versions before stay. An answer with no message yet is answered as its
// version 1; a selected version left empty (a reply that failed before it
// wrote anything) is reused. It returns the user message as stored.
func (s *Store) BeginVersion(ctx context.Context, conversationID, userMessageID int64) (Message, error) {
	var out Message
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		tip, err := branchTip(tx, conversationID)
		if err != nil {
			return err
		}
		if tip.ID == 0 || tip.ID != userMessageID {
			return fmt.Errorf("%w: %d is not your latest message in conversation %d", ErrMessageNotFound, userMessageID, conversationID)
		}
		var used int
		if err := tx.Raw(`SELECT COALESCE(MAX(version), 0) FROM messages WHERE version_group = ?`, userMessageID).
			Scan(&used).Error; err != nil {
			return err
		}
		next := used + 1
		if err := tx.Exec(`UPDATE messages SET selected_version = ? WHERE id = ?`, next, userMessageID).Error; err != nil {
			return err
		}
		row, err := findMessage(tx, userMessageID)
		if err != nil {
			return err
		}
		if out, err = row.message(); err != nil {
			return err
		}
		out.Versions = next
		return touchConversation(tx, conversationID, now())
	})
	if errors.Is(err, ErrMessageNotFound) {
		return Message{}, err
	}
	if err != nil {
		return Message{}, fmt.Errorf("start a new answer version: %w", err)
	}
	return out, nil
}

// SelectVersion shows version (from 1) of the answer to user message
// userMessageID of a conversation, and sends it to the model from the next
// turn on. It does not move the conversation's UpdatedAt.
func (s *Store) SelectVersion(ctx context.Context, conversationID, userMessageID int64, version int) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := findMessage(tx, userMessageID)
		if err != nil {
			return err
		}
		if row.ConversationID != conversationID || row.Role != string(RoleUser) {
			return fmt.Errorf("%w: %d is not a message of yours in conversation %d", ErrMessageNotFound, userMessageID, conversationID)
		}
		var n int
		if err := tx.Raw(`SELECT COUNT(*) FROM messages WHERE version_group = ? AND version = ?`, userMessageID, version).
			Scan(&n).Error; err != nil {
			return err
		}
		if n == 0 && version != row.SelectedVersion {
			return fmt.Errorf("%w: the answer to message %d has no version %d", ErrVersionNotFound, userMessageID, version)
		}
		return tx.Exec(`UPDATE messages SET selected_version = ? WHERE id = ?`, version, userMessageID).Error
	})
	if errors.Is(err, ErrMessageNotFound) || errors.Is(err, ErrVersionNotFound) {
		return err
	}
	if err != nil {
		return fmt.Errorf("select answer version %d of message %d: %w", version, userMessageID, err)
	}
	return nil
}

// RevealMessage selects, from message messageID up, every answer version
// that leads to it, so that it is on the visible path (opening a search hit
// found in a version not shown). A message already shown changes nothing.
func (s *Store) RevealMessage(ctx context.Context, conversationID, messageID int64) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := findMessage(tx, messageID)
		if err != nil {
			return err
		}
		if row.ConversationID != conversationID {
			return fmt.Errorf("%w: %d in conversation %d", ErrMessageNotFound, messageID, conversationID)
		}
		// Each step goes to a message with a smaller seq, so this ends; the
		// bound guards against a corrupt cycle.
		for range 100_000 {
			if row.VersionGroup == nil {
				return nil
			}
			group, err := findMessage(tx, *row.VersionGroup)
			if err != nil {
				return err
			}
			if group.SelectedVersion != row.Version {
				if err := tx.Exec(`UPDATE messages SET selected_version = ? WHERE id = ?`, row.Version, group.ID).Error; err != nil {
					return err
				}
			}
			row = group
		}
		return errors.New("the answer versions form a cycle")
	})
	if errors.Is(err, ErrMessageNotFound) {
		return err
	}
	if err != nil {
		return fmt.Errorf("show message %d: %w", messageID, err)
	}
	return nil
}

// DeleteMessagesAfter cuts a conversation after message messageID, which
// stays, on its branch only: after a user message every version of its
// answer goes (edit-and-resend), and its selected version is 1 again; after
// an assistant message the rest of its version goes (a tool call retried).
// Everything that followed what goes, goes too; other versions stay. It
// returns how many messages went. A message that is not in the conversation
// is an error wrapping ErrMessageNotFound.
func (s *Store) DeleteMessagesAfter(ctx context.Context, conversationID, messageID int64) (int64, error) {
	var deleted int64
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		anchor, err := findMessage(tx, messageID)
		if err != nil && !errors.Is(err, ErrMessageNotFound) {
			return err
		}
		if err != nil || anchor.ConversationID != conversationID {
			return fmt.Errorf("%w: %d in conversation %d", ErrMessageNotFound, messageID, conversationID)
		}
		var rows []messageRow
		if err := tx.Select("id", "role", "seq", "version_group", "version").
			Where("conversation_id = ? AND seq > ?", conversationID, anchor.Seq).Order("seq").Find(&rows).Error; err != nil {
			return err
		}
		gone := map[int64]bool{} // user messages whose whole answer goes
		if anchor.Role == string(RoleUser) {
			gone[anchor.ID] = true
		}
		var ids []int64
		for _, r := range rows {
			in := false
			switch {
			case r.VersionGroup != nil && gone[*r.VersionGroup]:
				in = true
			case anchor.Role != string(RoleUser) && sameVersion(r, anchor):
				in = true
			}
			if !in {
				continue
			}
			ids = append(ids, r.ID)
			if r.Role == string(RoleUser) {
				gone[r.ID] = true
			}
		}
		if anchor.Role == string(RoleUser) && anchor.SelectedVersion != 1 {
			if err := tx.Exec(`UPDATE messages SET selected_version = 1 WHERE id = ?`, anchor.ID).Error; err != nil {
				return err
			}
		}
		// Chunks keep each IN list below SQLite's variable limit.
		for chunk := range slices.Chunk(ids, 500) {
			res := tx.Exec(`DELETE FROM messages WHERE id IN ?`, chunk)
			if res.Error != nil {
				return res.Error
			}
			deleted += res.RowsAffected
		}
		if deleted == 0 {
			return nil
		}
		return touchConversation(tx, conversationID, now())
	})
	if errors.Is(err, ErrMessageNotFound) {
		return 0, err
	}
	if err != nil {
		return 0, fmt.Errorf("delete messages after %d: %w", messageID, err)
	}
	return deleted, nil
}

// sameVersion reports whether two rows belong to the same answer version.
func sameVersion(a, b messageRow) bool {
	if (a.VersionGroup == nil) != (b.VersionGroup == nil) {
		return false
	}
	return a.Version == b.Version && (a.VersionGroup == nil || *a.VersionGroup == *b.VersionGroup)
}
