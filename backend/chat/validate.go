package chat

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Argument validation (SPEC D5): the model's arguments are checked against
// the tool's input schema with a real JSON Schema validator before the
// server is called; what is wrong goes back to the model as a tool error.

// schemaCache compiles each distinct input schema once.
type schemaCache struct {
	mu sync.Mutex
	m  map[[32]byte]compiledSchema
}

type compiledSchema struct {
	s   *jsonschema.Schema
	err error
}

// get returns the compiled schema of raw. A schema that does not compile
// (an unreachable $ref, an unknown draft) returns an error; callers then
// skip validation rather than refuse every call of the tool.
func (c *schemaCache) get(raw []byte) (*jsonschema.Schema, error) {
	key := sha256.Sum256(raw)
	c.mu.Lock()
	defer c.mu.Unlock()
	if got, ok := c.m[key]; ok {
		return got.s, got.err
	}
	if c.m == nil {
		c.m = map[[32]byte]compiledSchema{}
	}
	s, err := compileSchema(raw)
	c.m[key] = compiledSchema{s, err}
	return s, err
}

func compileSchema(raw []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("decode input schema: %w", err)
	}
	const url = "mem:///mcpdesk/tool-input-schema.json"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("add input schema: %w", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compile input schema: %w", err)
	}
	return s, nil
}

// printer renders validation messages in English, for the model.
var printer = message.NewPrinter(language.English)

// validateArgs decodes a call's arguments (JSON text; empty means {}) and
// checks them against schema. It returns the arguments, or a description of
// everything wrong with them.
func (e *Engine) validateArgs(schema json.RawMessage, args string) (map[string]any, string) {
	text := strings.TrimSpace(args)
	if text == "" {
		text = "{}"
	}
	var decoded any
	if err := json.Unmarshal([]byte(text), &decoded); err != nil {
		return nil, fmt.Sprintf("the arguments are not valid JSON (%v)", err)
	}
	obj, ok := decoded.(map[string]any)
	if !ok {
		return nil, "the arguments must be a JSON object"
	}
	if len(schema) == 0 {
		return obj, ""
	}
	s, err := e.schemas.get(schema)
	if err != nil {
		e.logger.Debug("input schema not usable; arguments not validated", "err", err)
		return obj, ""
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Sprintf("the arguments are not valid JSON (%v)", err)
	}
	if err := s.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return nil, err.Error()
		}
		return nil, strings.Join(leafMessages(ve), "; ")
	}
	return obj, ""
}

// leafMessages lists the validation failures that say something ("at
// '/a': got string, want number"), skipping the nodes that only group
// others.
func leafMessages(ve *jsonschema.ValidationError) []string {
	if len(ve.Causes) > 0 {
		var out []string
		for _, c := range ve.Causes {
			out = append(out, leafMessages(c)...)
		}
		return out
	}
	at := "/" + strings.Join(ve.InstanceLocation, "/")
	if at == "/" {
		at = "the arguments"
	} else {
		at = "at '" + at + "'"
	}
	return []string{at + ": " + ve.ErrorKind.LocalizedString(printer)}
}
