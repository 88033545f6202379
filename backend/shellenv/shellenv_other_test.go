//go:build !windows

package shellenv

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeShell writes an executable shell script standing in for the user's
// login shell and returns its path. body runs before the script given with
// -c is evaluated; count, if set, is a file that gets a line per run.
func fakeShell(t *testing.T, body string) (shell, count string) {
	t.Helper()
	dir := t.TempDir()
	envBin, err := exec.LookPath("env")
	if err != nil {
		t.Fatal(err)
	}
	count = filepath.Join(dir, "runs")
	script := "#!/bin/sh\n" +
		"echo run >> " + count + "\n" +
		"printf '%s\\n' \"$*\" > " + filepath.Join(dir, "args") + "\n" +
		"for a; do last=$a; done\n" +
		// Find env even when the fake PATH lacks it.
		"env() { " + envBin + " \"$@\"; }\n" +
		body + "\n" +
		"eval \"$last\"\n" +
		"printf 'goodbye junk\\n'\n"
	shell = filepath.Join(dir, "fakesh")
	if err := os.WriteFile(shell, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return shell, count
}

func runs(t *testing.T, count string) int {
	t.Helper()
	data, _ := os.ReadFile(count)
	return strings.Count(string(data), "run")
}

func lookupEnv(env []string, key string) (string, bool) {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

func TestLoginShellEnvironment(t *testing.T) {
	home := t.TempDir()
	cargo := filepath.Join(home, ".cargo", "bin")
	if err := os.MkdirAll(cargo, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("DISPLAY", ":42")
	t.Setenv("MCPDESK_TEST_KEPT", "from the app")
	shell, count := fakeShell(t, `
printf 'Welcome to the fake shell\n\0JUNK=1\0=broken\n'
PATH=/fake/bin:/fake/other; export PATH
FROM_RC='two
lines'; export FROM_RC
unset DISPLAY`)
	t.Setenv("SHELL", shell)

	p := NewProvider(true)
	env := p.Environ(context.Background())
	path, _ := lookupEnv(env, "PATH")
	if !strings.HasPrefix(path, "/fake/bin:/fake/other") {
		t.Fatalf("PATH = %q, want it to start with the shell's /fake/bin:/fake/other", path)
	}
	if !slices.Contains(filepath.SplitList(path), cargo) {
		t.Errorf("PATH = %q lacks the existing well-known dir %s", path, cargo)
	}
	if v, _ := lookupEnv(env, "FROM_RC"); v != "two\nlines" {
		t.Errorf("FROM_RC = %q", v)
	}
	if v, _ := lookupEnv(env, "DISPLAY"); v != ":42" {
		t.Errorf("DISPLAY = %q, want the app's own :42 kept", v)
	}
	if v, _ := lookupEnv(env, "MCPDESK_TEST_KEPT"); v != "from the app" {
		t.Errorf("MCPDESK_TEST_KEPT = %q", v)
	}
	for _, k := range []string{"JUNK", resolvingVar, "_"} {
		if v, ok := lookupEnv(env, k); ok {
			t.Errorf("%s=%q leaked into the environment", k, v)
		}
	}
	if !slices.IsSortedFunc(env, func(a, b string) int {
		ka, _, _ := strings.Cut(a, "=")
		kb, _, _ := strings.Cut(b, "=")
		return strings.Compare(ka, kb)
	}) {
		t.Error("environment is not sorted by key")
	}
	args, _ := os.ReadFile(filepath.Join(filepath.Dir(shell), "args"))
	if !strings.HasPrefix(string(args), "-l -i -c ") {
		t.Errorf("shell started with %q, want -l -i -c", args)
	}

	// The shell runs once; later calls get a copy of the same result.
	env[0] = "MUTATED=1"
	again := p.Environ(context.Background())
	if n := runs(t, count); n != 1 {
		t.Errorf("login shell ran %d times, want 1", n)
	}
	if again[0] == "MUTATED=1" || len(again) != len(env) {
		t.Error("Environ returned shared or different state")
	}

	// The lookup uses that PATH.
	if _, err := p.LookPath("sh", again); err == nil {
		t.Error("sh was found on a PATH of /fake/bin")
	}
}

func TestLoginShellWithoutNULs(t *testing.T) {
	// An env without -0 fails; the newline-separated fallback is parsed.
	shell, _ := fakeShell(t, `
env() { if [ "$1" = -0 ]; then echo "env: illegal option -- 0" >&2; return 1; fi; `+mustLookPath(t, "env")+`; }
PATH=/fake/bin; export PATH
MULTI='a
b'; export MULTI`)
	env := NewProvider(true, WithShell(shell)).Environ(context.Background())
	if path, _ := lookupEnv(env, "PATH"); !strings.HasPrefix(path, "/fake/bin") {
		t.Fatalf("PATH = %q", path)
	}
	if v, _ := lookupEnv(env, "MULTI"); v != "a\nb" {
		t.Fatalf("MULTI = %q", v)
	}
}

func mustLookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoginShellFailuresFallBack(t *testing.T) {
	cases := []struct {
		name, body, log string
	}{
		// A child keeps stdout open: the whole group must be killed.
		{"hangs", "sleep 30; exit 0", "no answer within"},
		{"prints no environment", "echo 'just junk'; exit 0", "did not print the environment"},
		{"fails", "echo 'fakesh: broken rc' >&2; exit 7", "broken rc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shell, _ := fakeShell(t, c.body)
			var logs bytes.Buffer
			p := NewProvider(true, WithShell(shell), WithTimeout(300*time.Millisecond),
				WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
			start := time.Now()
			env := p.Environ(context.Background())
			if d := time.Since(start); d > 3*time.Second {
				t.Fatalf("fallback took %s", d)
			}
			own := os.Getenv("PATH")
			if path, _ := lookupEnv(env, "PATH"); !strings.HasPrefix(path, own) {
				t.Fatalf("PATH = %q, want the app's own %q first", path, own)
			}
			if !strings.Contains(logs.String(), c.log) || !strings.Contains(logs.String(), "level=WARN") {
				t.Fatalf("log %q lacks a warning with %q", logs.String(), c.log)
			}
			// The fallback is kept: no second wait.
			start = time.Now()
			p.Environ(context.Background())
			if d := time.Since(start); d > 100*time.Millisecond {
				t.Fatalf("second call took %s", d)
			}
		})
	}
}

func TestLoginShellCallerCancelIsNotKept(t *testing.T) {
	shell, count := fakeShell(t, "PATH=/fake/bin; export PATH")
	p := NewProvider(true, WithShell(shell))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env := p.Environ(ctx)
	if path, _ := lookupEnv(env, "PATH"); strings.HasPrefix(path, "/fake/bin") {
		t.Fatalf("a cancelled call got the shell's PATH %q", path)
	}
	env = p.Environ(context.Background())
	if path, _ := lookupEnv(env, "PATH"); !strings.HasPrefix(path, "/fake/bin") {
		t.Fatalf("after a cancelled call, PATH = %q; want the shell's", path)
	}
	if n := runs(t, count); n > 2 {
		t.Fatalf("shell ran %d times", n)
	}
}

func TestEnvironWithoutLoginShell(t *testing.T) {
	t.Setenv("MCPDESK_TEST_VAR", "x")
	t.Setenv("SHELL", "/nonexistent/shell")
	got := NewProvider(false).Environ(context.Background())
	if !slices.Equal(got, os.Environ()) {
		t.Fatal("Environ(false) is not os.Environ()")
	}
}

func TestExtendPath(t *testing.T) {
	home := t.TempDir()
	mk := func(parts ...string) string {
		d := filepath.Join(append([]string{home}, parts...)...)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	local := mk(".local", "bin")
	mise := mk(".local", "share", "mise", "shims")
	asdf := mk(".asdf", "shims")
	for _, v := range []string{"v9.11.2", "v20.11.1", "v18.20.0", "not-a-version"} {
		mk(".nvm", "versions", "node", v, "bin")
	}
	newest := filepath.Join(home, ".nvm", "versions", "node", "v20.11.1", "bin")
	system := mk("sys")
	missing := filepath.Join(home, "missing")

	got := filepath.SplitList(extendPath("/usr/bin/none:"+local, home, "", []string{system, missing}))
	want := []string{"/usr/bin/none", local, system, newest, mise, asdf}
	if !slices.Equal(got, want) {
		t.Fatalf("extendPath:\n got %q\nwant %q", got, want)
	}

	// With node already on PATH, nvm's is not added.
	withNode := mk("node-here")
	if err := os.WriteFile(filepath.Join(withNode, "node"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	got = filepath.SplitList(extendPath(withNode, home, "", nil))
	if slices.Contains(got, newest) {
		t.Fatalf("nvm node added although node is on PATH: %q", got)
	}
	// NVM_DIR is honoured.
	other := mk("custom-nvm", "versions", "node", "v22.1.0", "bin")
	got = filepath.SplitList(extendPath("", home, filepath.Join(home, "custom-nvm"), nil))
	if !slices.Contains(got, other) {
		t.Fatalf("NVM_DIR ignored: %q", got)
	}
}

func TestShellArgs(t *testing.T) {
	b, e := [2]string{"B1", "B2"}, [2]string{"E1", "E2"}
	cases := map[string]string{
		"/bin/zsh":               "-l -i -c",
		"/usr/bin/bash":          "-l -i -c",
		"/bin/sh":                "-l -i -c",
		"/opt/homebrew/bin/fish": "-l -c",
		"/usr/local/bin/nu":      "-l -c",
		"/bin/tcsh":              "-i -c",
	}
	for shell, flags := range cases {
		args := shellArgs(shell, b, e)
		if got := strings.Join(args[:len(args)-1], " "); got != flags {
			t.Errorf("%s: flags %q, want %q", shell, got, flags)
		}
		script := args[len(args)-1]
		if strings.Contains(script, "B1B2") || strings.Contains(script, "E1E2") {
			t.Errorf("%s: script %q contains a whole marker", shell, script)
		}
	}
}

// The window's engine options (backend/webview.TuneEngine) are for WebKit's
// web process: no program the app starts sees them, not the login shell,
// not what it prints back, not the fallback.
func TestHiddenVariablesReachNoChild(t *testing.T) {
	t.Setenv("MCPDESK_TEST_ENGINE", "false")
	t.Setenv("MCPDESK_TEST_KEPT", "from the app")
	shell, _ := fakeShell(t, `printf '%s' "${MCPDESK_TEST_ENGINE-unset}" > "$(dirname "$0")/seen"`)
	t.Setenv("SHELL", shell)

	p := NewProvider(true, WithHidden("MCPDESK_TEST_ENGINE"))
	env := p.Environ(context.Background())
	if v, ok := lookupEnv(env, "MCPDESK_TEST_ENGINE"); ok {
		t.Errorf("the login-shell environment has MCPDESK_TEST_ENGINE=%q", v)
	}
	if v, _ := lookupEnv(env, "MCPDESK_TEST_KEPT"); v != "from the app" {
		t.Errorf("MCPDESK_TEST_KEPT = %q, want the app's other variables kept", v)
	}
	seen, err := os.ReadFile(filepath.Join(filepath.Dir(shell), "seen"))
	if err != nil || string(seen) != "unset" {
		t.Errorf("the login shell saw MCPDESK_TEST_ENGINE=%q (%v), want it unset", seen, err)
	}

	// A shell that fails: the fallback leaves it out too.
	t.Setenv("SHELL", filepath.Join(t.TempDir(), "no-such-shell"))
	if v, ok := lookupEnv(NewProvider(true, WithHidden("MCPDESK_TEST_ENGINE")).Environ(context.Background()), "MCPDESK_TEST_ENGINE"); ok {
		t.Errorf("the fallback environment has MCPDESK_TEST_ENGINE=%q", v)
	}
	// Without the login shell (the command line) as well.
	if v, ok := lookupEnv(NewProvider(false, WithHidden("MCPDESK_TEST_ENGINE")).Environ(context.Background()), "MCPDESK_TEST_ENGINE"); ok {
		t.Errorf("the process environment has MCPDESK_TEST_ENGINE=%q", v)
	}
	// A Provider without hidden names hands everything on.
	if v, _ := lookupEnv(NewProvider(false).Environ(context.Background()), "MCPDESK_TEST_ENGINE"); v != "false" {
		t.Errorf("without WithHidden: MCPDESK_TEST_ENGINE = %q, want false", v)
	}
}
