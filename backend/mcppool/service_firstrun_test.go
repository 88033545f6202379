package mcppool

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mcpdesk/backend/importer"
	"mcpdesk/backend/mcpconfig"
)

func TestDetectConfigs(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("APPDATA", "")
	m, err := mcpconfig.ThisMachine()
	if err != nil {
		t.Fatal(err)
	}
	known := m.KnownConfigs() // Claude, Cursor, VS Code mcp.json, settings.json, Windsurf
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	claude, cursor := known[0].Path, known[1].Path
	write(claude, `{"mcpServers": {"filesystem": {"command": "npx"}, "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}`)
	write(cursor, `{"mcpServers": {"context7": {"url": `)

	off := false
	p, _ := newTestPool(t, mcpconfig.Server{ID: "memory", Command: "npx", Enabled: &off})
	svc := NewService(p, nil)
	got, err := svc.DetectConfigs()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("DetectConfigs() = %+v, want the Claude and Cursor files", got)
	}
	wantClaude := importer.Detected{Client: "claude", Path: claude, Servers: []string{"filesystem", "memory"}, Configured: []string{"memory"}, Broken: []string{}}
	if !reflect.DeepEqual(got[0], wantClaude) {
		t.Errorf("claude:\n got %+v\nwant %+v", got[0], wantClaude)
	}
	if c := got[1]; c.Client != "cursor" || c.Path != cursor || len(c.Servers) != 0 || c.Servers == nil || c.Configured == nil || !strings.HasPrefix(c.Error, cursor+":1:") {
		t.Errorf("broken cursor file: %+v", c)
	}

	// What DetectConfigs lists, PreviewImport previews.
	prev, err := svc.PreviewImport(got[0].Path)
	if err != nil || prev.Format != "claude" || len(prev.Items) != 2 || !prev.Items[1].Replaces {
		t.Errorf("PreviewImport(%s) = %+v, %v", got[0].Path, prev, err)
	}
}

func TestDetectConfigsFindsNothing(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("APPDATA", "")
	p, _ := newTestPool(t)
	got, err := NewService(p, nil).DetectConfigs()
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("DetectConfigs() = %#v, %v; want an empty list", got, err)
	}
}
