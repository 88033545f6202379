package notify

import (
	"strconv"
	"strings"
)

// A click on a Windows toast cannot call into this process without a COM
// activator of our own. Instead the toast is protocol-activated: Windows
// launches MCP Desk again with
//
//	mcpdesk.exe --notification-click "mcpdesk://conversation/42"
//
// (the command RegisterClickTarget puts in the user's registry), and that
// launch hands its arguments to the running window (backend/instance),
// which opens the conversation. The URL is built here and read back here
// only.
//
// Anything may launch a registered URL scheme (a web page, another
// program), and a launcher that does not quote the URL may split it into
// more arguments. So a launch that starts with ClickFlag is a click and
// nothing else: ClickArgs drops every argument but the URL (no
// --data-dir, no --quick-chat can ride along), and ParseClick accepts
// only the two URL shapes ClickURL writes.

// AppUserModelID is who Windows says a toast is from; RegisterClickTarget
// gives it MCP Desk's name.
const AppUserModelID = "MCPDesk.Desktop"

// ClickScheme is the URL scheme a toast's click launches.
const ClickScheme = "mcpdesk"

// ClickFlag starts the arguments of a launch by a toast's click.
const ClickFlag = "--notification-click"

const (
	clickPrefix       = ClickScheme + "://"
	clickWindow       = "window"
	clickConversation = "conversation/"
	// maxClickURL bounds what is looked at: the longest URL ClickURL writes
	// is well under it.
	maxClickURL = 64
)

// ClickURL is the URL a click on a notification of conversation launches
// (0: just the window).
func ClickURL(conversation int64) string {
	if conversation <= 0 {
		return clickPrefix + clickWindow
	}
	return clickPrefix + clickConversation + strconv.FormatInt(conversation, 10)
}

// IsClick reports whether a launch's arguments are a toast's click.
func IsClick(args []string) bool {
	return len(args) > 0 && args[0] == ClickFlag
}

// ClickArgs returns the arguments of a click launch with everything but
// the flag and the URL dropped; args that are not a click are returned as
// they are.
func ClickArgs(args []string) []string {
	if !IsClick(args) {
		return args
	}
	if len(args) > 2 {
		return args[:2:2]
	}
	return args
}

// ParseClick reads a launch's arguments. click says whether they are a
// toast's click; conversation is what it opens (0: the window alone, also
// for a URL that is not one ClickURL writes).
func ParseClick(args []string) (conversation int64, click bool) {
	if !IsClick(args) {
		return 0, false
	}
	if len(args) < 2 || len(args[1]) > maxClickURL {
		return 0, true
	}
	u := args[1]
	if len(u) < len(clickPrefix) || !strings.EqualFold(u[:len(clickPrefix)], clickPrefix) {
		return 0, true
	}
	// Windows and browsers may add a slash at the end.
	rest := strings.TrimSuffix(u[len(clickPrefix):], "/")
	digits, ok := strings.CutPrefix(rest, clickConversation)
	if !ok || digits == "" || digits[0] == '0' {
		return 0, true
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, true
		}
	}
	id, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, true
	}
	return id, true
}

// toastXML is the toast of msg: its text escaped, and a protocol
// activation that launches ClickURL of its conversation.
func toastXML(msg Notification) string {
	return `<toast activationType="protocol" launch="` + xmlText(ClickURL(msg.Conversation)) + `">` +
		`<visual><binding template="ToastGeneric"><text>` + xmlText(clean(msg.Title, maxTitle)) +
		`</text><text>` + xmlText(clean(msg.Body, maxBody)) + `</text></binding></visual></toast>`
}

// xmlText escapes s for the toast's XML, in text and in attributes.
func xmlText(s string) string {
	return xmlEscaper.Replace(s)
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")
