// Package cli is MCP Desk's headless command line: the same engine as the
// window (config, pool, transports), printing JSON for scripts and CI.
//
//	mcpdesk inspect …   talk to one server (mirrors the MCP Inspector's --cli)
//	mcpdesk servers     connect every configured server and report each
//	mcpdesk import FILE merge servers from another client's config
//
// Results go to stdout as JSON; failures print a message on stderr and exit
// non-zero (2 for usage errors).
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/core"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/store"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// Env is what the commands need from their surroundings.
type Env struct {
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Version string
	// Servers supplies the environment of stdio servers.
	Servers mcppool.Environment
}

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, g globals, args []string, env Env) int
}

// globals are the flags accepted before or after any subcommand.
type globals struct {
	dataDir string
}

var commands = []command{
	{"inspect", "call one MCP method on one server and print the result as JSON", runInspect},
	{"servers", "connect every configured server and print each one's status as JSON", runServers},
	{"auth", "sign in to a remote server (OAuth), sign out, or print the sign-in's status", runAuth},
	{"import", "merge the servers of a Claude Desktop / Cursor / VS Code / Windsurf / Cline config into MCP Desk's", runImport},
	{"providers", "list, add or remove LLM providers and list a provider's models (keys go to the OS keychain)", runProviders},
	{"chat", "send a message and stream the answer, letting the model use MCP tools (same engine, database and policies as the window)", runChat},
	{"conversations", "list, show or export conversations (Markdown or JSON)", runConversations},
	{"usage", "print tokens and estimated cost by day, provider, model or conversation (table or JSON)", runUsage},
	{"audit", "print the audit log of tool calls from chat, the Tools tab and the command line", runAudit},
	{"version", "print the version", func(_ context.Context, _ globals, _ []string, env Env) int {
		fmt.Fprintln(env.Stdout, env.Version)
		return exitOK
	}},
}

// Lookup reports whether args name a subcommand. The app opens its window
// when they do not.
func Lookup(args []string) bool {
	_, cmd, _ := split(args)
	if cmd == "help" || cmd == "-h" || cmd == "--help" {
		return true
	}
	for _, c := range commands {
		if c.name == cmd {
			return true
		}
	}
	return false
}

// split separates leading global flags, the subcommand, and its arguments.
func split(args []string) (pre []string, cmd string, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--data-dir" || a == "-data-dir":
			if i+1 < len(args) {
				pre = append(pre, a, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "--data-dir=") || strings.HasPrefix(a, "-data-dir="):
			pre = append(pre, a)
		default:
			return pre, a, args[i+1:]
		}
	}
	return pre, "", nil
}

// Run runs the subcommand named in args and returns the exit code.
func Run(ctx context.Context, args []string, env Env) int {
	// Servers and models write into our output: no control character of
	// theirs reaches the terminal (termsafe.go).
	env.Stdout, env.Stderr = newTermWriter(env.Stdout), newTermWriter(env.Stderr)
	pre, name, rest := split(args)
	var g globals
	fs := flag.NewFlagSet("mcpdesk", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.StringVar(&g.dataDir, "data-dir", "", "")
	if err := fs.Parse(pre); err != nil {
		return exitUsage
	}
	if name == "" || name == "help" || name == "-h" || name == "--help" {
		usage(env.Stderr)
		if name == "" {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(ctx, g, rest, env)
		}
	}
	fmt.Fprintf(env.Stderr, "mcpdesk: unknown command %q\n\n", name)
	usage(env.Stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: mcpdesk [--data-dir DIR] <command> [flags]")
	fmt.Fprintln(w, "\nWithout a command, mcpdesk opens its window.\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'mcpdesk <command> -h' for a command's flags. DIR defaults to $MCPDESK_DATA_DIR, then the user config dir.")
}

// newFlags returns a flag set for a subcommand that also accepts the global
// --data-dir after the command name.
func newFlags(name string, g *globals, env Env) *flag.FlagSet {
	fs := flag.NewFlagSet("mcpdesk "+name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.StringVar(&g.dataDir, "data-dir", g.dataDir, "data folder (default $MCPDESK_DATA_DIR, then the user config dir)")
	return fs
}

// defaultConfigPath returns mcp.config.json in the data dir.
func defaultConfigPath(g globals) (string, error) {
	dir, err := store.ResolveDir(g.dataDir)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, core.ConfigFileName), nil
}

func clientInfo(env Env) mcp.Implementation {
	return mcp.Implementation{Name: "mcpdesk", Version: env.Version}
}

// printJSON writes v to stdout, indented, with control characters
// escaped (termsafe.go).
func printJSON(env Env, v any) error {
	enc := json.NewEncoder(jsonWriter{env.Stdout})
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// fail prints err to stderr and returns the failure exit code.
func fail(env Env, err error) int {
	fmt.Fprintf(env.Stderr, "mcpdesk: %v\n", err)
	var de *mcppool.DialError
	if errors.As(err, &de) && strings.TrimSpace(de.Stderr) != "" {
		fmt.Fprintf(env.Stderr, "server stderr:\n%s\n", strings.TrimRight(de.Stderr, "\n"))
	}
	return exitFail
}

// usageError prints a usage problem and returns exit code 2.
func usageError(env Env, format string, a ...any) int {
	fmt.Fprintf(env.Stderr, "mcpdesk: "+format+"\n", a...)
	return exitUsage
}

func quietLogger() *slog.Logger {
	if os.Getenv("MCPDESK_DEBUG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}
