package mcpconfig

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"mcpdesk/backend/usererr"
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
	// Msg says what is wrong, and where it helps, how to fix it, in English.
	Msg string
	// Code and Params say it again for the UI to word in the user's
	// language (usererr); Code is "" for a problem it has no words for.
	Code   usererr.Code
	Params usererr.Params
}

// UserError returns e's code and params (usererr.Coded).
func (e *Error) UserError() (usererr.Code, usererr.Params) { return e.Code, e.Params }

// with sets the code and params of e, a problem just added; e may be nil
// (a problem past maxProblems, not recorded).
func (e *Error) with(code usererr.Code, params usererr.Params) *Error {
	if e != nil && e.Msg != moreProblems {
		e.Code, e.Params = code, params
	}
	return e
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

// moreProblems is the last problem of a file with too many.
const moreProblems = "more problems not shown; fix the ones above first"

// moreProblemsError returns the problem that stands for those not shown.
func moreProblemsError(file string) *Error {
	return &Error{File: file, Msg: moreProblems, Code: usererr.ConfigMoreProblems}
}

// add records a problem at byte offset off of src (off < 0: no position)
// and returns it for with to give it a code; nil when it is not recorded.
func (p *problems) add(off int, server, field, format string, args ...any) *Error {
	if len(p.list) > maxProblems {
		return nil
	}
	e := &Error{File: p.file, Server: server, Field: field, Msg: fmt.Sprintf(format, args...)}
	if len(p.list) == maxProblems {
		e = moreProblemsError(p.file)
	} else if off >= 0 && p.src != nil {
		e.Line, e.Col = p.position(off)
	}
	p.list = append(p.list, e)
	return e
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
