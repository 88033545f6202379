package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/secrets"
)

const importUsage = `usage: mcpdesk import [--dry-run | --yes] [--keychain] [--only ID,ID] [--config FILE] FILE

Merges the servers of a Claude Desktop, Cursor, VS Code, Windsurf or Cline
config into MCP Desk's. It first shows everything each server will run or
send (secrets masked) and what it warns about, then asks; without a
terminal to ask on, --yes imports what was shown. An entry with mistakes
is listed with each mistake at FILE:LINE:COL and left out; the others are
imported. --keychain moves env and header values that look secret (API
keys, tokens, Authorization headers) into the OS keychain and writes
references to them in the config, as the app's import does when "Move to
the keychain" is ticked. --dry-run prints the preview as JSON and changes
nothing.`

// maxImportFile bounds the file to import: configs are a few kilobytes.
const maxImportFile = 4 << 20

func runImport(_ context.Context, g globals, args []string, env Env) int {
	var (
		configFile, only string
		dryRun, yes      bool
		toKeychain       bool
	)
	fs := newFlags("import", &g, env)
	fs.StringVar(&configFile, "config", "", "config file to merge into (default: mcp.config.json in the data folder)")
	fs.BoolVar(&dryRun, "dry-run", false, "print the preview as JSON and change nothing")
	fs.BoolVar(&yes, "yes", false, "import without asking (what the preview shows)")
	fs.StringVar(&only, "only", "", "import only these servers (ids, comma-separated)")
	fs.BoolVar(&toKeychain, "keychain", false, "move env and header values that look secret into the OS keychain")
	fs.Usage = func() { fmt.Fprintln(env.Stderr, importUsage) }
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		return usageError(env, "%s", importUsage)
	}
	file := fs.Arg(0)
	if configFile == "" {
		var err error
		if configFile, err = defaultConfigPath(g); err != nil {
			return fail(env, err)
		}
	}
	// Read once: what is imported is what the preview shows.
	data, err := mcpconfig.ReadImportFile(file, maxImportFile)
	if err != nil {
		return fail(env, err)
	}
	// Entry by entry: a broken one is shown with its mistakes and left
	// out, the others can be imported (issue 12).
	format, entries, err := mcpconfig.ReadImport(file, data)
	if err != nil {
		return fail(env, err)
	}
	if only != "" {
		ids := strings.Split(only, ",")
		for _, id := range ids {
			i := slices.IndexFunc(entries, func(e mcpconfig.Entry) bool { return e.Server.ID == id && e.Valid() })
			if i >= 0 {
				continue
			}
			if slices.ContainsFunc(entries, func(e mcpconfig.Entry) bool { return e.Server.ID == id }) {
				return usageError(env, "--only: server %q in %s has mistakes and cannot be imported (run without --only to see them)", id, file)
			}
			return usageError(env, "--only: %s has no server %q", file, id)
		}
		entries = slices.DeleteFunc(entries, func(e mcpconfig.Entry) bool { return !slices.Contains(ids, e.Server.ID) })
	}
	var servers []mcpconfig.Server
	for _, e := range entries {
		if e.Valid() {
			servers = append(servers, e.Server)
		}
	}
	base, err := mcpconfig.Load(configFile)
	if err != nil {
		return fail(env, fmt.Errorf("%w (fix it before importing; nothing was changed)", err))
	}
	preview := mcpconfig.PreviewEntries(base.Servers, entries)
	if dryRun {
		_ = printJSON(env, map[string]any{"from": file, "format": format, "into": configFile, "servers": preview})
		return exitOK
	}
	printPreview(env.Stderr, file, format, preview)
	if len(servers) == 0 {
		fmt.Fprintln(env.Stderr, "mcpdesk: nothing to import")
		return exitOK
	}
	if !yes {
		if !isTerminal(env.Stdin) {
			return usageError(env, "import: no terminal to ask on; read the preview above, then run again with --yes to import it (or --dry-run for JSON)")
		}
		fmt.Fprintf(env.Stderr, "Import %d server(s) into %s? [y/N] ", len(servers), configFile)
		answer, _ := bufio.NewReader(env.Stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(env.Stderr, "mcpdesk: nothing was imported")
			return exitFail
		}
	}
	// With --keychain, literal secrets become references and their values
	// go to the keychain before the config names them.
	put := map[string]string{}
	literal := 0
	for i, srv := range servers {
		next, found := srv.WithSecretsReferenced()
		if toKeychain {
			servers[i] = next
			maps.Copy(put, found)
		} else {
			literal += len(found)
		}
	}
	keychain := providerSecrets()
	stored, err := storeAll(keychain, put)
	if err != nil {
		return fail(env, fmt.Errorf("%w; nothing was imported (run without --keychain to keep the values in the config file)", err))
	}
	// A replaced server's keychain secrets go with it: an imported file
	// must not inherit them by naming the same references. Those just
	// stored for it stay.
	var forget []string
	for _, old := range base.Servers {
		if slices.ContainsFunc(servers, func(s mcpconfig.Server) bool { return s.ID == old.ID }) {
			for _, e := range old.KeychainEntries() {
				if _, fresh := put[e]; !fresh {
					forget = append(forget, e)
				}
			}
		}
	}
	merged, added, replaced := mcpconfig.Merge(base, servers)
	if err := mcpconfig.WriteFile(configFile, merged); err != nil {
		deleteAll(keychain, stored)
		return fail(env, err)
	}
	for _, e := range forget {
		if err := keychain.Delete(e); err != nil {
			fmt.Fprintf(env.Stderr, "mcpdesk: warning: could not delete %s of a replaced server from the OS keychain: %v\n", e, err)
		}
	}
	if literal > 0 {
		fmt.Fprintf(env.Stderr, "mcpdesk: %d value(s) that look secret are in %s in plain text; import again with --keychain, or use \"Move to the keychain\" in the app, to keep them in the OS keychain\n", literal, configFile)
	}
	if added == nil {
		added = []string{}
	}
	if replaced == nil {
		replaced = []string{}
	}
	_ = printJSON(env, map[string]any{"from": file, "format": format, "into": configFile, "added": added, "replaced": replaced,
		"movedToKeychain": len(stored)})
	return exitOK
}

