package mcpconfig

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// middleBad is a Claude Desktop file whose second of three servers has a
// mistake; the others are fine.
const middleBad = `{
  "mcpServers": {
    "first": {"command": "npx", "args": ["-y", "a"]},
    "broken": {
      "command": "npx",
      "args": "-y b"
    },
    "last": {"url": "https://mcp.example.com/mcp"}
  }
}`

// deepBad has a type error deep inside an entry, after a multi-byte
// character on the same line (columns count characters, not bytes).
const deepBad = `{"mcpServers": {
  "ok": {"command": "uvx"},
  "deep": {
    "command": "node",
    "env": {
      "GREETING": "héllo", "PORT": 8080
    }
  }
}}`

// TestReadImportEntries: every entry is read on its own; a bad one has its
// problems at the right place and the others are importable.
func TestReadImportEntries(t *testing.T) {
	type want struct {
		id        string
		line, col int
		problems  []string // "line:col: field: message start"; none: valid
	}
	cases := []struct {
		name, path, data string
		want             []want
	}{
		{"bad entry in the middle", "/x/claude_desktop_config.json", middleBad, []want{
			{"first", 3, 5, nil},
			{"broken", 4, 5, []string{`6:15: args: must be an array of strings`}},
			{"last", 8, 5, nil},
		}},
		{"type error deep in an entry", "/x/.cursor/mcp.json", deepBad, []want{
			{"ok", 2, 3, nil},
			{"deep", 3, 3, []string{`6:36: env: the value of "PORT" must be a string, not a number (put the value in double quotes)`}},
		}},
		{"entry not an object", "/x/mcp.json", "{\"servers\": {\n \"a\": {\"command\": \"x\"},\n \"b\": 5}}", []want{
			{"a", 2, 2, nil},
			{"b", 3, 2, []string{`3:7: : must be an object with "command"`}},
		}},
		{"several problems in one entry, in file order", "/x/mcp.json", `{"servers": {"s": {"type": "websocket", "timeout": 5, "args": [1]}}}`, []want{
			{"s", 1, 14, []string{`1:28: type: must be stdio, http or sse, not "websocket"`, `1:64: args: item 1 must be a string`}},
		}},
		{"missing command is at the entry", "/x/claude_desktop_config.json", "{\"mcpServers\": {\n  \"fs\": {\"args\": []}}}", []want{
			{"fs", 2, 3, []string{`2:3: command: missing: a stdio server needs "command"`}},
		}},
		{"the same id twice: the second is not imported", "/x/mcp.json", "{\"servers\": {\n \"a\": {\"command\": \"x\"},\n \"a\": {\"command\": \"y\"}}}", []want{
			{"a", 2, 2, nil},
			{"a", 3, 2, []string{`3:2: : this server id is used twice (first at 2:2)`}},
		}},
		{"our own file is strict about ids", "/x/mcp.config.json", `{"mcpServers": {"a b": {"command": "x"}, "ok": {"command": "y"}}}`, []want{
			{"a b", 1, 17, []string{`1:17: : invalid server id`}},
			{"ok", 1, 42, nil},
		}},
		{"other clients' ids are made valid, good entries first", "/x/cline_mcp_settings.json", `{"mcpServers": {"a/b": {"args": 1}, "a b": {"command": "y"}}}`, []want{
			{"a-b-2", 1, 17, []string{`1:17: command: missing`, `1:33: args: must be an array`}},
			{"a-b", 1, 37, nil},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, entries, err := ReadImport(c.path, []byte(c.data))
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != len(c.want) {
				t.Fatalf("%d entries, want %d: %+v", len(entries), len(c.want), entries)
			}
			for i, w := range c.want {
				e := entries[i]
				if e.Server.ID != w.id || e.Line != w.line || e.Col != w.col {
					t.Errorf("entry %d: %q at %d:%d, want %q at %d:%d", i, e.Server.ID, e.Line, e.Col, w.id, w.line, w.col)
				}
				if e.Valid() != (len(w.problems) == 0) {
					t.Errorf("entry %d: valid %v, problems %v", i, e.Valid(), e.Problems)
				}
				if len(e.Problems) != len(w.problems) {
					t.Errorf("entry %d: problems %v, want %q", i, e.Problems, w.problems)
					continue
				}
				for j, pr := range e.Problems {
					got := fmt.Sprintf("%d:%d: %s: %s", pr.Line, pr.Col, pr.Field, pr.Msg)
					if !strings.HasPrefix(got, w.problems[j]) {
						t.Errorf("entry %d problem %d: %q, want it to start with %q", i, j, got, w.problems[j])
					}
					if pr.File != c.path {
						t.Errorf("problem names file %q, want %q", pr.File, c.path)
					}
				}
			}
		})
	}
}

