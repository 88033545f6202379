package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"mcpdesk/backend/events"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
)

// NewConversationInput creates a conversation. Settings with no provider
// and model take the default model.
type NewConversationInput struct {
	Title    string                     `json:"title"`
	Settings store.ConversationSettings `json:"settings"`
}

// ConversationView is a conversation as the chat view opens it.
type ConversationView struct {
	Conversation store.Conversation `json:"conversation"`
	Messages     []store.Message    `json:"messages"`
	// Running is the id of the turn running now, "" when none.
	Running string `json:"running"`
	// Approvals are the tool calls waiting for the user.
	Approvals []events.ChatApprovalPayload `json:"approvals"`
	// Sampling are the servers' sampling requests waiting for the user.
	Sampling []events.ChatSamplingPayload `json:"sampling"`
}

// SendRequest is a user message to send.
type SendRequest struct {
	ConversationID int64              `json:"conversationId"`
	Text           string             `json:"text"`
	Attachments    []store.Attachment `json:"attachments"`
}

// SendResult says which turn answers and which user message it answers.
// After Send the answer is new; after Regenerate it is a new version of
// UserMessage's answer (the others are kept, not shown); after an edit
// every message after UserMessage is gone.
type SendResult struct {
	TurnID      string        `json:"turnId"`
	UserMessage store.Message `json:"userMessage"`
}

// ListConversations returns a page of the sidebar, pinned first, then the
// most recently active.
func (e *Engine) ListConversations(ctx context.Context, limit, offset int) ([]store.ConversationSummary, error) {
	return e.st.ListConversations(ctx, limit, offset)
}

// NewConversation creates a conversation. Without a provider and model it
// uses the default model, and fails saying so when there is none.
func (e *Engine) NewConversation(ctx context.Context, in NewConversationInput) (store.Conversation, error) {
	s := in.Settings
	if strings.TrimSpace(s.Provider) == "" && strings.TrimSpace(s.Model) == "" {
		def, err := e.models.DefaultModel(ctx)
		if err != nil {
			return store.Conversation{}, fmt.Errorf("new conversation: %w", err)
		}
		if def.IsZero() {
			return store.Conversation{}, fmt.Errorf("new conversation: %w", usererr.New(usererr.ChatNoModel, nil))
		}
		s.Provider, s.Model = def.Provider, def.Model
	}
	c, err := e.st.CreateConversation(ctx, in.Title, s)
	if err != nil {
		return store.Conversation{}, err
	}
	e.emitConversations(c.ID)
	return c, nil
}

