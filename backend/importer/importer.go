// Package importer brings other clients' MCP servers into MCP Desk
// (SPEC F3, F6): it finds the configs of Claude Desktop, Cursor, VS Code
// and Windsurf on this machine, previews what importing a file would do,
// and imports exactly the servers the user saw. It reads files and the
// configured servers and adds servers through Servers; the bound MCPPool
// exposes it to the window.
package importer

import (
	"crypto/rand"
	"fmt"
	"slices"
	"sync"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/usererr"
)

// Servers is what the importer needs of the MCP pool.
type Servers interface {
	// Config returns the configured servers.
	Config() mcpconfig.Config
	// Import adds servers (one with a configured id replaces it).
	Import(servers []mcpconfig.Server) (added, replaced []string, err error)
}

// Importer previews and imports config files into Servers.
type Importer struct {
	servers  Servers
	previews previews
}

// New returns an Importer adding to servers.
func New(servers Servers) *Importer { return &Importer{servers: servers} }

// Preview shows what importing a config file would do: every server
// in it with everything it will run or send (secret values masked, never
// sent here), warnings, and for a server that replaces a configured one
// what changes. An entry with mistakes is listed too, in file order, with
// its problems and their positions (ServerPreview.Problems); it cannot be
// imported. Import(Token, ids) imports exactly the servers without
// problems.
type Preview struct {
	// Token names the servers this preview showed, kept for Import.
	Token  string                    `json:"token"`
	File   string                    `json:"file"`
	Format string                    `json:"format" ts_type:"'cursor' | 'claude' | 'vscode' | 'windsurf' | 'cline' | 'mcpdesk'"`
	Items  []mcpconfig.ServerPreview `json:"items"`
}

// Result says what an import changed.
type Result struct {
	Added    []string `json:"added"`
	Replaced []string `json:"replaced"`
}

// Importing another client's servers (SPEC F3, F6) is two calls: a preview
// that reads the file once and shows everything its servers will run or
// send, and Import, which adds the previewed servers — the very ones the
// user saw, kept under the preview's token, never the file read again.

// ErrPreviewGone is returned by Import for a token it does not hold: the
// preview was already imported, or so many others were made since that it
// was dropped.
var ErrPreviewGone error = usererr.New(usererr.ImportGone, nil)

// MaxPreviews bounds the previews kept for Import. A preview holds one
// file's servers (at most MaxImportFile bytes of them); the dialog imports
// the newest, and the first-run welcome previews a handful of files.
const MaxPreviews = 8

// MaxImportFile bounds a file to import: configs are a few kilobytes.
const MaxImportFile = 4 << 20

// previews holds the servers of the latest previews, by token, oldest
// first.
type previews struct {
	mu   sync.Mutex
	list []heldPreview
}

type heldPreview struct {
	token   string
	file    string
	servers []mcpconfig.Server
	// broken are the ids of the entries that have problems: shown, never
	// imported.
	broken []string
}

// hold keeps the importable servers of a file (and the ids of its broken
// entries) under a new token, dropping the oldest preview beyond
// MaxPreviews.
func (p *previews) hold(file string, servers []mcpconfig.Server, broken []string) string {
	token := rand.Text()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, heldPreview{token: token, file: file, servers: servers, broken: broken})
	if n := len(p.list) - MaxPreviews; n > 0 {
		p.list = slices.Delete(p.list, 0, n)
	}
	return token
}

// get returns the preview held under token.
func (p *previews) get(token string) (heldPreview, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := slices.IndexFunc(p.list, func(h heldPreview) bool { return h.token == token })
	if i < 0 {
		return heldPreview{}, false
	}
	return p.list[i], true
}

// drop forgets the preview held under token.
func (p *previews) drop(token string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = slices.DeleteFunc(p.list, func(h heldPreview) bool { return h.token == token })
}

