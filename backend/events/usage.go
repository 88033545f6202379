package events

// Usage events (SPEC E1).
const (
	// UsageChanged carries a UsageChangedPayload after a model call was
	// recorded in the usage ledger, so that open usage views and a
	// conversation's running total refresh.
	UsageChanged Name = "usage:changed"
)

// UsageChangedPayload names the conversation whose usage grew; 0 when the
// call belonged to none (a sampling request outside a chat turn).
type UsageChangedPayload struct {
	ConversationID int64 `json:"conversationId"`
}
