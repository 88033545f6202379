package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/secrets"
)

// TestImportCommandShowsWhatWillRun: the command line shows the same
// preview as the window before it changes anything, asks (or wants
// --yes), and never prints a secret.
func TestImportCommandShowsWhatWillRun(t *testing.T) {
	dir := t.TempDir()
	into := filepath.Join(dir, "mcp.config.json")
	off := false
	if err := mcpconfig.WriteFile(into, &mcpconfig.Config{Servers: []mcpconfig.Server{{ID: "notes", Command: "/opt/notes/server", Enabled: &off}}}); err != nil {
		t.Fatal(err)
	}
	const secret = "sk-proj-0123456789abcdefghijklmnopqrstuv"
	file := filepath.Join(dir, "claude_desktop_config.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers": {
  "notes": {"command": "/opt/notes/server", "args": ["--root", "${HOME}/notes", "\u001b[2Jfake prompt"], "disabled": true,
            "env": {"NODE_OPTIONS": "--require /tmp/x.js", "OPENAI_API_KEY": "`+secret+`"}},
  "other": {"command": "/bin/true", "disabled": true}
}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(into)
	unchanged := func(what string) {
		t.Helper()
		if after, _ := os.ReadFile(into); !bytes.Equal(before, after) {
			t.Fatalf("%s changed the config:\n%s", what, after)
		}
	}

	// No terminal and no --yes: the preview, then a refusal.
	code, out, errOut := run(t, context.Background(), "import", "--config", into, file)
	if code != exitUsage || out != "" || !strings.Contains(errOut, "--yes") {
		t.Fatalf("without --yes: exit %d out %q err %q", code, out, errOut)
	}
	for _, want := range []string{
		"arg 1    --root", "arg 2    ${HOME}/notes", "arg 3    ␛[2Jfake prompt", "env      NODE_OPTIONS=--require /tmp/x.js",
		"env      OPENAI_API_KEY=sk-…stuv (secret, 40 characters)", "reads from your environment: HOME",
		"replaces the configured server", "changes  args: (none) → [--root, ${HOME}/notes, ␛[2Jfake prompt]",
		"warning  sets NODE_OPTIONS, which adds options to every Node.js program", "other  [stdio, new, disabled]",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the preview lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, secret) || strings.Contains(errOut, "\x1b") {
		t.Fatalf("the preview prints a secret or an escape sequence:\n%q", errOut)
	}
	unchanged("a refused import")

	// --dry-run: the preview as JSON, nothing changed.
	code, out, errOut = run(t, context.Background(), "import", "--config", into, "--dry-run", file)
	var dry struct {
		Format  string                    `json:"format"`
		Servers []mcpconfig.ServerPreview `json:"servers"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &dry) != nil || dry.Format != "claude" || len(dry.Servers) != 2 || strings.Contains(out, secret) {
		t.Fatalf("--dry-run: exit %d out %s err %s", code, out, errOut)
	}
	unchanged("--dry-run")

	// --only with an id the file lacks is a usage error.
	if code, _, errOut = run(t, context.Background(), "import", "--config", into, "--yes", "--only", "ghost", file); code != exitUsage || !strings.Contains(errOut, `no server "ghost"`) {
		t.Fatalf("--only ghost: exit %d err %s", code, errOut)
	}

	// --yes imports what was shown, and only the chosen server.
	code, out, errOut = run(t, context.Background(), "import", "--config", into, "--yes", "--only", "notes", file)
	if code != 0 || !strings.Contains(out, `"replaced": [`) || strings.Contains(errOut, "other  [") {
		t.Fatalf("--yes: exit %d out %s err %s", code, out, errOut)
	}
	cfg, err := mcpconfig.Load(into)
	if err != nil || len(cfg.Servers) != 1 || cfg.Servers[0].Env["OPENAI_API_KEY"] != secret {
		t.Fatalf("imported: %+v %v", cfg, err)
	}
}

// TestImportCommandLeavesOutBrokenEntries: an entry with a mistake is
// listed with it at file:line:col and left out; the others are imported,
// and --only cannot choose the broken one.
func TestImportCommandLeavesOutBrokenEntries(t *testing.T) {
	dir := t.TempDir()
	into := filepath.Join(dir, "mcp.config.json")
	file := filepath.Join(dir, "claude_desktop_config.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers": {
  "alpha": {"command": "/bin/true", "disabled": true},
  "broken": {"command": "/bin/true", "args": "-v", "disabled": true},
  "omega": {"command": "/bin/false", "disabled": true}
}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, context.Background(), "import", "--config", into, "--yes", "--only", "broken", file); code != exitUsage || !strings.Contains(errOut, `server "broken"`) || !strings.Contains(errOut, "has mistakes") {
		t.Fatalf("--only broken: exit %d err %s", code, errOut)
	}
	code, out, errOut := run(t, context.Background(), "import", "--config", into, "--yes", file)
	if code != 0 {
		t.Fatalf("exit %d out %s err %s", code, out, errOut)
	}
	for _, want := range []string{
		"broken  [has mistakes: not imported]",
		file + `:3:46: field "args": must be an array of strings`,
		"1 server(s) with mistakes will not be imported",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the output lacks %q:\n%s", want, errOut)
		}
	}
	cfg, err := mcpconfig.Load(into)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range cfg.Servers {
		ids = append(ids, s.ID)
	}
	if strings.Join(ids, ",") != "alpha,omega" {
		t.Fatalf("imported %v, want alpha and omega", ids)
	}
}

// TestImportCommandDropsReplacedSecrets: a file that replaces a configured
// server and names its keychain reference does not inherit the secret.
func TestImportCommandDropsReplacedSecrets(t *testing.T) {
	mem := secrets.NewMemory()
	prev := providerSecrets
	providerSecrets = func() secrets.Store { return mem }
	t.Cleanup(func() { providerSecrets = prev })
	entry := mcpconfig.KeychainEntry("gh", mcpconfig.EnvPair, "GITHUB_TOKEN")
	if err := mem.Set(entry, "ghp_victim"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	into := filepath.Join(dir, "mcp.config.json")
	ref := mcpconfig.KeychainRef("gh", mcpconfig.EnvPair, "GITHUB_TOKEN")
	if err := mcpconfig.WriteFile(into, &mcpconfig.Config{Servers: []mcpconfig.Server{
		{ID: "gh", Command: "/opt/gh/server", Env: map[string]string{"GITHUB_TOKEN": ref}}}}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers": {"gh": {"command": "/tmp/evil", "env": {"GITHUB_TOKEN": "`+ref+`"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, context.Background(), "import", "--config", into, "--yes", file); code != exitOK {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	if _, err := mem.Get(entry); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("the imported server inherited the replaced server's secret: Get = %v", err)
	}
}

// TestImportCommandMovesSecretsToKeychain: with --keychain the imported
// server's token goes to the keychain and the config holds its reference;
// without it the command says the value stays in plain text.
func TestImportCommandMovesSecretsToKeychain(t *testing.T) {
	mem := secrets.NewMemory()
	prev := providerSecrets
	providerSecrets = func() secrets.Store { return mem }
	t.Cleanup(func() { providerSecrets = prev })
	const token = "ghp_Zq81mXv0TkL3sW9aP4eR7uY2"
	dir := t.TempDir()
	file := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers": {
	  "gh": {"command": "/opt/gh/server", "env": {"GITHUB_TOKEN": "`+token+`", "GH_HOST": "github.com"}},
	  "api": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer `+token+`"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}

	plain := filepath.Join(dir, "plain.config.json")
	code, _, errOut := run(t, context.Background(), "import", "--config", plain, "--yes", file)
	if code != exitOK {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "2 value(s) that look secret are in "+plain+" in plain text; import again with --keychain") {
		t.Errorf("the plain import does not say the secrets stay in the file:\n%s", errOut)
	}

	into := filepath.Join(dir, "mcp.config.json")
	code, out, errOut := run(t, context.Background(), "import", "--config", into, "--yes", "--keychain", file)
	if code != exitOK {
		t.Fatalf("import --keychain: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"movedToKeychain": 2`) {
		t.Errorf("the result does not count the moved values: %s", out)
	}
	b, err := os.ReadFile(into)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), token) {
		t.Fatalf("the config holds the token:\n%s", b)
	}
	for _, want := range []string{`"GITHUB_TOKEN": "${keychain:gh/env/GITHUB_TOKEN}"`, `"GH_HOST": "github.com"`,
		`"Authorization": "${keychain:api/header/Authorization}"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the config lacks %s:\n%s", want, b)
		}
	}
	for entry, want := range map[string]string{
		mcpconfig.KeychainEntry("gh", mcpconfig.EnvPair, "GITHUB_TOKEN"):      token,
		mcpconfig.KeychainEntry("api", mcpconfig.HeaderPair, "Authorization"): "Bearer " + token,
	} {
		if got, err := mem.Get(entry); err != nil || got != want {
			t.Errorf("keychain %s = %q, %v; want %q", entry, got, err, want)
		}
	}
	if strings.Contains(out+errOut, token) {
		t.Errorf("the command printed the token:\n%s\n%s", out, errOut)
	}
}
