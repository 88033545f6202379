package cli

import (
	"context"
	"fmt"
	"os"

	"mcpdesk/backend/mcpconfig"
)

func runImport(_ context.Context, g globals, args []string, env Env) int {
	var configFile string
	fs := newFlags("import", &g, env)
	fs.StringVar(&configFile, "config", "", "config file to merge into (default: mcp.config.json in the data folder)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		return usageError(env, "usage: mcpdesk import FILE (a Claude Desktop, Cursor, VS Code, Windsurf or Cline config)")
	}
	file := fs.Arg(0)
	if configFile == "" {
		var err error
		if configFile, err = defaultConfigPath(g); err != nil {
			return fail(env, err)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fail(env, err)
	}
	format, servers, err := mcpconfig.DetectAndParse(file, data)
	if err != nil {
		return fail(env, err)
	}
	base, err := mcpconfig.Load(configFile)
	if err != nil {
		return fail(env, fmt.Errorf("%w (fix it before importing; nothing was changed)", err))
	}
	merged, added, replaced := mcpconfig.Merge(base, servers)
	if err := mcpconfig.WriteFile(configFile, merged); err != nil {
		return fail(env, err)
	}
	if added == nil {
		added = []string{}
	}
	if replaced == nil {
		replaced = []string{}
	}
	_ = printJSON(env, map[string]any{"from": file, "format": format, "into": configFile, "added": added, "replaced": replaced})
	return exitOK
}
