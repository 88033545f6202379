package mcppool

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool/mcptest"
	"mcpdesk/backend/store"
	"mcpdesk/backend/trust"
	"mcpdesk/backend/usage"
)

// The Tools tab's list carries MCP Desk's reading of each definition
// (SPEC G1): the poisoned descriptions of the hostile server are flagged,
// with the reason, and the honest tools are not; a Tools-tab call is
// audited with its definition hash.
func TestListedToolsAreInspected(t *testing.T) {
	bin, cleanup, err := mcptest.BuildHostileServer()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p, _ := newTestPool(t,
		mcpconfig.Server{ID: "hostile", Command: bin, Args: []string{"--mode", "poisoned-descriptions"}},
		stdioServer("ours"))
	waitState(t, p, "hostile", events.StateConnected, 15*time.Second)
	waitState(t, p, "ours", events.StateConnected, 15*time.Second)
	svc := NewService(p, nil, WithAudit(usage.New(usage.Options{Store: st})))

	tools, err := svc.ListTools("hostile")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string][]string{}
	for _, tl := range tools {
		if len(tl.Trust.Hash) != 64 || tl.Trust.Hash != trust.DefinitionOf(tl.Tool).Hash() {
			t.Errorf("%s: hash %q", tl.Name, tl.Trust.Hash)
		}
		for _, w := range tl.Trust.Warnings {
			kinds[tl.Name] = append(kinds[tl.Name], w.Kind+"@"+w.Field)
		}
	}
	want := map[string][]string{
		"hidden_add":      {"hiddenText@description", "instructions@description", "sensitive@description"},
		"bidi_translate":  {"bidi@description"},
		"zero_width_echo": {"invisible@description", "instructions@description"},
		"poisoned_notes":  {"instructions@description", "sensitive@description", "exfiltration@description", "sensitive@inputSchema"},
	}
	for name, w := range want {
		got := slices.Sorted(slices.Values(kinds[name]))
		if !slices.Equal(got, slices.Sorted(slices.Values(w))) {
			t.Errorf("%s: warnings %v, want %v", name, got, w)
		}
	}
	if len(kinds["ping"]) != 0 {
		t.Errorf("ping flagged: %v", kinds["ping"])
	}

	// The JSON the frontend gets: the tool as the protocol has it, plus
	// "mcpdesk".
	b, err := json.Marshal(tools)
	if err != nil {
		t.Fatal(err)
	}
	var decoded []map[string]any
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	for _, d := range decoded {
		ours, _ := d["mcpdesk"].(map[string]any)
		if d["name"] == nil || d["inputSchema"] == nil || ours == nil || ours["hash"] == nil || ours["warnings"] == nil {
			t.Fatalf("listed tool JSON: %v", d)
		}
		if d["name"] == "hidden_add" && !strings.Contains(string(b), `"hiddenText"`) {
			t.Errorf("hidden_add JSON lacks its warning: %s", b)
		}
	}

	// A Tools-tab call is audited with its definition hash.
	if _, err := svc.CallTool(ToolCallRequest{CallID: "x", Server: "hostile", Tool: "bidi_translate", Arguments: map[string]any{"text": "hi"}}); err != nil {
		t.Fatal(err)
	}
	entries, _, err := st.AuditEntries(context.Background(), store.AuditFilter{Tool: "bidi_translate"})
	if err != nil || len(entries) != 1 {
		t.Fatalf("audit: %+v %v", entries, err)
	}
	i := slices.IndexFunc(tools, func(tl ListedTool) bool { return tl.Name == "bidi_translate" })
	if entries[0].DefinitionHash != tools[i].Trust.Hash {
		t.Errorf("audit hash %q, want %q", entries[0].DefinitionHash, tools[i].Trust.Hash)
	}
}

func TestListedToolJSON(t *testing.T) {
	// An empty tool still gets a well-formed object.
	var lt ListedTool
	lt.Name = "x"
	lt.Trust = ToolTrust{Hash: "h", Warnings: []trust.Warning{}}
	b, err := json.Marshal(lt)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m["name"] != "x" || m["mcpdesk"] == nil {
		t.Fatalf("%s: %v", b, err)
	}
}
