package mcppool

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"mcpdesk/backend/apps"
	"mcpdesk/backend/events"
	"mcpdesk/backend/usererr"
)

// MCP Apps views (issue 15): a tool's _meta.ui.resourceUri names a ui://
// resource that the app shows as a sandbox page (backend/apps). The pool
// reads each view once per server and URI, reads it again after the
// server says it changed, and keeps the pages being shown.

// viewSet is the pool's views and pages.
type viewSet struct {
	views *apps.Views
	pages *apps.Pages
}

func (p *Pool) initViews() {
	p.apps = viewSet{views: apps.NewViews(p.ReadResource), pages: apps.NewPages()}
}

// ViewPages serves the pages of the views being shown; the window's asset
// server passes requests under websec.ViewPath to it.
func (p *Pool) ViewPages() *apps.Pages { return p.apps.pages }

// OpenView reads the view uri of server (cached) and makes a page for it.
func (p *Pool) OpenView(ctx context.Context, server, uri string) (apps.View, apps.Page, error) {
	v, err := p.apps.views.View(ctx, server, uri)
	if err != nil {
		return apps.View{}, apps.Page{}, err
	}
	page := p.apps.pages.Add(v)
	p.logViewOpened(v, page)
	return v, page, nil
}

// OpenEmbeddedView makes a page for an MCP-UI resource embedded in a
// result of server's tools.
func (p *Pool) OpenEmbeddedView(server string, e apps.Embedded) (apps.View, apps.Page, error) {
	if p.conn(server) == nil {
		return apps.View{}, apps.Page{}, unknownServer(server)
	}
	v, err := apps.EmbeddedView(server, e)
	if err != nil {
		return apps.View{}, apps.Page{}, err
	}
	page := p.apps.pages.Add(v)
	p.logViewOpened(v, page)
	return v, page, nil
}

// CloseView forgets a page: its view was torn down.
func (p *Pool) CloseView(token string) { p.apps.pages.Remove(token) }

// viewChanged drops a cached view the server says changed.
func (p *Pool) viewChanged(server, uri string) { p.apps.views.Forget(server, uri) }

// viewsOfServerChanged drops every cached view of server.
func (p *Pool) viewsOfServerChanged(server string) { p.apps.views.ForgetServer(server) }

// viewMayCall says whether a view of server may call tool: the server
// offers it, and its visibility includes "app".
func (p *Pool) viewMayCall(server, tool string) error {
	tools, err := p.Tools(server)
	if err != nil {
		return err
	}
	for _, t := range tools {
		if t.Name == tool {
			if !apps.UIOf(t).ForApp() {
				return usererr.New(usererr.ViewToolNotForApp, usererr.Params{"server": server, "tool": tool})
			}
			return nil
		}
	}
	return usererr.New(usererr.ViewNoSuchTool, usererr.Params{"server": server, "tool": tool})
}

// logViewOpened notes in the logger that a view is shown, with the policy
// it runs under and the domains it declared.
func (p *Pool) logViewOpened(v apps.View, page apps.Page) {
	payload, _ := json.Marshal(map[string]any{"uri": v.URI, "kind": v.Kind, "url": v.URL, "contentSecurityPolicy": page.CSP, "allow": page.Allow,
		"refused": v.Policy.Refused, "hash": v.Hash, "previousHash": v.PreviousHash})
	p.log.Add(events.RPCEntry{Server: v.Server, Time: time.Now().UnixMilli(), Direction: events.Local,
		Kind: events.KindNotification, Method: "view " + v.URI, Note: "viewOpened", Payload: string(payload)})
}

// logView puts one message between the view of page and MCP Desk in the
// logger's view lane, scrubbed of the server's secrets. MCP-UI's messages
// ({type, payload, messageId}) are named by their type.
func (p *Pool) logView(page apps.Page, toView bool, payload string) {
	var msg struct {
		ID        json.RawMessage `json:"id"`
		Method    string          `json:"method"`
		Error     json.RawMessage `json:"error"`
		Type      string          `json:"type"`
		MessageID json.RawMessage `json:"messageId"`
	}
	_ = json.Unmarshal([]byte(payload), &msg)
	if msg.Method == "" && msg.Type != "" && len(msg.ID) == 0 {
		msg.Method, msg.ID = msg.Type, msg.MessageID
	}
	// The view names its messages: a name, not a payload, in the list.
	if len(msg.Method) > maxViewMethod {
		msg.Method = strings.ToValidUTF8(msg.Method[:maxViewMethod], "") + "…"
	}
	if len(msg.ID) > maxViewMethod {
		msg.ID = json.RawMessage(strings.ToValidUTF8(string(msg.ID[:maxViewMethod]), ""))
	}
	kind := events.KindNotification
	switch {
	case msg.Method != "" && len(msg.ID) > 0:
		kind = events.KindRequest
	case msg.Method == "" && len(msg.Error) > 0:
		kind = events.KindError
	case msg.Method == "":
		kind = events.KindResponse
	}
	dir := events.ViewToHost
	if toView {
		dir = events.HostToView
	}
	if c := p.conn(page.Server); c != nil {
		payload = c.redact.Redact(payload)
	}
	p.log.Add(events.RPCEntry{Server: page.Server, Time: time.Now().UnixMilli(), Direction: dir, Kind: kind,
		Method: msg.Method, ID: strings.Trim(string(msg.ID), `"`), Payload: payload})
}

// maxViewMethod bounds the method name and id of a view's message as the
// logger lists them (the whole message is in its payload, cut as any).
const maxViewMethod = 200

// logViewBlocked notes something MCP Desk refused a view.
func (p *Pool) logViewBlocked(server, what, why string) {
	payload, _ := json.Marshal(map[string]string{"reason": why})
	p.log.Add(events.RPCEntry{Server: server, Time: time.Now().UnixMilli(), Direction: events.Local,
		Kind: events.KindError, Method: what, Note: "blocked", Payload: string(payload)})
}

// NoteBridgeBlocked notes in the logger that a frame that is not the app's
// page tried to reach the Go bindings (backend/webview's bridge gate);
// what names the method it asked for, never its arguments.
func (p *Pool) NoteBridgeBlocked(what string) {
	p.logViewBlocked("mcpdesk", "Go bindings", "a frame that is not the app's page tried to reach the Go bindings: "+what)
}
