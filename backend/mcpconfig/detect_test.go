package mcpconfig

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestKnownConfigs(t *testing.T) {
	home := filepath.Join("home", "me")
	cases := []struct {
		name string
		m    Machine
		want []string // Claude, Cursor, VS Code mcp.json, VS Code settings.json, Windsurf
	}{
		{
			name: "linux",
			m:    Machine{OS: "linux", Home: home},
			want: []string{
				filepath.Join(home, ".config", "Claude", "claude_desktop_config.json"),
				filepath.Join(home, ".cursor", "mcp.json"),
				filepath.Join(home, ".config", "Code", "User", "mcp.json"),
				filepath.Join(home, ".config", "Code", "User", "settings.json"),
				filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"),
			},
		},
		{
			name: "linux with XDG_CONFIG_HOME",
			m:    Machine{OS: "freebsd", Home: home, ConfigHome: filepath.Join("xdg")},
			want: []string{
				filepath.Join("xdg", "Claude", "claude_desktop_config.json"),
				filepath.Join(home, ".cursor", "mcp.json"),
				filepath.Join("xdg", "Code", "User", "mcp.json"),
				filepath.Join("xdg", "Code", "User", "settings.json"),
				filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"),
			},
		},
		{
			name: "macOS",
			m:    Machine{OS: "darwin", Home: home, ConfigHome: "ignored"},
			want: []string{
				filepath.Join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json"),
				filepath.Join(home, ".cursor", "mcp.json"),
				filepath.Join(home, "Library", "Application Support", "Code", "User", "mcp.json"),
				filepath.Join(home, "Library", "Application Support", "Code", "User", "settings.json"),
				filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"),
			},
		},
		{
			name: "windows",
			m:    Machine{OS: "windows", Home: home, AppData: filepath.Join("roaming")},
			want: []string{
				filepath.Join("roaming", "Claude", "claude_desktop_config.json"),
				filepath.Join(home, ".cursor", "mcp.json"),
				filepath.Join("roaming", "Code", "User", "mcp.json"),
				filepath.Join("roaming", "Code", "User", "settings.json"),
				filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"),
			},
		},
		{
			name: "windows without APPDATA",
			m:    Machine{OS: "windows", Home: home},
			want: []string{
				filepath.Join(home, "AppData", "Roaming", "Claude", "claude_desktop_config.json"),
				filepath.Join(home, ".cursor", "mcp.json"),
				filepath.Join(home, "AppData", "Roaming", "Code", "User", "mcp.json"),
				filepath.Join(home, "AppData", "Roaming", "Code", "User", "settings.json"),
				filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"),
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			known := c.m.KnownConfigs()
			var paths, clients []string
			for _, k := range known {
				paths = append(paths, k.Path)
				clients = append(clients, k.Client)
			}
			if !slices.Equal(paths, c.want) {
				t.Errorf("paths:\n got %q\nwant %q", paths, c.want)
			}
			wantClients := []string{FormatClaude, FormatCursor, FormatVSCode, FormatVSCode, FormatWindsurf}
			if !slices.Equal(clients, wantClients) {
				t.Errorf("clients = %q, want %q", clients, wantClients)
			}
			for _, k := range known {
				if k.Shared != strings.HasSuffix(k.Path, "settings.json") {
					t.Errorf("%s: Shared = %v", k.Path, k.Shared)
				}
			}
		})
	}
}