// Conversation returns a conversation with its messages and what is
// waiting for the user in it.
func (e *Engine) Conversation(ctx context.Context, id int64) (ConversationView, error) {
	c, err := e.st.GetConversation(ctx, id)
	if err != nil {
		return ConversationView{}, err
	}
	msgs, err := e.st.Messages(ctx, id)
	if err != nil {
		return ConversationView{}, err
	}
	v := ConversationView{Conversation: c, Messages: msgs,
		Approvals: []events.ChatApprovalPayload{}, Sampling: []events.ChatSamplingPayload{}}
	e.mu.Lock()
	if t := e.turns[id]; t != nil && !t.hold {
		v.Running = t.id
	}
	for _, p := range e.approvals {
		if p.payload.ConversationID == id {
			v.Approvals = append(v.Approvals, p.payload)
		}
	}
	for _, p := range e.samplings {
		if p.payload.ConversationID == id {
			v.Sampling = append(v.Sampling, p.payload)
		}
	}
	e.mu.Unlock()
	slices.SortFunc(v.Approvals, func(a, b events.ChatApprovalPayload) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(v.Sampling, func(a, b events.ChatSamplingPayload) int { return strings.Compare(a.ID, b.ID) })
	return v, nil
}

// Rename sets a conversation's title.
func (e *Engine) Rename(ctx context.Context, id int64, title string) error {
	if err := e.st.RenameConversation(ctx, id, title); err != nil {
		return err
	}
	e.emitConversations(id)
	return nil
}

// Delete stops the conversation's turn, waits for it to end, and deletes
// the conversation with its messages and its "allow for this conversation"
// policies.
func (e *Engine) Delete(ctx context.Context, id int64) error {
	if t := e.running(id); t != nil {
		t.cancel(errStopped)
		select {
		case <-t.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if err := e.st.DeleteConversation(ctx, id); err != nil {
		return err
	}
	if err := e.forgetConversationPolicies(ctx, id); err != nil {
		e.logger.Warn("forget conversation policies", "conversation", id, "err", err)
	}
	e.emitConversations(id)
	return nil
}

// UpdateSettings replaces a conversation's settings; a running turn uses
// them from its next step.
func (e *Engine) UpdateSettings(ctx context.Context, id int64, s store.ConversationSettings) (store.Conversation, error) {
	c, err := e.st.UpdateConversationSettings(ctx, id, s)
	if err != nil {
		return store.Conversation{}, err
	}
	e.emitConversations(id)
	return c, nil
}

// Search finds messages containing every word of query (SPEC D1).
func (e *Engine) Search(ctx context.Context, query string, limit int) ([]store.SearchHit, error) {
	return e.st.SearchMessages(ctx, query, limit)
}

// ExportFormat is how a conversation is exported.
type ExportFormat string

// The export formats ("markdown" is read as md too).
const (
	ExportMarkdown ExportFormat = "md"
	ExportJSON     ExportFormat = "json"
)

// Export renders a conversation as Markdown ("md") or JSON ("json").
func (e *Engine) Export(ctx context.Context, id int64, format ExportFormat) (string, error) {
	switch strings.ToLower(strings.TrimSpace(string(format))) {
	case "md", "markdown":
		return e.st.ExportMarkdown(ctx, id)
	case "json":
		b, err := e.st.ExportJSON(ctx, id)
		return string(b), err
	default:
		return "", fmt.Errorf("export format must be md or json, not %q", format)
	}
}

// Send starts a turn answering a user message and returns once the turn has
// stored it, without waiting for the reply. A conversation with a running
// turn refuses with ErrBusy.
func (e *Engine) Send(ctx context.Context, req SendRequest, opts ...TurnOption) (SendResult, error) {
	text := strings.TrimRight(req.Text, " \t\r\n")
	if strings.TrimSpace(text) == "" && len(req.Attachments) == 0 {
		return SendResult{}, fmt.Errorf("send: %w", usererr.New(usererr.ChatEmptyMessage, nil))
	}
	attachments, err := e.checkAttachments(ctx, req.Attachments)
	if err != nil {
		return SendResult{}, fmt.Errorf("send: %w", err)
	}
	conv, err := e.st.GetConversation(ctx, req.ConversationID)
	if err != nil {
		return SendResult{}, err
	}
	if err := e.checkImages(ctx, conv, attachments); err != nil {
		return SendResult{}, fmt.Errorf("send: %w", err)
	}
	t, err := e.begin(conv.ID, opts)
	if err != nil {
		return SendResult{}, err
	}
	// The turn stores the message itself, in one commit with its reply's
	// row while the request goes out, so that the first token waits for
	// the slower of the two rather than for both. Send returns once the
	// message is stored and announced, or could not be.
	t.pending = &store.Message{ConversationID: conv.ID, Role: store.RoleUser, Content: text, Attachments: attachments}
	t.sendConv = conv
	if conv.Title == "" {
		t.title = titleFrom(text)
	}
	t.stored = make(chan struct{})
	go e.run(t, nil)
	<-t.stored
	if t.storeErr != nil {
		<-t.done // the conversation is free again when Send returns
		return SendResult{}, t.storeErr
	}
	return SendResult{TurnID: t.id, UserMessage: t.user}, nil
}

// Regenerate answers the last user message again as a new version of its
// answer, which it selects; the versions before stay, and the user can
// switch back (SelectVersion). Stopping it keeps what the new version had
// streamed, as a version of its own.
func (e *Engine) Regenerate(ctx context.Context, conversationID int64, opts ...TurnOption) (SendResult, error) {
	t, err := e.begin(conversationID, opts)
	if err != nil {
		return SendResult{}, err
	}
	msgs, err := e.st.Messages(ctx, conversationID)
	if err != nil {
		e.abandon(t)
		return SendResult{}, err
	}
	for _, m := range slices.Backward(msgs) {
		if m.Role != store.RoleUser {
			continue
		}
		u, err := e.st.BeginVersion(ctx, conversationID, m.ID)
		if err != nil {
			e.abandon(t)
			return SendResult{}, err
		}
		e.emitMessage(t, u)
		e.emitConversations(conversationID)
		go e.run(t, nil)
		return SendResult{TurnID: t.id, UserMessage: u}, nil
	}
	e.abandon(t)
	return SendResult{}, fmt.Errorf("regenerate: %w", usererr.New(usererr.ChatNothingToAnswer, nil))
}

// SelectVersion shows version (from 1) of the answer to user message
// userMessageID, and builds the next turns on it; the conversation as now
// shown comes back. While a reply runs in the conversation it refuses with
// ErrBusy: the reply is being written into the version shown.
func (e *Engine) SelectVersion(ctx context.Context, conversationID, userMessageID int64, version int) (ConversationView, error) {
	release, err := e.holdConversation(conversationID)
	if err != nil {
		return ConversationView{}, err
	}
	err = e.st.SelectVersion(ctx, conversationID, userMessageID, version)
	release()
	if err != nil {
		return ConversationView{}, err
	}
	// The sidebar's preview follows the version shown.
	e.emitConversations(conversationID)
	return e.Conversation(ctx, conversationID)
}

// RevealMessage opens a conversation at a message, selecting the answer
// versions that lead to it (a search hit in a version not shown). While a
// reply runs it leaves the versions as they are and only opens the
// conversation.
func (e *Engine) RevealMessage(ctx context.Context, conversationID, messageID int64) (ConversationView, error) {
	if release, err := e.holdConversation(conversationID); err == nil {
		err = e.st.RevealMessage(ctx, conversationID, messageID)
		release()
		if err != nil {
			return ConversationView{}, err
		}
		e.emitConversations(conversationID)
	} else if !errors.Is(err, ErrBusy) {
		return ConversationView{}, err
	}
	return e.Conversation(ctx, conversationID)
}

// EditAndResend replaces the text of a user message, drops everything
// after it and answers it again.
func (e *Engine) EditAndResend(ctx context.Context, conversationID, messageID int64, text string, opts ...TurnOption) (SendResult, error) {
	text = strings.TrimRight(text, " \t\r\n")
	t, err := e.begin(conversationID, opts)
	if err != nil {
		return SendResult{}, err
	}
	m, err := e.st.GetMessage(ctx, messageID)
	if err != nil {
		e.abandon(t)
		return SendResult{}, err
	}
	if m.ConversationID != conversationID || m.Role != store.RoleUser {
		e.abandon(t)
		return SendResult{}, fmt.Errorf("edit: message %d is not one of your messages in conversation %d", messageID, conversationID)
	}
	if strings.TrimSpace(text) == "" && len(m.Attachments) == 0 {
		e.abandon(t)
		return SendResult{}, fmt.Errorf("edit: %w", usererr.New(usererr.ChatEmptyMessage, nil))
	}
	m.Content = text
	if m, err = e.st.UpdateMessage(ctx, m); err != nil {
		e.abandon(t)
		return SendResult{}, err
	}
	return e.rerun(ctx, t, m)
}

// rerun cuts the conversation after user message m and starts turn t.
func (e *Engine) rerun(ctx context.Context, t *turn, m store.Message) (SendResult, error) {
	if _, err := e.st.DeleteMessagesAfter(ctx, m.ConversationID, m.ID); err != nil {
		e.abandon(t)
		return SendResult{}, err
	}
	// The cut reset the answer's versions.
	if fresh, err := e.st.GetMessage(ctx, m.ID); err == nil {
		m = fresh
	}
	e.emitMessage(t, m)
	e.emitConversations(m.ConversationID)
	go e.run(t, nil)
	return SendResult{TurnID: t.id, UserMessage: m}, nil
}

// RetryToolCall runs a failed, timed-out or cancelled call of the latest
// reply again and lets the model continue from its result. The reply's
// other calls keep their results; whatever followed the reply is replaced.
// A call whose reply was followed by another message of the user cannot be
// retried.
func (e *Engine) RetryToolCall(ctx context.Context, conversationID, messageID int64, callID string, opts ...TurnOption) (SendResult, error) {
	t, err := e.begin(conversationID, opts)
	if err != nil {
		return SendResult{}, err
	}
	res, err := e.prepareRetry(ctx, t, messageID, callID)
	if err != nil {
		e.abandon(t)
		return SendResult{}, err
	}
	return res, nil
}

func (e *Engine) prepareRetry(ctx context.Context, t *turn, messageID int64, callID string) (SendResult, error) {
	msgs, err := e.st.Messages(ctx, t.conv)
	if err != nil {
		return SendResult{}, err
	}
	at := slices.IndexFunc(msgs, func(m store.Message) bool { return m.ID == messageID })
	if at < 0 || msgs[at].Role != store.RoleAssistant {
		return SendResult{}, fmt.Errorf("retry: message %d is not a reply in conversation %d", messageID, t.conv)
	}
	msg := msgs[at]
	ci := slices.IndexFunc(msg.ToolCalls, func(c store.ToolCall) bool { return c.ID == callID })
	if ci < 0 {
		return SendResult{}, fmt.Errorf("retry: message %d has no tool call %q", messageID, callID)
	}
	switch msg.ToolCalls[ci].Status {
	case store.ToolCallError, store.ToolCallCancelled:
	default:
		return SendResult{}, fmt.Errorf("retry: %w", usererr.New(usererr.ChatRetryNotFailed, usererr.Params{"status": string(msg.ToolCalls[ci].Status)}))
	}
	for _, m := range msgs[at+1:] {
		if m.Role == store.RoleUser {
			return SendResult{}, fmt.Errorf("retry: %w", usererr.New(usererr.ChatRetryNotLatest, nil))
		}
	}
	var user store.Message
	for _, m := range slices.Backward(msgs[:at]) {
		if m.Role == store.RoleUser {
			user = m
			break
		}
	}
	if _, err := e.st.DeleteMessagesAfter(ctx, t.conv, msg.ID); err != nil {
		return SendResult{}, err
	}
	e.emitConversations(t.conv)
	go e.run(t, &retryCall{msg: msg, callID: callID})
	return SendResult{TurnID: t.id, UserMessage: user}, nil
}

// resolveModel is the conversation's model as providers name it.
func resolveModel(c store.Conversation) providers.ModelRef {
	return providers.ModelRef{Provider: c.Settings.Provider, Model: c.Settings.Model}
}
