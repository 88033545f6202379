package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcpdesk/backend/secrets"
	"mcpdesk/backend/shellenv"
)

const cliLeakKey = "sk-test-SECRET-123"

// fakeProviderAPI serves /v1/models (wanting key as bearer token) and
// Ollama's /api/tags.
func fakeProviderAPI(t *testing.T, key string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			// Quote the key back, as some providers do.
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s","code":"invalid_api_key"}}`, r.Header.Get("Authorization"))
			return
		}
		fmt.Fprint(w, `{"object":"list","data":[{"id":"gpt-a","object":"model","owned_by":"fake"},{"id":"gpt-b","object":"model","owned_by":"fake"}]}`)
	})
	mux.HandleFunc("GET /api/tags", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"models":[{"name":"llama3.2:1b","model":"llama3.2:1b"}]}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// useMemoryKeychain makes the providers command keep keys in memory.
func useMemoryKeychain(t *testing.T) *secrets.Memory {
	t.Helper()
	mem := secrets.NewMemory()
	prev := providerSecrets
	providerSecrets = func() secrets.Store { return mem }
	t.Cleanup(func() { providerSecrets = prev })
	return mem
}

// cliTranscript runs command lines and keeps everything they printed.
type cliTranscript struct {
	t   *testing.T
	dir string
	all bytes.Buffer
}

func (c *cliTranscript) run(stdin string, args ...string) (int, string, string) {
	c.t.Helper()
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), append([]string{"--data-dir", c.dir}, args...), Env{
		Stdin: strings.NewReader(stdin), Stdout: &stdout, Stderr: &stderr,
		Version: "test", Servers: shellenv.NewProvider(false),
	})
	c.all.WriteString(stdout.String())
	c.all.WriteString(stderr.String())
	return code, stdout.String(), stderr.String()
}

type cliProvider struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Type      string `json:"type"`
	BaseURL   string `json:"baseUrl"`
	KeyEnv    string `json:"keyEnv"`
	HasKey    bool   `json:"hasKey"`
	KeySource string `json:"keySource"`
	Enabled   bool   `json:"enabled"`
	Headers   map[string]string
}

func TestProvidersCommand(t *testing.T) {
	mem := useMemoryKeychain(t)
	srv := fakeProviderAPI(t, cliLeakKey)
	c := &cliTranscript{t: t, dir: t.TempDir()}

	code, out, errOut := c.run("", "providers", "list")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("empty list: exit %d out %q err %q", code, out, errOut)
	}

	// add with the key on stdin.
	code, out, errOut = c.run(cliLeakKey+"\n", "providers", "add", "--name", "OpenAI", "--preset", "openai",
		"--base-url", srv.URL+"/v1", "--api-key-stdin", "--header", "OpenAI-Organization=org-1")
	if code != 0 {
		t.Fatalf("add: exit %d err %q", code, errOut)
	}
	var p cliProvider
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("add output %q: %v", out, err)
	}
	if p.Type != "openai" || !p.HasKey || p.KeySource != "keychain" || !p.Enabled || p.Headers["OpenAI-Organization"] != "org-1" {
		t.Errorf("added = %+v", p)
	}
	if v, err := mem.Get("provider/" + p.ID); err != nil || v != cliLeakKey {
		t.Fatalf("keychain = %q, %v; want the key without its newline", v, err)
	}

	code, out, errOut = c.run("", "providers", "add", "--name", "Local", "--type", "ollama", "--base-url", srv.URL)
	if code != 0 {
		t.Fatalf("add ollama: exit %d err %q", code, errOut)
	}
	var local cliProvider
	json.Unmarshal([]byte(out), &local)

	// The key from an environment variable.
	t.Setenv("MCPDESK_TEST_PROXY_KEY", cliLeakKey)
	code, out, errOut = c.run("", "providers", "add", "--name", "Proxy", "--preset", "openai", "--base-url", srv.URL+"/v1", "--api-key-env", "MCPDESK_TEST_PROXY_KEY")
	if code != 0 {
		t.Fatalf("add with env key: exit %d err %q", code, errOut)
	}
	var proxy cliProvider
	json.Unmarshal([]byte(out), &proxy)
	if proxy.KeySource != "env" || proxy.KeyEnv != "MCPDESK_TEST_PROXY_KEY" {
		t.Errorf("env provider = %+v", proxy)
	}

	code, out, _ = c.run("", "providers", "list")
	var list []cliProvider
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 3 || list[0].Name != "OpenAI" || list[1].Name != "Local" {
		t.Fatalf("list: exit %d %+v %v", code, list, err)
	}

	for _, name := range []string{"openai", p.ID, "Proxy", "local"} {
		code, out, errOut = c.run("", "providers", "models", name)
		if code != 0 || !strings.Contains(out, `"listed": true`) {
			t.Errorf("models %s: exit %d out %q err %q", name, code, out, errOut)
		}
	}
	code, _, errOut = c.run("", "providers", "models", "nope")
	if code != 1 || !strings.Contains(errOut, `no provider "nope"`) || !strings.Contains(errOut, `"OpenAI"`) {
		t.Errorf("unknown provider: exit %d err %q", code, errOut)
	}

	// A wrong key: the model list fails with the provider's message and
	// exit 1, without echoing the key the provider quoted.
	code, _, errOut = c.run("sk-test-wrong-999\n", "providers", "add", "--name", "Wrong", "--preset", "openai", "--base-url", srv.URL+"/v1", "--api-key-stdin")
	if code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut = c.run("", "providers", "models", "Wrong")
	if code != 1 || !strings.Contains(errOut, "rejected (401)") || !json.Valid([]byte(out)) || strings.Contains(c.all.String(), "sk-test-wrong-999") {
		t.Errorf("wrong key: exit %d out %q err %q", code, out, errOut)
	}

	// A keychain that cannot be used refuses the key and stores nothing.
	mem.SetUnavailable("no D-Bus session bus")
	code, _, errOut = c.run(cliLeakKey+"\n", "providers", "add", "--name", "Refused", "--preset", "openai", "--api-key-stdin")
	if code != 1 || !strings.Contains(errOut, "The OS keychain is unavailable (no D-Bus session bus). Set the key in an environment variable") {
		t.Errorf("keychain down: exit %d err %q", code, errOut)
	}
	code, out, _ = c.run("", "providers", "list")
	if code != 0 || strings.Contains(out, "Refused") || !strings.Contains(out, "keychain unavailable") {
		t.Errorf("list with the keychain down: exit %d out %q", code, out)
	}
	mem.SetUnavailable("")

	code, out, errOut = c.run("", "providers", "remove", "OPENAI")
	if code != 0 || !strings.Contains(out, p.ID) {
		t.Fatalf("remove: exit %d out %q err %q", code, out, errOut)
	}
	if _, err := mem.Get("provider/" + p.ID); !errors.Is(err, secrets.ErrNotFound) {
		t.Errorf("keychain entry after remove: %v", err)
	}
	code, _, _ = c.run("", "providers", "remove", "OpenAI")
	if code != 1 {
		t.Errorf("second remove: exit %d", code)
	}

	// Nothing printed, and nothing in the database files, holds the key.
	if strings.Contains(c.all.String(), cliLeakKey) {
		t.Errorf("the command line printed the key:\n%s", c.all.String())
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(filepath.Join(c.dir, "mcpdesk.db"+suffix))
		if err == nil && bytes.Contains(b, []byte(cliLeakKey)) {
			t.Errorf("mcpdesk.db%s contains the key", suffix)
		}
	}
}

