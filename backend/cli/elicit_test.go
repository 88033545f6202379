package cli

import (
	"bufio"
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestTerminalElicitation answers a question field by field, as a person at
// a terminal would: defaults by pressing Enter, retries after bad input.
func TestTerminalElicitation(t *testing.T) {
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name":  map[string]any{"type": "string"},
			"count": map[string]any{"type": "integer", "default": 3},
			"ok":    map[string]any{"type": "boolean"},
			"color": map[string]any{"type": "string", "enum": []any{"red", "green"}},
		},
		"required": []any{"name"},
	}
	// Fields are asked in name order: color, count, name, ok; then confirm.
	typed := "blue\ngreen\n\n\nAda\nmaybe\nyes\n\n"
	var stderr bytes.Buffer
	e := &cliElicitor{env: Env{Stderr: &stderr}, tty: true, in: bufio.NewReader(strings.NewReader(typed))}
	res, err := e.Elicit(context.Background(), "srv", mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "Tell me", RequestedSchema: schema}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"color": "green", "count": 3, "name": "Ada", "ok": true}
	if res.Action != mcp.ElicitationResponseActionAccept || !reflect.DeepEqual(res.Content, want) {
		t.Fatalf("answer %s %#v, want accept %#v", res.Action, res.Content, want)
	}
	for _, msg := range []string{"srv asks: Tell me", "choose one of the listed values", "this field is required", "answer yes or no", "count (integer) [3]"} {
		if !strings.Contains(stderr.String(), msg) {
			t.Errorf("terminal output lacks %q:\n%s", msg, stderr.String())
		}
	}
	// End of input cancels instead of hanging.
	e = &cliElicitor{env: Env{Stderr: &stderr}, tty: true, in: bufio.NewReader(strings.NewReader(""))}
	res, _ = e.Elicit(context.Background(), "srv", mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "x", RequestedSchema: schema}})
	if res.Action != mcp.ElicitationResponseActionCancel {
		t.Fatalf("EOF answered %s", res.Action)
	}
}
