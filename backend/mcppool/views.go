package mcppool

import (
	"context"

	"mcpdesk/backend/apps"
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
	return v, p.apps.pages.Add(v), nil
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
