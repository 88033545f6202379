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
		wantName string
		wantArgs []string
	}{
		{`C:\tools\uvx.exe`, []string{"mcp-server-git"}, `C:\tools\uvx.exe`, []string{"mcp-server-git"}},
		{`C:\Program Files\nodejs\npx.cmd`, []string{"-y", "@scope/pkg", "a b"}, comspec(),
			[]string{"/d", "/s", "/c", "call", `C:\Program Files\nodejs\npx.cmd`, "-y", "@scope/pkg", "a b"}},
		{`C:\x\run.BAT`, []string{"a&b", "x|y", "in quotes & safe"}, comspec(),
			[]string{"/d", "/s", "/c", "call", `C:\x\run.BAT`, "a^&b", "x^|y", "in quotes & safe"}},
	}
	for _, c := range cases {
		name, args := NewProvider(false).CommandLine(c.resolved, c.args)
		if name != c.wantName || !slices.Equal(args, c.wantArgs) {
			t.Errorf("CommandLine(%q, %q) = %q %q; want %q %q", c.resolved, c.args, name, args, c.wantName, c.wantArgs)
		}
	}
}
