package mcpconfig

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestDetectAndParse(t *testing.T) {
	off := false
	cases := []struct {
		name   string
		path   string
		data   string
		format string
		want   []Server
	}{
		{
			name: "claude desktop",
			path: "/home/me/.config/Claude/claude_desktop_config.json",
			data: `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", "/Users/me/Downloads"]
    },
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_example"}
    }
  },
  "globalShortcut": "Ctrl+Space"
}`,
			format: FormatClaude,
			want: []Server{
				{ID: "filesystem", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", "/Users/me/Downloads"}},
				{ID: "github", Command: "docker", Args: []string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"}, Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_example"}},
			},
		},
		{
			name: "cursor project",
			path: `C:\Users\me\project\.cursor\mcp.json`,
			data: `{
  "mcpServers": {
    "context7": {"url": "https://mcp.context7.com/mcp", "headers": {"CONTEXT7_API_KEY": "ctx7-key"}},
    "events": {"url": "https://events.example.com/sse"},
    "local": {"command": "node", "args": ["${workspaceFolder}/server.js"], "env": {"API_KEY": "${env:API_KEY}"}, "envFile": ".env"}
  }
}`,
			format: FormatCursor,
			want: []Server{
				{ID: "context7", URL: "https://mcp.context7.com/mcp", Headers: map[string]string{"CONTEXT7_API_KEY": "ctx7-key"}},
				{ID: "events", Type: SSE, URL: "https://events.example.com/sse"},
				{ID: "local", Command: "node", Args: []string{"${workspaceFolder}/server.js"}, Env: map[string]string{"API_KEY": "${env:API_KEY}"}, Extra: map[string]json.RawMessage{"envFile": json.RawMessage(`".env"`)}},
			},
		},
		{
			name: "vscode mcp.json",
			path: "/home/me/project/.vscode/mcp.json",
			data: `{
  // Inputs are prompted for when a server first starts.
  "inputs": [
    {
      "type": "promptString",
      "id": "perplexity-key",
      "description": "Perplexity API Key",
      "password": true,
    },
  ],
  "servers": {
    "Perplexity": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "server-perplexity-ask"],
      "env": {
        "PERPLEXITY_API_KEY": "${input:perplexity-key}", /* prompted */
      },
    },
    "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/",},
    "legacy": {
      "type": "sse",
      "url": "http://localhost:3001/sse", // "//" inside strings is not a comment
      "headers": {"Authorization": "Bearer ${input:token}"}
    },
  },
}`,
			format: FormatVSCode,
			want: []Server{
				{ID: "Perplexity", Type: Stdio, Command: "npx", Args: []string{"-y", "server-perplexity-ask"}, Env: map[string]string{"PERPLEXITY_API_KEY": "${input:perplexity-key}"}},
				{ID: "github", Type: HTTP, URL: "https://api.githubcopilot.com/mcp/"},
				{ID: "legacy", Type: SSE, URL: "http://localhost:3001/sse", Headers: map[string]string{"Authorization": "Bearer ${input:token}"}},
			},
		},
		{
			name: "vscode settings.json",
			path: "/home/me/.config/Code/User/settings.json",
			data: `{
  "editor.fontSize": 14,
  "editor.fontSize": 15, // VS Code tolerates repeated keys; they are not ours
  // MCP servers live under "mcp".
  "mcp": {
    "inputs": [],
    "servers": {
      "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
    },
  },
  "workbench.colorTheme": "Default Dark Modern",
}`,
			format: FormatVSCode,
			want: []Server{
				{ID: "memory", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory"}},
			},
		},
		{
			name: "windsurf",
			path: "/home/me/.codeium/windsurf/mcp_config.json",
			data: `{
  "mcpServers": {
    "remote": {"serverUrl": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer abc123"}},
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
      "disabled": true,
      "disabledTools": ["write_file"]
    }
  }
}`,
			format: FormatWindsurf,
			want: []Server{
				{ID: "remote", URL: "https://mcp.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer abc123"}},
				{ID: "fs", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, Enabled: &off, DenyTools: []string{"write_file"}},
			},
		},
		{
			name: "cline",
			path: "/home/me/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
			data: `{
  "mcpServers": {
    "github.com/modelcontextprotocol/servers/tree/main/src/github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_x"},
      "disabled": false,
      "autoApprove": []
    },
    "weather": {
      "command": "node",
      "args": ["/home/me/weather/build/index.js"],
      "disabled": true,
      "autoApprove": ["get_forecast"],
      "timeout": 120
    },
    "remote": {"type": "streamableHttp", "url": "https://x.example/mcp"},
    "old": {"transportType": "sse", "url": "https://y.example/events"}
  }
}`,
			format: FormatCline,
			want: []Server{
				{ID: "github.com-modelcontextprotocol-servers-tree-main-src-github", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"}, Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_x"}, Extra: map[string]json.RawMessage{"autoApprove": json.RawMessage(`[]`)}},
				{ID: "weather", Command: "node", Args: []string{"/home/me/weather/build/index.js"}, Enabled: &off, TimeoutMs: 120_000, Extra: map[string]json.RawMessage{"autoApprove": json.RawMessage(`["get_forecast"]`)}},
				{ID: "remote", Type: HTTP, URL: "https://x.example/mcp"},
				{ID: "old", Type: SSE, URL: "https://y.example/events"},
			},
		},
		{
			name:   "mcp desk",
			path:   "/home/me/.config/mcpdesk/mcp.config.json",
			data:   `{"mcpServers": {"a": {"command": "x", "enabled": false, "disabled": true}}}`,
			format: FormatMCPDesk,
			// Our own file is not reinterpreted: "disabled" is not ours.
			want: []Server{{ID: "a", Command: "x", Enabled: &off, Extra: map[string]json.RawMessage{"disabled": json.RawMessage(`true`)}}},
		},
		{
			name:   "other mcpServers file",
			path:   "servers.json",
			data:   `{"mcpServers": {}}`,
			format: FormatCursor,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			format, servers, err := DetectAndParse(c.path, []byte(c.data))
			if err != nil {
				t.Fatal(err)
			}
			if format != c.format {
				t.Errorf("format %q, want %q", format, c.format)
			}
			if !reflect.DeepEqual(servers, c.want) {
				t.Errorf("servers:\n got %#v\nwant %#v", servers, c.want)
			}
			// What was imported can be written as our own file.
			if err := Validate("mcp.config.json", &Config{Servers: servers}); err != nil {
				t.Errorf("imported servers do not validate: %v", err)
			}
		})
	}
}

