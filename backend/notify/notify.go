// Package notify sends desktop notifications (issue 16): when a reply
// finishes, an approval or a question waits, or a long tool call ends
// while the window is hidden or unfocused. Clicking one brings the window
// to its conversation, through the OnClick function the composition root
// hands in. On Linux (and the BSDs) it speaks the freedesktop
// Notifications interface on the session bus; on Windows it shows a toast
// through PowerShell's WinRT bridge; on macOS it asks osascript. It knows
// nothing of the window or the chat.
package notify

import (
	"log/slog"
	"strings"
	"unicode/utf8"
)

// Kind is what a notification is about; each can be turned off.
type Kind string

const (
	Reply    Kind = "reply"
	Approval Kind = "approval"
	Question Kind = "question"
	Task     Kind = "task"
)

// Kinds lists every kind, in the order Settings shows them.
var Kinds = []Kind{Reply, Approval, Question, Task}

// Notification is one notification.
type Notification struct {
	Kind  Kind   `json:"kind" ts_type:"'reply' | 'approval' | 'question' | 'task'"`
	Title string `json:"title"`
	Body  string `json:"body"`
	// Conversation is what a click opens (0: just the window).
	Conversation int64 `json:"conversation"`
}

// Options configure a Notifier.
type Options struct {
	// AppName is how the desktop names the sender.
	AppName string
	// OnClick runs when the user clicks a notification, with its
	// conversation.
	OnClick func(conversation int64)
	Logger  *slog.Logger
}

// withDefaults fills in what o leaves out.
func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.AppName == "" {
		o.AppName = "MCP Desk"
	}
	return o
}

// Limits: a notification is a line or two, whatever a model or server wrote.
const (
	maxTitle = 120
	maxBody  = 400
)

// clean makes text safe for a notification: one paragraph of printable
// text (no control characters, which terminals and some daemons act on),
// at most max bytes of whole characters.
func clean(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		cut := max - len("…")
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
