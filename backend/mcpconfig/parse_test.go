package mcpconfig

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sampleConfig is a realistic mcp.config.json using every field, unknown
// fields at both levels, comments and trailing commas.
const sampleConfig = `{
  // Servers in the order the user wants them.
  "mcpServers": {
    "zeta": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
      "env": {"LOG_LEVEL": "debug"},
      "cwd": "/work",
      "x-note": {"b": [1, 2.50, "<&>"], "a": null},
    },
    "alpha": {
      "type": "sse",
      "url": "https://example.com/sse",
      "headers": {"Authorization": "Bearer t0ken"},
      "enabled": false,
      "timeoutMs": 1000,
      "maxConcurrency": 2,
      "allowTools": ["read"],
      "denyTools": ["write"],
      "protocolVersion": "2025-11-25",
      "unknown": null
    },
    /* a remote one */
    "mid": {"url": "http://localhost:3000/mcp",},
  },
  "$schema": "https://example.com/schema.json",
  "other": {"nested": true}
}
`

func sampleWant() *Config {
	off := false
	return &Config{
		Servers: []Server{
			{
				ID: "zeta", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"},
				Env: map[string]string{"LOG_LEVEL": "debug"}, Cwd: "/work",
				Extra: map[string]json.RawMessage{"x-note": json.RawMessage(`{"b":[1,2.50,"<&>"],"a":null}`)},
			},
			{
				ID: "alpha", Type: SSE, URL: "https://example.com/sse",
				Headers: map[string]string{"Authorization": "Bearer t0ken"},
				Enabled: &off, TimeoutMs: 1000, MaxConcurrency: 2,
				AllowTools: []string{"read"}, DenyTools: []string{"write"}, ProtocolVersion: "2025-11-25",
				Extra: map[string]json.RawMessage{"unknown": json.RawMessage(`null`)},
			},
			{ID: "mid", URL: "http://localhost:3000/mcp"},
		},
		Extra: map[string]json.RawMessage{
			"$schema": json.RawMessage(`"https://example.com/schema.json"`),
			"other":   json.RawMessage(`{"nested":true}`),
		},
	}
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadSample(t *testing.T) {
	path := writeTemp(t, "mcp.config.json", sampleConfig)
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := sampleWant(); !reflect.DeepEqual(cfg, want) {
		t.Fatalf("Load:\n got %#v\nwant %#v", cfg, want)
	}
}

func TestRoundTrip(t *testing.T) {
	cases := map[string]string{
		"sample":             sampleConfig,
		"empty":              `{}`,
		"only extras":        `{"a": 1, "mcpServers": {}, "b": [true, {"c": "d"}]}`,
		"server extras only": `{"mcpServers": {"s": {"command": "x", "z": 1, "a": {"deep": [1, 2]}}}}`,
		"escapes":            `{"mcpServers": {"s": {"command": "c:\\prog\\x.exe", "args": ["a\"b", "\u00e9", "<tag>&"], "env": {"K": "\n"}, "k\u00e9y": "v"}}}`,
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			path := writeTemp(t, "mcp.config.json", content)
			first, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := WriteFile(path, first); err != nil {
				t.Fatal(err)
			}
			written, _ := os.ReadFile(path)
			second, err := Load(path)
			if err != nil {
				t.Fatalf("reload: %v\n%s", err, written)
			}
			if !reflect.DeepEqual(first, second) {
				t.Fatalf("round trip changed the config:\nfirst  %#v\nsecond %#v\nfile:\n%s", first, second, written)
			}
			// Writing what was read back is byte-stable.
			if err := WriteFile(path, second); err != nil {
				t.Fatal(err)
			}
			again, _ := os.ReadFile(path)
			if string(again) != string(written) {
				t.Fatalf("second write differs:\n%s\n---\n%s", written, again)
			}
		})
	}
}

func TestRoundTripKeepsServerOrder(t *testing.T) {
	path := writeTemp(t, "mcp.config.json", sampleConfig)
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, cfg); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	z, a, m := strings.Index(string(data), `"zeta"`), strings.Index(string(data), `"alpha"`), strings.Index(string(data), `"mid"`)
	if !(z >= 0 && z < a && a < m) {
		t.Fatalf("servers out of file order:\n%s", data)
	}
}

