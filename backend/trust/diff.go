package trust

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Span is one piece of a word-level text diff: text both versions share,
// text only the new one has, or text only the old one had.
type Span struct {
	Op   string `json:"op" ts_type:"'equal' | 'insert' | 'delete'"`
	Text string `json:"text"`
}

// The operations of a Span.
const (
	OpEqual  = "equal"
	OpInsert = "insert"
	OpDelete = "delete"
)

// Limits of the diffs, for hostile inputs.
const (
	maxDiffText    = 64 << 10 // bytes of a text compared word by word
	maxDiffTime    = 500 * time.Millisecond
	maxChanges     = 200 // SchemaChanges listed
	maxDepth       = 64
	maxChangeValue = 2000 // bytes of a before/after value shown
)

// DiffText compares two texts word by word (words, runs of space and
// single punctuation marks are the units). Texts longer than 64 KB are
// shown as a whole deletion and insertion, cut short.
func DiffText(before, after string) []Span {
	if before == after {
		if before == "" {
			return nil
		}
		return []Span{{OpEqual, before}}
	}
	if len(before) > maxDiffText || len(after) > maxDiffText {
		var out []Span
		if before != "" {
			out = append(out, Span{OpDelete, clipBytes(before, maxDiffText)})
		}
		if after != "" {
			out = append(out, Span{OpInsert, clipBytes(after, maxDiffText)})
		}
		return out
	}
	// Each distinct word becomes one rune, the diff runs over the runes,
	// and the runes become words again (the library's line mode, by word).
	var words []string
	ids := map[string]rune{}
	encode := func(s string) []rune {
		var out []rune
		for _, w := range splitWords(s) {
			r, ok := ids[w]
			if !ok {
				r = runeFor(len(words))
				ids[w] = r
				words = append(words, w)
			}
			out = append(out, r)
		}
		return out
	}
	a, b := encode(before), encode(after)
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = maxDiffTime
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMainRunes(a, b, false))
	out := make([]Span, 0, len(diffs))
	for _, d := range diffs {
		var text strings.Builder
		for _, r := range d.Text {
			text.WriteString(words[indexOf(r)])
		}
		op := OpEqual
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = OpInsert
		case diffmatchpatch.DiffDelete:
			op = OpDelete
		}
		if n := len(out); n > 0 && out[n-1].Op == op {
			out[n-1].Text += text.String()
			continue
		}
		out = append(out, Span{op, text.String()})
	}
	return out
}

// runeFor maps a word index to a valid rune, skipping the surrogates.
func runeFor(i int) rune {
	r := rune(i) + 1
	if r >= 0xD800 {
		r += 0x800
	}
	return r
}

func indexOf(r rune) int {
	if r >= 0xE000 {
		r -= 0x800
	}
	return int(r) - 1
}

// splitWords cuts s into words (letters and digits), runs of space, and
// single other characters; joined, they give s back.
func splitWords(s string) []string {
	var out []string
	kind := func(r rune) int {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			return 1
		case unicode.IsSpace(r):
			return 2
		}
		return 3
	}
	start, prev := 0, 0
	for i, r := range s {
		k := kind(r)
		if i > start && (k != prev || k == 3) {
			out = append(out, s[start:i])
			start = i
		}
		prev = k
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// SchemaChange is one difference between two JSON documents, such as two
// versions of an input schema.
type SchemaChange struct {
	// Path says where: "properties.notes.description", "required[1]";
	// "" is the whole document.
	Path string `json:"path"`
	Op   string `json:"op" ts_type:"'added' | 'removed' | 'changed'"`
	// Before and After are the old and new values as JSON text (cut at
	// 2000 bytes); Before is empty when added, After when removed.
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	// Text is a word diff when both values are strings.
	Text []Span `json:"text,omitempty"`
}

// The operations of a SchemaChange.
const (
	SchemaAdded   = "added"
	SchemaRemoved = "removed"
	SchemaChanged = "changed"
)

// DiffJSON lists how after differs from before, member by member (object
// keys sorted, array items by position), at most 200 changes. Text that
// is not JSON counts as one string.
func DiffJSON(before, after json.RawMessage) []SchemaChange {
	d := jsonDiff{}
	d.walk(decodeJSON(before), decodeJSON(after), "", 0)
	return d.out
}

type jsonDiff struct{ out []SchemaChange }

func decodeJSON(raw json.RawMessage) any {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	return v
}

func (d *jsonDiff) add(c SchemaChange) {
	if len(d.out) < maxChanges {
		d.out = append(d.out, c)
	}
}

func (d *jsonDiff) walk(a, b any, path string, depth int) {
	if len(d.out) >= maxChanges || reflect.DeepEqual(a, b) {
		return
	}
	switch {
	case a == nil:
		d.add(SchemaChange{Path: path, Op: SchemaAdded, After: valueText(b)})
		return
	case b == nil:
		d.add(SchemaChange{Path: path, Op: SchemaRemoved, Before: valueText(a)})
		return
	}
	if depth < maxDepth {
		am, aok := a.(map[string]any)
		bm, bok := b.(map[string]any)
		if aok && bok {
			keys := make([]string, 0, len(am)+len(bm))
			for k := range am {
				keys = append(keys, k)
			}
			for k := range bm {
				if _, ok := am[k]; !ok {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			for _, k := range keys {
				d.walk(am[k], bm[k], joinPath(path, k), depth+1)
			}
			return
		}
		as, aok := a.([]any)
		bs, bok := b.([]any)
		if aok && bok {
			for i := range max(len(as), len(bs)) {
				var x, y any
				if i < len(as) {
					x = as[i]
				}
				if i < len(bs) {
					y = bs[i]
				}
				d.walk(x, y, path+"["+strconv.Itoa(i)+"]", depth+1)
			}
			return
		}
	}
	c := SchemaChange{Path: path, Op: SchemaChanged, Before: valueText(a), After: valueText(b)}
	if x, ok := a.(string); ok {
		if y, ok := b.(string); ok {
			c.Text = DiffText(x, y)
		}
	}
	d.add(c)
}

// valueText renders a decoded JSON value as compact JSON, cut short.
func valueText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return clipBytes(strings.TrimRight(buf.String(), "\n"), maxChangeValue)
}

// clipBytes cuts s to at most n bytes at a character boundary, ending
// with "…" when cut.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
