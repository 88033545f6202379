package mcpconfig

import (
	"encoding/json"
	"slices"
	"testing"
	"unicode/utf8"
)

// FuzzImportPreview runs arbitrary bytes under arbitrary file names
// through what an import does before the user says yes: recognise the
// format, parse, and preview against configured servers (every second
// server of the file, configured differently, so that the diff runs too).
// It checks that nothing panics, that no value the masking calls secret
// reaches the preview's JSON, that every shown text is free of control,
// invisible and bidirectional characters, and that every variable the
// app's expansion would read is marked. The seed corpus in
// testdata/fuzz/FuzzImportPreview holds a real config of each format and
// a hostile one.
func FuzzImportPreview(f *testing.F) {
	for _, seed := range []struct{ name, data string }{
		{"claude_desktop_config.json", `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"API_KEY": "sk-abcdefghijklmnop"}}}}`},
		{"mcp.json", `{"servers": {"gh": {"type": "http", "url": "https://api.example.com/mcp?token=abcdefgh123", "headers": {"Authorization": "Bearer ${input:tok}"}}}}`},
		{"x.json", `{"mcpServers": {"a": {"command": "sh", "args": ["-c", "${A:-${B}}"], "env": {"PATH": "/x:${PATH}", "K": "aZ3kP9qL2mX8vN4bT7wR1yH6"}}}}`},
		{"cline_mcp_settings.json", `{"mcpServers": {"github.com/a/b": {"command": "node", "args": ["\u202e", "x\u0000"], "disabled": true}}}`},
		{"", ``},
	} {
		f.Add(seed.name, []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		format, servers, err := DetectAndParse(name, data)
		if err != nil {
			return
		}
		if format == "" {
			t.Fatalf("servers without a format: %+v", servers)
		}
		existing := configuredLike(servers)
		previews := PreviewImport(existing, servers)
		if len(previews) != len(servers) {
			t.Fatalf("%d previews of %d servers", len(previews), len(servers))
		}
		checkNoSecrets(t, name, existing, servers, previews)
		for i, v := range previews {
			s := servers[i]
			if v.ID != s.ID || v.Transport != s.Effective() || v.Replaces != (i%2 == 0) {
				t.Fatalf("preview %d is of another server: %+v\nserver %+v", i, v, s)
			}
			checkShownSafe(t, v)
			checkReadsMarked(t, s, v)
			for _, w := range v.Warnings {
				if w.Params == nil || w.String() == "" {
					t.Fatalf("warning without params or text: %+v", w)
				}
			}
		}
	})
}

// configuredLike returns servers as if every second one (0, 2, …) were
// already configured with other settings: the command, arguments, env and
// headers changed, and the other way round on or off.
func configuredLike(servers []Server) []Server {
	var out []Server
	for i, s := range servers {
		if i%2 == 1 {
			continue
		}
		old := s.clone()
		old.Command += "-old"
		slices.Reverse(old.Args)
		for k, v := range old.Env {
			old.Env[k] = "old-" + v
		}
		for k, v := range old.Headers {
			old.Headers[k] = v + "-old"
		}
		on := !enabledOf(s)
		old.Enabled = &on
		out = append(out, old)
	}
	return out
}

// checkShownSafe checks that every text of a preview is valid UTF-8 free
// of characters that hide or rearrange what is shown.
func checkShownSafe(t *testing.T, v ServerPreview) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, c := range x {
				walk(k)
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		case string:
			if !utf8.ValidString(x) || needsEscape(x) {
				t.Fatalf("the preview shows %q, with characters that hide or rearrange text", x)
			}
		}
	}
	walk(doc)
}

// checkReadsMarked checks that every variable expanding the server's
// settings reads (by shellenv, the app's own expansion) is listed in the
// preview's Reads — except those the server's env sets for its command,
// arguments and folder, which it reads from there.
func checkReadsMarked(t *testing.T, s Server, v ServerPreview) {
	t.Helper()
	var own, fromUser []string
	if v.Transport == Stdio {
		own = append(append([]string{s.Command, s.Cwd}, s.Args...), s.Roots...)
		for _, k := range sortedKeys(s.Env) {
			fromUser = append(fromUser, s.Env[k])
		}
	} else {
		fromUser = append(fromUser, s.URL)
		for _, k := range sortedKeys(s.Headers) {
			fromUser = append(fromUser, s.Headers[k])
		}
	}
	for _, text := range append(own, fromUser...) {
		checkRefsCoverExpansion(t, text)
	}
	for _, text := range fromUser {
		for _, k := range EnvRefs(text) {
			if !slices.Contains(v.Reads, k) {
				t.Fatalf("%q reads %s from the user's environment; the preview's reads are %q", text, k, v.Reads)
			}
		}
	}
	for _, text := range own {
		for _, k := range EnvRefs(text) {
			if _, set := s.Env[k]; !set && !slices.Contains(v.Reads, k) {
				t.Fatalf("%q reads %s from the user's environment; the preview's reads are %q", text, k, v.Reads)
			}
		}
	}
}
