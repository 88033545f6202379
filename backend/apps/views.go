package apps

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// MaxViewBytes bounds a view's HTML (a view is one document; scripts and
// styles usually come inlined).
const MaxViewBytes = 8 << 20

// ResourceMeta is a UI resource's _meta.ui.
type ResourceMeta struct {
	CSP           *CSP           `json:"csp,omitempty"`
	Permissions   map[string]any `json:"permissions,omitempty"`
	Domain        string         `json:"domain,omitempty"`
	PrefersBorder *bool          `json:"prefersBorder,omitempty"`
}

// View is a ui:// resource read for rendering: its HTML, what it asked
// for, the policy it will run under, and whether it changed since it was
// last read (the user is told, as with changed tool definitions).
type View struct {
	Server string
	URI    string
	// Kind is KindApp, KindSkybridge for an Apps SDK widget (it gets a
	// window.openai), or an MCP-UI kind (embedded.go).
	Kind string
	HTML string
	// URL is the external page of an MCP-UI text/uri-list (KindUIURL).
	URL    string
	Meta   ResourceMeta
	Policy Policy
	// Hash is the SHA-256 of the HTML; PreviousHash the one read before,
	// when it differs ("" otherwise).
	Hash         string
	PreviousHash string
}

// What a view is.
const (
	KindApp       = "mcp-app"
	KindSkybridge = "apps-sdk"
)

// Changed reports whether the HTML behind the URI is not what it was.
func (v View) Changed() bool { return v.PreviousHash != "" }

// Reader reads one resource of one server (the pool's resources/read).
type Reader func(ctx context.Context, server, uri string) (*mcp.ReadResourceResult, error)

// Views reads UI resources once per server and URI and keeps them until
// the server says they changed (Forget), remembering each one's hash so a
// changed view is noticed.
type Views struct {
	read Reader
	mu   sync.Mutex
	m    map[[2]string]View
	seen map[[2]string]string // last hash per server and URI, kept across Forget
}

// NewViews reads through read.
func NewViews(read Reader) *Views {
	return &Views{read: read, m: map[[2]string]View{}, seen: map[[2]string]string{}}
}

// Forget drops a cached view (the server sent resources/updated or
// list_changed); the next View reads it again.
func (vs *Views) Forget(server, uri string) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	delete(vs.m, [2]string{server, uri})
}

// ForgetServer drops every cached view of server (it restarted, or its
// resource list changed).
func (vs *Views) ForgetServer(server string) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	for k := range vs.m {
		if k[0] == server {
			delete(vs.m, k)
		}
	}
}

// View returns the view behind uri on server, read once.
func (vs *Views) View(ctx context.Context, server, uri string) (View, error) {
	k := [2]string{server, uri}
	vs.mu.Lock()
	if v, ok := vs.m[k]; ok {
		vs.mu.Unlock()
		return v, nil
	}
	vs.mu.Unlock()
	if !isUIURI(uri) {
		return View{}, fmt.Errorf("%q is not a ui:// resource", uri)
	}
	res, err := vs.read(ctx, server, uri)
	if err != nil {
		return View{}, fmt.Errorf("read the view %s: %w", uri, err)
	}
	v, err := viewOf(server, uri, res)
	if err != nil {
		return View{}, err
	}
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if prev := vs.seen[k]; prev != "" && prev != v.Hash {
		v.PreviousHash = prev
	}
	vs.seen[k] = v.Hash
	vs.m[k] = v
	return v, nil
}

// viewOf checks a resources/read answer and turns it into a View.
func viewOf(server, uri string, res *mcp.ReadResourceResult) (View, error) {
	if res == nil || len(res.Contents) == 0 {
		return View{}, fmt.Errorf("the view %s came back empty", uri)
	}
	var mimeType, html string
	var meta map[string]any
	switch c := res.Contents[0].(type) {
	case mcp.TextResourceContents:
		mimeType, html, meta = c.MIMEType, c.Text, c.Meta
		if c.URI != "" && c.URI != uri {
			return View{}, fmt.Errorf("asked for the view %s, the server sent %s", uri, c.URI)
		}
	case mcp.BlobResourceContents:
		if c.URI != "" && c.URI != uri {
			return View{}, fmt.Errorf("asked for the view %s, the server sent %s", uri, c.URI)
		}
		b, err := bodyOf("the view "+uri, "", c.Blob, MaxViewBytes)
		if err != nil {
			return View{}, err
		}
		mimeType, html, meta = c.MIMEType, string(b), c.Meta
	default:
		return View{}, fmt.Errorf("the view %s has no text or blob", uri)
	}
	kind := viewKind(mimeType)
	if kind == "" {
		return View{}, fmt.Errorf("the view %s is %q, not %s or %s", uri, mimeType, MIMEType, SkybridgeType)
	}
	if len(html) > MaxViewBytes {
		return View{}, fmt.Errorf("the view %s is larger than %d MB", uri, MaxViewBytes>>20)
	}
	v := View{Server: server, URI: uri, Kind: kind, HTML: html}
	if raw, ok := meta["ui"]; ok {
		if b, err := json.Marshal(raw); err == nil {
			_ = json.Unmarshal(b, &v.Meta) // a malformed _meta.ui reads as none: the restrictive default
		}
	} else {
		v.Meta = openAIResourceMeta(meta)
	}
	v.Policy = Build(v.Meta.CSP)
	v.Hash = hashOf(html)
	return v, nil
}

// hashOf is the SHA-256 of a view's body, in hex.
func hashOf(body string) string {
	sum := sha256.Sum256([]byte(body))
	return hex.EncodeToString(sum[:])
}

// viewKind accepts text/html;profile=mcp-app and the Apps SDK's
// text/html+skybridge (parameters compared as media types are: case and
// spacing aside); "" for anything else.
func viewKind(t string) string {
	mt, params, err := mime.ParseMediaType(t)
	switch {
	case err != nil:
		return ""
	case mt == "text/html" && params["profile"] == "mcp-app":
		return KindApp
	case mt == SkybridgeType:
		return KindSkybridge
	}
	return ""
}

// openAIResourceMeta reads an Apps SDK resource's openai/widgetCSP
// (connect_domains, resource_domains, frame_domains) and
// openai/widgetPrefersBorder as MCP Apps' _meta.ui; anything malformed
// reads as none (the restrictive default).
func openAIResourceMeta(meta map[string]any) ResourceMeta {
	var out ResourceMeta
	if b, ok := meta["openai/widgetPrefersBorder"].(bool); ok {
		out.PrefersBorder = &b
	}
	raw, ok := meta["openai/widgetCSP"]
	if !ok {
		return out
	}
	var c struct {
		Connect  []string `json:"connect_domains"`
		Resource []string `json:"resource_domains"`
		Frame    []string `json:"frame_domains"`
	}
	if b, err := json.Marshal(raw); err == nil && json.Unmarshal(b, &c) == nil {
		out.CSP = &CSP{ConnectDomains: c.Connect, ResourceDomains: c.Resource, FrameDomains: c.Frame}
	}
	return out
}
