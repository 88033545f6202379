// Command desktopctl plays the desktop around MCP Desk in the real-window
// checks (build/scripts/desktop-check.sh), where no panel or window
// manager runs:
//
//	desktopctl watcher        own org.kde.StatusNotifierWatcher, as a panel that shows tray icons does
//	desktopctl menu           print the tray menu's labels, one per line
//	desktopctl click LABEL    click a tray menu entry, as a panel does (com.canonical.dbusmenu Event)
//	desktopctl close TITLE    ask the window titled TITLE to close (WM_DELETE_WINDOW), as a window manager does
package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: desktopctl watcher | menu | click LABEL | close TITLE")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "watcher":
		err = watcher()
	case "menu":
		var labels map[string]int32
		if labels, err = menu(); err == nil {
			for l := range labels {
				fmt.Println(l)
			}
		}
	case "click":
		err = click(arg())
	case "close":
		err = closeWindow(arg())
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "desktopctl:", err)
		os.Exit(1)
	}
}

func arg() string {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "desktopctl: missing argument")
		os.Exit(2)
	}
	return os.Args[2]
}

// statusWatcher is the least of org.kde.StatusNotifierWatcher: items
// register and are remembered.
type statusWatcher struct{}

func (statusWatcher) RegisterStatusNotifierItem(service string) *dbus.Error {
	fmt.Println("registered", service)
	return nil
}

func watcher() error {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := conn.Export(statusWatcher{}, "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher"); err != nil {
		return err
	}
	reply, err := conn.RequestName("org.kde.StatusNotifierWatcher", dbus.NameFlagDoNotQueue)
	if err != nil {
		return err
	}
	if reply != dbus.RequestNameReplyPrimaryOwner {
		return errors.New("another StatusNotifierWatcher runs")
	}
	fmt.Println("watching")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, os.Kill)
	<-sig
	return nil
}

type layout struct {
	ID         int32
	Properties map[string]dbus.Variant
	Children   []dbus.Variant
}

// item finds the tray item on the bus (org.kde.StatusNotifierItem-PID-N).
func item(conn *dbus.Conn) (string, error) {
	var names []string
	if err := conn.BusObject().Call("org.freedesktop.DBus.ListNames", 0).Store(&names); err != nil {
		return "", err
	}
	for _, n := range names {
		if strings.HasPrefix(n, "org.kde.StatusNotifierItem-") {
			return n, nil
		}
	}
	return "", errors.New("no StatusNotifierItem on the session bus")
}

func menuOf(conn *dbus.Conn) (dbus.BusObject, map[string]int32, error) {
	name, err := item(conn)
	if err != nil {
		return nil, nil, err
	}
	obj := conn.Object(name, "/StatusNotifierItem/menu")
	var rev uint32
	var root layout
	if err := obj.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{}).Store(&rev, &root); err != nil {
		return nil, nil, err
	}
	labels := map[string]int32{}
	for _, c := range root.Children {
		var child layout
		if err := dbus.Store([]any{c.Value()}, &child); err != nil {
			return nil, nil, err
		}
		if l, ok := child.Properties["label"]; ok {
			labels[fmt.Sprint(l.Value())] = child.ID
		}
	}
	return obj, labels, nil
}

func menu() (map[string]int32, error) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	_, labels, err := menuOf(conn)
	return labels, err
}

func click(label string) error {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return err
	}
	defer conn.Close()
	obj, labels, err := menuOf(conn)
	if err != nil {
		return err
	}
	id, ok := labels[label]
	if !ok {
		return fmt.Errorf("no menu entry %q in %v", label, labels)
	}
	return obj.Call("com.canonical.dbusmenu.Event", 0, id, "clicked", dbus.MakeVariant(int32(0)), uint32(time.Now().Unix())).Err
}

// closeWindow sends WM_DELETE_WINDOW to every top-level window titled
// title, the way a window manager's close button does.
func closeWindow(title string) error {
	xgb.Logger = log.New(io.Discard, "", 0)
	conn, err := xgb.NewConn()
	if err != nil {
		return err
	}
	defer conn.Close()
	atom := func(name string) (xproto.Atom, error) {
		r, err := xproto.InternAtom(conn, false, uint16(len(name)), name).Reply()
		if err != nil {
			return 0, err
		}
		return r.Atom, nil
	}
	protocols, err := atom("WM_PROTOCOLS")
	if err != nil {
		return err
	}
	del, err := atom("WM_DELETE_WINDOW")
	if err != nil {
		return err
	}
	var found int
	var walk func(w xproto.Window) error
	walk = func(w xproto.Window) error {
		tree, err := xproto.QueryTree(conn, w).Reply()
		if err != nil {
			return nil // gone meanwhile
		}
		for _, c := range tree.Children {
			name, err := xproto.GetProperty(conn, false, c, xproto.AtomWmName, xproto.GetPropertyTypeAny, 0, 256).Reply()
			if err == nil && string(name.Value) == title {
				ev := xproto.ClientMessageEvent{
					Format: 32, Window: c, Type: protocols,
					Data: xproto.ClientMessageDataUnionData32New([]uint32{uint32(del), xproto.TimeCurrentTime, 0, 0, 0}),
				}
				if err := xproto.SendEventChecked(conn, false, c, xproto.EventMaskNoEvent, string(ev.Bytes())).Check(); err != nil {
					return err
				}
				found++
			}
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(xproto.Setup(conn).DefaultScreen(conn).Root); err != nil {
		return err
	}
	if found == 0 {
		return fmt.Errorf("no window titled %q", title)
	}
	return nil
}