// plant writes files under dir; keys are slash-separated relative paths.
func plant(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// found is what a test compares of a FoundConfig.
type found struct {
	client, path string
	servers      []string
	broken       []string // entries with mistakes
	err          string   // a part of the error message; "" for none
}

func summarize(fs []FoundConfig) []found {
	out := []found{}
	for _, f := range fs {
		g := found{client: f.Client, path: f.Path}
		for _, s := range f.Servers {
			g.servers = append(g.servers, s.ID)
		}
		g.broken = f.Broken
		if f.Err != nil {
			g.err = f.Err.Error()
		}
		out = append(out, g)
	}
	return out
}

func TestFindConfigs(t *testing.T) {
	home := t.TempDir()
	plant(t, home, map[string]string{
		".config/Claude/claude_desktop_config.json": `{
  "mcpServers": {
    "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"]},
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}
  },
  "globalShortcut": ""
}`,
		".cursor/mcp.json": `{"mcpServers": {"context7": {"url": "https://mcp.context7.com/mcp"}}}`,
		// VS Code's settings.json is JSONC: comments and trailing commas.
		".config/Code/User/settings.json": `{
  // Editor
  "editor.fontSize": 14,
  /* MCP servers */
  "mcp": {
    "servers": {
      "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"},
    },
  },
}`,
		".config/Code/User/mcp.json":            `{"servers": {"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}`, // not closed
		".codeium/windsurf/mcp_config.json":     `{"mcpServers": {"bad": {"command": "x", "url": "https://x.example"}, "good": {"command": "y"}}}`,
		".config/unrelated/claude_desktop.json": `{"mcpServers": {}}`,
	})

	got := summarize(Machine{OS: "linux", Home: home}.FindConfigs())
	p := func(rel string) string { return filepath.Join(home, filepath.FromSlash(rel)) }
	want := []found{
		{client: FormatClaude, path: p(".config/Claude/claude_desktop_config.json"), servers: []string{"filesystem", "memory"}},
		{client: FormatCursor, path: p(".cursor/mcp.json"), servers: []string{"context7"}},
		{client: FormatVSCode, path: p(".config/Code/User/mcp.json"), err: p(".config/Code/User/mcp.json") + ":1:"},
		{client: FormatVSCode, path: p(".config/Code/User/settings.json"), servers: []string{"github"}},
		// A broken entry keeps only itself out (issue 12).
		{client: FormatWindsurf, path: p(".codeium/windsurf/mcp_config.json"), servers: []string{"good"}, broken: []string{"bad"}},
	}
	if len(got) != len(want) {
		t.Fatalf("found %d configs, want %d:\n%+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.client != w.client || g.path != w.path || !slices.Equal(g.servers, w.servers) || !slices.Equal(g.broken, w.broken) {
			t.Errorf("config %d:\n got %+v\nwant %+v", i, g, w)
		}
		switch {
		case w.err == "" && g.err != "":
			t.Errorf("%s: unexpected error %q", g.path, g.err)
		case w.err != "" && !strings.Contains(g.err, w.err):
			t.Errorf("%s: error %q, want it to contain %q", g.path, g.err, w.err)
		case w.err != "" && g.servers != nil:
			t.Errorf("%s: servers %q along with an error", g.path, g.servers)
		}
	}
}

func TestFindConfigsWithoutServers(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  []found
	}{
		{
			name:  "nothing installed",
			files: map[string]string{".bashrc": "true"},
			want:  []found{},
		},
		{
			// Claude Desktop writes its file before any server is added:
			// list it, with no servers, and no error.
			name:  "claude without servers",
			files: map[string]string{".config/Claude/claude_desktop_config.json": `{"globalShortcut": "Ctrl+Space"}`},
			want:  []found{{client: FormatClaude, path: ".config/Claude/claude_desktop_config.json"}},
		},
		{
			name:  "empty claude file",
			files: map[string]string{".config/Claude/claude_desktop_config.json": "  \n"},
			want:  []found{{client: FormatClaude, path: ".config/Claude/claude_desktop_config.json"}},
		},
		{
			name:  "empty server list",
			files: map[string]string{".cursor/mcp.json": `{"mcpServers": {}}`},
			want:  []found{{client: FormatCursor, path: ".cursor/mcp.json"}},
		},
		{
			// Most VS Code users have a settings.json, few have MCP servers in it.
			name:  "vscode settings without mcp",
			files: map[string]string{".config/Code/User/settings.json": `{"editor.fontSize": 14, "mcp": {"discovery": {"enabled": true}},}`},
			want:  []found{},
		},
		{
			name:  "broken vscode settings",
			files: map[string]string{".config/Code/User/settings.json": `{"editor.fontSize": 14 "mcp": {}}`},
			want:  []found{{client: FormatVSCode, path: ".config/Code/User/settings.json", err: "settings.json:1:"}},
		},
		{
			name:  "not an object",
			files: map[string]string{".cursor/mcp.json": `["filesystem"]`},
			want:  []found{{client: FormatCursor, path: ".cursor/mcp.json", err: "no MCP servers found"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			plant(t, home, c.files)
			got := summarize(Machine{OS: "linux", Home: home}.FindConfigs())
			if len(got) != len(c.want) {
				t.Fatalf("found %+v, want %+v", got, c.want)
			}
			for i, w := range c.want {
				g := got[i]
				if g.client != w.client || g.path != filepath.Join(home, filepath.FromSlash(w.path)) || len(g.servers) != 0 {
					t.Errorf("got %+v, want %+v", g, w)
				}
				if (w.err == "") != (g.err == "") || !strings.Contains(g.err, w.err) {
					t.Errorf("error %q, want %q", g.err, w.err)
				}
			}
		})
	}
}

func TestFindConfigsUnreadable(t *testing.T) {
	home := t.TempDir()
	// A folder where the file should be.
	if err := os.MkdirAll(filepath.Join(home, ".cursor", "mcp.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	plant(t, home, map[string]string{".codeium/windsurf/mcp_config.json": `{"mcpServers": {}}`})
	locked := filepath.Join(home, ".codeium", "windsurf", "mcp_config.json")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	canRead := false
	if f, err := os.Open(locked); err == nil { // root, or Windows
		canRead = true
		f.Close()
	}

	got := summarize(Machine{OS: "linux", Home: home}.FindConfigs())
	if len(got) != 2 {
		t.Fatalf("found %+v, want the folder and the locked file", got)
	}
	if !strings.Contains(got[0].err, "is a folder") {
		t.Errorf("folder: error %q", got[0].err)
	}
	if !canRead && runtime.GOOS != "windows" && !strings.Contains(got[1].err, "permission denied") {
		t.Errorf("locked file: error %q", got[1].err)
	}
}

func TestThisMachine(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv("APPDATA", filepath.Join(home, "roaming"))
	m, err := ThisMachine()
	if err != nil {
		t.Fatal(err)
	}
	want := Machine{OS: runtime.GOOS, Home: home, AppData: filepath.Join(home, "roaming"), ConfigHome: filepath.Join(home, "xdg")}
	if m != want {
		t.Errorf("ThisMachine() = %+v, want %+v", m, want)
	}
}