func TestProvidersCommandUsage(t *testing.T) {
	useMemoryKeychain(t)
	c := &cliTranscript{t: t, dir: t.TempDir()}
	cases := []struct {
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{"", []string{"providers"}, 2, "mcpdesk providers list"},
		{"", []string{"providers", "frob"}, 2, `unknown providers command "frob"`},
		{"", []string{"providers", "list", "extra"}, 2, "takes no arguments"},
		{"", []string{"providers", "add", "--type", "openai", "--base-url", "http://x"}, 2, "--name is required"},
		{"", []string{"providers", "add", "--name", "A"}, 2, "give --type openai|ollama or --preset"},
		{"", []string{"providers", "add", "--name", "A", "--type", "anthropic"}, 2, "--type must be openai or ollama"},
		{"k\n", []string{"providers", "add", "--name", "A", "--type", "openai", "--api-key-stdin", "--api-key-env", "X"}, 2, "not both"},
		{"", []string{"providers", "add", "--name", "A", "--type", "openai", "--api-key-stdin"}, 2, "stdin was empty"},
		{"", []string{"providers", "add", "--name", "A", "--type", "openai", cliLeakKey}, 2, "never from the command line"},
		{"", []string{"providers", "add", "--name", "A", "--type", "openai", "--header", "novalue"}, 2, "want K=V"},
		{"", []string{"providers", "add", "--name", "A", "--type", "openai", "--base-url", "ftp://x"}, 1, "Base URL \"ftp://x\" must start with http:// or https://"},
		{"", []string{"providers", "add", "--name", "A", "--type", "openai", "--base-url", "http://x", "--api-key-env", "BAD-NAME"}, 1, "Key from environment variable"},
		{"", []string{"providers", "add", "--name", "A", "--preset", "nope"}, 1, `unknown preset "nope"`},
		{"", []string{"providers", "remove"}, 2, "usage: mcpdesk providers remove N"},
		{"", []string{"providers", "models"}, 2, "usage: mcpdesk providers models N"},
		{"", []string{"providers", "models", "ghost"}, 1, "none is configured"},
	}
	for _, tc := range cases {
		code, _, errOut := c.run(tc.stdin, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d err %q, want exit %d and %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
	if code, _, errOut := c.run("", "providers", "help"); code != 0 || !strings.Contains(errOut, "--api-key-stdin") {
		t.Errorf("help: exit %d err %q", code, errOut)
	}
	// Not even a key passed on the command line by mistake is echoed.
	if strings.Contains(c.all.String(), cliLeakKey) {
		t.Errorf("the key was printed:\n%s", c.all.String())
	}
}
