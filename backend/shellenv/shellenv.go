// Package shellenv provides the environment stdio MCP servers start with
// (SPEC A4): the user's login-shell environment for the desktop window,
// program lookup on the PATH of that environment, ${VAR} expansion in
// server arguments, and the command line that runs a resolved program
// (Windows .cmd/.bat shims run through cmd.exe).
//
// GUI apps do not inherit the PATH a terminal has: launched from the Dock,
// a desktop menu or Explorer, they never read ~/.zshrc or ~/.bashrc, so
// `npx`, `uvx` or `node` installed through nvm, Homebrew, mise or asdf are
// not found. The Provider therefore asks the user's login shell for its
// environment once, and adds well-known tool directories to PATH.
package shellenv

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"mcpdesk/backend/childproc"
)

// DefaultTimeout bounds how long the login shell may take to print its
// environment.
const DefaultTimeout = 5 * time.Second

// resolvingVar is set for the login shell so that rc files can tell they
// are being asked for the environment, not run by a person; it is not
// passed on to servers.
const resolvingVar = "MCPDESK_RESOLVING_ENVIRONMENT"

// Provider supplies the base environment of stdio servers, program lookup
// and ${VAR} expansion. It satisfies the mcp package's Environment
// interface and is safe for concurrent use.
type Provider struct {
	loginShell bool
	logger     *slog.Logger
	timeout    time.Duration
	shell      string // overrides $SHELL when set

	// sem is held while the login-shell environment is resolved; it
	// guards resolved and env. A channel, not a mutex, so that a caller
	// whose context ends while another call resolves can stop waiting.
	sem      chan struct{}
	resolved bool
	env      []string
	// fromShell is true when env came from the login shell, not the
	// fallback.
	fromShell bool
	// hidden are variables of the app's own process that no program it
	// starts inherits (WithHidden).
	hidden []string
}

// Option configures a Provider.
type Option func(*Provider)

// WithLogger sets where the Provider reports a failed login-shell
// resolution. The default discards.
func WithLogger(l *slog.Logger) Option {
	return func(p *Provider) {
		if l != nil {
			p.logger = l
		}
	}
}

// WithTimeout bounds the login-shell run; the default is DefaultTimeout.
func WithTimeout(d time.Duration) Option {
	return func(p *Provider) {
		if d > 0 {
			p.timeout = d
		}
	}
}

// WithHidden names variables of the app's own process that the programs it
// starts must not inherit — the login shell included, so that they do not
// come back through it: the window's script-engine options
// (backend/webview.TuneEngine), which are for WebKit's web process only.
func WithHidden(names ...string) Option {
	return func(p *Provider) { p.hidden = append(p.hidden, names...) }
}

// WithShell sets the login shell to ask instead of $SHELL.
func WithShell(path string) Option {
	return func(p *Provider) { p.shell = path }
}

// NewProvider returns a Provider. With loginShell true (the desktop
// window), Environ resolves the user's login-shell environment on first
// use; with false (the command line, tests) it returns os.Environ() as is.
// On Windows loginShell is ignored.
func NewProvider(loginShell bool, opts ...Option) *Provider {
	p := &Provider{
		loginShell: loginShell,
		logger:     slog.New(slog.DiscardHandler),
		timeout:    DefaultTimeout,
		sem:        make(chan struct{}, 1),
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Environ returns the base environment as KEY=VALUE pairs, sorted by key
// in login-shell mode. The first call in login-shell mode runs the user's
// login shell (bounded by ctx and the timeout); its result, or the
// fallback when it fails, is kept for later calls. The fallback is the
// process environment with well-known tool directories added to PATH. A
// caller whose ctx ends first gets the fallback without it being kept.
func (p *Provider) Environ(ctx context.Context) []string {
	if !p.loginShell || runtime.GOOS == "windows" {
		return p.own()
	}
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return p.fallback()
	}
	defer func() { <-p.sem }()
	if p.resolved {
		return slices.Clone(p.env)
	}

	start := time.Now()
	shell := p.shellPath()
	vars, err := p.resolve(ctx, shell)
	if err != nil {
		if ctx.Err() != nil {
			// Our caller gave up; the next caller tries again.
			p.logger.Debug("login shell environment not resolved: caller cancelled", "shell", shell, "err", err)
			return p.fallback()
		}
		p.logger.Warn("could not read the login shell environment; using the app's own environment",
			"shell", shell, "err", err, "elapsed", time.Since(start))
		p.env, p.resolved, p.fromShell = p.fallback(), true, false
		return slices.Clone(p.env)
	}
	p.logger.Debug("login shell environment resolved", "shell", shell, "vars", len(vars), "elapsed", time.Since(start))
	p.env, p.resolved, p.fromShell = merge(envMap(p.own()), vars), true, true
	return slices.Clone(p.env)
}

// Reload reads the login-shell environment again, so that variables set
// since the last read count; later Environ calls return the new one.
// Programs already started keep the environment they started with. It
// reports whether the environment came from the login shell: false without
// login-shell mode, on Windows, or when the shell failed, where only a
// restart of the app sees variables set since it started.
func (p *Provider) Reload(ctx context.Context) bool {
	if !p.loginShell || runtime.GOOS == "windows" {
		return false
	}
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	p.resolved = false
	<-p.sem
	p.Environ(ctx)
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	defer func() { <-p.sem }()
	return p.resolved && p.fromShell
}

// fallback is the process environment with well-known directories added
// to PATH.
func (p *Provider) fallback() []string {
	return merge(envMap(p.own()), nil)
}

// own is the process environment without the hidden variables.
func (p *Provider) own() []string {
	env := os.Environ()
	if len(p.hidden) == 0 {
		return env
	}
	return slices.DeleteFunc(env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(p.hidden, k)
	})
}

