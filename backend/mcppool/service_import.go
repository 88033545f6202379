package mcppool

import (
	"mcpdesk/backend/importer"
)

// Importing other clients' servers (SPEC F3, F6) lives in backend/importer;
// these are its bound methods.

// PreviewImport reads a Claude Desktop, Cursor, VS Code, Windsurf, Cline or
// MCP Desk config and shows what importing it would do: each server with
// everything it runs or sends (secrets masked), warnings, and what changes
// for a server it replaces. An entry with mistakes is shown with its
// problems and their positions in the file, and cannot be imported; the
// others can. Only a file that is not JSON or holds no server list fails
// as a whole. Import(preview.Token, ids) then adds exactly these servers;
// the file is not read again.
func (s *MCPPool) PreviewImport(path string) (importer.Preview, error) {
	return s.importer.PreviewImport(path)
}

// PreviewImportData is PreviewImport for a file dropped on the window: the
// page has its name and content, not its path (SPEC F3).
func (s *MCPPool) PreviewImportData(name, content string) (importer.Preview, error) {
	return s.importer.PreviewImportData(name, content)
}

// Import adds the servers of the preview with this token to the app's
// config: those whose ids are listed, or all of them when ids is empty —
// never an entry the preview showed with problems. A server with the id of
// a configured one replaces it. The preview is used up by a successful
// import.
func (s *MCPPool) Import(token string, ids []string) (importer.Result, error) {
	return s.importer.Import(token, ids)
}

// DetectConfigs looks for the MCP configs of Claude Desktop, Cursor,
// VS Code (mcp.json and settings.json) and Windsurf where those clients
// keep them on this operating system, and returns the files that exist,
// in that order. A file that cannot be imported is returned with its
// Error, not left out. Importing one goes through PreviewImport with its
// path, then Import with the preview's token.
func (s *MCPPool) DetectConfigs() ([]importer.Detected, error) {
	return s.importer.DetectConfigs()
}