func TestLoadMissingAndEmpty(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, content string
		create        bool
	}{
		{"missing.json", "", false},
		{"empty.json", "", true},
		{"blank.json", " \n\t\n", true},
		{"comment.json", "// nothing yet\n", true},
		{"bom.json", "\ufeff{\"mcpServers\": {}}", true},
	} {
		path := filepath.Join(dir, c.name)
		if c.create {
			os.WriteFile(path, []byte(c.content), 0o600)
		}
		cfg, err := Load(path)
		if err != nil || cfg == nil || len(cfg.Servers) != 0 {
			t.Errorf("%s: cfg %+v, err %v", c.name, cfg, err)
		}
	}
}

func TestLoadReadError(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(dir) // a directory
	if err == nil || !strings.Contains(err.Error(), dir) {
		t.Fatalf("err = %v, want one naming %s", err, dir)
	}
}

func TestParseErrors(t *testing.T) {
	const file = "mcp.config.json"
	cases := []struct {
		name    string
		content string
		want    []string // substrings, the first is the location
		notWant []string
	}{
		{
			name:    "syntax error",
			content: "{\n  \"mcpServers\": {\n    \"fs\": {\"command\": }\n  }\n}",
			want:    []string{file + ":3:23: ", "invalid character '}' looking for beginning of value"},
		},
		{
			name:    "syntax error on one line",
			content: `{"mcpServers": {"good": {"command": }}}`,
			want:    []string{file + ":1:37: ", "invalid character '}'"},
		},
		{
			name:    "empty member",
			content: "{\n  \"mcpServers\": {,}\n}",
			want:    []string{file + ":2:18: "},
		},
		{
			name:    "truncated",
			content: "{\"mcpServers\": {\n",
			want:    []string{file + ":1:", "unexpected end of JSON input"},
		},
		{
			name:    "columns count characters",
			content: "{\"mcpServers\": {\"é\": {\"command\": x}}}",
			want:    []string{file + ":1:34: "},
		},
		{
			name:    "unterminated comment",
			content: "{\n  /* servers\n  \"mcpServers\": {}\n}",
			want:    []string{file + ":2:3: ", "comment is not closed"},
		},
		{
			name:    "unknown type",
			content: "{\"mcpServers\": {\n  \"fs\": {\"type\": \"carrier\", \"command\": \"npx\"}\n}}",
			want:    []string{file + ":2:18: ", `server "fs": field "type": must be stdio, http or sse, not "carrier"`},
		},
		{
			name:    "missing command",
			content: `{"mcpServers": {"fs": {"args": ["-y", "x"]}}}`,
			want:    []string{file + ":1:17: ", `server "fs": field "command": missing: a stdio server needs "command"`},
		},
		{
			name:    "blank command",
			content: `{"mcpServers": {"fs": {"command": "  "}}}`,
			want:    []string{file + ":1:35: ", `server "fs": field "command": must not be blank`},
		},
		{
			name:    "stdio type with a url",
			content: `{"mcpServers": {"fs": {"type": "stdio", "url": "https://x.example"}}}`,
			want:    []string{`server "fs": field "command": missing: "type" is "stdio" but only "url" is set`},
		},
		{
			name:    "windsurf serverUrl in our file",
			content: `{"mcpServers": {"w": {"serverUrl": "https://x.example/mcp"}}}`,
			want:    []string{`server "w": field "command": missing`, `"serverUrl" is Windsurf's name`},
		},
		{
			name:    "missing url",
			content: `{"mcpServers": {"remote": {"type": "http"}}}`,
			want:    []string{file + ":1:17: ", `server "remote": field "url": missing: "type" is "http"`},
		},
		{
			name:    "http type with a command",
			content: `{"mcpServers": {"remote": {"type": "sse", "command": "npx"}}}`,
			want:    []string{`server "remote": field "url": missing: "type" is "sse", which connects to "url"`},
		},
		{
			name:    "url without http",
			content: `{"mcpServers": {"remote": {"url": "ftp://user:hunter2@files.example/mcp"}}}`,
			want:    []string{file + ":1:35: ", `server "remote": field "url": must be an http:// or https:// URL with a host`, `ftp://user:***@files.example/mcp`},
			notWant: []string{"hunter2"},
		},
		{
			name:    "url without host",
			content: `{"mcpServers": {"remote": {"url": "https:///mcp"}}}`,
			want:    []string{`server "remote": field "url": must be an http:// or https:// URL with a host`},
		},
		{
			name:    "unparseable url",
			content: `{"mcpServers": {"remote": {"url": "http://us:s3cret@x y/"}}}`,
			want:    []string{`server "remote": field "url": must be an http:// or https:// URL with a host: `},
			notWant: []string{"s3cret"},
		},
		{
			name:    "command and url",
			content: `{"mcpServers": {"both": {"command": "npx", "url": "https://x.example/mcp"}}}`,
			want:    []string{`server "both": field "url": set either "command"`, "not both"},
		},
		{
			name:    "duplicate server id",
			content: "{\"mcpServers\": {\n    \"fs\": {\"command\": \"a\"},\n    \"fs\": {\"command\": \"b\"}\n}}",
			want:    []string{file + ":3:5: ", `server "fs": this server id is used twice (first at 2:5)`},
		},
		{
			name:    "duplicate field",
			content: "{\"mcpServers\": {\"fs\": {\n  \"command\": \"a\",\n  \"command\": \"b\"}}}",
			want:    []string{file + ":3:3: ", `server "fs": field "command": appears twice (first at 2:3)`},
		},
		{
			name:    "duplicate env name",
			content: `{"mcpServers": {"fs": {"command": "a", "env": {"K": "1", "K": "2"}}}}`,
			want:    []string{`server "fs": field "env": key "K" appears twice`},
			notWant: []string{`"1"`, `"2"`},
		},
		{
			name:    "duplicate top-level key",
			content: "{\"mcpServers\": {},\n\"mcpServers\": {}}",
			want:    []string{file + ":2:1: ", `field "mcpServers": appears twice (first at 1:2)`},
		},
		{
			name:    "invalid id",
			content: `{"mcpServers": {"my server": {"command": "npx"}}}`,
			want:    []string{file + ":1:17: ", `server "my server": invalid server id`, `^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`},
		},
		{
			name:    "id too long",
			content: `{"mcpServers": {"` + strings.Repeat("a", 65) + `": {"command": "npx"}}}`,
			want:    []string{"invalid server id", "1 to 64"},
		},
		{
			name:    "negative timeout",
			content: `{"mcpServers": {"fs": {"command": "npx", "timeoutMs": -5}}}`,
			want:    []string{file + ":1:55: ", `server "fs": field "timeoutMs": must not be negative, not -5`},
		},
		{
			name:    "huge timeout",
			content: `{"mcpServers": {"fs": {"command": "npx", "timeoutMs": 99999999999999999999}}}`,
			want:    []string{`server "fs": field "timeoutMs": 99999999999999999999 is too large`},
		},
		{
			name:    "fractional timeout",
			content: `{"mcpServers": {"fs": {"command": "npx", "timeoutMs": 1.5}}}`,
			want:    []string{`server "fs": field "timeoutMs": must be a whole number, not 1.5`},
		},
		{
			name:    "timeout as string",
			content: `{"mcpServers": {"fs": {"command": "npx", "timeoutMs": "1000"}}}`,
			want:    []string{`server "fs": field "timeoutMs": must be a number, not a string`},
		},
		{
			name:    "negative concurrency",
			content: `{"mcpServers": {"fs": {"command": "npx", "maxConcurrency": -1}}}`,
			want:    []string{`server "fs": field "maxConcurrency": must not be negative, not -1`},
		},
		{
			name:    "args not an array",
			content: `{"mcpServers": {"fs": {"command": "npx", "args": "-y pkg"}}}`,
			want:    []string{file + ":1:50: ", `server "fs": field "args": must be an array of strings`, "not a string"},
		},
		{
			name:    "args item not a string",
			content: `{"mcpServers": {"fs": {"command": "npx", "args": ["--port", 8080]}}}`,
			want:    []string{file + ":1:61: ", `server "fs": field "args": item 2 must be a string, not a number (put the value in double quotes)`},
		},
		{
			name:    "env not an object",
			content: `{"mcpServers": {"fs": {"command": "npx", "env": ["A=1"]}}}`,
			want:    []string{`server "fs": field "env": must be an object of names and string values`, "not an array"},
		},
		{
			name:    "env value not a string",
			content: `{"mcpServers": {"fs": {"command": "npx", "env": {"PORT": 31337}}}}`,
			want:    []string{file + ":1:58: ", `server "fs": field "env": the value of "PORT" must be a string, not a number`},
			notWant: []string{"31337"},
		},
		{
			name:    "headers value not a string",
			content: `{"mcpServers": {"r": {"url": "https://x.example", "headers": {"X-Retry": true}}}}`,
			want:    []string{`server "r": field "headers": the value of "X-Retry" must be a string, not a boolean`},
		},
		{
			name:    "bad header name",
			content: `{"mcpServers": {"r": {"url": "https://x.example", "headers": {"X Key": "v"}}}}`,
			want:    []string{`server "r": field "headers": "X Key" is not a valid HTTP header name`},
		},
		{
			name:    "bad env name",
			content: `{"mcpServers": {"fs": {"command": "npx", "env": {"A=B": "v"}}}}`,
			want:    []string{`server "fs": field "env": variable name "A=B" is not valid`},
		},
		{
			name:    "enabled not a boolean",
			content: `{"mcpServers": {"fs": {"command": "npx", "enabled": "yes"}}}`,
			want:    []string{`server "fs": field "enabled": must be true or false, not a string`},
		},
		{
			name:    "bad protocol version",
			content: `{"mcpServers": {"fs": {"command": "npx", "protocolVersion": "latest"}}}`,
			want:    []string{`server "fs": field "protocolVersion": must be a protocol revision`},
		},
		{
			name:    "top level not an object",
			content: "\n  [1, 2]",
			want:    []string{file + ":2:3: ", "the file must hold one JSON object", "not an array"},
		},
		{
			name:    "top level null",
			content: "null",
			want:    []string{file + ":1:1: ", "not null"},
		},
		{
			name:    "mcpServers not an object",
			content: `{"mcpServers": ["fs"]}`,
			want:    []string{file + ":1:16: ", `field "mcpServers": must be an object that maps each server id to its settings, not an array`},
		},
		{
			name:    "server not an object",
			content: `{"mcpServers": {"fs": "npx -y pkg"}}`,
			want:    []string{file + ":1:23: ", `server "fs": must be an object with "command"`},
		},
		{
			name:    "case typo in a field",
			content: `{"mcpServers": {"fs": {"command": "npx", "Args": []}}}`,
			want:    []string{`server "fs": field "Args": unknown field; did you mean "args"?`},
		},
		{
			name:    "case typo at the top",
			content: `{"MCPServers": {}}`,
			want:    []string{file + ":1:16: ", `field "MCPServers": unknown field; did you mean "mcpServers"?`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeTemp(t, file, c.content)
			cfg, err := Load(path)
			if err == nil {
				t.Fatalf("no error; cfg %+v", cfg)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, filepath.Dir(path)) {
				t.Errorf("error does not start with the file's path: %q", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q\n does not contain %q", msg, w)
				}
			}
			for _, nw := range c.notWant {
				if strings.Contains(msg, nw) {
					t.Errorf("error %q\n must not contain %q", msg, nw)
				}
			}
			if len(Problems(err)) == 0 {
				t.Errorf("error holds no *Error: %#v", err)
			}
		})
	}
}