func TestDetectAndParseErrors(t *testing.T) {
	cases := []struct {
		name, path, data string
		want             []string
	}{
		{"syntax", "/x/broken.json", "{\n  \"mcpServers\": {,}\n}", []string{"/x/broken.json:2:"}},
		{"nothing", "/x/settings.json", `{"editor.fontSize": 14}`, []string{"/x/settings.json:1:1: ", "no MCP servers found", `"mcpServers"`, `"servers"`}},
		{"array", "/x/a.json", `[]`, []string{"/x/a.json:1:1: ", "no MCP servers found"}},
		{"empty", "/x/a.json", ``, []string{"/x/a.json:1:1: ", "no MCP servers found"}},
		{"vscode bad type", "/x/.vscode/mcp.json", `{"servers": {"s": {"type": "websocket", "url": "wss://x"}}}`, []string{"/x/.vscode/mcp.json:1:28: ", `server "s": field "type": must be stdio, http or sse, not "websocket"`}},
		{"claude missing command", "/x/claude_desktop_config.json", `{"mcpServers": {"fs": {"args": []}}}`, []string{`server "fs": field "command": missing`}},
		{"windsurf bad serverUrl", "/x/.codeium/windsurf/mcp_config.json", `{"mcpServers": {"w": {"serverUrl": 5}}}`, []string{`server "w": field "serverUrl": must be a string`}},
		{"our own file stays strict", "/x/mcp.config.json", `{"mcpServers": {"a b": {"command": "x"}}}`, []string{`server "a b": invalid server id`}},
		{"servers not an object", "/x/mcp.json", `{"servers": []}`, []string{`field "servers": must be an object`}},
		{"servers twice", "/x/mcp.json", "{\"servers\": {},\n \"servers\": {}}", []string{`/x/mcp.json:2:2: field "servers": appears twice (first at 1:2)`}},
		{"mcp.servers twice", "/x/settings.json", `{"mcp": {"servers": {}, "servers": {}}}`, []string{`/x/settings.json:1:25: field "mcp": key "servers" appears twice (first at 1:10)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DetectAndParse(c.path, []byte(c.data))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestFormatByName(t *testing.T) {
	cases := map[string]string{
		"/Users/me/Library/Application Support/Claude/claude_desktop_config.json": FormatClaude,
		`C:\Users\me\AppData\Roaming\Claude\claude_desktop_config.json`:           FormatClaude,
		"/home/me/.cursor/mcp.json":                  FormatCursor,
		"/home/me/proj/.cursor/mcp.json":             FormatCursor,
		"/home/me/.codeium/windsurf/mcp_config.json": FormatWindsurf,
		"/home/me/cline_mcp_settings.json":           FormatCline,
		"/home/me/.config/mcpdesk/mcp.config.json":   FormatMCPDesk,
		"/home/me/Downloads/MCP.CONFIG.JSON":         FormatMCPDesk,
		"/home/me/Downloads/whatever.json":           FormatCursor,
		"mcp.json":                                   FormatCursor,
		"":                                           FormatCursor,
	}
	for path, want := range cases {
		if got := formatByName(path); got != want {
			t.Errorf("%q: got %q, want %q", path, got, want)
		}
	}
}

func TestImportMakesIDsValid(t *testing.T) {
	data := `{"mcpServers": {
		"my server": {"command": "a"},
		"my-server": {"command": "b"},
		"my_server!": {"command": "c"},
		"@scope/pkg": {"command": "d"},
		"日本": {"command": "e"},
		"` + strings.Repeat("x", 70) + `": {"command": "f"},
		"` + strings.Repeat("x", 70) + `?": {"command": "g"}
	}}`
	_, servers, err := DetectAndParse("cline_mcp_settings.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range servers {
		ids = append(ids, s.ID)
	}
	want := []string{"my-server-2", "my-server", "my_server", "scope-pkg", "server", strings.Repeat("x", 64), strings.Repeat("x", 62) + "-2"}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids %q\nwant %q", ids, want)
	}
	if err := Validate("", &Config{Servers: servers}); err != nil {
		t.Fatal(err)
	}
}

func TestInputRefs(t *testing.T) {
	s := Server{
		Command: "npx", Args: []string{"--key=${input:api-key}"},
		Env:     map[string]string{"A": "${input:api-key}", "B": "${input:region}"},
		Headers: map[string]string{"Authorization": "Bearer ${input:token}"},
	}
	if got, want := s.InputRefs(), []string{"api-key", "region", "token"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := (Server{Command: "x"}).InputRefs(); len(got) != 0 {
		t.Fatalf("got %q", got)
	}
}