// TestReadImportFailsAsAWhole: only a file that is not JSON or holds no
// server list fails as a whole, and then says where.
func TestReadImportFailsAsAWhole(t *testing.T) {
	many := make([]string, MaxImportEntries+1)
	for i := range many {
		many[i] = fmt.Sprintf(`"s%d": {"command": "x"}`, i)
	}
	cases := []struct {
		name, path, data, want string
	}{
		{"invalid JSON", "/x/mcp.json", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",, }\n  }\n}", `/x/mcp.json:3:26: invalid character ','`},
		{"unclosed string", "/x/mcp.json", "{\"mcpServers\": {\"a\": {\"command\": \"x}}}", `/x/mcp.json:1:`},
		{"unclosed comment", "/x/mcp.json", "{\n /* x\n}", `/x/mcp.json:2:2: comment is not closed`},
		{"an array", "/x/mcp.json", "\n  [1]", `/x/mcp.json:2:3: no MCP servers found`},
		{"no server list", "/x/settings.json", `{"editor.fontSize": 14}`, `/x/settings.json:1:1: no MCP servers found`},
		{"empty file", "/x/mcp.json", ``, `/x/mcp.json:1:1: no MCP servers found`},
		{"list not an object", "/x/mcp.json", "{\n \"servers\": [\"a\"]}", `/x/mcp.json:2:13: field "servers": must be an object`},
		{"list twice", "/x/mcp.json", "{\"servers\": {},\n \"servers\": {\"a\": {\"command\": \"x\"}}}", `/x/mcp.json:2:2: field "servers": appears twice (first at 1:2)`},
		{"too many servers", "/x/mcp.json", `{"servers": {` + strings.Join(many, ",") + `}}`, fmt.Sprintf(`/x/mcp.json:1:13: field "servers": holds %d servers; import at most %d`, MaxImportEntries+1, MaxImportEntries)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, entries, err := ReadImport(c.path, []byte(c.data))
			if err == nil {
				t.Fatalf("no error; entries %+v", entries)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error %q, want it to start with %q", err, c.want)
			}
		})
	}
}

// TestPositionsMatchPosition: the index that finds positions quickly
// gives what reading the text from the start gives, multi-byte and
// invalid UTF-8 included.
func TestPositionsMatchPosition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "{", "\n", "é", "字", "😀", "\xff", "\xe2\x82", " ", `"`}
	for round := range 50 {
		var b strings.Builder
		for range r.IntN(3000) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		src := []byte(b.String())
		idx := newPositions(src)
		for off := range len(src) + 1 {
			if off < len(src) && src[off] >= 0x80 {
				continue // offsets of JSON tokens are ASCII
			}
			l1, c1 := position(src, off)
			l2, c2 := idx.at(off)
			if l1 != l2 || c1 != c2 {
				t.Fatalf("round %d offset %d: index says %d:%d, position %d:%d", round, off, l2, c2, l1, c1)
			}
		}
	}
}

// TestPreviewEntries: a good entry keeps its warnings beside a broken one;
// a broken one shows its position and problems, and neither shows a
// secret of the file or hidden characters.
func TestPreviewEntries(t *testing.T) {
	const key = "sk-proj-Entries0123456789abcdefghij"
	data := `{"mcpServers": {
  "good": {"command": "node", "env": {"LD_PRELOAD": "/tmp/x.so", "OPENAI_API_KEY": "` + key + `"}},
  "bad": {"command": "x", "type": "` + key + `", "roots": ["rel/` + key + `"]},
  "bidi": {"command": "x", "type": "a\u202eb", "protocolVersion": "` + strings.Repeat("9", 5000) + `"}
}}`
	_, entries, err := ReadImport("/x/claude_desktop_config.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	items := PreviewEntries([]Server{{ID: "good", Command: "old"}}, entries)
	if len(items) != 3 {
		t.Fatalf("%d items", len(items))
	}
	good, bad, bidi := items[0], items[1], items[2]
	if len(good.Problems) != 0 || good.Line != 2 || good.Col != 3 || !good.Replaces || good.Command.Text != "node" {
		t.Errorf("good entry: %+v", good)
	}
	if !hasWarning(good.Warnings, "preload") {
		t.Errorf("good entry lost its warnings: %+v", good.Warnings)
	}
	if bad.ID != "bad" || bad.Line != 3 || bad.Col != 3 || len(bad.Problems) != 2 || bad.Command.Text != "" || len(bad.Env) != 0 {
		t.Errorf("bad entry: %+v", bad)
	}
	for _, p := range bad.Problems {
		if p.Line != 3 || p.Col == 0 || p.Field == "" {
			t.Errorf("problem without a position or field: %+v", p)
		}
	}
	for _, p := range bidi.Problems {
		if strings.ContainsRune(p.Message, '\u202e') || len([]rune(p.Message)) > maxProblemText+1 {
			t.Errorf("problem text not made safe: %q", p.Message)
		}
	}
	if len(bidi.Problems) != 2 || !strings.Contains(bidi.Problems[0].Message, `[U+202E]`) && !strings.Contains(bidi.Problems[0].Message, `\u202e`) {
		t.Errorf("bidi problems: %+v", bidi.Problems)
	}
	out, _ := json.Marshal(items)
	if strings.Contains(string(out), key) || strings.Contains(string(out), "Entries0123456789") {
		t.Errorf("the preview shows the key: %s", out)
	}
}

func hasWarning(ws []Warning, code string) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}

