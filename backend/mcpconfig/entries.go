package mcpconfig

import (
	"sort"
	"unicode/utf8"

	"mcpdesk/backend/usererr"
)

// Importing is not all or nothing (issue 12, point 7): ReadImport reads a
// file entry by entry, so that a mistake in one server keeps only that
// server out. Only a file that is not JSON, or holds no server list, fails
// as a whole.

// Entry is one server of a file to import, read on its own.
type Entry struct {
	// Server is what was read of the entry. When the entry has problems it
	// may be incomplete, and it must not be imported.
	Server Server
	// Line and Col are the 1-based position of the entry's id in the file
	// (Col counts characters).
	Line, Col int
	// Problems say what is wrong with the entry, in file order, each with
	// its own position; none when the entry can be imported. At most
	// maxProblems are listed for one entry.
	Problems []*Error
}

// Valid reports whether the entry can be imported.
func (e Entry) Valid() bool { return len(e.Problems) == 0 }

// MaxImportEntries bounds the servers of one file to import: configs list
// a few dozen, and a preview of every entry — broken ones included — must
// stay quick to read and to show (a 4 MB file could otherwise hold half a
// million tiny broken entries).
const MaxImportEntries = 5000

// ReadImport reads the MCP configuration of another client (or our own),
// recognised as DetectAndParse describes, entry by entry: every server of
// the file is an Entry, with its own problems when it cannot be imported.
// It fails as a whole only when the file is not JSON(C), when it holds no
// server list ("mcpServers", or "servers" for VS Code) or that list is not
// an object, when the list appears twice, or when it holds more than
// MaxImportEntries servers; that error has the file's line and column too.
//
// In other clients' files, ids are made valid as DetectAndParse does: the
// importable entries first, so that a broken entry never pushes a good
// one to "-2". Our own format is strict: an invalid id is a problem of
// its entry.
func ReadImport(path string, data []byte) (format string, entries []Entry, err error) {
	doc, err := readDocument(path, data)
	if err != nil {
		return "", nil, err
	}
	notFound := &Error{File: path, Line: 1, Col: 1, Msg: `no MCP servers found: expected a "mcpServers" object (Claude Desktop, Cursor, Windsurf, Cline, MCP Desk) or a "servers" object (VS Code)`,
		Code: usererr.ConfigNoServers}
	if doc.root < 0 || doc.json[doc.root] != '{' {
		if doc.root >= 0 {
			notFound.Line, notFound.Col = position(doc.src, doc.root)
		}
		return "", nil, notFound
	}
	notFound.Line, notFound.Col = position(doc.src, doc.root)
	d := newDecoder(path, doc, imported)
	top := objectMembers(doc.json, doc.root)
	var list member
	switch {
	case d.find(top, "mcpServers", "", &list):
		format = formatByName(path)
		if format == FormatMCPDesk {
			d.mode = ours
		}
	case d.find(top, "servers", "", &list):
		format = FormatVSCode
	case d.find(top, "mcp", "", &list) && list.val[0] == '{' && d.find(objectMembers(doc.json, list.valOff), "servers", "mcp", &list):
		format = FormatVSCode
	default:
		if err := d.p.err(); err != nil {
			return "", nil, err
		}
		return "", nil, notFound
	}
	d.format = format
	if err := d.p.err(); err != nil {
		return format, nil, err // the list appears twice: which one counts is not clear
	}
	entries, err = d.entries(list)
	if err != nil {
		return format, nil, err
	}
	if d.mode == imported {
		makeEntryIDsValid(entries)
	}
	return format, entries, nil
}

