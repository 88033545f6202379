package mcppool

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// partialFile has two good servers around a broken one; all are disabled,
// so importing starts nothing.
const partialFile = `{
  "mcpServers": {
    "alpha": {"command": "/opt/alpha", "disabled": true},
    "broken": {"command": "/opt/broken", "env": {"API_KEY": "sk-proj-Partial0123456789abcdef", "PORT": 8080}, "disabled": true},
    "omega": {"url": "https://mcp.example.com/mcp", "disabled": true}
  }
}`

// TestImportIsNotAllOrNothing: a file with a broken entry previews every
// entry — the broken one with its problem and where it is — imports the
// good ones, and never the broken one, even when asked for by id.
func TestImportIsNotAllOrNothing(t *testing.T) {
	p, _ := newTestPool(t)
	svc := NewService(p, nil)
	prev, err := svc.PreviewImportData("claude_desktop_config.json", partialFile)
	if err != nil {
		t.Fatalf("one broken entry failed the whole file: %v", err)
	}
	var ids []string
	for _, it := range prev.Items {
		ids = append(ids, it.ID)
	}
	if !reflect.DeepEqual(ids, []string{"alpha", "broken", "omega"}) {
		t.Fatalf("items %v", ids)
	}
	broken := prev.Items[1]
	if broken.Line != 4 || broken.Col != 5 || len(broken.Problems) != 1 {
		t.Fatalf("broken entry: %+v", broken)
	}
	if pr := broken.Problems[0]; pr.Line != 4 || pr.Col != 104 || pr.Field != "env" || !strings.Contains(pr.Message, `"PORT" must be a string`) {
		t.Errorf("problem: %+v", pr)
	}
	for _, i := range []int{0, 2} {
		if len(prev.Items[i].Problems) != 0 {
			t.Errorf("good entry %s has problems: %+v", prev.Items[i].ID, prev.Items[i].Problems)
		}
	}
	if data, _ := json.Marshal(prev); strings.Contains(string(data), "Partial0123456789") {
		t.Errorf("the preview shows the broken entry's key: %s", data)
	}

	if _, err := svc.Import(prev.Token, []string{"alpha", "broken"}); err == nil || !strings.Contains(err.Error(), `server "broken" has mistakes`) {
		t.Fatalf("importing the broken entry by id: %v", err)
	}
	if n := len(p.Config().Servers); n != 0 {
		t.Fatalf("a refused import changed the config: %d servers", n)
	}
	res, err := svc.Import(prev.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Added, []string{"alpha", "omega"}) {
		t.Fatalf("added %v, want the two good servers", res.Added)
	}
	var got []string
	for _, s := range p.Config().Servers {
		got = append(got, s.ID)
	}
	if !reflect.DeepEqual(got, []string{"alpha", "omega"}) {
		t.Fatalf("configured %v", got)
	}
}

// TestPreviewImportWholeFileErrors: a file that is not JSON, or holds no
// server list, still fails as a whole, saying where.
func TestPreviewImportWholeFileErrors(t *testing.T) {
	p, _ := newTestPool(t)
	svc := NewService(p, nil)
	cases := map[string]string{
		"{\n  \"mcpServers\": {\n    \"a\": }\n}": "bad.json:3:10: ",
		"# a README, not JSON":                    "bad.json:1:1: ",
		`{"theme": "dark"}`:                       "bad.json:1:1: no MCP servers found",
	}
	for content, want := range cases {
		if _, err := svc.PreviewImportData("bad.json", content); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("PreviewImportData(%q) = %v, want an error starting %q", content, err, want)
		}
	}
}
