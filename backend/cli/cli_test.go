package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool/mcptest"
	"mcpdesk/backend/shellenv"
)

var testServerBin string

// hostileServerBin is the server that attacks its client (../mcp/hostileserver).
var hostileServerBin string

func TestMain(m *testing.M) {
	bin, cleanup, err := mcptest.BuildServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testServerBin = bin
	hostile, cleanupHostile, err := mcptest.BuildHostileServer()
	if err != nil {
		cleanup()
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hostileServerBin = hostile
	code := m.Run()
	cleanup()
	cleanupHostile()
	os.Exit(code)
}

// run runs the command line in-process and returns exit code and output.
func run(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Run(ctx, args, Env{
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Version: "test", Servers: shellenv.NewProvider(false),
	})
	return code, stdout.String(), stderr.String()
}

func TestInspectCommandServer(t *testing.T) {
	ctx := context.Background()
	code, out, errOut := run(t, ctx, "inspect", "--method", "tools/list", "--", testServerBin)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list.Tools) < 5 {
		t.Fatalf("tools/list output %q (%v)", out, err)
	}

	// --tool-arg values parse as JSON when they can, else are strings.
	code, out, errOut = run(t, ctx, "inspect", "--method", "tools/call", "--tool-name", "add",
		"--tool-arg", "a=2", "--tool-arg", "b=40", "--", testServerBin)
	if code != 0 || !strings.Contains(out, "42") {
		t.Fatalf("add: exit %d out %q err %q", code, out, errOut)
	}
	code, out, _ = run(t, ctx, "inspect", "--method", "tools/call", "--tool-name", "echo",
		"--tool-arg", "message=hello world", "--", testServerBin)
	if code != 0 || !strings.Contains(out, "hello world") {
		t.Fatalf("echo: exit %d out %q", code, out)
	}
	for _, m := range []string{"ping", "resources/list", "resources/templates/list", "prompts/list"} {
		if code, out, errOut := run(t, ctx, "inspect", "--method", m, "--", testServerBin); code != 0 || !json.Valid([]byte(out)) {
			t.Errorf("%s: exit %d out %q err %q", m, code, out, errOut)
		}
	}
	code, out, _ = run(t, ctx, "inspect", "--method", "resources/read", "--uri", "test://hello", "--", testServerBin)
	if code != 0 || !strings.Contains(out, "contents") {
		t.Errorf("resources/read: exit %d out %q", code, out)
	}
	code, out, _ = run(t, ctx, "inspect", "--method", "prompts/get", "--prompt-name", "greet", "--prompt-arg", "name=Ada", "--", testServerBin)
	if code != 0 || !strings.Contains(out, "Ada") {
		t.Errorf("prompts/get: exit %d out %q", code, out)
	}
}

func TestInspectConfigAndURL(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "mcp.config.json")
	if err := mcpconfig.WriteFile(cfgPath, &mcpconfig.Config{Servers: []mcpconfig.Server{{ID: "ours", Command: testServerBin}}}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, context.Background(), "inspect", "--config", cfgPath, "--server", "ours", "--method", "ping")
	if code != 0 || strings.TrimSpace(out) != "{}" {
		t.Fatalf("ping via config: exit %d out %q err %q", code, out, errOut)
	}
	// The default config lives in the data dir.
	code, _, errOut = run(t, context.Background(), "--data-dir", dir, "inspect", "--server", "ours", "--method", "ping")
	if code != 0 {
		t.Fatalf("ping via data dir: exit %d err %q", code, errOut)
	}
	code, _, errOut = run(t, context.Background(), "inspect", "--config", cfgPath, "--server", "nope", "--method", "ping")
	if code != 1 || !strings.Contains(errOut, `no server "nope"`) || !strings.Contains(errOut, "ours") {
		t.Fatalf("unknown server: exit %d err %q", code, errOut)
	}
}

func TestInspectFailuresAndUsage(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"inspect", "--method", "ping"}, 2, "name the server one way"},
		{[]string{"inspect", "--", testServerBin}, 2, "--method is required"},
		{[]string{"inspect", "--method", "nope", "--", testServerBin}, 2, `unknown --method "nope"`},
		{[]string{"inspect", "--method", "tools/call", "--", testServerBin}, 2, "needs --tool-name"},
		{[]string{"inspect", "--method", "tools/call", "--tool-name", "x", "--tool-arg", "novalue", "--", testServerBin}, 2, "want key=value"},
		{[]string{"inspect", "--url", "http://x", "--transport", "carrier-pigeon", "--method", "ping"}, 2, "--transport must be"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"inspect", "--method", "ping", "--", "mcpdesk-no-such-program"}, 1, "PATH"},
		{[]string{"inspect", "--method", "ping", "--", testServerBin, "--stderr", "token expired", "--exit-after-start"}, 1, "token expired"},
		{[]string{"inspect", "--method", "ping", "--url", "http://127.0.0.1:1/mcp", "--timeout", "3s"}, 1, "connect to"},
	}
	for _, c := range cases {
		code, out, errOut := run(t, ctx, c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q)", c.args, code, c.code, errOut, c.msg)
		}
		if out != "" {
			t.Errorf("%v: failure wrote to stdout: %q", c.args, out)
		}
	}
}

