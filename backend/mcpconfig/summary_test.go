package mcpconfig

import (
	"slices"
	"strings"
	"testing"
)

func TestSummaryAndSecretValues(t *testing.T) {
	cases := []struct {
		name    string
		srv     Server
		summary string
		secrets []string // each must be in SecretValues and not in Summary
	}{
		{
			name:    "filesystem",
			srv:     Server{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}},
			summary: "npx -y @modelcontextprotocol/server-filesystem /tmp",
		},
		{
			name:    "quoted args",
			srv:     Server{Command: "/opt/My Tools/srv", Args: []string{"a b", ""}},
			summary: `"/opt/My Tools/srv" "a b" ""`,
		},
		{
			name: "env values",
			srv: Server{
				Command: "docker", Args: []string{"run", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"},
				Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_0123456789abcdef", "DEBUG": "1"},
			},
			summary: "docker run -e GITHUB_PERSONAL_ACCESS_TOKEN ghcr.io/github/github-mcp-server",
			secrets: []string{"ghp_0123456789abcdef", "1"},
		},
		{
			name:    "secret env value repeated in args",
			srv:     Server{Command: "srv", Args: []string{"--config", "/etc/x-hunter2secret.json"}, Env: map[string]string{"API_KEY": "hunter2secret", "DIR": "/etc"}},
			summary: "srv --config /etc/x-***.json",
			secrets: []string{"hunter2secret"},
		},
		{
			name: "secret args",
			srv: Server{Command: "npx", Args: []string{
				"-y", "@modelcontextprotocol/server-postgres", "postgresql://app:pg-pass-1@localhost:5432/db",
				"--api-key", "key-value-1", "--token=tok-value-2", "SLACK_BOT_TOKEN=xoxb-value-3", "sk-proj0123456789",
			}},
			summary: "npx -y @modelcontextprotocol/server-postgres postgresql://app:***@localhost:5432/db --api-key *** --token=*** SLACK_BOT_TOKEN=*** ***",
			secrets: []string{"pg-pass-1", "key-value-1", "tok-value-2", "xoxb-value-3", "sk-proj0123456789"},
		},
		{
			name:    "url with headers",
			srv:     Server{URL: "https://mcp.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer tok-abc-123", "X-Api-Key": "xyz-987"}},
			summary: "https://mcp.example.com/mcp",
			secrets: []string{"Bearer tok-abc-123", "tok-abc-123", "xyz-987"},
		},
		{
			name:    "url password",
			srv:     Server{Type: SSE, URL: "https://alice:s3cr%40t@mcp.example.com/sse"},
			summary: "https://alice:***@mcp.example.com/sse",
			secrets: []string{"s3cr@t", "s3cr%40t"},
		},
		{
			name:    "url token as user name",
			srv:     Server{URL: "https://ghp_abcdefghijkl@mcp.example.com/mcp"},
			summary: "https://***@mcp.example.com/mcp",
			secrets: []string{"ghp_abcdefghijkl"},
		},
		{
			name:    "secret query parameters",
			srv:     Server{URL: "https://mcp.example.com/mcp?profile=dev&api_key=k-1&access_token=t%2F2&sig=s-3&Authorization=a-4&x-secret=x-5&password=p-6&page=2"},
			summary: "https://mcp.example.com/mcp?profile=dev&api_key=***&access_token=***&sig=***&Authorization=***&x-secret=***&password=***&page=2",
			secrets: []string{"k-1", "t/2", "t%2F2", "s-3", "a-4", "x-5", "p-6"},
		},
		{
			name:    "no secrets",
			srv:     Server{URL: "http://localhost:3000/mcp?page=2"},
			summary: "http://localhost:3000/mcp?page=2",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.srv.Summary()
			if got != c.summary {
				t.Errorf("Summary:\n got %s\nwant %s", got, c.summary)
			}
			secrets := c.srv.SecretValues()
			for _, s := range c.secrets {
				if !slices.Contains(secrets, s) {
					t.Errorf("SecretValues %q lacks %q", secrets, s)
				}
				if len(s) >= 4 && strings.Contains(got, s) {
					t.Errorf("Summary %q shows secret %q", got, s)
				}
			}
			for _, s := range secrets {
				if s == "" {
					t.Errorf("SecretValues holds an empty string")
				}
			}
			if len(secrets) != len(slices.Compact(slices.Sorted(slices.Values(secrets)))) {
				t.Errorf("SecretValues has repeats: %q", secrets)
			}
		})
	}
}

// Summary never shows any env or header value, whatever the server.
func TestSummaryNeverShowsEnvOrHeaderValues(t *testing.T) {
	servers := []Server{
		{Command: "npx", Args: []string{"-y", "pkg"}, Env: map[string]string{"A": "value-of-a", "TOKEN": "value-of-token"}},
		{URL: "https://x.example/mcp", Headers: map[string]string{"Cookie": "session=cookie-value", "X-Custom": "custom-value"}},
		{Type: SSE, URL: "https://x.example/sse", Env: map[string]string{"IGNORED": "value-of-ignored"}},
	}
	for _, s := range servers {
		sum := s.Summary()
		for _, v := range s.SecretValues() {
			if strings.Contains(sum, v) {
				t.Errorf("%q shows %q", sum, v)
			}
		}
	}
}