// PreviewImport reads a Claude Desktop, Cursor, VS Code, Windsurf, Cline or
// MCP Desk config and shows what importing it would do: each server with
// everything it runs or sends (secrets masked), warnings, and what changes
// for a server it replaces. An entry with mistakes is shown with its
// problems and their positions in the file, and cannot be imported; the
// others can (issue 12). Only a file that is not JSON or holds no server
// list fails as a whole. Import(preview.Token, ids) then adds exactly
// these servers; the file is not read again.
func (s *Importer) PreviewImport(path string) (Preview, error) {
	data, err := mcpconfig.ReadImportFile(path, MaxImportFile)
	if err != nil {
		return Preview{}, err
	}
	return s.preview(path, data)
}

// PreviewImportData is PreviewImport for a file dropped on the window: the
// page has its name and content, not its path (SPEC F3).
func (s *Importer) PreviewImportData(name, content string) (Preview, error) {
	if len(content) > MaxImportFile {
		return Preview{}, usererr.New(usererr.FileTooLarge, usererr.Params{"path": name, "size": len(content) >> 20})
	}
	return s.preview(name, []byte(content))
}

func (s *Importer) preview(file string, data []byte) (Preview, error) {
	format, entries, err := mcpconfig.ReadImport(file, data)
	if err != nil {
		return Preview{}, err
	}
	var (
		servers []mcpconfig.Server
		broken  []string
	)
	for _, e := range entries {
		if e.Valid() {
			servers = append(servers, e.Server)
		} else {
			broken = append(broken, e.Server.ID)
		}
	}
	return Preview{
		Token:  s.previews.hold(file, servers, broken),
		File:   file,
		Format: format,
		Items:  mcpconfig.PreviewEntries(s.servers.Config().Servers, entries),
	}, nil
}

// Import adds the servers of the preview with this token to the app's
// config: those whose ids are listed, or all of them when ids is empty —
// never an entry the preview showed with problems. A server with the id of
// a configured one replaces it. The preview is used up by a successful
// import.
func (s *Importer) Import(token string, ids []string) (Result, error) {
	held, ok := s.previews.get(token)
	if !ok {
		return Result{}, ErrPreviewGone
	}
	servers := held.servers
	if len(ids) > 0 {
		for _, id := range ids {
			if !slices.ContainsFunc(servers, func(srv mcpconfig.Server) bool { return srv.ID == id }) {
				if slices.Contains(held.broken, id) {
					return Result{}, fmt.Errorf("import from %s: %w", held.file, usererr.New(usererr.ImportHasErrors, usererr.Params{"server": id}))
				}
				return Result{}, fmt.Errorf("import from %s: %w", held.file, usererr.New(usererr.ImportNoSuchItem, usererr.Params{"server": id}))
			}
		}
		servers = slices.DeleteFunc(slices.Clone(servers), func(srv mcpconfig.Server) bool { return !slices.Contains(ids, srv.ID) })
	}
	added, replaced, err := s.servers.Import(servers)
	if err != nil {
		return Result{}, err
	}
	s.previews.drop(token)
	return Result{Added: nonNil(added), Replaced: nonNil(replaced)}, nil
}

// The first-run part of the bound surface (SPEC F6): the MCP configs of
// other clients found on this machine. Importing one goes through
// PreviewImport with its path, like a file the user chose, then Import with
// the preview's token.

// Detected is an MCP config file of another client found on this
// machine.
type Detected struct {
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
func (s *Importer) DetectConfigs() ([]Detected, error) {
	m, err := mcpconfig.ThisMachine()
	if err != nil {
		return nil, err
	}
	return s.detected(m.FindConfigs()), nil
}

// detected converts found configs for the frontend.
func (s *Importer) detected(found []mcpconfig.FoundConfig) []Detected {
	existing := s.servers.Config().Servers
	out := make([]Detected, 0, len(found))
	for _, f := range found {
		// Other clients' ids are made valid (mcpconfig idShape): safe to show.
		d := Detected{Client: f.Client, Path: f.Path, Servers: []string{}, Configured: []string{}, Broken: nonNil(f.Broken)}
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

// nonNil returns s, or an empty list for nil (the UI reads a list).
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
