package mcppool

import (
	"slices"

	"mcpdesk/backend/mcpconfig"
)

// The first-run part of the bound surface (SPEC F6): the MCP configs of
// other clients found on this machine. Importing one goes through
// PreviewImport with its path, like a file the user chose, then Import with
// the preview's token.

// DetectedConfig is an MCP config file of another client found on this
// machine.
type DetectedConfig struct {
	// Client is the client the file belongs to, named as its import format:
	// claude | cursor | vscode | windsurf.
	Client string `json:"client" ts_type:"'claude' | 'cursor' | 'vscode' | 'windsurf'"`
	Path   string `json:"path"`
	// Servers are the ids of the file's servers that can be imported, in
	// file order, as Import would store them; empty when the file has none
	// or Error is set.
	Servers []string `json:"servers"`
	// Broken are the ids of the entries with mistakes: the import preview
	// shows where each mistake is, and does not import them.
	Broken []string `json:"broken"`
	// Configured are those of Servers already configured in the app:
	// importing them replaces them.
	Configured []string `json:"configured"`
	// Error says why the file cannot be imported at all (it cannot be
	// read, is not valid JSON, holds no server list); "" when it can be.
	Error string `json:"error"`
}

// DetectConfigs looks for the MCP configs of Claude Desktop, Cursor,
// VS Code (mcp.json and settings.json) and Windsurf where those clients
// keep them on this operating system, and returns the files that exist,
// in that order. A file that cannot be imported is returned with its
// Error, not left out; a VS Code settings.json without MCP servers is left
// out. It reads a few small files and returns at once.
func (s *MCPPool) DetectConfigs() ([]DetectedConfig, error) {
	m, err := mcpconfig.ThisMachine()
	if err != nil {
		return nil, err
	}
	return s.detected(m.FindConfigs()), nil
}

// detected converts found configs for the frontend.
func (s *MCPPool) detected(found []mcpconfig.FoundConfig) []DetectedConfig {
	existing := s.pool.Config().Servers
	out := make([]DetectedConfig, 0, len(found))
	for _, f := range found {
		// Other clients' ids are made valid (idPattern): safe to show.
		d := DetectedConfig{Client: f.Client, Path: f.Path, Servers: []string{}, Configured: []string{}, Broken: nonNil(f.Broken)}
		if f.Err != nil {
			d.Error = f.Err.Error()
		}
		for _, srv := range f.Servers {
			d.Servers = append(d.Servers, srv.ID)
			if slices.ContainsFunc(existing, func(e mcpconfig.Server) bool { return e.ID == srv.ID }) {
				d.Configured = append(d.Configured, srv.ID)
			}
		}
		out = append(out, d)
	}
	return out
}