// TestPreviewEntriesShowsBrokenIDsSafely: the id of a broken entry in our
// own format is shown as the file has it, but with characters that
// reorder or hide text made visible, and cut to a readable length.
func TestPreviewEntriesShowsBrokenIDsSafely(t *testing.T) {
	data := `{"mcpServers": {"evil\u202eexe.txt": {"command": "x"}, "` + strings.Repeat("a", 2000) + `": {"command": "x"}}}`
	_, entries, err := ReadImport("/x/mcp.config.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	items := PreviewEntries(nil, entries)
	if len(items) != 2 || len(items[0].Problems) == 0 || len(items[1].Problems) == 0 {
		t.Fatalf("items: %+v", items)
	}
	if got := items[0].ID; got != "evil[U+202E]exe.txt" {
		t.Errorf("broken id shown as %q", got)
	}
	if n := len([]rune(items[1].ID)); n > maxProblemText+1 {
		t.Errorf("a %d-character id is shown whole", n)
	}
}

// FuzzImportEntries runs arbitrary bytes through the per-entry import
// read and preview: nothing panics, every entry and problem has a
// position inside the file, a broken entry shows nothing it would run,
// every shown text is safe, and no secret of any entry — broken ones
// included — reaches the preview.
func FuzzImportEntries(f *testing.F) {
	for _, seed := range []struct{ name, data string }{
		{"claude_desktop_config.json", middleBad},
		{"mcp.json", deepBad},
		{"mcp.config.json", `{"mcpServers": {"a b": {"command": "x", "env": {"API_KEY": "sk-abcdefghijklmnop"}, "type": "sk-abcdefghijklmnop"}}}`},
		{"cline_mcp_settings.json", `{"mcpServers": {"github.com/a/b": {"args": 1}, "github.com/a/b": {"command": "y"}}}`},
	} {
		f.Add(seed.name, []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		_, entries, err := ReadImport(name, data)
		if err != nil {
			return
		}
		lines := strings.Count(string(data), "\n") + 1
		var servers []Server
		for _, e := range entries {
			servers = append(servers, e.Server)
			if e.Line < 1 || e.Line > lines || e.Col < 1 {
				t.Fatalf("entry %q at %d:%d, outside a file of %d lines", e.Server.ID, e.Line, e.Col, lines)
			}
			for _, p := range e.Problems {
				if p.Line < 1 || p.Line > lines || p.Col < 1 {
					t.Fatalf("problem %v outside a file of %d lines", p, lines)
				}
			}
		}
		items := PreviewEntries(nil, entries)
		if len(items) != len(entries) {
			t.Fatalf("%d items of %d entries", len(items), len(entries))
		}
		checkNoSecrets(t, name, nil, servers, items)
		for i, v := range items {
			checkShownSafe(t, v)
			if !entries[i].Valid() && (len(v.Problems) == 0 || v.Command.Text != "" || len(v.Args) != 0 || len(v.Env) != 0 || v.URL.Text != "") {
				t.Fatalf("broken entry shown as %+v", v)
			}
		}
	})
}

// BenchmarkReadImportEntries measures reading a hostile 4 MB file entry
// by entry: MaxImportEntries broken entries on one line, each with
// several mistakes, every one positioned and previewed.
func BenchmarkReadImportEntries(b *testing.B) {
	var big strings.Builder
	big.WriteString(`{"mcpServers": {`)
	for i := range MaxImportEntries {
		if i > 0 {
			big.WriteString(",")
		}
		fmt.Fprintf(&big, `"s%d": {"command": "x", "type": "bad", "args": [1, 2, 3], "env": {"A": 1, "B": 2}, "roots": ["rel"], "pad": "%s"}`, i, strings.Repeat("é", 300))
	}
	big.WriteString(`}}`)
	data := []byte(big.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		_, entries, err := ReadImport("claude_desktop_config.json", data)
		if err != nil || len(entries) != MaxImportEntries || entries[MaxImportEntries-1].Valid() {
			b.Fatalf("%d entries, %v", len(entries), err)
		}
		PreviewEntries(nil, entries)
	}
}
