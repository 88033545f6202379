package mcppool

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
)

// SEP-2243 on revision 2026-07-28, as the window's pool does it (mcp-go
// implements it; this checks it survives our transport wrappers): every
// POST names its method in Mcp-Method, a tools/call names its tool in
// Mcp-Name, the arguments a tool's schema marks with x-mcp-header travel in
// Mcp-Param-* headers too, and a tool whose annotations are invalid is left
// out of the list without costing the others.

// headerProp is an input-schema property annotated with x-mcp-header.
func headerProp(typ string, header any) map[string]any {
	return map[string]any{"type": typ, "x-mcp-header": header}
}

func toolWith(name string, props map[string]any) map[string]any {
	return map[string]any{"name": name, "inputSchema": map[string]any{"type": "object", "properties": props}}
}

func TestPoolParamHeaders(t *testing.T) {
	s := &statelessServer{tools: []map[string]any{
		toolWith("route", map[string]any{
			"region":             headerProp("string", "Region"),
			"priority":           headerProp("integer", "Priority"),
			"verbose":            headerProp("boolean", "Verbose"),
			"debug":              headerProp("boolean", "Debug"),
			"empty_val":          headerProp("string", "EmptyVal"),
			"method_val":         headerProp("string", "Method"),
			"non_ascii_val":      headerProp("string", "NonAscii"),
			"whitespace_val":     headerProp("string", "Whitespace"),
			"leading_space_val":  headerProp("string", "LeadingSpace"),
			"trailing_space_val": headerProp("string", "TrailingSpace"),
			"internal_space_val": headerProp("string", "InternalSpace"),
			"control_char_val":   headerProp("string", "ControlChar"),
			"crlf_val":           headerProp("string", "CrLf"),
			"tab_val":            headerProp("string", "Tab"),
			"float_val":          map[string]any{"type": "number"},
			"query":              map[string]any{"type": "string"},
		}),
		toolWith("plain", map[string]any{"query": map[string]any{"type": "string"}}),
		toolWith("bad_empty", map[string]any{"v": headerProp("string", "")}),
		toolWith("bad_object", map[string]any{"v": headerProp("object", "Data")}),
		toolWith("bad_number", map[string]any{"v": headerProp("number", "Score")}),
		toolWith("bad_not_string", map[string]any{"v": headerProp("string", 7)}),
		toolWith("bad_duplicate", map[string]any{"a": headerProp("string", "MyField"), "b": headerProp("string", "myfield")}),
		toolWith("bad_space", map[string]any{"v": headerProp("string", "My Region")}),
		toolWith("bad_colon", map[string]any{"v": headerProp("string", "Region:Primary")}),
		toolWith("bad_non_ascii", map[string]any{"v": headerProp("string", "Région")}),
		toolWith("bad_control", map[string]any{"v": headerProp("string", "Region\t1")}),
	}}
	ts := httptest.NewServer(s)
	defer ts.Close()
	p, _ := newTestPool(t, mcpconfig.Server{ID: "h", Type: mcpconfig.HTTP, URL: ts.URL + "/mcp", ProtocolVersion: "2026-07-28"})
	waitState(t, p, "h", events.StateConnected, 10*time.Second)

	tools, err := p.Tools("h")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"plain", "route"}) {
		t.Fatalf("tools %v; want the two valid ones, every tool with an invalid x-mcp-header left out", names)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	call := func(args map[string]any) http.Header {
		t.Helper()
		before := len(s.requests("tools/call"))
		if _, err := p.CallTool(ctx, "h", "route", args); err != nil {
			t.Fatalf("tools/call: %v", err)
		}
		calls := s.requests("tools/call")
		if len(calls) != before+1 {
			t.Fatalf("%d tools/call requests; want %d", len(calls), before+1)
		}
		return calls[len(calls)-1].Header
	}
	b64 := func(s string) string { return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?=" }

	h := call(map[string]any{
		"region": "us-west1", "priority": 42, "verbose": false, "debug": true, "empty_val": "", "method_val": "test-method",
		"float_val": 3.14159, "non_ascii_val": "Hello, 世界", "whitespace_val": " padded ", "leading_space_val": " us-west1",
		"trailing_space_val": "us-west1 ", "internal_space_val": "us west 1", "control_char_val": "line1\nline2",
		"crlf_val": "line1\r\nline2", "tab_val": "\tindented", "query": "SELECT * FROM users",
	})
	want := map[string]string{
		"Mcp-Method":           "tools/call",
		"Mcp-Name":             "route",
		"Mcp-Param-Region":     "us-west1",
		"Mcp-Param-Priority":   "42",
		"Mcp-Param-Verbose":    "false",
		"Mcp-Param-Debug":      "true",
		"Mcp-Param-EmptyVal":   "", // sent, with an empty value
		"Mcp-Param-Method":     "test-method",
		"Mcp-Param-NonAscii":   b64("Hello, 世界"),
		"Mcp-Param-Whitespace": b64(" padded "),
		// Leading or trailing space, control characters and non-ASCII
		// cannot travel as they are: base64, in the =?base64?…?= wrapper.
		"Mcp-Param-LeadingSpace":  b64(" us-west1"),
		"Mcp-Param-TrailingSpace": b64("us-west1 "),
		"Mcp-Param-InternalSpace": "us west 1",
		"Mcp-Param-ControlChar":   b64("line1\nline2"),
		"Mcp-Param-CrLf":          b64("line1\r\nline2"),
		"Mcp-Param-Tab":           b64("\tindented"),
	}
	for name, v := range want {
		got, ok := h[http.CanonicalHeaderKey(name)]
		if !ok || len(got) != 1 || got[0] != v {
			t.Errorf("%s: %q (present %v); want %q", name, got, ok, v)
		}
	}
	// Only annotated arguments are mirrored.
	for _, name := range []string{"Mcp-Param-FloatVal", "Mcp-Param-Query", "Mcp-Param-Float_val"} {
		if v, ok := h[http.CanonicalHeaderKey(name)]; ok {
			t.Errorf("%s: %q; want no header for an argument without x-mcp-header", name, v)
		}
	}

	// A null argument sends no header.
	h = call(map[string]any{"region": "us-east1", "priority": 1, "verbose": nil, "query": "SELECT 1"})
	if v, ok := h["Mcp-Param-Verbose"]; ok {
		t.Errorf("Mcp-Param-Verbose %q for a null argument; want none", v)
	}
	if h.Get("Mcp-Param-Region") != "us-east1" || h.Get("Mcp-Param-Priority") != "1" {
		t.Errorf("Region %q Priority %q; want us-east1 and 1", h.Get("Mcp-Param-Region"), h.Get("Mcp-Param-Priority"))
	}
	if _, ok := h["Mcp-Param-Debug"]; ok {
		t.Error("Mcp-Param-Debug for an absent argument; want none")
	}

	// Every POST names its method.
	for _, r := range s.requests("") {
		if r.Header.Get("Mcp-Method") != r.Method {
			t.Errorf("%s sent with Mcp-Method %q", r.Method, r.Header.Get("Mcp-Method"))
		}
	}
	if n := len(s.requests("tools/call")); n != 2 {
		t.Errorf("%d tools/call; want 2 (none of the invalid tools)", n)
	}
}

// The command line's path (Connect, then tools/list): invalid tools are
// left out there too, and a listed tool's arguments are mirrored.
func TestConnectDropsInvalidHeaderTools(t *testing.T) {
	s := &statelessServer{tools: []map[string]any{
		toolWith("valid_tool", map[string]any{"region": headerProp("string", "Region")}),
		toolWith("invalid_duplicate_same_case", map[string]any{"a": headerProp("string", "Region"), "b": headerProp("string", "Region")}),
		toolWith("invalid_null_header", map[string]any{"v": headerProp("null", "Nil")}),
	}}
	sess := connectStateless(t, s, nil)
	ctx := context.Background()
	res, err := sess.Client.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "valid_tool" {
		t.Fatalf("tools %v; want only valid_tool", res.Tools)
	}
	if _, err := sess.Client.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "valid_tool", Arguments: map[string]any{"region": "us-west1"}}}); err != nil {
		t.Fatal(err)
	}
	calls := s.requests("tools/call")
	if len(calls) != 1 || calls[0].Header.Get("Mcp-Param-Region") != "us-west1" || calls[0].Header.Get("Mcp-Name") != "valid_tool" {
		t.Fatalf("tools/call requests %v; want one with Mcp-Name valid_tool and Mcp-Param-Region us-west1", calls)
	}
}
