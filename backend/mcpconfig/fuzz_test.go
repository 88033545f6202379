package mcpconfig

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that every error it returns is
// located in the file, and that whatever it accepts survives WriteFile and
// Load unchanged.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		sampleConfig,
		``,
		`{}`,
		`null`,
		`[]`,
		`{"mcpServers": null}`,
		`{"mcpServers": {}}`,
		`{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}}}`,
		`{"mcpServers": {"r": {"type": "http", "url": "https://x.example/mcp", "headers": {"Authorization": "Bearer t"}}}}`,
		`{"mcpServers": {"r": {"type": "sse", "url": "http://localhost:1/sse", "enabled": false, "timeoutMs": 5, "maxConcurrency": 1}}}`,
		`{"mcpServers": {"s": {"command": "x", "allowTools": ["a"], "denyTools": ["b"], "protocolVersion": "2025-11-25", "cwd": "/"}}}`,
		`{"mcpServers": {"s": {"command": "x", "extra": {"nested": [1, "two", null, true, 3.5e10]}}}, "top": "level"}`,
		"// comment\n{\"mcpServers\": {\"s\": {\"command\": \"x\",},}, /* c */}",
		"\ufeff{\"mcpServers\": {}}",
		`{"mcpServers": {"good": {"command": }}}`,
		"{\n  \"mcpServers\": {,}\n}",
		`{"mcpServers": {"fs": {"type": "carrier"}}}`,
		`{"mcpServers": {"fs": {"command": "a"}, "fs": {"command": "b"}}}`,
		`{"mcpServers": {"fs": {"command": "a", "command": "b"}}}`,
		`{"mcpServers": {"a b": {"command": "a"}}}`,
		`{"mcpServers": {"fs": {"command": "a", "timeoutMs": -1, "maxConcurrency": 1.5}}}`,
		`{"mcpServers": {"fs": {"command": "a", "url": "https://x"}}}`,
		`{"mcpServers": {"fs": {"url": "ftp://x"}}}`,
		`{"mcpServers": {"fs": {"command": "a", "env": {"A": 1}, "args": [2], "headers": []}}}`,
		`{"mcpServers": []}`,
		`{"mcpServers": {"fs": "npx"}}`,
		`{"mcpServers": {"s": {"command": "x", "k\u00e9y": "<\u2028>", "\ud800": "\xff"}}}`,
		"/* open",
		`{"a": 1,}`,
		`[1,]`,
		`{"mcpServers": {"s": {"command": "\u0000"}}}`,
	} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		// Plain JSON passes through the JSONC stripper untouched.
		if json.Valid(data) {
			if out, open := stripJSONC(data); open >= 0 || !bytes.Equal(out, data) {
				t.Fatalf("stripJSONC changed valid JSON %q into %q (open comment at %d)", data, out, open)
			}
		}
		const name = "mcp.config.json"
		cfg, err := Parse(name, data)
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, name) {
					t.Fatalf("error line does not name the file: %q", line)
				}
			}
			if len(Problems(err)) == 0 {
				t.Fatalf("error is not an *Error: %#v", err)
			}
			return
		}
		path := filepath.Join(dir, name)
		if err := WriteFile(path, cfg); err != nil {
			t.Fatalf("Parse accepted what WriteFile refuses: %v\ninput: %q", err, data)
		}
		written, _ := os.ReadFile(path)
		again, err := Load(path)
		if err != nil {
			t.Fatalf("reload: %v\ninput: %q\nwritten: %s", err, data, written)
		}
		if !reflect.DeepEqual(cfg, again) {
			t.Fatalf("round trip changed the config\ninput:   %q\nwritten: %s\nfirst:   %#v\nsecond:  %#v", data, written, cfg, again)
		}
		// DetectAndParse must not panic on the same bytes either.
		_, _, _ = DetectAndParse("x.json", data)
		_, _, _ = DetectAndParse("mcp.json", data)
	})
}
