package jsonschema

// MCP Desk's fork: the meta-schemas are compiled on first use, not in init
// (see backend/third_party/README.md in MCP Desk).

import (
	"os"
	"strings"
	"sync"
	"testing"
)

var compiledAtStart bool

func TestMain(m *testing.M) {
	compiledAtStart = Draft4.sch != nil || Draft2020.sch != nil || Draft2020.vocabSchemas != nil
	os.Exit(m.Run())
}

func TestMetaSchemasCompileOnFirstUse(t *testing.T) {
	if compiledAtStart {
		t.Fatal("a draft's meta-schema was compiled before any schema was")
	}
}

// Schemas of different drafts compile at once from many goroutines while the
// meta-schemas load (run with -race), and each still rejects what its
// meta-schema forbids.
func TestMetaSchemasLoadConcurrently(t *testing.T) {
	schemas := []string{
		`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"n": {"type": "integer"}}}`,
		`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"n": {"type": "integer"}}}`,
		`{"$schema": "https://json-schema.org/draft/2019-09/schema", "type": "object", "properties": {"n": {"type": "integer"}}}`,
		`{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"n": {"type": "integer"}}}`,
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			src := schemas[i%len(schemas)]
			doc, err := UnmarshalJSON(strings.NewReader(src))
			if err != nil {
				errs <- err.Error()
				return
			}
			c := NewCompiler()
			if err := c.AddResource("mem:///s.json", doc); err != nil {
				errs <- err.Error()
				return
			}
			s, err := c.Compile("mem:///s.json")
			if err != nil {
				errs <- err.Error()
				return
			}
			if err := s.Validate(map[string]any{"n": "x"}); err == nil {
				errs <- "a string validated as an integer: " + src
			}
			// The meta-schema applies: "type" must name a type.
			bad := strings.Replace(src, `"type": "object"`, `"type": 5`, 1)
			doc, _ = UnmarshalJSON(strings.NewReader(bad))
			c = NewCompiler()
			_ = c.AddResource("mem:///bad.json", doc)
			if _, err := c.Compile("mem:///bad.json"); err == nil {
				errs <- "a schema the meta-schema forbids compiled: " + bad
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
