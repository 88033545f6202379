package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"mcpdesk/backend/core"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/secrets"
)

// keychainService is the name MCP Desk's entries carry in the OS keychain;
// app.go uses the same.
const keychainService = "mcpdesk"

// providerSecrets returns where provider keys are kept: the OS keychain.
// Tests replace it with a secrets.Memory.
var providerSecrets = func() secrets.Store { return secrets.NewKeyring(keychainService) }

// maxKeyBytes bounds what --api-key-stdin reads.
const maxKeyBytes = 64 << 10

const providersUsage = `usage:
  mcpdesk providers list
  mcpdesk providers add --name N [--type openai|ollama] [--preset P] [--base-url U]
                        [--api-key-stdin | --api-key-env VAR] [--header K=V]… [--disabled]
  mcpdesk providers remove N
  mcpdesk providers models N
  mcpdesk providers test N     proves the key with the cheapest request; exits 1 when N is not usable
N is a provider's name or id. A key is read from stdin, never from the command line.`

func runProviders(ctx context.Context, g globals, args []string, env Env) int {
	if len(args) == 0 {
		return usageError(env, "%s", providersUsage)
	}
	switch sub, rest := args[0], args[1:]; sub {
	case "list":
		return providersList(ctx, g, rest, env)
	case "add":
		return providersAdd(ctx, g, rest, env)
	case "remove", "rm", "delete":
		return providersRemove(ctx, g, rest, env)
	case "models":
		return providersModels(ctx, g, rest, env)
	case "test":
		return providersTest(ctx, g, rest, env)
	case "help", "-h", "--help":
		fmt.Fprintln(env.Stderr, providersUsage)
		return exitOK
	default:
		return usageError(env, "unknown providers command %q\n%s", sub, providersUsage)
	}
}

// openProviders opens the database of the data folder and a Manager over it
// and the OS keychain.
func openProviders(g globals) (*providers.Manager, func(), error) {
	c, err := openCore(g, core.Options{})
	if err != nil {
		return nil, nil, err
	}
	return c.Models, func() { _ = c.Close() }, nil
}

func providersList(ctx context.Context, g globals, args []string, env Env) int {
	fs := newFlags("providers list", &g, env)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		return usageError(env, "providers list takes no arguments, got %q", fs.Args())
	}
	m, closeDB, err := openProviders(g)
	if err != nil {
		return fail(env, err)
	}
	defer closeDB()
	list, err := m.List(ctx)
	if err != nil {
		return fail(env, err)
	}
	if err := printJSON(env, list); err != nil {
		return fail(env, err)
	}
	return exitOK
}

// headerFlags collects repeated --header K=V.
type headerFlags map[string]string

func (h headerFlags) String() string { return "" }

func (h headerFlags) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("want K=V, got %q", v)
	}
	h[strings.TrimSpace(k)] = val
	return nil
}

func providersAdd(ctx context.Context, g globals, args []string, env Env) int {
	var in providers.ProviderInput
	var keyStdin, disabled bool
	headers := headerFlags{}
	fs := newFlags("providers add", &g, env)
	fs.StringVar(&in.Name, "name", "", "display name (required)")
	fs.StringVar(&in.Type, "type", "", `"openai" (any OpenAI-compatible endpoint) or "ollama"; default: the preset's`)
	fs.StringVar(&in.Preset, "preset", "", "preset id: "+presetIDs())
	fs.StringVar(&in.BaseURL, "base-url", "", "API base URL (default: the preset's, or http://localhost:11434 for Ollama)")
	fs.BoolVar(&keyStdin, "api-key-stdin", false, "read the API key from stdin and store it in the OS keychain")
	fs.StringVar(&in.KeyEnv, "api-key-env", "", "name of the environment variable that holds the API key")
	fs.Var(headers, "header", "extra non-secret request header K=V (repeatable)")
	fs.StringVar(&in.AzureAPIVersion, "azure-api-version", "", "Azure OpenAI api-version")
	fs.BoolVar(&disabled, "disabled", false, "add the provider disabled")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	switch {
	case fs.NArg() > 0:
		// Not echoed: it may be a key pasted by mistake.
		return usageError(env, "providers add takes only flags, got %d other argument(s); a key is read with --api-key-stdin, never from the command line", fs.NArg())
	case strings.TrimSpace(in.Name) == "":
		return usageError(env, "providers add: --name is required")
	case in.Type == "" && in.Preset == "":
		return usageError(env, "providers add: give --type openai|ollama or --preset (%s)", presetIDs())
	case in.Type != "" && in.Type != providers.TypeOpenAI && in.Type != providers.TypeOllama:
		return usageError(env, "providers add: --type must be openai or ollama, got %q", in.Type)
	case keyStdin && in.KeyEnv != "":
		return usageError(env, "providers add: give --api-key-stdin or --api-key-env, not both")
	}
	if len(headers) > 0 {
		in.Headers = headers
	}
	enabled := !disabled
	in.Enabled = &enabled
	if keyStdin {
		key, err := readKey(env.Stdin)
		if err != nil {
			return usageError(env, "providers add: %v", err)
		}
		in.APIKey = &key
	}
	m, closeDB, err := openProviders(g)
	if err != nil {
		return fail(env, err)
	}
	defer closeDB()
	p, err := m.Save(ctx, in)
	if err != nil {
		return fail(env, err)
	}
	if err := printJSON(env, p); err != nil {
		return fail(env, err)
	}
	return exitOK
}