// storeAll writes put (keychain entry → value) to keychain, all or nothing,
// and returns the entries written.
func storeAll(keychain secrets.Store, put map[string]string) ([]string, error) {
	if entry, err := secrets.SetAll(keychain, put); err != nil {
		return nil, fmt.Errorf("store %s in the OS keychain: %w", entry, err)
	}
	return slices.Sorted(maps.Keys(put)), nil
}

// deleteAll removes entries from keychain, best effort.
func deleteAll(keychain secrets.Store, entries []string) {
	for _, e := range entries {
		_ = keychain.Delete(e)
	}
}

// printPreview writes the import preview for a person: per server what it
// runs or connects to, every argument on its own line, env and headers
// (secrets masked), the variables it reads, what it changes and the
// warnings. Every text in a preview is already safe for a terminal.
func printPreview(w io.Writer, file, format string, items []mcpconfig.ServerPreview) {
	shownFile, _ := mcpconfig.Visible(file)
	fmt.Fprintf(w, "%s (%s): %d server(s)\n", shownFile, format, len(items))
	broken := 0
	for _, it := range items {
		if len(it.Problems) > 0 {
			broken++
			fmt.Fprintf(w, "\n%s  [has mistakes: not imported]\n", it.ID)
			for _, p := range it.Problems {
				field := ""
				if p.Field != "" {
					field = fmt.Sprintf("field %q: ", p.Field)
				}
				fmt.Fprintf(w, "  mistake  %s:%d:%d: %s%s\n", shownFile, p.Line, p.Col, field, p.Message)
			}
			continue
		}
		state := "new"
		switch {
		case it.Replaces && len(it.Changes) == 0:
			state = "replaces an identical server"
		case it.Replaces:
			state = "replaces the configured server"
		}
		if !it.Enabled {
			state += ", disabled"
		}
		fmt.Fprintf(w, "\n%s  [%s, %s]\n", it.ID, it.Transport, state)
		if it.Transport == mcpconfig.Stdio {
			fmt.Fprintf(w, "  command  %s\n", shownText(it.Command))
			for i, a := range it.Args {
				fmt.Fprintf(w, "  arg %-4d %s\n", i+1, shownText(a))
			}
			if it.Cwd.Text != "" {
				fmt.Fprintf(w, "  cwd      %s\n", shownText(it.Cwd))
			}
			for _, e := range it.Env {
				fmt.Fprintf(w, "  env      %s=%s\n", e.Name, shownText(e.Value))
			}
		} else {
			fmt.Fprintf(w, "  host     %s\n", it.Host)
			fmt.Fprintf(w, "  url      %s\n", shownText(it.URL))
			for _, h := range it.Headers {
				fmt.Fprintf(w, "  header   %s: %s\n", h.Name, shownText(h.Value))
			}
		}
		if len(it.Reads) > 0 {
			fmt.Fprintf(w, "  reads from your environment: %s\n", strings.Join(it.Reads, ", "))
		}
		for _, c := range it.Changes {
			name := c.Field
			if c.Name != "" {
				name += " " + c.Name
			}
			fmt.Fprintf(w, "  changes  %s: %s → %s\n", name, shownList(c.Old), shownList(c.New))
		}
		for _, warn := range it.Warnings {
			fmt.Fprintf(w, "  warning  %s\n", warn)
		}
	}
	if broken > 0 {
		fmt.Fprintf(w, "\n%d server(s) with mistakes will not be imported: fix them at the places shown and import the file again.\n", broken)
	}
	fmt.Fprintln(w)
}

// shownText is one shown value on a line.
func shownText(s mcpconfig.Shown) string {
	switch {
	case s.Text == "":
		return `""`
	case s.Secret:
		return fmt.Sprintf("%s (secret, %d characters)", s.Text, s.Length)
	}
	return s.Text
}

// shownList is a changed value: (none), one value, or a list.
func shownList(l []mcpconfig.Shown) string {
	if len(l) == 0 {
		return "(none)"
	}
	parts := make([]string, len(l))
	for i, s := range l {
		parts[i] = shownText(s)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
