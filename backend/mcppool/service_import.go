package mcppool

import (
	"crypto/rand"
	"fmt"
	"slices"
	"sync"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/usererr"
)

// Importing another client's servers (SPEC F3, F6) is two calls: a preview
// that reads the file once and shows everything its servers will run or
// send, and Import, which adds the previewed servers — the very ones the
// user saw, kept under the preview's token, never the file read again.

// ErrPreviewGone is returned by Import for a token it does not hold: the
// preview was already imported, or so many others were made since that it
// was dropped.
var ErrPreviewGone error = usererr.New(usererr.ImportGone, nil)

// maxPreviews bounds the previews kept for Import. A preview holds one
// file's servers (at most maxImportFile bytes of them); the dialog imports
// the newest, and the first-run welcome previews a handful of files.
const maxPreviews = 8

// maxImportFile bounds a file to import: configs are a few kilobytes.
const maxImportFile = 4 << 20

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
// maxPreviews.
func (p *previews) hold(file string, servers []mcpconfig.Server, broken []string) string {
	token := rand.Text()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, heldPreview{token: token, file: file, servers: servers, broken: broken})
	if n := len(p.list) - maxPreviews; n > 0 {
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
func (s *MCPPool) PreviewImport(path string) (ImportPreview, error) {
	data, err := mcpconfig.ReadImportFile(path, maxImportFile)
	if err != nil {
		return ImportPreview{}, err
	}
	return s.preview(path, data)
}

// PreviewImportData is PreviewImport for a file dropped on the window: the
// page has its name and content, not its path (SPEC F3).
func (s *MCPPool) PreviewImportData(name, content string) (ImportPreview, error) {
	if len(content) > maxImportFile {
		return ImportPreview{}, usererr.New(usererr.FileTooLarge, usererr.Params{"path": name, "size": len(content) >> 20})
	}
	return s.preview(name, []byte(content))
}

func (s *MCPPool) preview(file string, data []byte) (ImportPreview, error) {
	format, entries, err := mcpconfig.ReadImport(file, data)
	if err != nil {
		return ImportPreview{}, err
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
	return ImportPreview{
		Token:  s.previews.hold(file, servers, broken),
		File:   file,
		Format: format,
		Items:  mcpconfig.PreviewEntries(s.pool.Config().Servers, entries),
	}, nil
}

// Import adds the servers of the preview with this token to the app's
// config: those whose ids are listed, or all of them when ids is empty —
// never an entry the preview showed with problems. A server with the id of
// a configured one replaces it. The preview is used up by a successful
// import.
func (s *MCPPool) Import(token string, ids []string) (ImportResult, error) {
	held, ok := s.previews.get(token)
	if !ok {
		return ImportResult{}, ErrPreviewGone
	}
	servers := held.servers
	if len(ids) > 0 {
		for _, id := range ids {
			if !slices.ContainsFunc(servers, func(srv mcpconfig.Server) bool { return srv.ID == id }) {
				if slices.Contains(held.broken, id) {
					return ImportResult{}, fmt.Errorf("import from %s: %w", held.file, usererr.New(usererr.ImportHasErrors, usererr.Params{"server": id}))
				}
				return ImportResult{}, fmt.Errorf("import from %s: %w", held.file, usererr.New(usererr.ImportNoSuchItem, usererr.Params{"server": id}))
			}
		}
		servers = slices.DeleteFunc(slices.Clone(servers), func(srv mcpconfig.Server) bool { return !slices.Contains(ids, srv.ID) })
	}
	added, replaced, err := s.pool.Import(servers)
	if err != nil {
		return ImportResult{}, err
	}
	s.previews.drop(token)
	return ImportResult{Added: nonNil(added), Replaced: nonNil(replaced)}, nil
}
