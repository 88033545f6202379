package naming

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var validName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// hashed matches a name that ends in the hash suffix.
var hashed = regexp.MustCompile(`_[0-9a-z]{6}$`)

func TestBuildNames(t *testing.T) {
	long := strings.Repeat("x", 200)
	cases := []struct {
		name string
		refs []Ref
		// want maps a ref to its exact name, or to "~prefix" for a hashed
		// name that must start with prefix.
		want map[Ref]string
	}{
		{
			name: "plain",
			refs: []Ref{{"github", "search_issues"}, {"fs", "read-file"}},
			want: map[Ref]string{
				{"github", "search_issues"}: "github__search_issues",
				{"fs", "read-file"}:         "fs__read-file",
			},
		},
		{
			name: "sanitised characters get a hash",
			refs: []Ref{{"server.v2", "my tool"}},
			want: map[Ref]string{{"server.v2", "my tool"}: "~server_v2__my_tool_"},
		},
		{
			name: "unicode",
			refs: []Ref{{"数据", "créer"}, {"emoji", "🚀launch"}},
			want: map[Ref]string{
				{"数据", "créer"}:      "~____cr_er_",
				{"emoji", "🚀launch"}: "~emoji___launch_",
			},
		},
		{
			name: "empty parts",
			refs: []Ref{{"", ""}, {"s", ""}},
			want: map[Ref]string{{"", ""}: "~_____", {"s", ""}: "~s____"},
		},
		{
			name: "collision after sanitising keeps the clean one plain",
			refs: []Ref{{"srv", "a.b"}, {"srv", "a_b"}},
			want: map[Ref]string{{"srv", "a_b"}: "srv__a_b", {"srv", "a.b"}: "~srv__a_b_"},
		},
		{
			name: "collision between two sanitised names",
			refs: []Ref{{"srv", "a.b"}, {"srv", "a b"}, {"srv", "a/b"}},
			want: map[Ref]string{{"srv", "a.b"}: "~srv__a_b_", {"srv", "a b"}: "~srv__a_b_", {"srv", "a/b"}: "~srv__a_b_"},
		},
		{
			name: "separator inside the server id",
			refs: []Ref{{"a__b", "c"}, {"a", "b__c"}},
			want: map[Ref]string{{"a", "b__c"}: "a__b__c", {"a__b", "c"}: "~a__b__c_"},
		},
		{
			name: "long tool keeps the start of both parts",
			refs: []Ref{{"github", long}},
			want: map[Ref]string{{"github", long}: "~github__xxxxxxxxxxxxxxxx"},
		},
		{
			name: "long server keeps the whole short tool",
			refs: []Ref{{long, "echo"}},
			want: map[Ref]string{{long, "echo"}: "~" + strings.Repeat("x", 51) + "__echo_"},
		},
		{
			name: "both long, differing only at the end",
			refs: []Ref{{long, long + "1"}, {long, long + "2"}},
			want: map[Ref]string{{long, long + "1"}: "~xxxxxxxxxxxxxxxx__xxx", {long, long + "2"}: "~xxxxxxxxxxxxxxxx__xxx"},
		},
		{
			name: "exactly 64 stays plain",
			refs: []Ref{{"s", strings.Repeat("t", 61)}},
			want: map[Ref]string{{"s", strings.Repeat("t", 61)}: "s__" + strings.Repeat("t", 61)},
		},
		{
			name: "65 is cut",
			refs: []Ref{{"s", strings.Repeat("t", 62)}},
			want: map[Ref]string{{"s", strings.Repeat("t", 62)}: "~s__ttt"},
		},
		{
			name: "duplicates collapse",
			refs: []Ref{{"a", "x"}, {"a", "x"}, {"a", "x"}},
			want: map[Ref]string{{"a", "x"}: "a__x"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tab := Build(c.refs)
			checkInvariants(t, c.refs, tab)
			if tab.Len() != len(c.want) {
				t.Fatalf("Len() = %d, want %d", tab.Len(), len(c.want))
			}
			for ref, want := range c.want {
				got, ok := tab.Name(ref)
				if !ok {
					t.Fatalf("no name for %+v", ref)
				}
				if prefix, isHashed := strings.CutPrefix(want, "~"); isHashed {
					if !strings.HasPrefix(got, prefix) || !hashed.MatchString(got) {
						t.Errorf("Name(%+v) = %q, want %q + hash", ref, got, prefix)
					}
				} else if got != want {
					t.Errorf("Name(%+v) = %q, want %q", ref, got, want)
				}
			}
		})
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	long := strings.Repeat("L", 100)
	refs := []Ref{
		{"github", "search"}, {"github", "search"}, {"git.hub", "search"}, {"git_hub", "search"},
		{"fs", "read"}, {"fs", "re ad"}, {"fs", "re.ad"}, {long, "a"}, {long, "b"},
		{"a__b", "c"}, {"a", "b__c"}, {"ü", "x"}, {"_", "x"}, {"", "x"},
	}
	want := Build(refs).Entries()
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		shuffled := slices.Clone(refs)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got := Build(shuffled).Entries()
		if !slices.Equal(got, want) {
			t.Fatalf("order changed the names:\n%v\n%v", got, want)
		}
	}
}

