package mcppool

import (
	"reflect"
	"strings"
	"testing"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
)

func TestSpecRoundTripKeepsSecrets(t *testing.T) {
	prev := mcpconfig.Server{
		ID: "gh", Command: "npx", Args: []string{"-y", "server-github"},
		Env:        map[string]string{"GITHUB_TOKEN": "ghp_secret", "LOG": "debug"},
		AllowTools: []string{"search"},
	}
	spec := specFromConfig(prev)
	if spec.Type != "stdio" || len(spec.Env) != 2 || spec.Env[0].Value != "" || !spec.Env[0].Keep {
		t.Fatalf("spec leaks or loses data: %+v", spec)
	}
	// Keep GITHUB_TOKEN, replace LOG, add NEW.
	spec.Env = []SecretPair{{Key: "GITHUB_TOKEN", Keep: true}, {Key: "LOG", Value: "info"}, {Key: "NEW", Value: "1"}}
	got, _, err := configFromSpec(spec, prev, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"GITHUB_TOKEN": "ghp_secret", "LOG": "info", "NEW": "1"}
	if !reflect.DeepEqual(got.Env, want) {
		t.Fatalf("env = %v, want %v", got.Env, want)
	}
	if !reflect.DeepEqual(got.AllowTools, prev.AllowTools) || got.Type != "" {
		t.Fatalf("fields the form does not edit were lost or changed: %+v", got)
	}

	// Keep without a stored value, duplicate keys and empty keys are errors.
	for _, bad := range [][]SecretPair{{{Key: "MISSING", Keep: true}}, {{Key: "A", Value: "1"}, {Key: "A", Value: "2"}}, {{Value: "x"}}} {
		spec.Env = bad
		if _, _, err := configFromSpec(spec, prev, nil); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}

	// Switching to HTTP drops the stdio fields.
	spec = ServerSpec{ID: "gh", Type: "http", URL: "https://example.com/mcp", Enabled: false,
		Headers: []SecretPair{{Key: "Authorization", Value: "Bearer x"}}}
	got, _, err = configFromSpec(spec, prev, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Command != "" || got.Env != nil || got.URL == "" || got.Enabled == nil || *got.Enabled {
		t.Fatalf("http conversion: %+v", got)
	}
}

func TestImportDroppedData(t *testing.T) {
	p, _ := newTestPool(t, stdioServer("existing"))
	svc := NewService(p, nil)
	claude := `{"mcpServers": {"existing": {"command": "npx", "args": ["-y", "x"]}, "fresh": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer sekrit-123456"}}}}`
	prev, err := svc.PreviewImportData("claude_desktop_config.json", claude)
	if err != nil {
		t.Fatal(err)
	}
	if prev.Format != "claude" || len(prev.Items) != 2 || !prev.Items[0].Replaces || prev.Items[1].Replaces {
		t.Fatalf("preview: %+v", prev)
	}
	if strings.Contains(prev.Items[1].Summary, "sekrit") {
		t.Fatalf("a header value reached the preview: %q", prev.Items[1].Summary)
	}
	res, err := svc.Import(prev.Token, []string{"fresh"})
	if err != nil || len(res.Added) != 1 || len(res.Replaced) != 0 {
		t.Fatalf("import: %+v %v", res, err)
	}
	if _, err := p.Server("fresh"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.PreviewImportData("broken.json", "{\n  \"mcpServers\": {,}\n}"); err == nil || !strings.Contains(err.Error(), "broken.json:2:") {
		t.Fatalf("broken drop: %v", err)
	}
}

func TestSavedRequestsThroughTheService(t *testing.T) {
	p, _ := newTestPool(t)
	if _, err := NewService(p, nil).ListSavedRequests("s"); err == nil {
		t.Fatal("a service without a store claimed to list saved requests")
	}
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := NewService(p, nil, WithSavedRequests(st))
	saved, err := svc.SaveRequest(store.SavedRequest{Server: "s", Tool: "echo", Name: "greet", Arguments: map[string]any{"message": "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	list, err := svc.ListSavedRequests("s")
	if err != nil || len(list) != 1 || list[0].ID != saved.ID {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := svc.DeleteSavedRequest(saved.ID); err != nil {
		t.Fatal(err)
	}
	if list, _ := svc.ListSavedRequests("s"); len(list) != 0 {
		t.Fatalf("after delete: %+v", list)
	}
}

// TestSaveServerMessageLimit: the form's message limit reaches the config
// file and comes back; a value outside 64 KB–1 GB is refused with the range.
func TestSaveServerMessageLimit(t *testing.T) {
	p, _ := newTestPool(t)
	svc := NewService(p, nil)
	spec := ServerSpec{ID: "big", Type: "stdio", Command: testServerBin, Enabled: false, MaxMessageBytes: 64 << 20}
	view, err := svc.SaveServer("", spec)
	if err != nil {
		t.Fatal(err)
	}
	if view.Spec.MaxMessageBytes != 64<<20 {
		t.Fatalf("saved spec has maxMessageBytes %d, want %d", view.Spec.MaxMessageBytes, 64<<20)
	}
	cfg, err := mcpconfig.Load(p.ConfigPath())
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Servers) != 1 || cfg.Servers[0].MaxMessageBytes != 64<<20 {
		t.Fatalf("config file: %+v", cfg.Servers)
	}
	spec.MaxMessageBytes = 2 << 30
	if _, err := svc.SaveServer("big", spec); err == nil || !strings.Contains(err.Error(), "maxMessageBytes") {
		t.Fatalf("a 2 GB limit was accepted or not named: %v", err)
	}
}
