package events

// Window events (SPEC F2): the tray, the global shortcut and a second
// launch ask the window to change its mode. The window's size and
// always-on-top state are the frontend's to set; it knows the size to
// return to.
const (
	// WindowQuickChat carries a QuickChatPayload: show the small
	// always-on-top quick-chat window.
	WindowQuickChat Name = "window:quick-chat"
	// WindowShow (no payload): show the full window, leaving quick chat.
	WindowShow Name = "window:show"
	// WindowOpenConversation carries an OpenConversationPayload: the user
	// clicked a desktop notification; the window (shown already) opens
	// its conversation.
	WindowOpenConversation Name = "window:open-conversation"
)

// OpenConversationPayload names the conversation to open (0: none, the
// chat as it is).
type OpenConversationPayload struct {
	ConversationID int64 `json:"conversationId"`
}

// QuickChatPayload says what closing the quick chat may do.
type QuickChatPayload struct {
	// Tray: a tray icon is shown, so closing quick chat hides the window;
	// without one it returns to the full window instead (hiding would
	// leave no way back).
	Tray bool `json:"tray"`
}
