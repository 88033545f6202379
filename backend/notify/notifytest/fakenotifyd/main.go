// Command fakenotifyd is a desktop notification daemon for end-to-end
// tests: it owns org.freedesktop.Notifications on the session bus, writes
// each notification it is asked to show as a JSON line to DIR/shown.jsonl,
// and clicks one when its id is written as a line to DIR/clicks (it emits
// ActionInvoked(id, "default"), as a daemon does when the user clicks).
//
//	fakenotifyd DIR
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

const (
	name  = "org.freedesktop.Notifications"
	path  = "/org/freedesktop/Notifications"
	iface = "org.freedesktop.Notifications"
)

type daemon struct {
	mu   sync.Mutex
	next uint32
	out  *os.File
}

// Notify records one notification and returns its id.
func (d *daemon) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next++
	line, _ := json.Marshal(map[string]any{"id": d.next, "app": app, "summary": summary, "body": body, "actions": actions})
	fmt.Fprintln(d.out, string(line))
	return d.next, nil
}

func (d *daemon) GetCapabilities() ([]string, *dbus.Error) { return []string{"actions", "body"}, nil }

func (d *daemon) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "fakenotifyd", "mcpdesk", "1", "1.2", nil
}

func (d *daemon) CloseNotification(id uint32) *dbus.Error { return nil }

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fakenotifyd DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	out, err := os.OpenFile(filepath.Join(dir, "shown.jsonl"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		fmt.Fprintln(os.Stderr, "no session bus:", err)
		os.Exit(1)
	}
	d := &daemon{out: out}
	if err := conn.Export(d, path, iface); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		fmt.Fprintln(os.Stderr, "could not own", name, reply, err)
		os.Exit(1)
	}
	// Clicks: ids written to DIR/clicks, one a line, each clicked once.
	done := 0
	for {
		time.Sleep(100 * time.Millisecond)
		f, err := os.Open(filepath.Join(dir, "clicks"))
		if err != nil {
			continue
		}
		var ids []string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if s := strings.TrimSpace(sc.Text()); s != "" {
				ids = append(ids, s)
			}
		}
		f.Close()
		for ; done < len(ids); done++ {
			if id, err := strconv.ParseUint(ids[done], 10, 32); err == nil {
				_ = conn.Emit(path, iface+".ActionInvoked", uint32(id), "default")
			}
		}
	}
}
