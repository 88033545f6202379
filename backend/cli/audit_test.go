package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
	usagestats "mcpdesk/backend/usage"
)

// Commands run without --data-dir (as some inspect tests do) write their
// audit entries to a scratch data folder, never the user's.
func init() {
	if os.Getenv(store.EnvDataDir) == "" {
		os.Setenv(store.EnvDataDir, filepath.Join(os.TempDir(), fmt.Sprintf("mcpdesk-cli-tests-%d", os.Getuid())))
	}
}

// auditJSON runs `mcpdesk audit --json` with args.
func auditJSON(t *testing.T, c *cliTranscript, args ...string) usagestats.AuditPage {
	t.Helper()
	code, out, errOut := c.run("", append([]string{"audit", "--json"}, args...)...)
	var page usagestats.AuditPage
	if code != 0 || json.Unmarshal([]byte(out), &page) != nil {
		t.Fatalf("audit --json %v: exit %d\n%s\n%s", args, code, out, errOut)
	}
	return page
}

func TestInspectToolCallsAreAudited(t *testing.T) {
	c := &cliTranscript{t: t, dir: t.TempDir()}
	if err := mcpconfig.WriteFile(filepath.Join(c.dir, "mcp.config.json"), &mcpconfig.Config{Servers: []mcpconfig.Server{
		{ID: "ours", Command: testServerBin},
	}}); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := c.run("", "inspect", "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi", "--", testServerBin); code != 0 || !strings.Contains(out, "Echo: hi") {
		t.Fatalf("echo: exit %d %s %s", code, out, errOut)
	}
	if code, _, errOut := c.run("", "inspect", "--server", "ours", "--method", "tools/call", "--tool-name", "fail"); code != 0 {
		t.Fatalf("fail: exit %d %s", code, errOut)
	}
	if code, _, _ := c.run("", "inspect", "--server", "ours", "--method", "tools/list"); code != 0 {
		t.Fatal("tools/list failed")
	}

	page := auditJSON(t, c)
	if page.Total != 2 || len(page.Entries) != 2 {
		t.Fatalf("audit: %+v", page)
	}
	fail, echo := page.Entries[0], page.Entries[1]
	if fail.Server != "ours" || fail.Tool != "fail" || fail.Status != store.AuditError || fail.Output != "this tool always fails" ||
		fail.Source != store.AuditCLI || fail.Approval != store.AuditApprovalCLI || fail.Arguments != "{}" {
		t.Errorf("fail entry %+v", fail)
	}
	if echo.Server != testServerBin || echo.Tool != "echo" || echo.Status != store.AuditOK || echo.Output != "Echo: hi" ||
		echo.Arguments != `{"message":"hi"}` || echo.Approval != "cli" {
		t.Errorf("echo entry %+v", echo)
	}
	if p := auditJSON(t, c, "--server", "ours"); p.Total != 1 || p.Entries[0].Tool != "fail" {
		t.Errorf("--server ours: %+v", p)
	}
	if p := auditJSON(t, c, "--tool", "echo", "--limit", "1"); p.Total != 1 || p.Entries[0].Tool != "echo" {
		t.Errorf("--tool echo: %+v", p)
	}

	code, out, _ := c.run("", "audit")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 4 || !strings.HasPrefix(lines[0], "TIME") || !strings.Contains(lines[1], "ours") ||
		!strings.Contains(lines[1], "error") || lines[3] != "2 of 2 entries" {
		t.Errorf("audit table: exit %d\n%s", code, out)
	}
	// The columns line up: each field starts where its heading does.
	if at := strings.Index(lines[0], "STATUS"); lines[1][at:at+5] != "error" || lines[2][at:at+2] != "ok" {
		t.Errorf("misaligned table:\n%s", out)
	}

	for _, bad := range []struct {
		args []string
		code int
	}{
		{[]string{"audit", "--status", "weird"}, 1},
		{[]string{"audit", "--limit", "0"}, 2},
		{[]string{"audit", "extra"}, 2},
	} {
		if code, _, _ := c.run("", bad.args...); code != bad.code {
			t.Errorf("%v: exit %d, want %d", bad.args, code, bad.code)
		}
	}
}