func TestParseReportsEveryProblemOnItsOwnLine(t *testing.T) {
	content := `{"mcpServers": {
  "a": {"type": "carrier", "command": "x"},
  "b": {"command": "x", "timeoutMs": -1, "env": {"K": 1}},
  "c d": {"url": "https://x.example"}
}}`
	path := writeTemp(t, "mcp.config.json", content)
	_, err := Load(path)
	ps := Problems(err)
	if len(ps) != 4 {
		t.Fatalf("want 4 problems, got %d: %v", len(ps), err)
	}
	want := []struct {
		server, field string
		line          int
	}{{"a", "type", 2}, {"b", "timeoutMs", 3}, {"b", "env", 3}, {"c d", "", 4}}
	for i, w := range want {
		p := ps[i]
		if p.File != path || p.Server != w.server || p.Field != w.field || p.Line != w.line || p.Col == 0 {
			t.Errorf("problem %d = %+v, want server %q field %q line %d", i, p, w.server, w.field, w.line)
		}
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		if !strings.HasPrefix(line, path+":") {
			t.Errorf("line does not stand alone: %q", line)
		}
	}
	var e *Error
	if !errors.As(err, &e) || e.Server != "a" {
		t.Errorf("errors.As found %+v", e)
	}
}

func TestParseCapsProblems(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"mcpServers": {`)
	for i := range 50 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"s` + strings.Repeat("x", i) + `": {}`)
	}
	b.WriteString(`}}`)
	_, err := Parse("f.json", []byte(b.String()))
	ps := Problems(err)
	if len(ps) != maxProblems+1 || !strings.Contains(ps[maxProblems].Msg, "more problems") {
		t.Fatalf("got %d problems", len(ps))
	}
}

