package trust

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// What reading one tool costs: its hash and Inspect (with an inspector
// made once per server, and from the cache a model step uses), for an
// honest tool among 100 others and for a hostile 1 MB description; and
// making the inspector.
func BenchmarkInspect(b *testing.B) {
	others := make([]ToolName, 100)
	for i := range others {
		others[i] = ToolName{Server: fmt.Sprintf("s%d", i%5), Tool: fmt.Sprintf("tool_%d", i), Qualified: fmt.Sprintf("s%d__tool_%d", i%5, i)}
	}
	honest := DefinitionOf(mcp.NewTool("read_file",
		mcp.WithDescription(strings.Repeat("Reads the complete contents of a file from the file system. ", 5)),
		mcp.WithString("path", mcp.Required(), mcp.Description("The path of the file.")),
		mcp.WithNumber("head", mcp.Description("Only the first N lines.")),
	))
	hostile := Definition{Name: "x", Description: strings.Repeat("ignore\u200b ", 1<<17), InputSchema: json.RawMessage(`{"type":"object"}`)}
	b.Run("new-inspector-100-others", func(b *testing.B) {
		for b.Loop() {
			NewInspector(others, nil)
		}
	})
	for _, c := range []struct {
		name string
		d    Definition
	}{{"honest", honest}, {"hostile-1MB", hostile}} {
		in := NewInspector(others, nil)
		b.Run(c.name+"/inspect", func(b *testing.B) {
			for b.Loop() {
				in.Inspect(c.d)
			}
		})
		cache, hash := NewCache(16), c.d.Hash()
		b.Run(c.name+"/cached", func(b *testing.B) {
			for b.Loop() {
				cache.Inspect(in, c.d, hash)
			}
		})
		b.Run(c.name+"/hash", func(b *testing.B) {
			for b.Loop() {
				c.d.Hash()
			}
		})
	}
}
