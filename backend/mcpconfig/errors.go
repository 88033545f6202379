package mcpconfig

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Error is one problem with a configuration file, located precisely enough
// for a person to fix it. Parse, Load, Validate, WriteFile and
// DetectAndParse return either one *Error or several joined with
// errors.Join; errors.As finds the first, and Problems lists them all.
type Error struct {
	// File is the path of the file as the caller named it.
	File string
	// Server is the id of the server the problem is in; "" when the problem
	// is about the whole file.
	Server string
	// Field is the field the problem is in (for example "type", "env" or
	// "mcpServers"); "" when the problem is not about one field.
	Field string
	// Line and Col are the 1-based position in the file (Col counts
	// characters, not bytes); 0 when unknown, for example when Validate
	// checks a Config built in code.
	Line, Col int
	// Msg says what is wrong, and where it helps, how to fix it.
	Msg string
}

// Error formats e as `file:line:col: server "id": field "name": message`,
// leaving out the parts that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "%d:%d: ", e.Line, e.Col)
	}
	if e.Server != "" {
		fmt.Fprintf(&b, "server %q: ", e.Server)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Problems returns every *Error inside err, in order: one for a single
// problem, several for errors joined by errors.Join, none when err holds no
// *Error (for example an I/O error).
func Problems(err error) []*Error {
	var out []*Error
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if e, ok := err.(*Error); ok {
			out = append(out, e)
			return
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				walk(inner)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return out
}

// maxProblems bounds how many problems one file reports; past it the user
// is better served by fixing the first ones.
const maxProblems = 20

// problems collects the problems found in one file.
type problems struct {
	file string
	src  []byte // the text positions refer to; nil when there is none
	// index, when set, finds positions in src without reading it from the
	// start each time: a file to import is read entry by entry, and each
	// entry has a position of its own.
	index *positions
	list  []*Error
}

// position returns the line and column of byte offset off of src.
func (p *problems) position(off int) (line, col int) {
	if p.index != nil {
		return p.index.at(off)
	}
	return position(p.src, off)
}

// add records a problem at byte offset off of src (off < 0: no position).
func (p *problems) add(off int, server, field, format string, args ...any) {
	if len(p.list) > maxProblems {
		return
	}
	e := &Error{File: p.file, Server: server, Field: field, Msg: fmt.Sprintf(format, args...)}
	if len(p.list) == maxProblems {
		e = &Error{File: p.file, Msg: "more problems not shown; fix the ones above first"}
	} else if off >= 0 && p.src != nil {
		e.Line, e.Col = p.position(off)
	}
	p.list = append(p.list, e)
}

// at formats the position of byte offset off as "line:col".
func (p *problems) at(off int) string {
	if len(p.list) >= maxProblems {
		return "" // the message will not be shown: save the work
	}
	l, c := p.position(off)
	return fmt.Sprintf("%d:%d", l, c)
}

// sort puts the problems in the order they appear in the file (those
// without a position last).
func (p *problems) sort() {
	slices.SortStableFunc(p.list, func(ea, eb *Error) int {
		if (ea.Line == 0) != (eb.Line == 0) {
			return cmp.Compare(eb.Line, ea.Line) // positioned ones first
		}
		return cmp.Or(cmp.Compare(ea.Line, eb.Line), cmp.Compare(ea.Col, eb.Col))
	})
}

// err returns nil, the single problem, or all of them joined in the order
// they appear in the file (those without a position last).
func (p *problems) err() error {
	p.sort()
	switch len(p.list) {
	case 0:
		return nil
	case 1:
		return p.list[0]
	default:
		errs := make([]error, len(p.list))
		for i, e := range p.list {
			errs[i] = e
		}
		return errors.Join(errs...)
	}
}

// position returns the 1-based line and column (in characters) of byte
// offset off in src.
func position(src []byte, off int) (line, col int) {
	off = max(0, min(off, len(src)))
	line, start := 1, 0
	for i := range off {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCount(src[start:off]) + 1
}
