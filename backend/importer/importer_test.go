package importer

import (
	"errors"
	"slices"
	"testing"

	"mcpdesk/backend/mcpconfig"
)

// fakeServers is the configured servers in memory.
type fakeServers struct{ cfg mcpconfig.Config }

func (f *fakeServers) Config() mcpconfig.Config { return f.cfg }

func (f *fakeServers) Import(servers []mcpconfig.Server) (added, replaced []string, err error) {
	for _, s := range servers {
		i := slices.IndexFunc(f.cfg.Servers, func(e mcpconfig.Server) bool { return e.ID == s.ID })
		if i >= 0 {
			f.cfg.Servers[i] = s
			replaced = append(replaced, s.ID)
		} else {
			f.cfg.Servers = append(f.cfg.Servers, s)
			added = append(added, s.ID)
		}
	}
	return added, replaced, nil
}

const claudeFile = `{"mcpServers": {
  "notes": {"command": "node", "args": ["notes.js"]},
  "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
  "broken": {"command": 42}
}}`

// What the preview showed is what is imported: the servers of the file
// without mistakes, a configured one replaced, the broken one refused by
// name, and the preview used up.
func TestPreviewThenImport(t *testing.T) {
	servers := &fakeServers{cfg: mcpconfig.Config{Servers: []mcpconfig.Server{{ID: "memory", Command: "old"}}}}
	im := New(servers)
	p, err := im.PreviewImportData("claude_desktop_config.json", claudeFile)
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != "claude" || len(p.Items) != 3 {
		t.Fatalf("preview: format %q, %d items", p.Format, len(p.Items))
	}
	if _, err := im.Import(p.Token, []string{"broken"}); err == nil {
		t.Fatal("the broken entry was imported")
	}
	res, err := im.Import(p.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Added, []string{"notes"}) || !slices.Equal(res.Replaced, []string{"memory"}) {
		t.Fatalf("import = %+v", res)
	}
	if _, err := im.Import(p.Token, nil); !errors.Is(err, ErrPreviewGone) {
		t.Fatalf("a second import of the same preview: %v", err)
	}
}

// Only the newest MaxPreviews previews are held.
func TestPreviewsAreBounded(t *testing.T) {
	im := New(&fakeServers{})
	var tokens []string
	for range MaxPreviews + 1 {
		p, err := im.PreviewImportData("claude_desktop_config.json", claudeFile)
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, p.Token)
	}
	if _, err := im.Import(tokens[0], nil); !errors.Is(err, ErrPreviewGone) {
		t.Fatalf("the oldest preview: %v", err)
	}
	if _, err := im.Import(tokens[MaxPreviews], nil); err != nil {
		t.Fatalf("the newest preview: %v", err)
	}
}
