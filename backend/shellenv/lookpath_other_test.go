//go:build !windows

package shellenv

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLookPath(t *testing.T) {
	dir1, dir2, empty := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(path string, mode os.FileMode) string {
		t.Helper()
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	exe := write(filepath.Join(dir2, "server"), 0o755)
	write(filepath.Join(dir1, "server"), 0o644) // not executable: skipped
	plain := write(filepath.Join(dir1, "data.txt"), 0o644)
	if err := os.Mkdir(filepath.Join(dir1, "tool"), 0o755); err != nil { // a directory: skipped
		t.Fatal(err)
	}
	path := strings.Join([]string{"", ".", empty, dir1, dir2}, ":")
	env := []string{"PATH=/nowhere", "HOME=/h", "PATH=" + path} // the last PATH wins

	cases := []struct {
		program string
		want    string
		err     string
	}{
		{program: "server", want: exe},
		{program: exe, want: exe},
		{program: "tool", err: `program "tool" not found on PATH (searched: ` + path + ")"},
		{program: "mcpdesk-no-such-program", err: `program "mcpdesk-no-such-program" not found on PATH`},
		{program: filepath.Join(dir1, "missing"), err: "not found"},
		{program: plain, err: "not an executable file"},
		{program: "", err: "no program given"},
	}
	p := NewProvider(false)
	for _, c := range cases {
		got, err := p.LookPath(c.program, env)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("LookPath(%q) = %q, %v; want %q", c.program, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("LookPath(%q) = %q, %v; want error containing %q", c.program, got, err, c.err)
		}
	}

	// The PATH searched is the one in env, not the process's.
	t.Setenv("PATH", dir2)
	_, err := p.LookPath("server", []string{"PATH=" + empty})
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Program != "server" || len(nf.Path) != 1 || nf.Path[0] != empty {
		t.Fatalf("want *NotFoundError searching only %s, got %#v", empty, err)
	}
	_, err = p.LookPath("server", nil)
	if err == nil || !strings.Contains(err.Error(), "PATH") {
		t.Fatalf("no PATH at all: got %v", err)
	}
}

func TestCommandLineIsIdentity(t *testing.T) {
	c, err := NewProvider(false).CommandLine("/usr/bin/npx.cmd", []string{"-y", "a b", "x&y\n"})
	if err != nil || c.Path != "/usr/bin/npx.cmd" || len(c.Args) != 3 || c.Args[1] != "a b" || c.Line != "" {
		t.Fatalf("CommandLine changed the command: %+v %v", c, err)
	}
}
