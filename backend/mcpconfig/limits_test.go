package mcpconfig

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMaxMessageBytes: the per-server message size limit is read, checked
// against its range with an error that says the range and the default, and
// written back.
func TestMaxMessageBytes(t *testing.T) {
	const file = "mcp.config.json"
	cases := []struct {
		name  string
		value string
		want  int
		err   string
	}{
		{name: "left out", value: "", want: 0},
		{name: "null", value: "null", want: 0},
		{name: "smallest", value: "65536", want: MinMaxMessageBytes},
		{name: "largest", value: "1073741824", want: MaxMaxMessageBytes},
		{name: "1 MB", value: "1048576", want: 1 << 20},
		{name: "too small", value: "1000", err: `server "fs": field "maxMessageBytes": must be a size in bytes from 65536 (64 KB) to 1073741824 (1 GB), not 1000 (leave it out for the default, 33554432 = 32 MB)`},
		{name: "negative", value: "-1", err: `field "maxMessageBytes": must be a size in bytes from 65536`},
		{name: "too large", value: "2147483648", err: `not 2147483648`},
		{name: "string", value: `"32MB"`, err: `field "maxMessageBytes": must be a number, not a string`},
		{name: "fraction", value: "65536.5", err: `field "maxMessageBytes": must be a whole number`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			content := `{"mcpServers": {"fs": {"command": "npx"}}}`
			if tc.value != "" {
				content = `{"mcpServers": {"fs": {"command": "npx", "maxMessageBytes": ` + tc.value + `}}}`
			}
			cfg, err := Parse(file, []byte(content))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				if !strings.Contains(err.Error(), file+":1:") {
					t.Fatalf("error %v does not say where", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.Servers[0].MaxMessageBytes; got != tc.want {
				t.Fatalf("maxMessageBytes %d, want %d", got, tc.want)
			}
			// Written back as it was read.
			path := filepath.Join(t.TempDir(), file)
			if err := WriteFile(path, cfg); err != nil {
				t.Fatal(err)
			}
			again, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := again.Servers[0].MaxMessageBytes; got != tc.want {
				t.Fatalf("after a round trip maxMessageBytes %d, want %d", got, tc.want)
			}
		})
	}
}
