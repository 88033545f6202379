package mcpconfig

import (
	"encoding/json"
	"reflect"
	"testing"
)

func ids(cfg *Config) []string {
	var out []string
	for _, s := range cfg.Servers {
		out = append(out, s.ID)
	}
	return out
}

func TestMerge(t *testing.T) {
	base := &Config{
		Servers: []Server{
			{ID: "a", Command: "a1", Env: map[string]string{"K": "v"}},
			{ID: "b", Command: "b1"},
			{ID: "c", Command: "c1"},
		},
		Extra: map[string]json.RawMessage{"x": json.RawMessage(`1`)},
	}
	cases := []struct {
		name            string
		base            *Config
		in              []Server
		order           []string
		added, replaced []string
		commands        map[string]string
	}{
		{
			name:     "replace in place and append",
			base:     base,
			in:       []Server{{ID: "d", Command: "d2"}, {ID: "b", Command: "b2"}, {ID: "e", Command: "e2"}},
			order:    []string{"a", "b", "c", "d", "e"},
			added:    []string{"d", "e"},
			replaced: []string{"b"},
			commands: map[string]string{"b": "b2", "d": "d2", "a": "a1"},
		},
		{
			name:     "nothing to merge",
			base:     base,
			order:    []string{"a", "b", "c"},
			commands: map[string]string{"a": "a1"},
		},
		{
			name:     "nil base",
			in:       []Server{{ID: "x", Command: "x"}},
			order:    []string{"x"},
			added:    []string{"x"},
			commands: map[string]string{"x": "x"},
		},
		{
			name:     "repeated ids: the last wins, each listed once",
			base:     base,
			in:       []Server{{ID: "a", Command: "a2"}, {ID: "a", Command: "a3"}, {ID: "n", Command: "n1"}, {ID: "n", Command: "n2"}},
			order:    []string{"a", "b", "c", "n"},
			added:    []string{"n"},
			replaced: []string{"a"},
			commands: map[string]string{"a": "a3", "n": "n2"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			merged, added, replaced := Merge(c.base, c.in)
			if got := ids(merged); !reflect.DeepEqual(got, c.order) {
				t.Errorf("order %q, want %q", got, c.order)
			}
			if !reflect.DeepEqual(added, c.added) || !reflect.DeepEqual(replaced, c.replaced) {
				t.Errorf("added %q replaced %q, want %q %q", added, replaced, c.added, c.replaced)
			}
			for _, s := range merged.Servers {
				if want, ok := c.commands[s.ID]; ok && s.Command != want {
					t.Errorf("server %s: command %q, want %q", s.ID, s.Command, want)
				}
			}
		})
	}
	// base is untouched, and shares nothing with the result.
	if got := ids(base); !reflect.DeepEqual(got, []string{"a", "b", "c"}) || base.Servers[1].Command != "b1" {
		t.Fatalf("base modified: %+v", base.Servers)
	}
	merged, _, _ := Merge(base, nil)
	merged.Servers[0].Env["K"] = "changed"
	merged.Extra["x"][0] = '2'
	if base.Servers[0].Env["K"] != "v" || string(base.Extra["x"]) != "1" {
		t.Fatal("the merged config shares maps with base")
	}
	if !reflect.DeepEqual(merged.Extra, map[string]json.RawMessage{"x": json.RawMessage(`2`)}) {
		t.Fatalf("extra: %v", merged.Extra)
	}
}