// entries reads the server list m one entry at a time, each with problems
// of its own.
func (d *decoder) entries(m member) ([]Entry, error) {
	switch m.val[0] {
	case 'n':
		return nil, nil
	case '{':
	default:
		d.p.add(m.valOff, "", m.key, "must be an object that maps each server id to its settings, not %s", kindOf(m.val)).
			with(usererr.ConfigServersNotObject, usererr.Params{"kind": kindWord(m.val)})
		return nil, d.p.err()
	}
	members := objectMembers(d.doc.json, m.valOff)
	if len(members) > MaxImportEntries {
		d.p.add(m.valOff, "", m.key, "holds %d servers; import at most %d at a time (split the file)", len(members), MaxImportEntries).
			with(usererr.ConfigTooManyServers, usererr.Params{"count": len(members), "max": MaxImportEntries})
		return nil, d.p.err()
	}
	index := newPositions(d.doc.src)
	file := d.p
	defer func() { d.p = file }()
	out := make([]Entry, 0, len(members))
	seen := make(map[string]int, len(members))
	for _, sm := range members {
		p := &problems{file: file.file, src: file.src, index: index}
		d.p = p
		e := Entry{Server: Server{ID: sm.key}}
		e.Line, e.Col = index.at(sm.keyOff)
		first, dup := seen[sm.key]
		switch {
		case dup:
			p.add(sm.keyOff, sm.key, "", "this server id is used twice (first at %s); server ids must be unique, so this one is not imported", p.at(first)).
				with(usererr.ConfigServerTwice, usererr.Params{"first": p.at(first)})
		case sm.val[0] != '{':
			p.add(sm.valOff, sm.key, "", `must be an object with "command" (a local program) or "url" (a remote server), not %s`, kindOf(sm.val)).
				with(usererr.ConfigServerNotObject, usererr.Params{"kind": kindWord(sm.val)})
		default:
			srv, loc := d.server(sm)
			e.Server = srv
			at := func(field string) int {
				if off, ok := loc.fields[field]; ok {
					return off
				}
				return loc.key
			}
			validateServer(p, srv, at, func(field string) bool { return loc.bad[field] }, d.mode == ours)
		}
		if !dup {
			seen[sm.key] = sm.keyOff
		}
		p.sort()
		e.Problems = p.list
		out = append(out, e)
	}
	return out, nil
}

// makeEntryIDsValid makes the ids of other clients' entries valid and
// unique (see makeIDsValid), the importable entries first.
func makeEntryIDsValid(entries []Entry) {
	ids := make([]*string, 0, len(entries))
	for _, valid := range []bool{true, false} {
		for i := range entries {
			if entries[i].Valid() == valid {
				ids = append(ids, &entries[i].Server.ID)
			}
		}
	}
	validIDs(ids)
}

// positions finds the line and column of byte offsets in a text quickly:
// the start of every line is known, and the number of characters before
// a mark every markEvery bytes, so that no lookup reads more than one
// line's start and one stretch between marks. A minified file of a few
// megabytes on one line, with an entry every few bytes, is read once.
type positions struct {
	src   []byte
	lines []int  // offset of the start of each line
	marks []mark // in increasing offset
}

// mark is a rune boundary and the number of runes before it.
type mark struct{ off, runes int }

const markEvery = 256

// newPositions indexes src.
func newPositions(src []byte) *positions {
	p := &positions{src: src, lines: []int{0}}
	runes, next := 0, markEvery
	for i := 0; i < len(src); runes++ {
		if i >= next {
			p.marks = append(p.marks, mark{off: i, runes: runes})
			next = i + markEvery
		}
		if c := src[i]; c < utf8.RuneSelf {
			if c == '\n' {
				p.lines = append(p.lines, i+1)
			}
			i++
			continue
		}
		_, w := utf8.DecodeRune(src[i:])
		i += w
	}
	return p
}

// at returns the 1-based line and column (in characters) of byte offset
// off, as position does. off must be at a rune boundary, as every offset
// of a JSON token is.
func (p *positions) at(off int) (line, col int) {
	off = max(0, min(off, len(p.src)))
	line = sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > off })
	return line, p.runesBefore(off) - p.runesBefore(p.lines[line-1]) + 1
}

// runesBefore returns the number of runes in src[:off].
func (p *positions) runesBefore(off int) int {
	k := sort.Search(len(p.marks), func(i int) bool { return p.marks[i].off > off }) - 1
	from, n := 0, 0
	if k >= 0 {
		from, n = p.marks[k].off, p.marks[k].runes
	}
	return n + utf8.RuneCount(p.src[from:off])
}
