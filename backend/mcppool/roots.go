package mcppool

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/mcpconfig"
)

// Roots (SPEC A12): the folders a server may work in, from its config
// entry, offered on roots/list. Changing them does not restart the server:
// it is told with notifications/roots/list_changed and asks again.

// rootsHandler answers one server's roots/list from its conn's config.
type rootsHandler struct {
	roots func() []string
	env   Environment
}

func (h rootsHandler) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	vars := envMap(h.env.Environ(ctx))
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	res := &mcp.ListRootsResult{Roots: []mcp.Root{}}
	for _, r := range h.roots() {
		path, err := h.env.Expand(r, lookup)
		if err != nil {
			continue // the config's validation reported it
		}
		if rest, ok := strings.CutPrefix(path, "~"); ok {
			if home, err := os.UserHomeDir(); err == nil {
				path = filepath.Join(home, rest)
			}
		}
		res.Roots = append(res.Roots, mcp.Root{URI: fileURI(path), Name: filepath.Base(path)})
	}
	return res, nil
}

// fileURI turns an absolute path into a file:// URI.
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// roots returns the conn's current roots.
func (c *conn) roots() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.cfg.Roots)
}

// setClientSide installs the settings that live on our side only — roots
// and the allow/deny lists — without reconnecting; a connected server is
// told when its roots changed.
func (c *conn) setClientSide(next mcpconfig.Server) {
	c.mu.Lock()
	rootsChanged := !slices.Equal(c.cfg.Roots, next.Roots)
	c.cfg.Roots = slices.Clone(next.Roots)
	c.cfg.AllowTools = slices.Clone(next.AllowTools)
	c.cfg.DenyTools = slices.Clone(next.DenyTools)
	sess := c.sess
	c.mu.Unlock()
	c.pool.toolsChanged()
	if sess == nil || !rootsChanged {
		return
	}
	go func() {
		if err := sess.Client.RootListChanges(c.pool.context()); err != nil {
			c.pool.logger.Warn("tell server its roots changed", "server", c.cfg.ID, "err", err)
		}
	}()
}

// config returns the conn's server config; only its roots change.
func (c *conn) config() mcpconfig.Server {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg
}

// sameButClientSide reports whether a and b differ at most in settings
// that need no reconnect: roots and the tool allow/deny lists.
func sameButClientSide(a, b mcpconfig.Server) bool {
	a.Roots, b.Roots = nil, nil
	a.AllowTools, b.AllowTools = nil, nil
	a.DenyTools, b.DenyTools = nil, nil
	return reflect.DeepEqual(a, b)
}
