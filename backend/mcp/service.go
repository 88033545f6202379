package mcp

import (
	"context"
	"fmt"
	"os"
	"slices"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
)

// FilePicker opens the platform's file dialog. app.go provides it; the
// backend never touches the Wails runtime itself.
type FilePicker interface {
	// OpenFile returns the chosen path, or "" when the user cancelled.
	OpenFile(title string) (string, error)
	// OpenFolder returns the chosen folder, or "" when the user cancelled.
	OpenFolder(title string) (string, error)
}

// MCPPool is the service bound to the frontend: every exported method is
// callable from JavaScript and runs on its own goroutine. It exposes what
// the Servers screen and the logger need, and never a secret value.
type MCPPool struct {
	pool   *Pool
	picker FilePicker
	desk   *ElicitationDesk
	saved  SavedRequestStore
	audit  ToolCallAuditor // nil: calls are not audited
}

// SavedRequestStore keeps saved tool requests; *store.Store is one.
type SavedRequestStore interface {
	SavedRequests(ctx context.Context, server string) ([]store.SavedRequest, error)
	SaveRequest(ctx context.Context, r store.SavedRequest) (store.SavedRequest, error)
	DeleteSavedRequest(ctx context.Context, id int64) error
}

// WithSavedRequests lets the Tools tab keep requests in st.
func WithSavedRequests(st SavedRequestStore) ServiceOption {
	return func(s *MCPPool) { s.saved = st }
}

// ServiceOption configures NewService.
type ServiceOption func(*MCPPool)

// WithElicitationDesk lets AnswerElicitation answer the desk's questions;
// pass the same desk to the pool as its Elicitor.
func WithElicitationDesk(d *ElicitationDesk) ServiceOption {
	return func(s *MCPPool) { s.desk = d }
}

// NewService returns the bound service over pool.
func NewService(pool *Pool, picker FilePicker, opts ...ServiceOption) *MCPPool {
	s := &MCPPool{pool: pool, picker: picker}
	for _, o := range opts {
		o(s)
	}
	s.loadDefaults() // the stored default timeout, before the pool starts
	return s
}

// ListServers returns every configured server with its status.
func (s *MCPPool) ListServers() ([]ServerView, error) {
	states := s.pool.Servers()
	out := make([]ServerView, 0, len(states))
	for _, st := range states {
		out = append(out, ServerView{Spec: specFromConfig(st.Config), Status: st.Status})
	}
	return out, nil
}

// SaveServer adds (originalID "") or updates a server and returns it as
// stored. Env and header pairs with Keep set keep their stored values.
func (s *MCPPool) SaveServer(originalID string, spec ServerSpec) (ServerView, error) {
	var prev mcpconfig.Server
	if originalID != "" {
		var err error
		if prev, err = s.pool.Server(originalID); err != nil {
			return ServerView{}, err
		}
	}
	srv, err := configFromSpec(spec, prev)
	if err != nil {
		return ServerView{}, err
	}
	if err := s.pool.SaveServer(originalID, srv); err != nil {
		return ServerView{}, err
	}
	st, _ := s.pool.Status(srv.ID)
	stored, _ := s.pool.Server(srv.ID)
	return ServerView{Spec: specFromConfig(stored), Status: st}, nil
}

// RemoveServer removes a server and disconnects it.
func (s *MCPPool) RemoveServer(id string) error { return s.pool.RemoveServer(id) }

// SetEnabled enables or disables a server.
func (s *MCPPool) SetEnabled(id string, enabled bool) error { return s.pool.SetEnabled(id, enabled) }

// Restart reconnects a server now.
func (s *MCPPool) Restart(id string) error { return s.pool.Restart(id) }

// ChooseImportFile asks the user for a config file to import; "" when they
// cancelled.
func (s *MCPPool) ChooseImportFile() (string, error) {
	if s.picker == nil {
		return "", fmt.Errorf("no file dialog available")
	}
	return s.picker.OpenFile("Import MCP servers")
}

// ChooseFolder asks the user for a folder (a server's root); "" when they
// cancelled.
func (s *MCPPool) ChooseFolder() (string, error) {
	if s.picker == nil {
		return "", fmt.Errorf("no file dialog available")
	}
	return s.picker.OpenFolder("Choose a folder the server may use")
}

// PreviewImport reads a Claude Desktop, Cursor, VS Code, Windsurf, Cline or
// MCP Desk config and says which servers it would add or replace.
func (s *MCPPool) PreviewImport(path string) (ImportPreview, error) {
	format, servers, err := readImport(path)
	if err != nil {
		return ImportPreview{}, err
	}
	return s.preview(path, format, servers), nil
}

// PreviewImportData is PreviewImport for a file dropped on the window: the
// page has its name and content, not its path (SPEC F3).
func (s *MCPPool) PreviewImportData(name, content string) (ImportPreview, error) {
	format, servers, err := parseDropped(name, content)
	if err != nil {
		return ImportPreview{}, err
	}
	return s.preview(name, format, servers), nil
}

func (s *MCPPool) preview(file, format string, servers []mcpconfig.Server) ImportPreview {
	existing := s.pool.Config()
	p := ImportPreview{File: file, Format: format, Items: []ImportItem{}}
	for _, srv := range servers {
		p.Items = append(p.Items, ImportItem{
			ID:        srv.ID,
			Transport: string(srv.Effective()),
			Summary:   srv.Summary(),
			Replaces:  slices.ContainsFunc(existing.Servers, func(e mcpconfig.Server) bool { return e.ID == srv.ID }),
		})
	}
	return p
}

