package mcpconfig

import "bytes"

// utf8BOM is the byte order mark some Windows editors put at the start of
// a UTF-8 file.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// stripJSONC turns JSON with comments (JSONC, as VS Code writes it) into
// plain JSON of exactly the same length: // and /* */ comments and
// trailing commas before } or ] become spaces, newlines are kept, and
// strings are left alone. Because every byte stays where it was, offsets
// in the result are offsets in src, so error positions point into the
// file the user sees. It returns the offset of an unterminated block
// comment, or -1.
//
// Anything else that is not JSON is left for the JSON parser to report.
func stripJSONC(src []byte) (out []byte, unterminated int) {
	if !bytes.ContainsAny(src, "/,") {
		return src, -1
	}
	out = bytes.Clone(src)
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	var (
		prev  byte = '{' // the last significant byte: a comma after '{', '[', ',' or ':' is an error, not a trailing comma
		comma      = -1  // offset of a comma that may turn out to be trailing
	)
	for i := 0; i < len(out); {
		c := out[i]
		switch {
		case c == '"':
			i = skipStringLoose(out, i)
			prev, comma = '"', -1
			continue
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			end := bytes.IndexByte(out[i:], '\n')
			if end < 0 {
				end = len(out) - i
			}
			blank(i, i+end)
			i += end
			continue
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			if end < 0 {
				return nil, i
			}
			blank(i, i+2+end+2)
			i += 2 + end + 2
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == ',':
			if comma < 0 && prev != '{' && prev != '[' && prev != ',' && prev != ':' {
				comma = i
			} else {
				comma = -1
			}
			prev = c
		case c == '}' || c == ']':
			if comma >= 0 {
				out[comma] = ' '
			}
			prev, comma = c, -1
		default:
			prev, comma = c, -1
		}
		i++
	}
	return out, -1
}

// skipStringLoose returns the offset just past the string starting at
// src[i] == '"', or len(src) if it does not end. Unlike skipString it
// stops at a newline, which cannot occur in a JSON string, so that an
// unterminated string does not hide the comments after it.
func skipStringLoose(src []byte, i int) int {
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		case '\n':
			return i
		}
	}
	return len(src)
}
