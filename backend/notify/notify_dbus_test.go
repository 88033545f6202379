//go:build keychain && (linux || freebsd || openbsd || netbsd)

// Keychain-tagged tests run on a private D-Bus session bus
// (build/scripts/test.sh wraps them in dbus-run-session), where this test
// plays the desktop's notification daemon.

package notify

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// daemon is a notification daemon on the session bus that records what it
// is asked to show.
type daemon struct {
	conn *dbus.Conn
	mu   sync.Mutex
	got  []shown
	next uint32
}

type shown struct {
	App, Summary, Body string
	Actions            []string
	Hints              map[string]dbus.Variant
	ID                 uint32
}

func (d *daemon) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next++
	d.got = append(d.got, shown{App: app, Summary: summary, Body: body, Actions: actions, Hints: hints, ID: d.next})
	return d.next, nil
}

func (d *daemon) GetCapabilities() ([]string, *dbus.Error) { return []string{"actions", "body"}, nil }

func startDaemon(t *testing.T) *daemon {
	t.Helper()
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatalf("no session bus (run under dbus-run-session): %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	d := &daemon{conn: conn}
	if err := conn.Export(d, busPath, busIface); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(busName, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v %v", busName, reply, err)
	}
	return d
}

// A notification reaches the daemon, cleaned; a click on it — the
// ActionInvoked signal a daemon sends — opens its conversation, and a
// click on someone else's notification opens nothing.
func TestNotificationsOverDBus(t *testing.T) {
	clicked := make(chan int64, 4)
	n := New(Options{AppName: "MCP Desk", OnClick: func(c int64) { clicked <- c }})
	defer n.Close()

	// No daemon yet: Send says so.
	if err := n.Send(Notification{Kind: Reply, Title: "x"}); !errors.Is(err, ErrNoDaemon) {
		t.Fatalf("without a daemon: %v", err)
	}
	d := startDaemon(t)
	if err := n.Send(Notification{Kind: Approval, Title: "Approval needed:\n\x1b]0;pwned\x07 echo", Body: "everything / echo waits for you", Conversation: 42}); err != nil {
		t.Fatal(err)
	}
	if err := n.Send(Notification{Kind: Reply, Title: "Reply finished", Body: "Here is the answer.", Conversation: 7}); err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	got := append([]shown(nil), d.got...)
	d.mu.Unlock()
	if len(got) != 2 {
		t.Fatalf("the daemon showed %d notifications", len(got))
	}
	a := got[0]
	if a.App != "MCP Desk" || a.Summary != "Approval needed: ]0;pwned echo" || a.Body != "everything / echo waits for you" ||
		len(a.Actions) != 2 || a.Actions[0] != "default" || a.Hints["urgency"].Value() != byte(1) {
		t.Errorf("approval notification %+v", a)
	}
	if _, urgent := got[1].Hints["urgency"]; urgent {
		t.Error("a finished reply is marked urgent")
	}

	// The user clicks the approval's notification.
	if err := d.conn.Emit(busPath, busIface+".ActionInvoked", a.ID, "default"); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-clicked:
		if c != 42 {
			t.Errorf("the click opened conversation %d, want 42", c)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the click did nothing")
	}
	// Closed, then clicked (late), or another app's: nothing.
	d.conn.Emit(busPath, busIface+".NotificationClosed", got[1].ID, uint32(2))
	d.conn.Emit(busPath, busIface+".ActionInvoked", got[1].ID, "default")
	d.conn.Emit(busPath, busIface+".ActionInvoked", uint32(999), "default")
	select {
	case c := <-clicked:
		t.Errorf("a click opened conversation %d", c)
	case <-time.After(500 * time.Millisecond):
	}
}
