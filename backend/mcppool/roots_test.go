package mcppool

import (
	"context"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// TestRootsEverything: server-everything lists the roots we offer; changing
// them tells the server (notifications/roots/list_changed) without a
// restart, and it lists the new ones.
func TestRootsEverything(t *testing.T) {
	entry := npmServer(t, "server-everything")
	first, second := t.TempDir(), t.TempDir()
	srv := mcpconfig.Server{ID: "everything", Command: "node", Args: []string{entry, "stdio"}, Roots: []string{first}}
	p, _ := newTestPool(t, srv)
	waitState(t, p, "everything", events.StateConnected, 30*time.Second)
	pid := childPID(t, p, "everything")

	listed := func() string {
		res, err := p.CallTool(context.Background(), "everything", "get-roots-list", nil)
		if err != nil {
			t.Fatal(err)
		}
		return resultText(res)
	}
	if got := listed(); !strings.Contains(got, fileURI(first)) {
		t.Fatalf("get-roots-list does not show %s: %s", first, got)
	}

	srv.Roots = []string{second}
	if err := p.SaveServer("everything", srv); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "notifications/roots/list_changed", func() bool {
		for _, e := range p.Log().Entries() {
			if e.Method == "notifications/roots/list_changed" && e.Direction == events.Outgoing {
				return true
			}
		}
		return false
	})
	if childPID(t, p, "everything") != pid {
		t.Fatal("changing the roots restarted the server")
	}
	waitFor(t, 5*time.Second, "the server to see the new root", func() bool {
		got := listed()
		return strings.Contains(got, fileURI(second)) && !strings.Contains(got, fileURI(first))
	})
}

func TestFileURI(t *testing.T) {
	for in, want := range map[string]string{
		"/home/ada/my project": "file:///home/ada/my%20project",
		"/tmp":                 "file:///tmp",
	} {
		if got := fileURI(in); got != want {
			t.Errorf("fileURI(%q) = %q, want %q", in, got, want)
		}
	}
}
