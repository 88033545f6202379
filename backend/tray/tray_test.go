//go:build keychain

// Keychain-tagged tests run on a private D-Bus session bus
// (build/scripts/test.sh wraps them in dbus-run-session), which is where
// a Linux tray item lives.

package tray

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

const menuPath = "/StatusNotifierItem/menu"

// menuLayout is com.canonical.dbusmenu's (ia{sv}av) layout node.
type menuLayout struct {
	ID         int32
	Properties map[string]dbus.Variant
	Children   []dbus.Variant
}

func items(t *testing.T, obj dbus.BusObject) map[string]int32 {
	t.Helper()
	var rev uint32
	var root menuLayout
	if err := obj.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{}).Store(&rev, &root); err != nil {
		t.Fatalf("GetLayout: %v", err)
	}
	out := map[string]int32{}
	for _, c := range root.Children {
		var child menuLayout
		if err := dbus.Store([]any{c.Value()}, &child); err != nil {
			t.Fatalf("child: %v", err)
		}
		if l, ok := child.Properties["label"]; ok {
			out[l.Value().(string)] = child.ID
		}
	}
	return out
}

// The tray item is exported on the session bus, its menu lists the three
// entries in the chosen language, a click over D-Bus — what a panel sends —
// runs the action, and Available follows the StatusNotifierWatcher.
func TestTrayOverDBus(t *testing.T) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatalf("no session bus (run under dbus-run-session): %v", err)
	}
	defer conn.Close()

	clicked := make(chan string, 8)
	tr := Start(Options{
		Icon:   []byte{},
		Labels: LabelsFor("en", os.Getenv),
		Actions: Actions{
			QuickChat: func() { clicked <- "quick" },
			Show:      func() { clicked <- "show" },
			Quit:      func() { clicked <- "quit" },
		},
	})
	if tr == nil {
		t.Fatal("Start returned no tray on a session bus")
	}
	defer tr.Stop()

	name := fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", os.Getpid())
	var names []string
	if err := conn.BusObject().Call("org.freedesktop.DBus.ListNames", 0).Store(&names); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names, name) {
		t.Fatalf("%s is not on the bus: %v", name, names)
	}
	obj := conn.Object(name, menuPath)
	got := items(t, obj)
	for _, l := range []string{"Quick chat", "Show MCP Desk", "Quit"} {
		if _, ok := got[l]; !ok {
			t.Fatalf("menu %v lacks %q", got, l)
		}
	}
	for label, want := range map[string]string{"Quick chat": "quick", "Show MCP Desk": "show", "Quit": "quit"} {
		call := obj.Call("com.canonical.dbusmenu.Event", 0, got[label], "clicked", dbus.MakeVariant(int32(0)), uint32(time.Now().Unix()))
		if call.Err != nil {
			t.Fatalf("click %s: %v", label, call.Err)
		}
		select {
		case c := <-clicked:
			if c != want {
				t.Fatalf("clicking %q ran %q", label, c)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("clicking %q did nothing", label)
		}
	}

	// The language changes: so do the words.
	tr.SetLabels(LabelsFor("zh-CN", os.Getenv))
	deadline := time.Now().Add(3 * time.Second)
	for {
		if _, ok := items(t, obj)["退出"]; ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("menu not translated: %v", items(t, obj))
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Nobody shows tray items until a StatusNotifierWatcher appears.
	if tr.Available() {
		t.Fatal("Available with no StatusNotifierWatcher on the bus")
	}
	if reply, err := conn.RequestName(watcher, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v %v", watcher, reply, err)
	}
	if !tr.Available() {
		t.Fatal("not Available with a StatusNotifierWatcher on the bus")
	}
}