// LookPath finds program on the PATH of env (not the process PATH). A
// program containing a path separator is checked as is. On Windows the
// extensions of PATHEXT are tried, so "npx" finds "npx.cmd". A program
// that is not there is reported as a *NotFoundError.
func (p *Provider) LookPath(program string, env []string) (string, error) {
	return lookPath(program, env)
}

// Expand replaces ${VAR}, ${VAR:-default} and ${env:VAR} in s using
// lookup; $$ becomes $, and a $ not followed by { or $ is kept, so
// arguments may carry a literal $. An unset variable without a default is
// an *UnsetError; a VS Code prompted input ${input:id} is an *InputError.
func (p *Provider) Expand(s string, lookup func(string) (string, bool)) (string, error) {
	return expand(s, lookup)
}

// CommandLine returns how to run the resolved program with args. It is the
// program and args as they are, except on Windows, where a .cmd or .bat
// file runs through cmd.exe with a command line quoted for it
// (BatchCommandLine); an argument no quoting makes safe there is an
// *UnsafeArgError.
func (p *Provider) CommandLine(resolved string, args []string) (Command, error) {
	return commandLine(resolved, args)
}

func (p *Provider) shellPath() string {
	if p.shell != "" {
		return p.shell
	}
	if s := os.Getenv("SHELL"); s != "" {
		return s
	}
	return "/bin/sh"
}

// resolve runs the login shell and returns the environment it prints.
func (p *Provider) resolve(ctx context.Context, shell string) (map[string]string, error) {
	token := make([]byte, 8)
	_, _ = rand.Read(token)
	tok := hex.EncodeToString(token)
	// The markers are printed in two halves so that a shell or rc file
	// echoing its command line cannot produce them.
	begin := [2]string{"__MCPDESK_ENV_", tok + "_BEGIN__"}
	end := [2]string{"__MCPDESK_ENV_", tok + "_END__"}

	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, shellArgs(shell, begin, end)...)
	cmd.Env = append(p.own(), resolvingVar+"=1")
	// Stdin stays nil: the null device, so an interactive shell cannot
	// wait for input.
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limitedWriter{w: &stdout, n: 16 << 20}
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4 << 10}
	prepareShell(cmd)
	runErr := childproc.Run(cmd)

	vars, parseErr := parseEnvBlock(stdout.Bytes(), begin[0]+begin[1], end[0]+end[1])
	if parseErr == nil {
		// A non-zero exit after printing everything (an rc file's last
		// command failed) still gives a usable environment.
		return vars, nil
	}
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("run %s: no answer within %s", shell, p.timeout)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("run %s: %w", shell, ctx.Err())
	case runErr != nil:
		if msg := lastLine(stderr.String()); msg != "" {
			return nil, fmt.Errorf("run %s: %w: %s", shell, runErr, msg)
		}
		return nil, fmt.Errorf("run %s: %w", shell, runErr)
	}
	return nil, fmt.Errorf("read environment from %s: %w", shell, parseErr)
}

// shellArgs returns the arguments that make shell print its environment,
// NUL-separated, between the two markers. Most shells need -i as well as
// -l to read the rc files where PATH is usually set; fish and nu read them
// with -l alone, and csh accepts -l only as its sole flag.
func shellArgs(shell string, begin, end [2]string) []string {
	name := strings.TrimSuffix(filepath.Base(shell), ".exe")
	printf := func(m [2]string) string { return "printf '%s%s' " + m[0] + " " + m[1] }
	script := printf(begin) + "; env -0 || env; " + printf(end)
	switch name {
	case "nu", "nushell":
		// nu runs externals with ^ and has no ||.
		return []string{"-l", "-c", "^" + printf(begin) + "; ^env -0; ^" + printf(end)}
	case "fish":
		return []string{"-l", "-c", script}
	case "csh", "tcsh":
		return []string{"-i", "-c", script}
	default:
		return []string{"-l", "-i", "-c", script}
	}
}

