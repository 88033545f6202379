package contract

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The checked-in TypeScript is what the Go types generate today.
func TestGeneratedIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	want, err := TypeScript(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(Output)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run `go run ./backend/contract/gen` from the module root and commit it", Output)
	}
}

type selfEncoded struct{ A int }

func (selfEncoded) MarshalJSON() ([]byte, error) { return []byte(`"x"`), nil }

type holder struct {
	Enc selfEncoded `json:"enc"`
}

type withFunc struct {
	F func() `json:"f"`
}

// A Go type that writes its own JSON, or cannot cross as JSON, fails
// generation with where it was met, rather than being described wrongly.
func TestGenerationRefusesWhatItCannotDescribe(t *testing.T) {
	for _, tc := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[holder](), "writes its own JSON; describe it in contract.Shapes"},
		{reflect.TypeFor[withFunc](), "a func cannot cross to the UI"},
	} {
		g := &generator{root: "../..", named: map[reflect.Type]string{}, byName: map[string]reflect.Type{}, src: map[string]*source{}}
		g.ts(tc.typ, "test")
		for _, d := range g.order {
			g.declaration(d)
		}
		if !strings.Contains(strings.Join(g.errs, "\n"), tc.want) {
			t.Errorf("%s: errors %q, want one with %q", tc.typ, g.errs, tc.want)
		}
	}
}

// The shapes encoding/json gives fields: tag names, omitempty optional,
// a pointer that may be nil is null, an omitted one optional; embedded
// structs promote their fields; the string enums of this module are
// unions of their constants.
func TestFieldShapes(t *testing.T) {
	ts, err := TypeScript(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	src := string(ts)
	for _, want := range []string{
		"export type ServerState = 'disabled' | 'connecting' | 'connected' | 'failed' | 'restarting' | 'needs-sign-in';",
		"  problem?: ServerProblem;\n",
		"  latencyMs?: number;\n",
		"export type ListedTool = MCP.Tool & { mcpdesk: ToolTrust };",
		"  'window:show': null;\n",
		"  'mcp:server-status': ServerStatusPayload;\n",
		"export function bindMCPPool(call: Call): MCPPool {",
		"  Save(in_: ProviderInput): Promise<Provider>;",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("generated TypeScript lacks %q", want)
		}
	}
}
