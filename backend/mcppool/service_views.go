package mcppool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/apps"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
)

// ViewPage is a view ready to be framed: where its sandbox page is, the
// policy it runs under, what it declared (shown to the user), and whether
// its HTML changed since it was last shown.
type ViewPage struct {
	// Token names the page; CloseView takes it.
	Token  string `json:"token"`
	Server string `json:"server"`
	URI    string `json:"uri"`
	// Kind is "mcp-app", or "apps-sdk" for an Apps SDK widget (it runs
	// with a window.openai made of MCP Apps messages).
	Kind string `json:"kind"`
	// URL is the external page an MCP-UI text/uri-list frames ("" otherwise).
	URL string `json:"url"`
	// Path is the page's address on the app's origin.
	Path string `json:"path"`
	// CSP is the Content-Security-Policy the view runs under.
	CSP string `json:"csp"`
	// Allow is the iframe allow attribute (declared permissions only).
	Allow string `json:"allow"`
	// Domains are the external origins the view declared and got.
	Domains ViewDomains `json:"domains"`
	// Refused are declared entries that were not origins and were left out.
	Refused       []string `json:"refused"`
	PrefersBorder bool     `json:"prefersBorder"`
	Hash          string   `json:"hash"`
	// PreviousHash is the hash shown before, when the HTML changed.
	PreviousHash string `json:"previousHash"`
}

// ViewDomains are a view's declared origins, by what they allow.
type ViewDomains struct {
	Connect  []string `json:"connect"`
	Resource []string `json:"resource"`
	Frame    []string `json:"frame"`
	BaseURI  []string `json:"baseUri"`
}

// OpenView reads the view uri (a ui:// resource) of server and makes a
// sandbox page for it; CloseView when it goes away.
func (s *MCPPool) OpenView(server, uri string) (ViewPage, error) {
	v, page, err := s.pool.OpenView(s.pool.context(), server, uri)
	if err != nil {
		return ViewPage{}, err
	}
	return pageOf(v, page), nil
}

// pageOf is what the UI is told of a page.
func pageOf(v apps.View, page apps.Page) ViewPage {
	return ViewPage{Token: page.Token, Server: v.Server, URI: v.URI, Kind: v.Kind, URL: v.URL, Path: page.Path, CSP: page.CSP, Allow: page.Allow,
		Refused: nonNil(v.Policy.Refused), Hash: v.Hash, PreviousHash: v.PreviousHash,
		PrefersBorder: v.Meta.PrefersBorder == nil || *v.Meta.PrefersBorder,
		Domains:       domainsOf(v.Meta.CSP, v.Policy.Refused)}
}

// EmbeddedUI is an MCP-UI resource embedded in a tool's result: its
// ui:// URI, type, and text or base64 blob.
type EmbeddedUI struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType"`
	Text     string `json:"text"`
	Blob     string `json:"blob"`
}

// OpenEmbeddedView makes a sandbox page for an MCP-UI resource that a tool
// of server returned: raw HTML under the restrictive default policy, or an
// external http(s) page (the UI asks the user first) that only its origin
// may be framed from. Its calls go to server, as a view's do.
func (s *MCPPool) OpenEmbeddedView(server string, res EmbeddedUI) (ViewPage, error) {
	v, page, err := s.pool.OpenEmbeddedView(server, apps.Embedded{URI: res.URI, MIMEType: res.MIMEType, Text: res.Text, Blob: res.Blob})
	if err != nil {
		return ViewPage{}, err
	}
	return pageOf(v, page), nil
}

// CloseView forgets the page of a view that was torn down.
func (s *MCPPool) CloseView(token string) { s.pool.CloseView(token) }

