package shellenv

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLookPathWindows(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"npx", "npx.cmd", "uvx.exe", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"Path=" + dir, "PATHEXT=.COM;.EXE;.BAT;.CMD"}
	cases := []struct{ program, want, err string }{
		{program: "npx", want: filepath.Join(dir, "npx.cmd")},
		{program: "NPX", want: filepath.Join(dir, "NPX.cmd")},
		{program: "uvx", want: filepath.Join(dir, "uvx.exe")},
		{program: "uvx.exe", want: filepath.Join(dir, "uvx.exe")},
		{program: filepath.Join(dir, "npx"), want: filepath.Join(dir, "npx.cmd")},
		{program: "notes", err: "not found on PATH"},
		{program: filepath.Join(dir, "notes.txt"), err: "not an executable file"},
	}
	p := NewProvider(false)
	for _, c := range cases {
		got, err := p.LookPath(c.program, env)
		switch {
		case c.err == "" && (err != nil || !strings.EqualFold(got, c.want)):
			t.Errorf("LookPath(%q) = %q, %v; want %q", c.program, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("LookPath(%q) = %q, %v; want error containing %q", c.program, got, err, c.err)
		}
	}
}

func TestCommandLineWindows(t *testing.T) {
	cases := []struct {
		resolved string
		args     []string
		want     Command
	}{
		{`C:\tools\uvx.exe`, []string{"mcp-server-git", `a"&calc.exe`}, Command{Path: `C:\tools\uvx.exe`, Args: []string{"mcp-server-git", `a"&calc.exe`}}},
		{`C:\Program Files\nodejs\npx.cmd`, []string{"-y", "@scope/pkg", "a b"}, Command{Path: comspec(), Args: []string{"-y", "@scope/pkg", "a b"},
			Line: `cmd.exe /e:ON /v:OFF /d /c ""C:\Program Files\nodejs\npx.cmd" -y @scope/pkg "a b""`}},
		{`C:\x\run.BAT`, []string{"a&b", `"&calc.exe`}, Command{Path: comspec(), Args: []string{"a&b", `"&calc.exe`},
			Line: `cmd.exe /e:ON /v:OFF /d /c ""C:\x\run.BAT" "a&b" """&calc.exe""`}},
	}
	for _, c := range cases {
		got, err := NewProvider(false).CommandLine(c.resolved, c.args)
		if err != nil || got.Path != c.want.Path || got.Line != c.want.Line || !slices.Equal(got.Args, c.want.Args) {
			t.Errorf("CommandLine(%q, %q) = %+v, %v; want %+v", c.resolved, c.args, got, err, c.want)
		}
	}
	if _, err := NewProvider(false).CommandLine(`C:\x\run.cmd`, []string{"ok", "two\nlines"}); err == nil {
		t.Error("an argument with a line break was accepted for a batch file")
	}
}
