// Package trust pins what the user approved (SPEC G1). A tool's definition
// — what the model reads about it and what it accepts — is hashed, so that
// a standing approval can be bound to it; a changed definition is shown to
// the user as a diff; and a definition that hides text from the user or
// speaks to the model is flagged (Inspect). The package does no I/O: every
// input is a server's word and is treated as hostile.
package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// Definition is the part of a tool a user approves: its name, title and
// description, its input schema and its annotations.
type Definition struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
}

// DefinitionOf returns the definition of t as the server listed it.
func DefinitionOf(t mcp.Tool) Definition {
	d := Definition{Name: t.Name, Title: t.Title, Description: t.Description}
	if len(t.RawInputSchema) > 0 {
		d.InputSchema = t.RawInputSchema
	} else if b, err := json.Marshal(t.InputSchema); err == nil {
		d.InputSchema = b
	}
	if b, err := json.Marshal(t.Annotations); err == nil && string(b) != "{}" {
		d.Annotations = b
	}
	return d
}

// Canonical returns d as canonical JSON: object keys sorted at every
// level, no insignificant space, numbers as the server wrote them, no HTML
// escaping. Two definitions that differ only in key order or spacing have
// the same canonical form.
func (d Definition) Canonical() []byte {
	raw, err := json.Marshal(d)
	if err != nil {
		raw = []byte(`{}`)
	}
	return canonicalJSON(raw)
}

// Hash returns the SHA-256 of Canonical, in hex.
func (d Definition) Hash() string {
	sum := sha256.Sum256(d.Canonical())
	return hex.EncodeToString(sum[:])
}

// ParseDefinition reads a definition stored as Canonical.
func ParseDefinition(b []byte) (Definition, error) {
	var d Definition
	err := json.Unmarshal(b, &d)
	return d, err
}

// canonicalJSON re-encodes raw with sorted keys; text that is not JSON is
// returned as it is.
func canonicalJSON(raw []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // maps encode with sorted keys
		return raw
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}
