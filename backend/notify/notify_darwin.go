//go:build darwin

package notify

import (
	"context"
	"fmt"
	"log/slog"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"mcpdesk/backend/childproc"
)

// Notifier shows macOS notifications through osascript ("display
// notification"). They are posted as Script Editor's, and a click on one
// cannot reach this process: OnClick is not called on macOS. (A click that
// opens the conversation needs UNUserNotificationCenter, which needs cgo
// and a signed bundle.)
type Notifier struct {
	opts Options
	log  *slog.Logger
}

// ClicksOpen says whether a click on a notification opens its conversation
// here: osascript posts them as Script Editor's.
const ClicksOpen = false

// New returns a notifier.
func New(o Options) *Notifier {
	o = o.withDefaults()
	return &Notifier{opts: o, log: o.Logger}
}

// appleString quotes s for AppleScript: strconv.Quote's escapes for
// backslash and double quote are AppleScript's too, and clean left no
// control characters for it to escape otherwise.
func appleString(s string) string {
	q := strconv.Quote(s)
	return strings.ReplaceAll(q, `\u`, `\\u`)
}

// Send shows msg. The script is one argument (-e): no shell sees it.
func (n *Notifier) Send(msg Notification) error {
	script := "display notification " + appleString(clean(msg.Body, maxBody)) +
		" with title " + appleString(n.opts.AppName) + " subtitle " + appleString(clean(msg.Title, maxTitle))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	childproc.Isolate()
	if out, err := exec.CommandContext(ctx, "osascript", "-e", script).CombinedOutput(); err != nil {
		return fmt.Errorf("show a notification: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Close does nothing.
func (n *Notifier) Close() {}
