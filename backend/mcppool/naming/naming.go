// Package naming builds the names under which MCP tools from many servers
// are offered to a model (SPEC A5).
//
// A tool is offered as <server>__<tool>. Model APIs (OpenAI, Anthropic)
// accept tool names matching ^[a-zA-Z0-9_-]{1,64}$, so both parts are
// sanitised, long names are truncated, and names that would collide get a
// short hash suffix. The result is a Table: names are built once and looked
// up in it, never split or parsed back into a server and a tool.
package naming

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
)

// MaxLen is the longest name a model API accepts.
const MaxLen = 64

// Separator joins the server part and the tool part of a name.
const Separator = "__"

// hashLen is the length of the hash suffix; a suffixed name is the
// (truncated) base, "_", and the hash.
const hashLen = 6

// minServerLen is how much of a long server id survives truncation when
// the tool name alone would fill the budget.
const minServerLen = 16

// Ref identifies one tool of one server.
type Ref struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
}

// Entry is one row of a Table: the name offered to the model and the tool
// it stands for.
type Entry struct {
	Name string `json:"name"`
	Ref  Ref    `json:"ref"`
}

// Table maps model-facing tool names to tools and back. A Table is
// immutable once built and safe for concurrent use; a nil *Table is an
// empty table.
type Table struct {
	byName  map[string]Ref
	byRef   map[Ref]string
	entries []Entry // sorted by name
}

// Build names every ref. It is deterministic: the same set of refs, in any
// order and with any duplicates, yields the same names. Every name matches
// ^[a-zA-Z0-9_-]{1,64}$ and names are unique.
//
// A ref keeps its plain name <server>__<tool> when that name is valid as
// is, unless an unchanged ref sorting before it (by server, then tool) has
// the same name ("a__b"/"c" and "a"/"b__c"). Otherwise — characters
// replaced, too long, or colliding — the name is the sanitised base, cut
// to fit, plus "_" and a 6-character base-36 hash of the ref: "my.tool"
// next to "my_tool" becomes "srv__my_tool_<hash>" while "my_tool" stays
// "srv__my_tool".
func Build(refs []Ref) *Table {
	refs = slices.Clone(refs)
	slices.SortFunc(refs, compareRefs)
	refs = slices.Compact(refs)

	t := &Table{
		byName:  make(map[string]Ref, len(refs)),
		byRef:   make(map[Ref]string, len(refs)),
		entries: make([]Entry, 0, len(refs)),
	}
	assign := func(name string, r Ref) {
		t.byName[name] = r
		t.byRef[r] = name
		t.entries = append(t.entries, Entry{Name: name, Ref: r})
	}

	// Pass 1: plain names, first come (in sorted order) first served, for
	// refs whose name needs no change at all.
	type pending struct {
		ref  Ref
		base string
	}
	var rest []pending
	for _, r := range refs {
		base, exact := plainName(r)
		if _, taken := t.byName[base]; exact && !taken {
			assign(base, r)
			continue
		}
		rest = append(rest, pending{r, base})
	}
	// Pass 2: hashed names. A clash with any name already given (a
	// vanishingly rare hash collision) is resolved by rehashing with a
	// counter, still deterministically.
	for _, p := range rest {
		for salt := 0; ; salt++ {
			name := hashedName(p.base, p.ref, salt)
			if _, taken := t.byName[name]; !taken {
				assign(name, p.ref)
				break
			}
		}
	}
	slices.SortFunc(t.entries, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return t
}

// Lookup returns the tool a name stands for.
func (t *Table) Lookup(name string) (Ref, bool) {
	if t == nil {
		return Ref{}, false
	}
	r, ok := t.byName[name]
	return r, ok
}

// Name returns the name a tool is offered under.
func (t *Table) Name(ref Ref) (string, bool) {
	if t == nil {
		return "", false
	}
	n, ok := t.byRef[ref]
	return n, ok
}

// Entries returns every name and its tool, sorted by name. The slice is
// the caller's to keep.
func (t *Table) Entries() []Entry {
	if t == nil {
		return nil
	}
	return slices.Clone(t.entries)
}

// Len returns the number of tools in the table.
func (t *Table) Len() int {
	if t == nil {
		return 0
	}
	return len(t.entries)
}

// plainName returns the sanitised <server>__<tool>, cut to fit within the
// budget left for a hash suffix if it is too long, and whether it is
// the exact, untouched name.
func plainName(r Ref) (name string, exact bool) {
	s, t := Sanitize(r.Server), Sanitize(r.Tool)
	exact = s == r.Server && t == r.Tool
	if len(s)+len(Separator)+len(t) <= MaxLen {
		return s + Separator + t, exact
	}
	// Too long: keep as much of the tool name as possible (it is what the
	// model reads), but at least minServerLen of the server id.
	budget := MaxLen - 1 - hashLen - len(Separator)
	sLen := min(len(s), max(minServerLen, budget-len(t)))
	tLen := min(len(t), budget-sLen)
	return s[:sLen] + Separator + t[:tLen], false
}

// hashedName returns base, truncated to leave room, plus "_" and a hash
// of the ref.
func hashedName(base string, r Ref, salt int) string {
	keep := MaxLen - 1 - hashLen
	if len(base) > keep {
		base = base[:keep]
	}
	return base + "_" + hash(r, salt)
}

// hash is a 6-character base-36 digest of the ref.
func hash(r Ref, salt int) string {
	h := sha256.New()
	h.Write([]byte(r.Server))
	h.Write([]byte{0})
	h.Write([]byte(r.Tool))
	if salt > 0 {
		h.Write([]byte{0})
		h.Write([]byte(strconv.Itoa(salt)))
	}
	sum := h.Sum(nil)
	const space = 36 * 36 * 36 * 36 * 36 * 36 // 36^hashLen
	v := binary.BigEndian.Uint64(sum[:8]) % space
	s := strconv.FormatUint(v, 36)
	return strings.Repeat("0", hashLen-len(s)) + s
}

// Sanitize replaces every character outside [a-zA-Z0-9_-] with "_" (one
// per character, or per byte of invalid UTF-8) and turns an empty string
// into "_".
func Sanitize(s string) string {
	if s == "" {
		return "_"
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, c := range s {
		if validChar(c) {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Valid reports whether name is acceptable to model APIs as a tool name.
func Valid(name string) bool {
	if len(name) == 0 || len(name) > MaxLen {
		return false
	}
	for _, c := range name {
		if !validChar(c) {
			return false
		}
	}
	return true
}

func validChar(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func compareRefs(a, b Ref) int {
	if c := strings.Compare(a.Server, b.Server); c != 0 {
		return c
	}
	return strings.Compare(a.Tool, b.Tool)
}
