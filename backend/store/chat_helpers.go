package store

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// JSON columns and text clipping shared by the chat tables.

// jsonOrNull encodes v, or returns nil (SQL NULL) when null is true.
func jsonOrNull(v any, null bool) (*string, error) {
	if null {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}

// decodeJSON decodes a nullable JSON column into into; NULL leaves it alone.
func decodeJSON(s *string, into any) error {
	if s == nil {
		return nil
	}
	return json.Unmarshal([]byte(*s), into)
}

// collapseSpace trims s and turns every run of whitespace into one space.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip shortens s to n characters, ending with "…" when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// clipBytes shortens s to at most n bytes without splitting a character.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
