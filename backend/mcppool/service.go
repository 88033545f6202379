package mcppool

import (
	"fmt"
	"slices"
	"strings"

	"mcpdesk/backend/events"
	"mcpdesk/backend/importer"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/usererr"
)

// FilePicker opens the platform's file dialog. app.go provides it; the
// backend never touches the Wails runtime itself.
type FilePicker interface {
	// OpenFile returns the chosen path, or "" when the user cancelled.
	OpenFile(title string) (string, error)
	// OpenFolder returns the chosen folder, or "" when the user cancelled.
	OpenFolder(title string) (string, error)
	// SaveFile returns where to save, or "" when the user cancelled.
	SaveFile(title, defaultName string) (string, error)
}

// MCPPool is the service bound to the frontend: every exported method is
// callable from JavaScript and runs on its own goroutine. It exposes what
// the Servers screen and the logger need, and never a secret value.
type MCPPool struct {
	pool   *Pool
	picker FilePicker
	desk   *ElicitationDesk
	saved  SavedRequestStore
	// settings keeps the server defaults (nil: they cannot be changed).
	settings SettingStore
	audit    ToolCallAuditor // nil: calls are not audited
	// viewApprover applies the chat's policies to views' calls (nil: ask).
	viewApprover ViewApprover
	// importer previews and imports other clients' configs.
	importer *importer.Importer
	// runs are the sign-ins waiting in the browser (service_auth.go).
	runs signInRuns
}