func TestNilAndEmptyTables(t *testing.T) {
	for name, tab := range map[string]*Table{"nil": nil, "Build(nil)": Build(nil)} {
		if _, ok := tab.Lookup("a__b"); ok {
			t.Errorf("%s: Lookup found a name", name)
		}
		if _, ok := tab.Name(Ref{"a", "b"}); ok {
			t.Errorf("%s: Name found a ref", name)
		}
		if tab.Len() != 0 || len(tab.Entries()) != 0 {
			t.Errorf("%s: not empty", name)
		}
	}
}

func TestEntriesJSON(t *testing.T) {
	data, err := json.Marshal(Build([]Ref{{"s", "t"}}).Entries())
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"name":"s__t","ref":{"server":"s","tool":"t"}}]`; string(data) != want {
		t.Fatalf("got %s, want %s", data, want)
	}
}

func TestSanitizeAndValid(t *testing.T) {
	cases := map[string]string{
		"":          "_",
		"ok-Name_9": "ok-Name_9",
		"a.b c/d":   "a_b_c_d",
		"é":         "_",
		"\xff\xfe":  "__",
	}
	for in, want := range cases {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
		if !Valid(Sanitize(in)) {
			t.Errorf("Sanitize(%q) is not Valid", in)
		}
	}
	for _, bad := range []string{"", "a.b", strings.Repeat("a", 65)} {
		if Valid(bad) {
			t.Errorf("Valid(%q) = true", bad)
		}
	}
}

// checkInvariants asserts what every table must satisfy: valid and unique
// names, both directions of lookup agreeing, every input ref present, and
// entries sorted.
func checkInvariants(t *testing.T, refs []Ref, tab *Table) {
	t.Helper()
	entries := tab.Entries()
	seen := make(map[string]bool, len(entries))
	for i, e := range entries {
		if !validName.MatchString(e.Name) {
			t.Errorf("invalid name %q for %+v", e.Name, e.Ref)
		}
		if seen[e.Name] {
			t.Errorf("duplicate name %q", e.Name)
		}
		seen[e.Name] = true
		if i > 0 && entries[i-1].Name >= e.Name {
			t.Errorf("entries not sorted: %q before %q", entries[i-1].Name, e.Name)
		}
		if r, ok := tab.Lookup(e.Name); !ok || r != e.Ref {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v", e.Name, r, ok, e.Ref)
		}
	}
	distinct := make(map[Ref]bool)
	for _, r := range refs {
		distinct[r] = true
		n, ok := tab.Name(r)
		if !ok {
			t.Errorf("no name for %+v", r)
			continue
		}
		if back, ok := tab.Lookup(n); !ok || back != r {
			t.Errorf("Lookup(Name(%+v)) = %+v, %v", r, back, ok)
		}
	}
	if tab.Len() != len(distinct) || len(entries) != len(distinct) {
		t.Errorf("Len() = %d, entries %d, want %d distinct refs", tab.Len(), len(entries), len(distinct))
	}
}

func FuzzBuild(f *testing.F) {
	f.Add("github", "search", "github", "search", "git.hub", "search")
	f.Add("srv", "a.b", "srv", "a_b", "srv", "a b")
	f.Add("a__b", "c", "a", "b__c", "", "")
	f.Add(strings.Repeat("s", 200), strings.Repeat("t", 200), strings.Repeat("s", 200), strings.Repeat("t", 199)+"u", "x", "y")
	f.Add("数据", "créer", "🚀", "launch", "\xff", "\x00")
	f.Add("s", strings.Repeat("t", 61), "s", strings.Repeat("t", 62), "s__"+strings.Repeat("t", 55), "x")
	f.Fuzz(func(t *testing.T, s1, t1, s2, t2, s3, t3 string) {
		refs := []Ref{{s1, t1}, {s2, t2}, {s3, t3}}
		tab := Build(refs)
		checkInvariants(t, refs, tab)
		// Any order gives the same table.
		slices.Reverse(refs)
		if !slices.Equal(Build(refs).Entries(), tab.Entries()) {
			t.Fatalf("order changed the names for %+v", refs)
		}
		// A name that needed no change is kept as is, unless an earlier
		// ref (in sorted order) already has it.
		exact := func(r Ref) bool {
			return r.Server != "" && r.Tool != "" && validName.MatchString(r.Server+Separator+r.Tool)
		}
		for _, r := range refs {
			plain := r.Server + Separator + r.Tool
			if !exact(r) || slices.ContainsFunc(refs, func(o Ref) bool {
				return exact(o) && compareRefs(o, r) < 0 && o.Server+Separator+o.Tool == plain
			}) {
				continue
			}
			if n, _ := tab.Name(r); n != plain {
				t.Fatalf("Name(%+v) = %q, want the plain name %q", r, n, plain)
			}
		}
	})
}
