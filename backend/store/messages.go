package store

// Messages of a conversation: appended, updated as they stream, their tool
// calls, and recovery of those a crash left streaming.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
)

// AppendMessage adds m at the end of its conversation and returns it as
// stored, with ID, Seq and times set. Status defaults to complete. It moves
// the conversation's UpdatedAt.
func (s *Store) AppendMessage(ctx context.Context, m Message) (Message, error) {
	out, err := s.AppendMessages(ctx, "", m)
	if err != nil {
		return Message{}, err
	}
	return out[0], nil
}

// AppendMessages adds msgs, in order, at the end of their conversation in
// one transaction (one commit: a user's message and the row of the reply
// that answers it) and returns them as stored, like AppendMessage. title,
// when not "", becomes the conversation's title if it has none yet (a new
// conversation named by its first message); it does not move UpdatedAt.
// Every message must belong to the same conversation.
func (s *Store) AppendMessages(ctx context.Context, title string, msgs ...Message) ([]Message, error) {
	if len(msgs) == 0 {
		return nil, errors.New("append messages: no message")
	}
	title, err := cleanTitle(title)
	if err != nil {
		return nil, fmt.Errorf("append messages: %w", err)
	}
	conv := msgs[0].ConversationID
	t := now()
	rows := make([]messageRow, len(msgs))
	for i, m := range msgs {
		if m.ConversationID != conv {
			return nil, fmt.Errorf("append messages: message %d is for conversation %d, not %d", i, m.ConversationID, conv)
		}
		if m.Status == "" {
			m.Status = MessageComplete
		}
		if err := m.validate(); err != nil {
			return nil, fmt.Errorf("append message: %w", err)
		}
		if rows[i], err = m.row(); err != nil {
			return nil, fmt.Errorf("append message: %w", err)
		}
		rows[i].ID, rows[i].CreatedAt, rows[i].UpdatedAt = 0, t, t
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var next struct{ Exists, Seq int }
		// One query answers both "does the conversation exist" and "what
		// is the next seq".
		if err := tx.Raw(`SELECT
				EXISTS (SELECT 1 FROM conversations WHERE id = ?) AS "exists",
				COALESCE((SELECT MAX(seq) FROM messages WHERE conversation_id = ?), 0) + 1 AS seq`,
			conv, conv).Scan(&next).Error; err != nil {
			return err
		}
		if next.Exists == 0 {
			return conversationNotFound(conv)
		}
		tip, err := branchTip(tx, conv)
		if err != nil {
			return err
		}
		for i := range rows {
			row := &rows[i]
			row.Seq = next.Seq + i
			row.VersionGroup, row.Version, row.SelectedVersion = nil, 1, 1
			if tip.ID != 0 {
				group := tip.ID
				row.VersionGroup, row.Version = &group, tip.SelectedVersion
			}
			if err := tx.Create(row).Error; err != nil {
				return err
			}
			if row.Role == string(RoleUser) {
				// A user's message is the tip of what follows it.
				tip = tipRow{ID: row.ID, SelectedVersion: row.SelectedVersion}
			}
		}
		if title != "" {
			if err := tx.Exec(`UPDATE conversations SET title = ? WHERE id = ? AND title = ''`, title, conv).Error; err != nil {
				return err
			}
		}
		return touchConversation(tx, conv, t)
	})
	if errors.Is(err, ErrConversationNotFound) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("append message to conversation %d: %w", conv, err)
	}
	out := make([]Message, len(rows))
	for i, r := range rows {
		if out[i], err = r.message(); err != nil {
			return nil, err
		}
	}
	return out, nil
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
	out, err := s.editToolCall(ctx, messageID, call.ID, func(_ Message, c *ToolCall) error {
		// The view's context, state and storage are the view's, set only
		// by SetViewContext, SetWidgetState and SetViewStorage: a turn's
		// later update of the call keeps them.
		call.ViewContext, call.WidgetState, call.ViewStorage = c.ViewContext, c.WidgetState, c.ViewStorage
		*c = call
		return nil
	})
	if err != nil && !errors.Is(err, ErrMessageNotFound) && !errors.Is(err, ErrToolCallNotFound) {
		return Message{}, fmt.Errorf("update tool call %q of message %d: %w", call.ID, messageID, err)
	}
	return out, err
}

// SetViewContext stores what the view of tool call callID (of message
// messageID, in conversation conversationID) gives the model, replacing
// what it gave before; "" clears it. Longer text is cut to MaxViewContext.
func (s *Store) SetViewContext(ctx context.Context, conversationID, messageID int64, callID, text string) error {
	if len(text) > MaxViewContext {
		text = strings.ToValidUTF8(text[:MaxViewContext], "") + "\n[cut: the view gave more than 16 KB]"
	}
	return s.editViewCall(ctx, conversationID, messageID, callID, func(c *ToolCall) { c.ViewContext = text })
}

// ErrWidgetState is returned for a widget state that is not JSON or is
// longer than MaxViewContext.
var ErrWidgetState = errors.New("the widget state is not JSON of at most 16 KB")

// SetWidgetState stores an Apps SDK widget's state (JSON; "" clears it)
// for tool call callID of message messageID in conversation
// conversationID, replacing the one before.
func (s *Store) SetWidgetState(ctx context.Context, conversationID, messageID int64, callID, state string) error {
	if state != "" && (len(state) > MaxViewContext || !json.Valid([]byte(state))) {
		return ErrWidgetState
	}
	return s.editViewCall(ctx, conversationID, messageID, callID, func(c *ToolCall) { c.WidgetState = state })
}

// MaxViewStorage bounds what a view keeps in its localStorage.
const MaxViewStorage = 64 << 10

// ErrViewStorage is returned for a view's storage that is not a JSON
// object of strings of at most MaxViewStorage.
var ErrViewStorage = errors.New("a view's storage must be a JSON object of strings of at most 64 KB")

// SetViewStorage stores what the view of tool call callID keeps in its
// localStorage ("" clears it), replacing what it kept before.
func (s *Store) SetViewStorage(ctx context.Context, conversationID, messageID int64, callID, items string) error {
	if items != "" {
		var m map[string]string
		if len(items) > MaxViewStorage || json.Unmarshal([]byte(items), &m) != nil || m == nil {
			return ErrViewStorage
		}
	}
	return s.editViewCall(ctx, conversationID, messageID, callID, func(c *ToolCall) { c.ViewStorage = items })
}

// editViewCall changes what a view keeps on its tool call, checking the
// message is in the conversation the view belongs to.
func (s *Store) editViewCall(ctx context.Context, conversationID, messageID int64, callID string, set func(*ToolCall)) error {
	_, err := s.editToolCall(ctx, messageID, callID, func(m Message, c *ToolCall) error {
		if m.ConversationID != conversationID {
			return fmt.Errorf("%w: message %d is not in conversation %d", ErrMessageNotFound, messageID, conversationID)
		}
		set(c)
		return nil
	})
	return err
}

// editToolCall changes the tool call callID of message messageID with edit,
// reading and writing the message in one immediate transaction, and returns
// the message as stored. Errors from edit come back as they are.
func (s *Store) editToolCall(ctx context.Context, messageID int64, callID string, edit func(Message, *ToolCall) error) (Message, error) {
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
		i := slices.IndexFunc(m.ToolCalls, func(c ToolCall) bool { return c.ID == callID })
		if i < 0 {
			return fmt.Errorf("%w: %q in message %d", ErrToolCallNotFound, callID, messageID)
		}
		if err := edit(m, &m.ToolCalls[i]); err != nil {
			return err
		}
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
	if err != nil {
		return Message{}, err
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