// parseEnvBlock returns the variables printed between the markers,
// ignoring whatever rc files printed around them. The block is
// NUL-separated (env -0) or, from an env without -0, newline-separated.
func parseEnvBlock(out []byte, begin, end string) (map[string]string, error) {
	i := bytes.Index(out, []byte(begin))
	if i < 0 {
		return nil, errors.New("the shell did not print the environment")
	}
	block := out[i+len(begin):]
	j := bytes.Index(block, []byte(end))
	if j < 0 {
		return nil, errors.New("the shell's output ended early")
	}
	block = block[:j]

	vars := make(map[string]string)
	if bytes.IndexByte(block, 0) >= 0 {
		for _, kv := range bytes.Split(block, []byte{0}) {
			if k, v, ok := strings.Cut(string(kv), "="); ok && validKey(k) {
				vars[k] = v
			}
		}
	} else {
		// One variable per line; a line that does not start a new
		// variable continues the value of the previous one.
		last := ""
		for _, line := range strings.Split(strings.TrimSuffix(string(block), "\n"), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok && validKey(k) {
				vars[k], last = v, k
			} else if last != "" {
				vars[last] += "\n" + line
			}
		}
	}
	if _, ok := vars["PATH"]; !ok {
		return nil, errors.New("the shell's environment has no PATH")
	}
	return vars, nil
}

// validKey reports whether k looks like an environment variable name, to
// skip junk that happens to contain "=".
func validKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// shellOnly are variables that describe the shell run itself rather than
// the user's environment; the app's own values (if any) are kept.
var shellOnly = map[string]bool{"_": true, "SHLVL": true, "PWD": true, "OLDPWD": true, resolvingVar: true}

// merge lays the shell's variables over base, adds well-known tool
// directories to PATH and returns KEY=VALUE pairs sorted by key. Variables
// the shell lacks (DISPLAY, WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS,
// XDG_RUNTIME_DIR when an rc file unset them) keep the app's values.
func merge(base, shell map[string]string) []string {
	env := base
	for k, v := range shell {
		if !shellOnly[k] {
			env[k] = v
		}
	}
	// "_" is the last command a shell ran: meaningless to a server.
	delete(env, "_")
	home, _ := os.UserHomeDir()
	if h := env["HOME"]; h != "" {
		home = h
	}
	env["PATH"] = extendPath(env["PATH"], home, env["NVM_DIR"], systemDirs)
	return flatten(env)
}

// systemDirs are the well-known directories outside the home directory,
// in the order they are appended.
var systemDirs = []string{"/opt/homebrew/bin", "/usr/local/bin"}

// extendPath appends to path the well-known tool directories that exist
// and are missing: per-user installers (pipx/uv, cargo, bun, deno, volta),
// Homebrew and /usr/local, the newest nvm Node when no node is on PATH,
// and the mise and asdf shims.
func extendPath(path, home, nvmDir string, system []string) string {
	dirs := filepath.SplitList(path)
	add := func(d string) {
		if d == "" || slices.Contains(dirs, d) {
			return
		}
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			dirs = append(dirs, d)
		}
	}
	if home != "" {
		for _, d := range []string{".local/bin", ".cargo/bin", ".bun/bin", ".deno/bin", ".volta/bin"} {
			add(filepath.Join(home, d))
		}
	}
	for _, d := range system {
		add(d)
	}
	if home != "" {
		if nvmDir == "" {
			nvmDir = filepath.Join(home, ".nvm")
		}
		if _, err := lookPath("node", []string{"PATH=" + strings.Join(dirs, string(os.PathListSeparator))}); err != nil {
			add(newestNVMNode(nvmDir))
		}
		add(filepath.Join(home, ".local/share/mise/shims"))
		add(filepath.Join(home, ".asdf/shims"))
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}

// newestNVMNode returns the bin directory of the newest Node installed by
// nvm, or "" when there is none.
func newestNVMNode(nvmDir string) string {
	entries, err := os.ReadDir(filepath.Join(nvmDir, "versions", "node"))
	if err != nil {
		return ""
	}
	var best []int
	bestName := ""
	for _, e := range entries {
		v := parseVersion(e.Name())
		if v == nil || !e.IsDir() {
			continue
		}
		if best == nil || slices.Compare(v, best) > 0 {
			best, bestName = v, e.Name()
		}
	}
	if bestName == "" {
		return ""
	}
	return filepath.Join(nvmDir, "versions", "node", bestName, "bin")
}

// parseVersion parses "v20.11.1" into [20 11 1]; it returns nil for
// anything else.
func parseVersion(s string) []int {
	s, ok := strings.CutPrefix(s, "v")
	if !ok {
		return nil
	}
	parts := strings.Split(s, ".")
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil
		}
		out[i] = n
	}
	return out
}

// envMap turns KEY=VALUE pairs into a map; later pairs win.
func envMap(env []string) map[string]string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			m[k] = v
		}
	}
	return m
}

// flatten turns a map into KEY=VALUE pairs sorted by key.
func flatten(m map[string]string) []string {
	keys := slices.Sorted(maps.Keys(m))
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + "=" + m[k]
	}
	return out
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// limitedWriter keeps at most n bytes and discards the rest without
// failing the writer, so a chatty shell cannot exhaust memory.
type limitedWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
