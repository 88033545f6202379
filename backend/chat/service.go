package chat

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"mcpdesk/backend/providers"
	"mcpdesk/backend/safefile"
	"mcpdesk/backend/store"
)

// Saver asks the user where to save a file; app.go implements it with the
// native save dialog. SaveFile returns "" when the user cancels.
type Saver interface {
	SaveFile(title, defaultName string) (string, error)
}

// ChatService is the chat's surface bound to the frontend (SPEC D). Every
// exported method is callable from JavaScript; long work (a reply) returns
// at once and streams as chat events. It is safe for concurrent use.
type ChatService struct {
	e     *Engine
	saver Saver
	ctx   context.Context
}

// ServiceOption configures a ChatService.
type ServiceOption func(*ChatService)

// WithContext sets the context of the service's calls, typically the
// application's, so that shutdown cancels them. Default: Background.
func WithContext(ctx context.Context) ServiceOption {
	return func(s *ChatService) {
		if ctx != nil {
			s.ctx = ctx
		}
	}
}

// NewService returns the bound service over e; saver may be nil (SaveExport
// then fails).
func NewService(e *Engine, saver Saver, opts ...ServiceOption) *ChatService {
	s := &ChatService{e: e, saver: saver, ctx: context.Background()}
	for _, o := range opts {
		o(s)
	}
	return s
}

// ListConversations returns a page of the sidebar (limit <= 0: 100).
func (s *ChatService) ListConversations(limit, offset int) ([]store.ConversationSummary, error) {
	return s.e.ListConversations(s.ctx, limit, offset)
}

// NewConversation creates a conversation; without provider and model it
// uses the default model.
func (s *ChatService) NewConversation(in NewConversationInput) (store.Conversation, error) {
	return s.e.NewConversation(s.ctx, in)
}

// Conversation opens a conversation: its messages, the turn running in it
// and what waits for the user.
func (s *ChatService) Conversation(id int64) (ConversationView, error) {
	return s.e.Conversation(s.ctx, id)
}

// Rename sets a conversation's title.
func (s *ChatService) Rename(id int64, title string) error { return s.e.Rename(s.ctx, id, title) }

// Delete stops a running reply and deletes the conversation.
func (s *ChatService) Delete(id int64) error { return s.e.Delete(s.ctx, id) }

// UpdateSettings replaces a conversation's settings.
func (s *ChatService) UpdateSettings(id int64, settings store.ConversationSettings) (store.Conversation, error) {
	return s.e.UpdateSettings(s.ctx, id, settings)
}

// Search finds messages containing every word of query.
func (s *ChatService) Search(query string, limit int) ([]store.SearchHit, error) {
	return s.e.Search(s.ctx, query, limit)
}

// Export renders a conversation as "md" or "json".
func (s *ChatService) Export(id int64, format ExportFormat) (string, error) {
	return s.e.Export(s.ctx, id, format)
}

// SaveExport asks where to save the export and writes it there; it returns
// the path, or "" when the user cancelled.
func (s *ChatService) SaveExport(id int64, format ExportFormat) (string, error) {
	if s.saver == nil {
		return "", fmt.Errorf("save export: no file dialog available")
	}
	text, err := s.e.Export(s.ctx, id, format)
	if err != nil {
		return "", err
	}
	c, err := s.e.st.GetConversation(s.ctx, id)
	if err != nil {
		return "", err
	}
	ext := ".md"
	if strings.EqualFold(strings.TrimSpace(string(format)), string(ExportJSON)) {
		ext = ".json"
	}
	path, err := s.saver.SaveFile("Export conversation", exportName(c.Title)+ext)
	if err != nil || path == "" {
		return "", err
	}
	// Only the user may read it, and a link planted at the path is
	// replaced, not followed.
	if err := safefile.WriteFile(path, []byte(text)); err != nil {
		return "", fmt.Errorf("save export: %w", err)
	}
	return path, nil
}

// exportName makes a file name of a title.
func exportName(title string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(title) {
		switch {
		case strings.ContainsRune(`/\:*?"<>|`, r) || r < ' ':
			b.WriteRune('-')
		default:
			b.WriteRune(r)
		}
	}
	name := clip(strings.TrimSpace(b.String()), 80)
	if name == "" {
		return "conversation"
	}
	return name
}

// Send stores the user's message and starts the reply; it returns at once.
func (s *ChatService) Send(req SendRequest) (SendResult, error) { return s.e.Send(s.ctx, req) }

// AddAttachment checks and stores a file the user attaches (its bytes in
// base64): an image (downscaled to what providers take), a text file or a
// PDF (its text extracted). The reference it returns goes with Send; the
// window shows an image from attach.Path + its hash.
func (s *ChatService) AddAttachment(name, data string) (store.Attachment, error) {
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return store.Attachment{}, fmt.Errorf("the file %q did not arrive whole: %w", name, err)
	}
	return s.e.AddAttachment(s.ctx, name, b)
}

