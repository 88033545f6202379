package mcppool

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/secrets"
	"mcpdesk/backend/store"
)

// These tests run against an in-memory keychain by default and against the
// real OS keychain with the "keychain" build tag (see
// keychain_store_test.go).

// keychainPool starts a pool on a config of servers whose secrets live in
// store, logging at debug level into the returned buffer.
func keychainPool(t *testing.T, store SecretStore, servers ...mcpconfig.Server) (*Pool, *MCPPool, string, *lockedBuffer, *recordingEmitter) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcp.config.json")
	if err := mcpconfig.WriteFile(path, &mcpconfig.Config{Servers: servers}); err != nil {
		t.Fatal(err)
	}
	logged := &lockedBuffer{}
	em := newRecordingEmitter()
	p := New(Options{ConfigPath: path, Env: testEnv(), Secrets: store, Emitter: em,
		Logger: slog.New(slog.NewTextHandler(logged, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p, NewService(p, nil, WithAudit(&auditRecorder{})), path, logged, em
}

// auditRecorder keeps the audit entries of the Tools tab.
type auditRecorder struct {
	mu      sync.Mutex
	entries []store.AuditEntry
}

func (a *auditRecorder) RecordToolCall(_ context.Context, e store.AuditEntry) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.entries = append(a.entries, e)
}

func (a *auditRecorder) String() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	b, _ := json.Marshal(a.entries)
	return string(b)
}

// cleanupEntries deletes keychain entries a test may leave behind.
func cleanupEntries(t *testing.T, store SecretStore, entries ...string) {
	t.Cleanup(func() {
		for _, e := range entries {
			_ = store.Delete(e)
		}
	})
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func pairNamed(pairs []SecretPair, key string) SecretPair {
	for _, p := range pairs {
		if p.Key == key {
			return p
		}
	}
	return SecretPair{Key: "(missing) " + key}
}

// TestKeychainSecretsResolveAtStart adds a stdio server with a secret and
// a plain env value and a remote server with a secret Authorization header
// through the service, as the form does. The secrets reach the real
// servers when they start, the config file holds references and the plain
// value, and the secrets reach neither the file, the app's log, the
// JSON-RPC log (although the servers echo them), the events nor the form;
// Reveal fetches them on demand.
func TestKeychainSecretsResolveAtStart(t *testing.T) {
	const apiKey, token, plainPath = "kc-apikey-Q7v2Lr9x", "kc-bearer-Hw3Zp0ke", "/opt/tools/bin:/usr/local/bin"
	store := testSecretStore(t)
	cleanupEntries(t, store,
		mcpconfig.KeychainEntry("kstdio", mcpconfig.EnvPair, "API_KEY"),
		mcpconfig.KeychainEntry("kremote", mcpconfig.HeaderPair, "Authorization"))
	p, svc, path, logged, em := keychainPool(t, store)

	ts := echoCredentialsServer(t)
	if _, err := svc.SaveServer("", ServerSpec{ID: "kstdio", Type: "stdio", Command: testServerBin, Enabled: true,
		Env: []SecretPair{{Key: "API_KEY", Value: apiKey, Secret: true}, {Key: "TOOLS_PATH", Value: plainPath}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SaveServer("", ServerSpec{ID: "kremote", Type: "http", URL: ts.URL + "/mcp", Enabled: true,
		Headers: []SecretPair{{Key: "Authorization", Value: "Bearer " + token, Secret: true}}}); err != nil {
		t.Fatal(err)
	}

	file := readFile(t, path)
	for _, want := range []string{`"API_KEY": "${keychain:kstdio/env/API_KEY}"`, `"TOOLS_PATH": "` + plainPath + `"`,
		`"Authorization": "${keychain:kremote/header/Authorization}"`} {
		if !strings.Contains(file, want) {
			t.Errorf("config file lacks %s:\n%s", want, file)
		}
	}
	if got, err := store.Get(mcpconfig.KeychainEntry("kstdio", mcpconfig.EnvPair, "API_KEY")); err != nil || got != apiKey {
		t.Fatalf("keychain entry = %q, %v", got, err)
	}

	// The servers get the real values. They echo them, and the results
	// come back with exactly those values scrubbed (paths stay): the echo
	// was the secret itself.
	waitState(t, p, "kstdio", events.StateConnected, 20*time.Second)
	waitState(t, p, "kremote", events.StateConnected, 20*time.Second)
	ctx := context.Background()
	for _, c := range []struct{ server, tool, arg, want string }{
		{"kstdio", "env", "API_KEY", redactedPlaceholder},
		{"kstdio", "env", "TOOLS_PATH", plainPath},
		{"kremote", "whoami", "", "key= auth=" + redactedPlaceholder + " x="},
	} {
		var args map[string]any
		if c.arg != "" {
			args = map[string]any{"name": c.arg}
		}
		res, err := p.CallTool(ctx, c.server, c.tool, args)
		if err != nil {
			t.Fatal(err)
		}
		if got := resultText(res); got != c.want {
			t.Errorf("%s %s %s = %q, want %q", c.server, c.tool, c.arg, got, c.want)
		}
		// The Tools tab's path (audited, shown) scrubs the same.
		out, err := svc.CallTool(ToolCallRequest{CallID: "c-" + c.server + c.arg, Server: c.server, Tool: c.tool, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		if got := resultText(&out.Result); got != c.want {
			t.Errorf("Tools tab: %s %s %s = %q, want %q", c.server, c.tool, c.arg, got, c.want)
		}
	}

	// Resources and prompts are scrubbed the same way, in the inspector's
	// path and the pool's (chat attachments, the CLI): the test server
	// quotes the item id and the name it is given.
	if res, err := svc.ReadResource("kstdio", "test://items/"+apiKey); err != nil {
		t.Fatal(err)
	} else if got := res.Contents[0].(mcp.TextResourceContents).Text; got != "Item "+redactedPlaceholder {
		t.Errorf("resources/read = %q, want the key hidden", got)
	}
	if res, err := p.GetPrompt(ctx, "kstdio", "greet", map[string]string{"name": apiKey}); err != nil {
		t.Fatal(err)
	} else if got := res.Messages[0].Content.(mcp.TextContent).Text; got != "Please greet "+redactedPlaceholder+" warmly." {
		t.Errorf("prompts/get = %q, want the key hidden", got)
	}

	// The form shows the plain value and withholds the secrets.
	views, _ := svc.ListServers()
	for _, v := range views {
		switch v.Spec.ID {
		case "kstdio":
			if k := pairNamed(v.Spec.Env, "API_KEY"); !k.Secret || !k.Keep || k.Value != "" || k.InFile {
				t.Errorf("API_KEY in the form = %+v, want a withheld secret in the keychain", k)
			}
			if pp := pairNamed(v.Spec.Env, "TOOLS_PATH"); pp.Secret || pp.Keep || pp.Value != plainPath {
				t.Errorf("TOOLS_PATH in the form = %+v, want the plain value", pp)
			}
		case "kremote":
			if h := pairNamed(v.Spec.Headers, "Authorization"); !h.Secret || h.Value != "" {
				t.Errorf("Authorization in the form = %+v", h)
			}
		}
	}
	if got, err := svc.RevealSecret("kstdio", "env", "API_KEY"); err != nil || got != apiKey {
		t.Errorf("RevealSecret = %q, %v", got, err)
	}
	if _, err := svc.RevealSecret("kstdio", "bogus", "API_KEY"); err == nil {
		t.Error("RevealSecret accepted kind \"bogus\"")
	}

	// Nothing shows the secrets.
	var rpc strings.Builder
	for _, e := range p.Log().Entries() {
		rpc.WriteString(e.Payload + "\n")
	}
	if !strings.Contains(rpc.String(), redactedPlaceholder) {
		t.Errorf("the JSON-RPC log redacted nothing, yet the servers echoed their secrets:\n%s", rpc.String())
	}
	var evs strings.Builder
	for _, e := range em.all() {
		b, _ := json.Marshal(e.payload)
		evs.Write(b)
	}
	viewsJSON, _ := json.Marshal(views)
	audit := svc.audit.(*auditRecorder).String()
	if !strings.Contains(audit, plainPath) {
		t.Errorf("the audit log lacks the calls: %s", audit)
	}
	for _, secret := range []string{apiKey, token} {
		for where, text := range map[string]string{"config file": readFile(t, path), "app log": logged.String(), "audit log": audit,
			"JSON-RPC log": rpc.String(), "events": evs.String(), "ListServers": string(viewsJSON)} {
			if strings.Contains(text, secret) {
				t.Errorf("%s shows the secret %q:\n%s", where, secret, text)
			}
		}
	}
}

// TestKeychainUnresolvable: a reference without an entry, or one that
// names another server's place, fails the start with a message naming the
// server and the variable; the other server's secret is never sent.
func TestKeychainUnresolvable(t *testing.T) {
	store := testSecretStore(t)
	victim := mcpconfig.KeychainEntry("victim", mcpconfig.EnvPair, "API_KEY")
	cleanupEntries(t, store, victim)
	if err := store.Set(victim, "victim-secret-5Tq"); err != nil {
		t.Fatal(err)
	}
	missing := stdioServer("missing")
	missing.Env = map[string]string{"API_KEY": mcpconfig.KeychainRef("missing", mcpconfig.EnvPair, "API_KEY")}
	thief := stdioServer("thief")
	thief.Env = map[string]string{"STOLEN": mcpconfig.KeychainRef("victim", mcpconfig.EnvPair, "API_KEY")}
	embedded := mcpconfig.Server{ID: "embedded", Type: mcpconfig.HTTP, URL: "http://127.0.0.1:1/mcp",
		Headers: map[string]string{"Authorization": "Bearer " + mcpconfig.KeychainRef("embedded", mcpconfig.HeaderPair, "Authorization")}}
	p, _, _, _, _ := keychainPool(t, store, missing, thief, embedded)

	for _, c := range []struct{ id, want string }{
		{"missing", `env API_KEY of server "missing" is kept in the OS keychain, but the keychain has no entry for it`},
		{"thief", `env STOLEN of server "thief" is kept in the OS keychain, but its value is not the reference of this env: write exactly ${keychain:thief/env/STOLEN}`},
		{"embedded", `header Authorization of server "embedded" is kept in the OS keychain, but its value is not the reference of this header`},
	} {
		st := waitState(t, p, c.id, events.StateFailed, 20*time.Second)
		if !strings.Contains(st.Error, c.want) {
			t.Errorf("%s: error %q, want it to contain %q", c.id, st.Error, c.want)
		}
		if strings.Contains(st.Error+st.Stderr, "victim-secret-5Tq") {
			t.Errorf("%s: status shows another server's secret: %+v", c.id, st)
		}
	}
	var ke *KeychainError
	if _, err := p.SecretValue("missing", mcpconfig.EnvPair, "API_KEY"); !errors.As(err, &ke) || !errors.Is(err, secrets.ErrNotFound) {
		t.Errorf("SecretValue of a missing entry = %v, want a *KeychainError wrapping ErrNotFound", err)
	}
}

// TestKeychainMigration: literal secrets in the file are shown as secrets
// still in the file, move to the keychain on MoveSecretsToKeychain (plain
// values stay), and the server still starts with them.
func TestKeychainMigration(t *testing.T) {
	const key, auth = "ghp_Literal0123456789abcd", "Bearer literal-token-77"
	store := testSecretStore(t)
	envEntry := mcpconfig.KeychainEntry("legacy", mcpconfig.EnvPair, "GITHUB_TOKEN")
	hdrEntry := mcpconfig.KeychainEntry("legacy-http", mcpconfig.HeaderPair, "Authorization")
	cleanupEntries(t, store, envEntry, hdrEntry)
	legacy := stdioServer("legacy")
	legacy.Env = map[string]string{"GITHUB_TOKEN": key, "LOG_LEVEL": "debug", "FROM_ENV": "${HOME}"}
	legacyHTTP := mcpconfig.Server{ID: "legacy-http", Type: mcpconfig.HTTP, URL: "http://127.0.0.1:1/mcp", Enabled: new(bool),
		Headers: map[string]string{"Authorization": auth, "Accept-Language": "en"}}
	p, svc, path, _, _ := keychainPool(t, store, legacy, legacyHTTP)

	views, _ := svc.ListServers()
	inFile := 0
	for _, v := range views {
		for _, pair := range append(v.Spec.Env, v.Spec.Headers...) {
			if pair.InFile {
				inFile++
				if !pair.Secret || pair.Value != "" {
					t.Errorf("a secret in the file reached the form: %+v", pair)
				}
			}
		}
	}
	if inFile != 2 {
		t.Fatalf("%d secrets in the file reported, want 2 (GITHUB_TOKEN, Authorization): %+v", inFile, views)
	}

	n, err := svc.MoveSecretsToKeychain(nil)
	if err != nil || n != 2 {
		t.Fatalf("MoveSecretsToKeychain = %d, %v; want 2", n, err)
	}
	file := readFile(t, path)
	for _, secret := range []string{key, auth, "literal-token-77"} {
		if strings.Contains(file, secret) {
			t.Errorf("the config file still holds %q:\n%s", secret, file)
		}
	}
	for _, want := range []string{"${keychain:legacy/env/GITHUB_TOKEN}", "${keychain:legacy-http/header/Authorization}",
		`"LOG_LEVEL": "debug"`, `"FROM_ENV": "${HOME}"`, `"Accept-Language": "en"`} {
		if !strings.Contains(file, want) {
			t.Errorf("the config file lacks %s:\n%s", want, file)
		}
	}
	if got, _ := store.Get(hdrEntry); got != auth {
		t.Errorf("keychain Authorization = %q, want %q", got, auth)
	}
	if n, err := svc.MoveSecretsToKeychain(nil); err != nil || n != 0 {
		t.Errorf("a second move = %d, %v; want 0", n, err)
	}

	// The changed config restarts the server, which still gets the token.
	// (Until the restart is under way, a call may still reach the old
	// session, which was started with the literal value.)
	got := ""
	waitFor(t, 20*time.Second, "the restarted server to echo GITHUB_TOKEN from the keychain, scrubbed", func() bool {
		res, err := p.CallTool(context.Background(), "legacy", "env", map[string]any{"name": "GITHUB_TOKEN"})
		if err == nil {
			got = resultText(res)
		}
		return got == redactedPlaceholder
	})

	// A keychain that cannot be used moves nothing.
	if _, ok := store.(*secrets.Memory); ok {
		legacy2 := stdioServer("legacy2")
		legacy2.Env = map[string]string{"API_KEY": "sk-another-0123456789"}
		if _, err := svc.SaveServer("", ServerSpec{ID: "legacy2", Type: "stdio", Command: testServerBin,
			Env: []SecretPair{{Key: "API_KEY", Value: "sk-another-0123456789"}}}); err != nil {
			t.Fatal(err)
		}
		store.(*secrets.Memory).SetUnavailable("locked")
		defer store.(*secrets.Memory).SetUnavailable("")
		if _, err := svc.MoveSecretsToKeychain([]string{"legacy2"}); err == nil || !strings.Contains(err.Error(), "locked") {
			t.Errorf("move with a locked keychain = %v, want an error saying why", err)
		}
		if !strings.Contains(readFile(t, path), "sk-another-0123456789") {
			t.Error("a failed move changed the file")
		}
	}
}

// TestKeychainEntriesFollowTheServer: renaming a server or a value moves or
// deletes its entry; making a secret plain, removing a value, removing the
// server and replacing it by an import delete the entries.
func TestKeychainEntriesFollowTheServer(t *testing.T) {
	store := testSecretStore(t)
	entry := func(id, name string) string { return mcpconfig.KeychainEntry(id, mcpconfig.EnvPair, name) }
	cleanupEntries(t, store, entry("one", "API_KEY"), entry("two", "API_KEY"), entry("two", "TOKEN"), entry("two", "PASSWORD"))
	p, svc, path, _, _ := keychainPool(t, store)
	has := func(e string) bool {
		_, err := store.Get(e)
		if err != nil && !errors.Is(err, secrets.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	spec := ServerSpec{ID: "one", Type: "stdio", Command: testServerBin, Env: []SecretPair{
		{Key: "API_KEY", Value: "v-api-123456", Secret: true}, {Key: "TOKEN", Value: "v-tok-123456", Secret: true},
		{Key: "PASSWORD", Value: "v-pw-123456", Secret: true}}}
	if _, err := svc.SaveServer("", spec); err != nil {
		t.Fatal(err)
	}
	// Rename the server, keep API_KEY, make TOKEN plain (kept), drop PASSWORD.
	spec.ID = "two"
	spec.Env = []SecretPair{{Key: "API_KEY", Keep: true, Secret: true}, {Key: "TOKEN", Keep: true}}
	if _, err := svc.SaveServer("one", spec); err != nil {
		t.Fatal(err)
	}
	if got, _ := store.Get(entry("two", "API_KEY")); got != "v-api-123456" {
		t.Errorf("API_KEY after the rename = %q", got)
	}
	for _, e := range []string{entry("one", "API_KEY"), entry("one", "TOKEN"), entry("one", "PASSWORD"), entry("two", "TOKEN")} {
		if has(e) {
			t.Errorf("entry %s outlived its value", e)
		}
	}
	if !strings.Contains(readFile(t, path), `"TOKEN": "v-tok-123456"`) {
		t.Errorf("TOKEN made plain is not in the file:\n%s", readFile(t, path))
	}

	// An import that replaces the server does not inherit its secret, even
	// when it names the same reference.
	hostile := `{"mcpServers": {"two": {"command": "` + testServerBin + `", "env": {"API_KEY": "${keychain:two/env/API_KEY}"}}}}`
	prev, err := svc.PreviewImportData("mcp.json", hostile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Import(prev.Token, nil); err != nil {
		t.Fatal(err)
	}
	if has(entry("two", "API_KEY")) {
		t.Error("an imported server inherited the secret of the server it replaced")
	}
	st := waitState(t, p, "two", events.StateFailed, 20*time.Second)
	if !strings.Contains(st.Error, `env API_KEY of server "two"`) {
		t.Errorf("status error %q does not name the server and variable", st.Error)
	}

	// Removing the server deletes its entries.
	if err := store.Set(entry("two", "API_KEY"), "again-123456"); err != nil {
		t.Fatal(err)
	}
	if err := svc.RemoveServer("two"); err != nil {
		t.Fatal(err)
	}
	if has(entry("two", "API_KEY")) {
		t.Error("removing the server left its keychain entry")
	}
}

// deleteWatcher notes, at each Delete, whether the config file already
// names the imported server.
type deleteWatcher struct {
	SecretStore
	path, marker string
	mu           sync.Mutex
	late         []string
}

func (d *deleteWatcher) Delete(key string) error {
	if b, _ := os.ReadFile(d.path); strings.Contains(string(b), d.marker) {
		d.mu.Lock()
		d.late = append(d.late, key)
		d.mu.Unlock()
	}
	return d.SecretStore.Delete(key)
}

// A replaced server's secrets are gone before the imported config is
// written: the config watcher may start the imported server as soon as it
// is, and it must not read them. When the file cannot be written, they are
// put back.
func TestImportTakesSecretsBeforeWriting(t *testing.T) {
	store := testSecretStore(t)
	entry := mcpconfig.KeychainEntry("two", mcpconfig.EnvPair, "API_KEY")
	cleanupEntries(t, store, entry)
	watch := &deleteWatcher{SecretStore: store, marker: "imported-marker"}
	p, svc, path, _, _ := keychainPool(t, watch)
	watch.path = path
	spec := ServerSpec{ID: "two", Type: "stdio", Command: testServerBin, Env: []SecretPair{{Key: "API_KEY", Value: "v-api-123456", Secret: true}}}
	if _, err := svc.SaveServer("", spec); err != nil {
		t.Fatal(err)
	}
	imported := mcpconfig.Server{ID: "two", Command: testServerBin, Args: []string{"imported-marker"},
		Env: map[string]string{"API_KEY": "${keychain:two/env/API_KEY}"}}

	// The file cannot be written (a folder stands where it is): the secret stays.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Import([]mcpconfig.Server{imported}); err == nil {
		t.Fatal("an import over a folder was written")
	}
	if got, err := store.Get(entry); got != "v-api-123456" {
		t.Errorf("after a failed import the secret is %q (%v), want it put back", got, err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}

	if _, _, err := p.Import([]mcpconfig.Server{imported}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Get(entry); !errors.Is(err, secrets.ErrNotFound) {
		t.Errorf("the imported server inherited the secret: %v", err)
	}
	if len(watch.late) > 0 {
		t.Errorf("deleted %v after the imported config was written", watch.late)
	}
}