// readKey reads the API key from r, trimming the line break after it.
func readKey(r io.Reader) (string, error) {
	if r == nil {
		return "", errors.New("--api-key-stdin: no stdin")
	}
	b, err := io.ReadAll(io.LimitReader(r, maxKeyBytes+1))
	if err != nil {
		return "", fmt.Errorf("--api-key-stdin: read stdin: %w", err)
	}
	if len(b) > maxKeyBytes {
		return "", fmt.Errorf("--api-key-stdin: more than %d bytes on stdin", maxKeyBytes)
	}
	key := strings.TrimSpace(string(b))
	if key == "" {
		return "", errors.New("--api-key-stdin: stdin was empty")
	}
	return key, nil
}

func providersRemove(ctx context.Context, g globals, args []string, env Env) int {
	return onProvider(ctx, g, args, env, "remove", func(m *providers.Manager, p providers.Provider) int {
		if err := m.Delete(ctx, p.ID); err != nil {
			return fail(env, err)
		}
		_ = printJSON(env, map[string]string{"removed": p.ID, "name": p.Name})
		return exitOK
	})
}

func providersModels(ctx context.Context, g globals, args []string, env Env) int {
	return onProvider(ctx, g, args, env, "models", func(m *providers.Manager, p providers.Provider) int {
		list, err := m.Models(ctx, p.ID, true)
		if err != nil {
			return fail(env, err)
		}
		if err := printJSON(env, list); err != nil {
			return fail(env, err)
		}
		if list.Error != "" {
			fmt.Fprintf(env.Stderr, "mcpdesk: %s\n", list.Error)
			return exitFail
		}
		return exitOK
	})
}

// providersTest runs the Settings screen's Test on one provider and prints
// its verdict (the same Health the app shows) as JSON. A provider that is
// not usable, or disabled, is said on stderr and exits 1.
func providersTest(ctx context.Context, g globals, args []string, env Env) int {
	return onProvider(ctx, g, args, env, "test", func(m *providers.Manager, p providers.Provider) int {
		res, err := m.TestConnection(ctx, p.ID)
		if err != nil {
			return fail(env, err)
		}
		if err := printJSON(env, res); err != nil {
			return fail(env, err)
		}
		switch {
		case !res.Health.Usable:
			fmt.Fprintf(env.Stderr, "mcpdesk: %s: %s\n", res.Health.Code, res.Health.Message)
			return exitFail
		case !p.Enabled:
			fmt.Fprintf(env.Stderr, "mcpdesk: %s answers but is disabled; enable it with the switch in Settings → Providers.\n", p.Name)
			return exitFail
		}
		return exitOK
	})
}

// onProvider runs a `providers VERB N` command: its flags, the one
// argument, the providers opened and N found, then run.
func onProvider(ctx context.Context, g globals, args []string, env Env, verb string, run func(*providers.Manager, providers.Provider) int) int {
	fs := newFlags("providers "+verb, &g, env)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		return usageError(env, "usage: mcpdesk providers %s N (a provider's name or id)", verb)
	}
	m, closeDB, err := openProviders(g)
	if err != nil {
		return fail(env, err)
	}
	defer closeDB()
	p, err := findProvider(ctx, m, fs.Arg(0))
	if err != nil {
		return fail(env, err)
	}
	return run(m, p)
}

// findProvider returns the provider whose id is n, else the one whose name
// is n (compared without case).
func findProvider(ctx context.Context, m *providers.Manager, n string) (providers.Provider, error) {
	list, err := m.List(ctx)
	if err != nil {
		return providers.Provider{}, err
	}
	for _, p := range list {
		if p.ID == n {
			return p, nil
		}
	}
	names := make([]string, 0, len(list))
	for _, p := range list {
		if strings.EqualFold(p.Name, n) {
			return p, nil
		}
		names = append(names, fmt.Sprintf("%q", p.Name))
	}
	if len(names) == 0 {
		return providers.Provider{}, fmt.Errorf("no provider %q: none is configured", n)
	}
	return providers.Provider{}, fmt.Errorf("no provider %q; configured: %s", n, strings.Join(names, ", "))
}

func presetIDs() string {
	ps := providers.Presets()
	ids := make([]string, 0, len(ps))
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	return strings.Join(ids, ", ")
}
