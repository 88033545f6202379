//go:build windows

package notify

import (
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"syscall"
	"time"
	"unicode/utf16"
)

// Notifier shows Windows toasts through PowerShell's WinRT bridge (no cgo,
// no COM of our own), as the app AppUserModelID that RegisterClickTarget
// registers. A click launches MCP Desk with the toast's URL (click.go),
// and that launch hands it to the running window: OnClick is not called
// here, the window's instance hand-over opens the conversation.
type Notifier struct {
	opts Options
	log  *slog.Logger
}

// ClicksOpen says whether a click on a notification opens its conversation
// here: the toast launches the mcpdesk: URL (click.go).
const ClicksOpen = true

// New returns a notifier.
func New(o Options) *Notifier {
	o = o.withDefaults()
	return &Notifier{opts: o, log: o.Logger}
}

// Send shows msg as a toast. The script is passed encoded (-EncodedCommand,
// UTF-16LE base64), so no text of the notification is ever parsed as
// PowerShell.
func (n *Notifier) Send(msg Notification) error {
	toast := toastXML(msg)
	script := `[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] > $null
[Windows.Data.Xml.Dom.XmlDocument, Windows.Data.Xml.Dom.XmlDocument, ContentType = WindowsRuntime] > $null
$x = New-Object Windows.Data.Xml.Dom.XmlDocument
$x.LoadXml([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('` + base64.StdEncoding.EncodeToString([]byte(toast)) + `')))
[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('` +
		base64.StdEncoding.EncodeToString([]byte(AppUserModelID)) + `'))).Show([Windows.UI.Notifications.ToastNotification]::new($x))`
	u := utf16.Encode([]rune(script))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "powershell.exe", "-NoProfile", "-NonInteractive", "-EncodedCommand", base64.StdEncoding.EncodeToString(b))
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("show a toast: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Close does nothing: each toast is its own process.
func (n *Notifier) Close() {}