// ToolCost is what the tools of a conversation with settings s cost each
// model call, in estimated tokens, with and without tool search (the
// composer's tool picker shows both).
func (s *ChatService) ToolCost(settings store.ConversationSettings) ToolCost {
	return s.e.ToolCost(settings, s.e.settings(s.ctx).ToolSearch)
}

// ModelTakesImages reports whether a provider's model may be sent images
// (false only for models known to see none: Ollama says so per model,
// others by a table of text-only families), so the composer says so before
// sending.
func (s *ChatService) ModelTakesImages(ref providers.ModelRef) bool {
	return s.e.ModelTakesImages(s.ctx, ref)
}

// Stop stops the reply running in a conversation.
func (s *ChatService) Stop(conversationID int64) error { return s.e.Stop(conversationID) }

// Regenerate answers the last user message again as a new version of its
// answer; the earlier versions are kept.
func (s *ChatService) Regenerate(conversationID int64) (SendResult, error) {
	return s.e.Regenerate(s.ctx, conversationID)
}

// SelectVersion shows version (from 1) of the answer to a user message and
// returns the conversation as now shown; refused while a reply runs.
func (s *ChatService) SelectVersion(conversationID, userMessageID int64, version int) (ConversationView, error) {
	return s.e.SelectVersion(s.ctx, conversationID, userMessageID, version)
}

// RevealMessage returns a conversation opened at a message, switching to
// the answer versions that lead to it (a search hit).
func (s *ChatService) RevealMessage(conversationID, messageID int64) (ConversationView, error) {
	return s.e.RevealMessage(s.ctx, conversationID, messageID)
}

// EditAndResend replaces a user message's text, drops what followed and
// answers it again.
func (s *ChatService) EditAndResend(conversationID, messageID int64, text string) (SendResult, error) {
	return s.e.EditAndResend(s.ctx, conversationID, messageID, text)
}

// SetViewContext keeps what the MCP Apps view of a tool call gives the
// model (ui/update-model-context); later turns send it, marked as the
// view's. "" clears it.
func (s *ChatService) SetViewContext(conversationID, messageID int64, callID, text string) error {
	return s.e.SetViewContext(s.ctx, conversationID, messageID, callID, text)
}

// AllowViewTool lets a view's calls of tool on server run without asking
// for the rest of the conversation (the "this conversation" policy, pinned
// to the tool as it is now).
func (s *ChatService) AllowViewTool(conversationID int64, server, tool string) error {
	return s.e.AllowViewTool(s.ctx, conversationID, server, tool)
}

// SetViewStorage keeps what the view of a tool call keeps in its
// localStorage (a JSON object of strings, at most 64 KB; "" clears it), so
// it finds it again when shown again. The model never sees it.
func (s *ChatService) SetViewStorage(conversationID, messageID int64, callID, items string) error {
	return s.e.SetViewStorage(s.ctx, conversationID, messageID, callID, items)
}

// SetWidgetState keeps an Apps SDK widget's state (window.openai.setWidgetState,
// JSON; "" clears it) with its tool call: restored when the widget is shown
// again and sent to the model on later turns.
func (s *ChatService) SetWidgetState(conversationID, messageID int64, callID, state string) error {
	return s.e.SetWidgetState(s.ctx, conversationID, messageID, callID, state)
}

// Approve answers a tool call waiting for approval.
func (s *ChatService) Approve(id string, d ApprovalDecision) error { return s.e.Approve(s.ctx, id, d) }

// RetryToolCall runs a failed or timed-out call of the latest reply again
// and lets the model continue.
func (s *ChatService) RetryToolCall(conversationID, messageID int64, callID string) (SendResult, error) {
	return s.e.RetryToolCall(s.ctx, conversationID, messageID, callID)
}

// AnswerSampling approves (optionally edited) or rejects a server's
// sampling request.
func (s *ChatService) AnswerSampling(id string, a SamplingAnswer) error {
	return s.e.AnswerSampling(id, a)
}

// Policies returns the stored tool approval policies.
func (s *ChatService) Policies() (ApprovalPolicies, error) { return s.e.Policies(s.ctx) }

// RevokePolicy removes a policy: kind "always" | "server" | "never".
func (s *ChatService) RevokePolicy(kind PolicyKind, server, tool string) error {
	return s.e.RevokePolicy(s.ctx, kind, server, tool)
}

// Trust reports the standing approvals suspended because their server or
// tools changed since they were given (SPEC G1).
func (s *ChatService) Trust() (TrustReport, error) { return s.e.Trust(s.ctx) }

// Settings returns the chat settings.
func (s *ChatService) Settings() (ChatSettings, error) { return s.e.Settings(s.ctx) }

// SaveSettings stores the chat settings and returns what was stored.
func (s *ChatService) SaveSettings(settings ChatSettings) (ChatSettings, error) {
	return s.e.SaveSettings(s.ctx, settings)
}

// AvailableTools lists the tools the given servers (nil: every enabled
// server) offer models, under the names models see.
func (s *ChatService) AvailableTools(servers []string) ([]OfferedTool, error) {
	return s.e.AvailableTools(servers)
}