func TestErrorFormat(t *testing.T) {
	cases := []struct {
		err  Error
		want string
	}{
		{Error{File: "/p/mcp.config.json", Server: "fs", Field: "type", Msg: "bad"}, `/p/mcp.config.json: server "fs": field "type": bad`},
		{Error{File: "f.json", Line: 3, Col: 17, Msg: "bad"}, `f.json:3:17: bad`},
		{Error{Field: "mcpServers", Msg: "bad"}, `field "mcpServers": bad`},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		cfg  *Config
		want string // "" for valid
	}{
		{"nil", nil, "no configuration given"},
		{"empty", &Config{}, ""},
		{"ok", &Config{Servers: []Server{{ID: "a", Command: "x"}, {ID: "b", URL: "https://x.example"}}}, ""},
		{"duplicate", &Config{Servers: []Server{{ID: "a", Command: "x"}, {ID: "a", Command: "y"}}}, `cfg.json: server "a": this server id is used twice (servers 1 and 2)`},
		{"empty id", &Config{Servers: []Server{{Command: "x"}}}, "invalid server id"},
		{"known field in Extra", &Config{Servers: []Server{{ID: "a", Command: "x", Extra: map[string]json.RawMessage{"command": json.RawMessage(`"y"`)}}}}, `server "a": field "command": must not be in Server.Extra`},
		{"bad Extra JSON", &Config{Servers: []Server{{ID: "a", Command: "x", Extra: map[string]json.RawMessage{"z": json.RawMessage(`{`)}}}}, `field "z": the value kept in Server.Extra is not valid JSON`},
		{"mcpServers in Extra", &Config{Extra: map[string]json.RawMessage{"mcpServers": json.RawMessage(`{}`)}}, `field "mcpServers": must not be in Config.Extra`},
		{"NUL", &Config{Servers: []Server{{ID: "a", Command: "x", Args: []string{"a\x00"}}}}, `field "args": item 1 must not contain a NUL`},
		{"header line break", &Config{Servers: []Server{{ID: "a", URL: "https://x.example", Headers: map[string]string{"A": "x\r\nInjected: 1"}}}}, `must not contain line breaks`},
		{"empty tool name", &Config{Servers: []Server{{ID: "a", Command: "x", DenyTools: []string{"a", ""}}}}, `field "denyTools": item 2 is empty`},
	}
	for _, c := range cases {
		err := Validate("cfg.json", c.cfg)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestEffective(t *testing.T) {
	cases := []struct {
		s    Server
		want Transport
	}{
		{Server{Command: "x"}, Stdio},
		{Server{URL: "https://x"}, HTTP},
		{Server{URL: "https://x", Type: SSE}, SSE},
		{Server{}, Stdio},
	}
	for _, c := range cases {
		if got := c.s.Effective(); got != c.want {
			t.Errorf("%+v: got %s, want %s", c.s, got, c.want)
		}
	}
}
