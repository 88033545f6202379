//go:build linux || freebsd || openbsd || netbsd

package notify

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/godbus/dbus/v5"
)

// The freedesktop Notifications interface.
const (
	busName   = "org.freedesktop.Notifications"
	busPath   = "/org/freedesktop/Notifications"
	busIface  = "org.freedesktop.Notifications"
	actionKey = "default" // the action a click on the notification itself invokes
)

// Notifier sends notifications over D-Bus.
type Notifier struct {
	opts Options
	log  *slog.Logger

	mu    sync.Mutex
	conn  *dbus.Conn
	sent  map[uint32]int64 // notification id → conversation
	order []uint32
}

// ClicksOpen says whether a click on a notification opens its conversation
// here: the daemon sends ActionInvoked back over the bus.
const ClicksOpen = true

// New connects to the session bus lazily, at the first notification: a
// desktop without a bus, or without a notification daemon, costs nothing
// until then, and Send says why it could not.
func New(o Options) *Notifier {
	o = o.withDefaults()
	return &Notifier{opts: o, log: o.Logger, sent: map[uint32]int64{}}
}

// ErrNoDaemon: nothing on the session bus shows notifications.
var ErrNoDaemon = errors.New("no notification service runs on the session bus (" + busName + ")")

func (n *Notifier) connect() (*dbus.Conn, error) {
	if n.conn != nil {
		return n.conn, nil
	}
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, fmt.Errorf("no D-Bus session bus: %w", err)
	}
	if err := conn.AddMatchSignal(dbus.WithMatchInterface(busIface), dbus.WithMatchObjectPath(busPath)); err != nil {
		conn.Close()
		return nil, err
	}
	signals := make(chan *dbus.Signal, 16)
	conn.Signal(signals)
	go n.listen(signals)
	n.conn = conn
	return conn, nil
}

// Send shows n and remembers its conversation for a click.
func (n *Notifier) Send(msg Notification) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	conn, err := n.connect()
	if err != nil {
		return err
	}
	var has bool
	if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, busName).Store(&has); err != nil || !has {
		return ErrNoDaemon
	}
	hints := map[string]dbus.Variant{
		"desktop-entry": dbus.MakeVariant("mcpdesk"),
		"category":      dbus.MakeVariant("im.received"),
	}
	if msg.Kind == Approval || msg.Kind == Question {
		hints["urgency"] = dbus.MakeVariant(byte(1))
	}
	var id uint32
	err = conn.Object(busName, busPath).Call(busIface+".Notify", 0,
		n.opts.AppName, uint32(0), "mcpdesk", clean(msg.Title, maxTitle), clean(msg.Body, maxBody),
		[]string{actionKey, "Open"}, hints, int32(-1)).Store(&id)
	if err != nil {
		return fmt.Errorf("send a notification: %w", err)
	}
	n.sent[id] = msg.Conversation
	n.order = append(n.order, id)
	// The daemon may never say a notification closed: keep the latest only.
	if len(n.order) > 64 {
		delete(n.sent, n.order[0])
		n.order = n.order[1:]
	}
	return nil
}

// listen turns the daemon's ActionInvoked signals for our notifications
// into OnClick, and forgets closed ones.
func (n *Notifier) listen(signals <-chan *dbus.Signal) {
	for s := range signals {
		if len(s.Body) == 0 {
			continue
		}
		id, ok := s.Body[0].(uint32)
		if !ok {
			continue
		}
		switch s.Name {
		case busIface + ".ActionInvoked":
			n.mu.Lock()
			conv, mine := n.sent[id]
			n.mu.Unlock()
			if mine && n.opts.OnClick != nil {
				n.opts.OnClick(conv)
			}
		case busIface + ".NotificationClosed":
			n.mu.Lock()
			delete(n.sent, id)
			n.mu.Unlock()
		}
	}
}

// Close drops the bus connection.
func (n *Notifier) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.conn != nil {
		n.conn.Close()
		n.conn = nil
	}
}