// ViewToolCall is a tools/call a view asked for, after the user allowed
// it. Token names the view's page: the call can only go to that view's
// server.
type ViewToolCall struct {
	Token     string         `json:"token"`
	CallID    string         `json:"callId"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	// ConversationID is the conversation the view is shown in (0: the
	// Tools tab): its approval policies decide whether the user is asked.
	ConversationID int64 `json:"conversationId"`
	// UserApproved says the user allowed this call when asked.
	UserApproved bool `json:"userApproved"`
}

// ViewVerdict is what the chat's approval policies say of a view's call.
type ViewVerdict string

// The verdicts.
const (
	ViewRun     ViewVerdict = "run"     // a policy lets it run without asking
	ViewAsk     ViewVerdict = "ask"     // the user is asked
	ViewDecline ViewVerdict = "decline" // a policy refuses it without asking
)

// ViewApprover applies the chat's approval policies to a view's call in a
// conversation, as to the model's (chat.Engine).
type ViewApprover interface {
	ViewCallVerdict(ctx context.Context, conversationID int64, server, tool string) (store.Approval, ViewVerdict)
}

// WithViewApprover lets the chat's approval policies decide a view's calls
// in a conversation; without it (and in the Tools tab) the user is asked.
func WithViewApprover(a ViewApprover) ServiceOption {
	return func(s *MCPPool) { s.viewApprover = a }
}

// CallToolFromView runs a view's tools/call on the view's own server, and
// only a tool whose visibility includes "app"; anything else is refused
// before it reaches the server. In a conversation the chat's approval
// policies decide, as for the model's calls: a "never" refuses it, an
// allowing policy (or the read-only default) runs it, otherwise it needs
// UserApproved — without, usererr.ViewNeedsApproval comes back and the UI
// asks. Every call, refused or run, goes to the audit log with source
// "view" and the approval that let it run.
func (s *MCPPool) CallToolFromView(req ViewToolCall) (ToolCallOutcome, error) {
	page, ok := s.pool.ViewPages().Get(req.Token)
	if !ok {
		return ToolCallOutcome{}, usererr.New(usererr.ViewGone, nil)
	}
	call := ToolCallRequest{CallID: req.CallID, Server: page.Server, Tool: req.Tool, Arguments: req.Arguments}
	if err := s.pool.viewMayCall(page.Server, req.Tool); err != nil {
		s.auditView(call, nil, 0, err, store.AuditDeclined, store.ApprovalUser)
		s.pool.logViewBlocked(page.Server, "tools/call "+req.Tool, err.Error())
		return ToolCallOutcome{}, err
	}
	ctx := s.pool.context()
	approval, verdict := store.ApprovalUser, ViewAsk
	if req.ConversationID != 0 && s.viewApprover != nil {
		approval, verdict = s.viewApprover.ViewCallVerdict(ctx, req.ConversationID, page.Server, req.Tool)
	}
	params := usererr.Params{"server": page.Server, "tool": req.Tool}
	switch {
	case verdict == ViewDecline:
		err := usererr.New(usererr.ViewDeclinedByPolicy, params)
		s.auditView(call, nil, 0, err, store.AuditDeclined, approval)
		s.pool.logViewBlocked(page.Server, "tools/call "+req.Tool, err.Error())
		return ToolCallOutcome{}, err
	case verdict != ViewRun && !req.UserApproved:
		return ToolCallOutcome{}, usererr.New(usererr.ViewNeedsApproval, params)
	case verdict != ViewRun:
		approval = store.ApprovalUser
	}
	res, took, err := s.pool.CallToolTracked(ctx, call.CallID, call.Server, call.Tool, call.Arguments)
	s.auditView(call, res, took, err, "", approval)
	if err == nil && res == nil {
		err = errors.New("the server sent no result")
	}
	if err != nil {
		return ToolCallOutcome{}, fmt.Errorf("%s › %s: %w", call.Server, call.Tool, err)
	}
	return ToolCallOutcome{Result: *res, DurationMs: float64(took.Microseconds()) / 1000}, nil
}

// auditView logs a view's call (status forces the status of a refused one;
// approval says who or which policy decided).
func (s *MCPPool) auditView(req ToolCallRequest, res *mcp.CallToolResult, took time.Duration, err error, status string, approval store.Approval) {
	if s.audit == nil {
		return
	}
	e := auditEntry(req, res, took, err)
	e.Source, e.Approval = store.AuditView, approval
	if status != "" {
		e.Status = status
	}
	e.DefinitionHash = s.pool.toolHash(req.Server, req.Tool)
	s.audit.RecordToolCall(context.WithoutCancel(s.pool.context()), e)
}

// SetViewStorage gives the page of token the localStorage its view kept
// when it was last shown (in chat, kept with its tool call), before the
// page is framed: a JSON object of strings, at most apps.MaxViewStorage.
func (s *MCPPool) SetViewStorage(token, items string) error {
	err := s.pool.ViewPages().SetStorage(token, items)
	if errors.Is(err, apps.ErrNoPage) {
		return usererr.New(usererr.ViewGone, nil)
	}
	return err
}

// ViewFile is a file a view offers for download (ui/download-file): one
// embedded resource's URI, type, and text or base64 blob.
type ViewFile struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType"`
	Text     string `json:"text"`
	Blob     string `json:"blob"`
}

// SaveViewFile asks where to save a file the view of token offers — the
// save dialog is the user's consent — and writes it there. It returns the
// path, or "" when the user cancelled. At most apps.MaxFileBytes; the name
// offered is the URI's last segment, cleaned.
func (s *MCPPool) SaveViewFile(token string, f ViewFile) (string, error) {
	page, ok := s.pool.ViewPages().Get(token)
	if !ok {
		return "", usererr.New(usererr.ViewGone, nil)
	}
	data, err := apps.FileData(f.Text, f.Blob)
	if err != nil {
		return "", err
	}
	if s.picker == nil {
		return "", errors.New("there is no window to ask where to save")
	}
	path, err := s.picker.SaveFile("Save a file from the view of "+page.Server, apps.FileName(f.URI))
	if err != nil || path == "" {
		return "", err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	return path, nil
}

// LogViewMessage puts one JSON-RPC message between a view and MCP Desk in
// the logger, in the view lane (toView: MCP Desk sent it). A view that is
// gone is not logged.
func (s *MCPPool) LogViewMessage(token string, toView bool, payload string) {
	if page, ok := s.pool.ViewPages().Get(token); ok {
		s.pool.logView(page, toView, payload)
	}
}

// LogViewBlocked notes in the logger what MCP Desk refused a view (a link
// that is not http(s), a message the user declined, a malformed message).
func (s *MCPPool) LogViewBlocked(token, what, why string) {
	if page, ok := s.pool.ViewPages().Get(token); ok {
		s.pool.logViewBlocked(page.Server, what, why)
	}
}

// domainsOf lists what c declared, without what was refused.
func domainsOf(c *apps.CSP, refused []string) ViewDomains {
	d := ViewDomains{Connect: []string{}, Resource: []string{}, Frame: []string{}, BaseURI: []string{}}
	if c == nil {
		return d
	}
	keep := func(list []string) []string {
		out := []string{}
		for _, x := range list {
			if !slices.Contains(refused, x) {
				out = append(out, x)
			}
		}
		return out
	}
	d.Connect, d.Resource, d.Frame, d.BaseURI = keep(c.ConnectDomains), keep(c.ResourceDomains), keep(c.FrameDomains), keep(c.BaseURIDomains)
	return d
}