// WithSettings lets the Settings screen read and change the server
// defaults kept in st. The pool starts with the stored ones (see
// Options.Defaults); a change applies to it at once.
func WithSettings(st SettingStore) ServiceOption {
	return func(s *MCPPool) { s.settings = st }
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
	s := &MCPPool{pool: pool, picker: picker, importer: importer.New(pool)}
	for _, o := range opts {
		o(s)
	}
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
// stored. Env and header pairs with Keep set keep their stored values;
// pairs with Secret set go to the OS keychain, and the config file holds a
// reference in their place.
// A server that (re)starts is given a bounded time to do so: the returned
// status is its first start attempt's outcome — connected, or failed and
// why — or still connecting when the attempt takes longer.
func (s *MCPPool) SaveServer(originalID string, spec ServerSpec) (ServerView, error) {
	var prev mcpconfig.Server
	if originalID != "" {
		var err error
		if prev, err = s.pool.Server(originalID); err != nil {
			return ServerView{}, err
		}
	}
	srv, put, err := configFromSpec(spec, prev, s.pool.opts.Secrets)
	if err != nil {
		return ServerView{}, err
	}
	if err := s.pool.SaveServerSecrets(originalID, srv, put); err != nil {
		return ServerView{}, err
	}
	st := s.startOutcome(srv.ID)
	stored, _ := s.pool.Server(srv.ID)
	return ServerView{Spec: specFromConfig(stored), Status: st}, nil
}

// RemoveServer removes a server and disconnects it.
func (s *MCPPool) RemoveServer(id string) error { return s.pool.RemoveServer(id) }

// SetEnabled enables or disables a server and returns it as stored. A
// server turned on is given a bounded time to start, as in SaveServer.
func (s *MCPPool) SetEnabled(id string, enabled bool) (ServerView, error) {
	if err := s.pool.SetEnabled(id, enabled); err != nil {
		return ServerView{}, err
	}
	st := s.startOutcome(id)
	stored, err := s.pool.Server(id)
	if err != nil {
		return ServerView{}, err
	}
	return ServerView{Spec: specFromConfig(stored), Status: st}, nil
}

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

// RPCLog returns the JSON-RPC messages held by the logger, oldest first.
func (s *MCPPool) RPCLog() ([]events.RPCEntry, error) { return s.pool.Log().Entries(), nil }

// ClearRPCLog empties the JSON-RPC logger.
func (s *MCPPool) ClearRPCLog() error {
	s.pool.Log().Clear()
	return nil
}

// ConfigFile returns the path of mcp.config.json.
func (s *MCPPool) ConfigFile() string { return s.pool.ConfigPath() }

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// specFromConfig converts a stored server to its editable form: plain env
// and header values as they are, secrets withheld (see SecretPair).
func specFromConfig(c mcpconfig.Server) ServerSpec {
	return ServerSpec{
		ID:              c.ID,
		Type:            c.Effective(),
		Command:         c.Command,
		Args:            nonNil(c.Args),
		Env:             withheld(c.ID, mcpconfig.EnvPair, c.Env),
		Cwd:             c.Cwd,
		URL:             c.URL,
		Headers:         withheld(c.ID, mcpconfig.HeaderPair, c.Headers),
		Auth:            c.Auth,
		OAuth:           withheld(c.ID, mcpconfig.OAuthPair, c.OAuth),
		Enabled:         isEnabled(c),
		TimeoutMs:       c.TimeoutMs,
		MaxConcurrency:  c.MaxConcurrency,
		MaxMessageBytes: c.MaxMessageBytes,
		ProtocolVersion: c.ProtocolVersion,
		Roots:           nonNil(c.Roots),
	}
}

// withheld returns the pairs of m as the form shows them: a keychain
// reference or a value that looks secret as a kept secret without its
// value, any other value as it is.
func withheld(id string, kind mcpconfig.PairKind, m map[string]string) []SecretPair {
	out := make([]SecretPair, 0, len(m))
	for _, k := range sortedKeys(m) {
		v := m[k]
		switch {
		case mcpconfig.MentionsKeychain(v):
			out = append(out, SecretPair{Key: k, Keep: true, Secret: true})
		case mcpconfig.LooksSecret(kind, k, v):
			out = append(out, SecretPair{Key: k, Keep: true, Secret: true, InFile: true})
		default:
			out = append(out, SecretPair{Key: k, Value: v})
		}
	}
	return out
}

// configFromSpec converts the form back, taking kept values from prev (and
// from the keychain, through store, when one moves). Pairs marked Secret
// become keychain references; put returns the keychain entries to write
// (entry → value). Fields the form does not edit (allow/deny lists, unknown
// fields) are carried over from prev.
func configFromSpec(spec ServerSpec, prev mcpconfig.Server, store SecretStore) (srv mcpconfig.Server, put map[string]string, err error) {
	m := pairMerge{id: spec.ID, prev: prev, store: store, put: map[string]string{}}
	env, err := m.merge(mcpconfig.EnvPair, spec.Env)
	if err != nil {
		return mcpconfig.Server{}, nil, err
	}
	headers, err := m.merge(mcpconfig.HeaderPair, spec.Headers)
	if err != nil {
		return mcpconfig.Server{}, nil, err
	}
	oauthSet, err := m.merge(mcpconfig.OAuthPair, slices.DeleteFunc(slices.Clone(spec.OAuth), func(p SecretPair) bool { return p.Value == "" && !p.Keep }))
	if err != nil {
		return mcpconfig.Server{}, nil, err
	}
	srv = prev
	srv.ID = spec.ID
	srv.Type = spec.Type
	srv.Command, srv.Args, srv.Env, srv.Cwd = "", nil, nil, ""
	srv.URL, srv.Headers, srv.Auth, srv.OAuth = "", nil, "", nil
	switch srv.Type {
	case mcpconfig.Stdio:
		srv.Command, srv.Args, srv.Env, srv.Cwd = spec.Command, slices.Clone(spec.Args), env, spec.Cwd
		// Cursor-format files leave type out for stdio servers.
		if prev.Type == "" {
			srv.Type = ""
		}
		m.drop(mcpconfig.HeaderPair)
		m.drop(mcpconfig.OAuthPair)
	case mcpconfig.HTTP, mcpconfig.SSE:
		srv.URL, srv.Headers, srv.Auth, srv.OAuth = spec.URL, headers, spec.Auth, oauthSet
		m.drop(mcpconfig.EnvPair)
	default:
		return mcpconfig.Server{}, nil, usererr.New(usererr.FormBadTransport, usererr.Params{"server": spec.ID, "type": spec.Type})
	}
	srv.Enabled = nil
	if !spec.Enabled {
		f := false
		srv.Enabled = &f
	}
	srv.TimeoutMs, srv.MaxConcurrency, srv.ProtocolVersion = spec.TimeoutMs, spec.MaxConcurrency, spec.ProtocolVersion
	srv.MaxMessageBytes = spec.MaxMessageBytes
	srv.Roots = nil
	if len(spec.Roots) > 0 {
		srv.Roots = slices.Clone(spec.Roots)
	}
	return srv, m.put, nil
}

// pairMerge turns the form's pairs back into config values.
type pairMerge struct {
	id    string // the server's id as saved
	prev  mcpconfig.Server
	store SecretStore
	put   map[string]string // keychain entry → value
}

// merge returns the config values of pairs of kind.
func (m *pairMerge) merge(kind mcpconfig.PairKind, pairs []SecretPair) (map[string]string, error) {
	if len(pairs) == 0 {
		return nil, nil
	}
	prev := pairsOf(m.prev, kind)
	out := make(map[string]string, len(pairs))
	for _, p := range pairs {
		if p.Key == "" {
			return nil, usererr.New(usererr.FormPairNameRequired, usererr.Params{"kind": string(kind)})
		}
		if _, dup := out[p.Key]; dup {
			return nil, usererr.New(usererr.FormPairGivenTwice, usererr.Params{"kind": string(kind), "name": p.Key})
		}
		ref := mcpconfig.KeychainRef(m.id, kind, p.Key)
		value := p.Value
		if p.Keep {
			stored, ok := prev[p.Key]
			if !ok {
				return nil, usererr.New(usererr.FormPairNothingToKeep, usererr.Params{"kind": string(kind), "name": p.Key})
			}
			if p.Secret && stored == ref {
				out[p.Key] = ref // unchanged, in the keychain already
				continue
			}
			v, isRef, err := resolveKeychain(m.store, m.prev.ID, kind, p.Key, stored)
			if err != nil {
				return nil, err
			}
			if isRef {
				stored = v
			}
			value = stored
		}
		if p.Secret {
			out[p.Key] = ref
			m.put[mcpconfig.KeychainEntry(m.id, kind, p.Key)] = value
			continue
		}
		out[p.Key] = value
	}
	return out, nil
}

// drop forgets the values of kind: a server that changed transport keeps
// no env (or no headers), so nothing of that kind goes to the keychain.
func (m *pairMerge) drop(kind mcpconfig.PairKind) {
	for k := range m.put {
		if strings.HasPrefix(k, mcpconfig.KeychainEntry(m.id, kind, "")) {
			delete(m.put, k)
		}
	}
}
