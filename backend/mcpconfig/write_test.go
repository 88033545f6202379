package mcpconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestWriteFileFormat(t *testing.T) {
	off := false
	cfg := &Config{
		Servers: []Server{
			{ID: "fs", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, Env: map[string]string{"B": "2", "A": "<1>"}, Extra: map[string]json.RawMessage{"z": json.RawMessage(`{ "k" : [1,2] }`), "a": json.RawMessage(`true`)}},
			{ID: "remote", Type: SSE, URL: "https://x.example/sse?a=1&b=2", Enabled: &off, TimeoutMs: 5000},
			{ID: "bare", Command: "srv"},
		},
		Extra: map[string]json.RawMessage{"$schema": json.RawMessage(`"s"`)},
	}
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	if err := WriteFile(path, cfg); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := `{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem",
        "/tmp"
      ],
      "env": {
        "A": "<1>",
        "B": "2"
      },
      "a": true,
      "z": {
        "k": [
          1,
          2
        ]
      }
    },
    "remote": {
      "type": "sse",
      "url": "https://x.example/sse?a=1&b=2",
      "enabled": false,
      "timeoutMs": 5000
    },
    "bare": {
      "command": "srv"
    }
  },
  "$schema": "s"
}
`
	if string(got) != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriteFileEmptyConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	if err := WriteFile(path, &Config{}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "{\n  \"mcpServers\": {}\n}\n" {
		t.Fatalf("got %q", got)
	}
	// A server with nothing but Extra fields still makes valid JSON
	// (Validate would refuse it, so encode directly).
	data, err := encode(&Config{Servers: []Server{{ID: "x", Extra: map[string]json.RawMessage{"k": json.RawMessage(`1`)}}}})
	if err != nil || !json.Valid(data) {
		t.Fatalf("encode: %s %v", data, err)
	}
}

func TestWriteFileRefusesInvalidConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.config.json")
	if err := WriteFile(path, &Config{Servers: []Server{{ID: "good", Command: "npx"}}}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	bad := []*Config{
		nil,
		{Servers: []Server{{ID: "fs"}}},
		{Servers: []Server{{ID: "fs", Type: "carrier", Command: "x"}}},
		{Servers: []Server{{ID: "a b", Command: "x"}}},
		{Servers: []Server{{ID: "a", Command: "x"}, {ID: "a", Command: "y"}}},
		{Servers: []Server{{ID: "r", URL: "file:///etc/passwd"}}},
	}
	for _, cfg := range bad {
		err := WriteFile(path, cfg)
		if err == nil {
			t.Fatalf("WriteFile accepted %+v", cfg)
		}
		if !strings.Contains(err.Error(), path) {
			t.Errorf("error does not name the file: %v", err)
		}
		after, _ := os.ReadFile(path)
		if string(after) != string(before) {
			t.Fatalf("invalid config changed the file:\n%s", after)
		}
	}
	assertOnlyFile(t, dir, "mcp.config.json")
}

func TestWriteFileIsAtomic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "dir")
	path := filepath.Join(dir, "mcp.config.json")
	for i := range 5 {
		cfg := &Config{Servers: []Server{{ID: "s", Command: "x", Args: []string{strings.Repeat("a", i)}}}}
		if err := WriteFile(path, cfg); err != nil {
			t.Fatal(err)
		}
	}
	assertOnlyFile(t, dir, "mcp.config.json")
	if runtime.GOOS == "windows" {
		return
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
	di, _ := os.Stat(dir)
	if di.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v, want 0700", di.Mode().Perm())
	}
	// An existing file with looser permissions is tightened.
	os.Chmod(path, 0o644)
	if err := WriteFile(path, &Config{}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode after rewrite %v, want 0600", fi.Mode().Perm())
	}
}

func TestWriteFileFailureLeavesNoTempFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.config.json")
	if err := os.Mkdir(path, 0o700); err != nil { // rename onto a directory fails
		t.Fatal(err)
	}
	if err := WriteFile(path, &Config{}); err == nil {
		t.Fatal("write over a directory succeeded")
	}
	assertOnlyFile(t, dir, "mcp.config.json")
}

func TestWriteFileKeepsSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "mcp.config.json")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte(`{}`), 0o600)
	link := filepath.Join(dir, "mcp.config.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, &Config{Servers: []Server{{ID: "a", Command: "x"}}}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi, err)
	}
	cfg, err := Load(real)
	if err != nil || len(cfg.Servers) != 1 {
		t.Fatalf("target not updated: %+v %v", cfg, err)
	}
}

func assertOnlyFile(t *testing.T, dir, name string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != name {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("directory holds %v, want only %s", names, name)
	}
}
