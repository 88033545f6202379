package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"mcpdesk/backend/llm/llmtest"
)

// TestProvidersTest: `mcpdesk providers test N` prints the app's verdict and
// exits 1 when the provider cannot be used, also when the model list
// answers without checking the key.
func TestProvidersTest(t *testing.T) {
	useMemoryKeychain(t)
	srv := llmtest.NewOpenAI(t)
	srv.RequireKey("sk-right-key-1234")
	srv.OpenModels(true)
	srv.Repeat(llmtest.TextTurn("OK"))
	tr := &cliTranscript{t: t, dir: t.TempDir()}
	if code, _, errOut := tr.run("sk-wrong-key-5678\n", "providers", "add", "--name", "Wrong", "--preset", "custom", "--base-url", srv.BaseURL(), "--api-key-stdin"); code != 0 {
		t.Fatalf("add: %d %s", code, errOut)
	}
	if code, _, errOut := tr.run("sk-right-key-1234\n", "providers", "add", "--name", "Right", "--preset", "custom", "--base-url", srv.BaseURL(), "--api-key-stdin"); code != 0 {
		t.Fatalf("add: %d %s", code, errOut)
	}
	if code, _, errOut := tr.run("", "providers", "add", "--name", "Env", "--preset", "custom", "--base-url", srv.BaseURL(), "--api-key-env", "MCPDESK_CLI_TEST_UNSET"); code != 0 {
		t.Fatalf("add: %d %s", code, errOut)
	}
	cases := []struct {
		name, code string
		exit       int
		stderr     string
	}{
		{"Wrong", "key_rejected", 1, "rejected (401)"},
		{"Right", "ok", 0, ""},
		{"Env", "env_unset", 1, "MCPDESK_CLI_TEST_UNSET is not set"},
	}
	for _, c := range cases {
		code, out, errOut := tr.run("", "providers", "test", c.name)
		var res struct {
			OK     bool `json:"ok"`
			Health struct {
				Code   string            `json:"code"`
				Params map[string]string `json:"params"`
			} `json:"health"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: stdout is not JSON: %v\n%s", c.name, err, out)
		}
		if code != c.exit || res.Health.Code != c.code || !strings.Contains(errOut, c.stderr) {
			t.Errorf("providers test %s = exit %d, %s, stderr %q; want exit %d, %s, %q", c.name, code, res.Health.Code, errOut, c.exit, c.code, c.stderr)
		}
	}
	if strings.Contains(tr.all.String(), "sk-wrong-key-5678") || strings.Contains(tr.all.String(), "sk-right-key-1234") {
		t.Errorf("a key was printed:\n%s", tr.all.String())
	}
}
