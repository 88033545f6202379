package shellenv

import (
	"fmt"
	"strings"
)

// UnsetError reports a ${NAME} reference to a variable that is not set
// and has no default.
type UnsetError struct {
	Name string
}

func (e *UnsetError) Error() string { return "${" + e.Name + "} is not set" }

// InputError reports a VS Code prompted input, ${input:ID}: MCP Desk does
// not prompt, so its value must be written into the server's settings.
type InputError struct {
	ID string
}

func (e *InputError) Error() string {
	return "${input:" + e.ID + "} is a value VS Code would prompt for; fill it in in the server's settings"
}

// expand implements Provider.Expand.
func expand(s string, lookup func(string) (string, bool)) (string, error) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			i++
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i += 2
		case '{':
			end := closingBrace(s, i+2)
			if end < 0 {
				return "", fmt.Errorf("unterminated \"${\" in %q", s)
			}
			v, err := resolveRef(s[i+2:end], lookup)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i = end + 1
		default:
			// A bare $NAME is left alone: arguments often carry a literal $.
			b.WriteByte('$')
			i++
		}
	}
	return b.String(), nil
}

// closingBrace returns the index of the "}" that closes a "${" whose body
// starts at from, allowing nested references in a default value; -1 if
// there is none.
func closingBrace(s string, from int) int {
	depth := 1
	for j := from; j < len(s); j++ {
		switch {
		case s[j] == '$' && j+1 < len(s) && s[j+1] == '{':
			depth++
			j++
		case s[j] == '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// resolveRef resolves the body of one ${...} reference.
func resolveRef(body string, lookup func(string) (string, bool)) (string, error) {
	if id, ok := strings.CutPrefix(body, "input:"); ok {
		return "", &InputError{ID: id}
	}
	ref := body
	body, _ = strings.CutPrefix(body, "env:")
	name, def, hasDef := strings.Cut(body, ":-")
	if !validKey(name) {
		return "", fmt.Errorf("invalid variable reference \"${%s}\": want ${NAME}, ${NAME:-default} or ${env:NAME}", ref)
	}
	if v, ok := lookup(name); ok && (v != "" || !hasDef) {
		return v, nil
	}
	if hasDef {
		return expand(def, lookup)
	}
	return "", &UnsetError{Name: name}
}
