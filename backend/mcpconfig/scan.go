package mcpconfig

import "encoding/json"

// The functions in this file walk a document that has already been checked
// to be valid JSON (see readDocument), keeping the byte offset of every key
// and value so that problems can be reported with a line and column. They
// need no error handling of their own.

// member is one key/value pair of a JSON object.
type member struct {
	key    string // the decoded key
	keyOff int    // offset of the key's opening quote
	val    []byte // the raw value
	valOff int    // offset of the value's first byte
}

// element is one value of a JSON array.
type element struct {
	val []byte
	off int
}

// objectMembers returns the members of the object starting at d[i] == '{',
// in document order, duplicates included.
func objectMembers(d []byte, i int) []member {
	var ms []member
	i = skipSpace(d, i+1)
	for i < len(d) && d[i] != '}' {
		if d[i] == ',' {
			i = skipSpace(d, i+1)
			continue
		}
		keyEnd := skipString(d, i)
		var key string
		_ = json.Unmarshal(d[i:keyEnd], &key)
		j := skipSpace(d, keyEnd) // at ':'
		j = skipSpace(d, j+1)
		end := skipValue(d, j)
		ms = append(ms, member{key: key, keyOff: i, val: d[j:end], valOff: j})
		i = skipSpace(d, end)
	}
	return ms
}

// arrayElements returns the values of the array starting at d[i] == '['.
func arrayElements(d []byte, i int) []element {
	var es []element
	i = skipSpace(d, i+1)
	for i < len(d) && d[i] != ']' {
		if d[i] == ',' {
			i = skipSpace(d, i+1)
			continue
		}
		end := skipValue(d, i)
		es = append(es, element{val: d[i:end], off: i})
		i = skipSpace(d, end)
	}
	return es
}

// skipSpace returns the offset of the first non-whitespace byte at or
// after i.
func skipSpace(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipValue returns the offset just past the value starting at d[i].
func skipValue(d []byte, i int) int {
	if i >= len(d) {
		return i
	}
	switch d[i] {
	case '"':
		return skipString(d, i)
	case '{', '[':
		depth := 0
		for i < len(d) {
			switch d[i] {
			case '"':
				i = skipString(d, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	default: // a number, true, false or null
		for i < len(d) {
			switch d[i] {
			case ',', '}', ']', ':', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}

// skipString returns the offset just past the string starting at
// d[i] == '"'.
func skipString(d []byte, i int) int {
	for i++; i < len(d); i++ {
		switch d[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(d)
}

// kindWord names the kind of JSON value v for the UI, which words it in
// the user's language: object, array, string, boolean, null, number or
// nothing.
func kindWord(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// kindOf names the JSON type of a raw value for error messages.
func kindOf(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}