// Import merges the chosen servers (by id) of a config file into the app's
// config. An empty ids list imports every server in the file.
func (s *MCPPool) Import(path string, ids []string) (ImportResult, error) {
	_, servers, err := readImport(path)
	if err != nil {
		return ImportResult{}, err
	}
	return s.importServers(servers, ids)
}

// ImportData is Import for a file dropped on the window.
func (s *MCPPool) ImportData(name, content string, ids []string) (ImportResult, error) {
	_, servers, err := parseDropped(name, content)
	if err != nil {
		return ImportResult{}, err
	}
	return s.importServers(servers, ids)
}

func (s *MCPPool) importServers(servers []mcpconfig.Server, ids []string) (ImportResult, error) {
	if len(ids) > 0 {
		servers = slices.DeleteFunc(servers, func(srv mcpconfig.Server) bool { return !slices.Contains(ids, srv.ID) })
	}
	added, replaced, err := s.pool.Import(servers)
	if err != nil {
		return ImportResult{}, err
	}
	return ImportResult{Added: nonNil(added), Replaced: nonNil(replaced)}, nil
}

// maxDroppedConfig bounds a dropped file: configs are a few kilobytes.
const maxDroppedConfig = 4 << 20

// parseDropped recognises a dropped config by its name and content.
func parseDropped(name, content string) (string, []mcpconfig.Server, error) {
	if len(content) > maxDroppedConfig {
		return "", nil, fmt.Errorf("%s is %d MB: not an MCP config file", name, len(content)>>20)
	}
	return mcpconfig.DetectAndParse(name, []byte(content))
}

// RPCLog returns the JSON-RPC messages held by the logger, oldest first.
func (s *MCPPool) RPCLog() ([]events.RPCEntry, error) { return s.pool.Log().Entries(), nil }

// ClearRPCLog empties the JSON-RPC logger.
func (s *MCPPool) ClearRPCLog() error {
	s.pool.Log().Clear()
	return nil
}

// ConfigFile returns the path of mcp.config.json.
func (s *MCPPool) ConfigFile() string { return s.pool.ConfigPath() }

// readImport reads and recognises a config file of another client.
func readImport(path string) (string, []mcpconfig.Server, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", nil, fmt.Errorf("read %s: %w", path, err)
	}
	return mcpconfig.DetectAndParse(path, data)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// specFromConfig converts a stored server to its editable form, withholding
// env and header values.
func specFromConfig(c mcpconfig.Server) ServerSpec {
	return ServerSpec{
		ID:              c.ID,
		Type:            string(c.Effective()),
		Command:         c.Command,
		Args:            nonNil(c.Args),
		Env:             withheld(c.Env),
		Cwd:             c.Cwd,
		URL:             c.URL,
		Headers:         withheld(c.Headers),
		Enabled:         isEnabled(c),
		TimeoutMs:       c.TimeoutMs,
		MaxConcurrency:  c.MaxConcurrency,
		ProtocolVersion: c.ProtocolVersion,
		Roots:           nonNil(c.Roots),
	}
}

func withheld(m map[string]string) []SecretPair {
	out := make([]SecretPair, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, SecretPair{Key: k, Keep: true})
	}
	return out
}

// configFromSpec converts the form back, taking kept secret values from
// prev. Fields the form does not edit (allow/deny lists, unknown fields)
// are carried over from prev.
func configFromSpec(spec ServerSpec, prev mcpconfig.Server) (mcpconfig.Server, error) {
	env, err := merged("env", spec.Env, prev.Env)
	if err != nil {
		return mcpconfig.Server{}, err
	}
	headers, err := merged("header", spec.Headers, prev.Headers)
	if err != nil {
		return mcpconfig.Server{}, err
	}
	srv := prev
	srv.ID = spec.ID
	srv.Type = mcpconfig.Transport(spec.Type)
	srv.Command, srv.Args, srv.Env, srv.Cwd = "", nil, nil, ""
	srv.URL, srv.Headers = "", nil
	switch srv.Type {
	case mcpconfig.Stdio:
		srv.Command, srv.Args, srv.Env, srv.Cwd = spec.Command, slices.Clone(spec.Args), env, spec.Cwd
		// Cursor-format files leave type out for stdio servers.
		if prev.Type == "" {
			srv.Type = ""
		}
	case mcpconfig.HTTP, mcpconfig.SSE:
		srv.URL, srv.Headers = spec.URL, headers
	default:
		return mcpconfig.Server{}, fmt.Errorf("server %q: field \"type\": must be stdio, http or sse, not %q", spec.ID, spec.Type)
	}
	srv.Enabled = nil
	if !spec.Enabled {
		f := false
		srv.Enabled = &f
	}
	srv.TimeoutMs, srv.MaxConcurrency, srv.ProtocolVersion = spec.TimeoutMs, spec.MaxConcurrency, spec.ProtocolVersion
	srv.Roots = nil
	if len(spec.Roots) > 0 {
		srv.Roots = slices.Clone(spec.Roots)
	}
	return srv, nil
}

func merged(what string, pairs []SecretPair, prev map[string]string) (map[string]string, error) {
	if len(pairs) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(pairs))
	for _, p := range pairs {
		if p.Key == "" {
			return nil, fmt.Errorf("%s: a name is required", what)
		}
		if _, dup := out[p.Key]; dup {
			return nil, fmt.Errorf("%s %q: given twice", what, p.Key)
		}
		if p.Keep {
			v, ok := prev[p.Key]
			if !ok {
				return nil, fmt.Errorf("%s %q: no stored value to keep; enter a value", what, p.Key)
			}
			out[p.Key] = v
			continue
		}
		out[p.Key] = p.Value
	}
	return out, nil
}