// TestInspectLeavesNoChildren cancels a long call (as Ctrl-C does) and
// checks that the server and its grandchild are gone when Run returns.
func TestInspectLeavesNoChildren(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "pid")
	script := "sleep 300 & echo $! > " + marker + "; exec " + testServerBin
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if _, err := os.Stat(marker); err == nil {
				time.Sleep(300 * time.Millisecond)
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	code, _, _ := run(t, ctx, "inspect", "--method", "tools/call", "--tool-name", "sleep", "--tool-arg", "ms=60000", "--", "/bin/sh", "-c", script)
	if code == 0 {
		t.Fatal("a cancelled call exited 0")
	}
	data, err := os.ReadFile(marker)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	fmt.Sscan(string(data), &pid)
	if mcptest.ProcessAlive(pid) {
		t.Fatalf("grandchild %d survived", pid)
	}
}

func TestServersCommand(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "mcp.config.json")
	off := false
	servers := []mcpconfig.Server{
		{ID: "ok", Command: testServerBin},
		{ID: "off", Command: testServerBin, Enabled: &off},
	}
	if err := mcpconfig.WriteFile(cfgPath, &mcpconfig.Config{Servers: servers}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, context.Background(), "servers", "--config", cfgPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var reports []serverReport
	if err := json.Unmarshal([]byte(out), &reports); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if len(reports) != 2 || reports[0].State != "connected" || reports[0].Tools < 5 || reports[0].ProtocolVersion == "" || reports[1].State != "disabled" {
		t.Fatalf("reports: %+v", reports)
	}

	// A failing server makes the command fail, and says which and why.
	servers = append(servers, mcpconfig.Server{ID: "bad", Command: testServerBin, Args: []string{"--stderr", "no license", "--exit-after-start"}})
	if err := mcpconfig.WriteFile(cfgPath, &mcpconfig.Config{Servers: servers}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(t, context.Background(), "servers", "--config", cfgPath)
	if code != 1 || !strings.Contains(errOut, `server "bad"`) || !strings.Contains(out, "no license") {
		t.Fatalf("failing server: exit %d out %q err %q", code, out, errOut)
	}
}

func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	claude := filepath.Join(dir, "claude_desktop_config.json")
	os.WriteFile(claude, []byte(`{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}}}`), 0o600)
	code, out, errOut := run(t, context.Background(), "--data-dir", dir, "import", "--yes", claude)
	if code != 0 || !strings.Contains(out, `"fs"`) || !strings.Contains(out, `"claude"`) {
		t.Fatalf("import: exit %d out %q err %q", code, out, errOut)
	}
	cfg, err := mcpconfig.Load(filepath.Join(dir, "mcp.config.json"))
	if err != nil || len(cfg.Servers) != 1 || cfg.Servers[0].Command != "npx" {
		t.Fatalf("merged config: %+v %v", cfg, err)
	}
	// Importing again replaces, does not duplicate.
	code, out, _ = run(t, context.Background(), "--data-dir", dir, "import", "--yes", claude)
	if code != 0 || !strings.Contains(out, `"replaced": [`) {
		t.Fatalf("re-import: %d %q", code, out)
	}
	// A broken file is refused with its location, and nothing changes.
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(broken, []byte("{\n  \"mcpServers\": {,}\n}"), 0o600)
	before, _ := os.ReadFile(filepath.Join(dir, "mcp.config.json"))
	code, _, errOut = run(t, context.Background(), "--data-dir", dir, "import", broken)
	after, _ := os.ReadFile(filepath.Join(dir, "mcp.config.json"))
	if code != 1 || !strings.Contains(errOut, "broken.json:2:") || !bytes.Equal(before, after) {
		t.Fatalf("broken import: exit %d err %q changed=%v", code, errOut, !bytes.Equal(before, after))
	}
}

// TestInspectElicit answers a server's questions without a terminal: from a
// file (schema defaults fill the rest), by declining, and — with no flag
// and no terminal — by cancelling, never hanging.
func TestInspectElicit(t *testing.T) {
	answerFile := filepath.Join(t.TempDir(), "answer.json")
	if err := os.WriteFile(answerFile, []byte(`{"name": "Ada"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		flag, want string
	}{
		// Our test server negotiates 2026-07-28: input_required results.
		{"accept:" + answerFile, `who=accept{\"name\":\"Ada\",\"team\":\"core\"} sure=accept{\"sure\":true}`},
		{"decline", "who=decline sure=decline"},
		{"", "who=cancel sure=cancel"},
	}
	for _, c := range cases {
		args := []string{"inspect", "--method", "tools/call", "--tool-name", "confirm", "--tool-arg", "action=ship"}
		if c.flag != "" {
			args = append(args, "--elicit", c.flag)
		}
		code, out, errOut := run(t, context.Background(), append(args, "--", testServerBin)...)
		if code != 0 || !strings.Contains(out, c.want) || !strings.Contains(errOut, "Who is asking?") {
			t.Errorf("--elicit %q: exit %d\nout %s\nerr %s", c.flag, code, out, errOut)
		}
	}
	// server-everything (2025-11-25): a server-initiated elicitation/create.
	entry := mcptest.NPMServer(t, "server-everything")
	code, out, errOut := run(t, context.Background(), "inspect", "--method", "tools/call", "--tool-name", "trigger-elicitation-request",
		"--elicit", "accept:"+answerFile, "--", "node", entry, "stdio")
	if code != 0 || !strings.Contains(out, "Ada") || !strings.Contains(out, "stormy night") {
		t.Fatalf("server-everything: exit %d\nout %s\nerr %s", code, out, errOut)
	}
	code, _, errOut = run(t, context.Background(), "inspect", "--method", "ping", "--elicit", "maybe", "--", testServerBin)
	if code != 2 || !strings.Contains(errOut, "--elicit") {
		t.Fatalf("bad --elicit: exit %d err %q", code, errOut)
	}
}
