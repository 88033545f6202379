package apps

import (
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"regexp"
	"strings"
)

// MCP-UI (issue 15): a tool's result may embed ui:// resources of its own
// — raw HTML (text/html), an external page (text/uri-list) or a remote-DOM
// script. They are shown in the same sandbox page as MCP Apps views
// (pages.go), under the restrictive default policy (MCP-UI declares no
// domains), and speak MCP-UI's message protocol ({type, payload,
// messageId}) with the app; an external page is framed only after the
// user allowed its host, and runs on an opaque origin like every view.
//
// A remote-DOM script runs in that sandbox too, after MCP Desk's remote-DOM
// runtime (@remote-dom/core, bundled from frontend/src/lib/views/remote/
// sandbox.ts): it builds its UI from MCP-UI's ui-* elements, the runtime
// sends each change of that tree to the app as data, and the app draws it
// with components of its own (views/remote/RemoteNode.svelte). The app
// never runs the script's code and never puts its markup in the app's DOM.

// What an embedded resource is shown as.
const (
	KindUIHTML   = "mcp-ui"
	KindUIURL    = "mcp-ui-url"
	KindUIRemote = "mcp-ui-remote"
)

// RemoteDOMType is the type of MCP-UI's remote-DOM scripts (with a
// framework parameter: react or webcomponents, which only says how
// MCP-UI's own client drew the tree; MCP Desk draws both alike).
const RemoteDOMType = "application/vnd.mcp-ui.remote-dom"

// remoteDOMScript is the remote side of remote DOM, run in the sandbox
// before the server's script (npm run bundle:remote-dom writes it; the
// bindings test layer checks it is up to date).
//
//go:embed remotedom/remotedom.js
var remoteDOMScript string

// scriptBreak finds what would end a script element early, or put the
// HTML parser into a state where its end tag is not seen.
var scriptBreak = regexp.MustCompile(`(?i)</script|<!--`)

// remoteDocument is the sandbox document of a remote-DOM script: the
// runtime, then the script as MCP-UI ran it (a function of root, the
// element it builds in). Where the script's text holds "</script" or
// "<!--" the "<" is written \x3C, which means "<" in a string, template or
// regular expression, the only places either can stand in a script.
func remoteDocument(code string) string {
	code = scriptBreak.ReplaceAllStringFunc(code, func(s string) string { return `\x3C` + s[1:] })
	return `<!doctype html><html><head><meta charset="utf-8"></head><body><script>` + remoteDOMScript +
		"</script><script>(function (root) {\n" + code + "\n})(document.getElementById('root'));</script></body></html>"
}

// Embedded is a ui:// resource embedded in a tool's result (its text, or
// its base64 blob).
type Embedded struct {
	URI      string
	MIMEType string
	Text     string
	Blob     string
}

// EmbeddedView checks an embedded resource of server and turns it into a
// View: raw HTML under the default policy, or an external http(s) page
// (View.URL) that only its own origin may be framed from.
func EmbeddedView(server string, e Embedded) (View, error) {
	if !isUIURI(e.URI) {
		return View{}, fmt.Errorf("%q is not a ui:// resource", e.URI)
	}
	raw, err := bodyOf("the UI "+e.URI, e.Text, e.Blob, MaxViewBytes)
	if err != nil {
		return View{}, err
	}
	body := string(raw)
	mt, params, err := mime.ParseMediaType(e.MIMEType)
	if err != nil {
		return View{}, fmt.Errorf("the UI %s has no valid type (%q)", e.URI, e.MIMEType)
	}
	v := View{Server: server, URI: e.URI}
	switch {
	case mt == "text/html" && params["profile"] == "mcp-app":
		// MCP-UI 6 and later embed MCP Apps views: they speak MCP Apps.
		v.Kind, v.HTML, v.Policy = KindApp, body, Build(nil)
	case mt == "text/html":
		v.Kind, v.HTML, v.Policy = KindUIHTML, body, Build(nil)
	case mt == "text/uri-list":
		u, err := FirstURL(body)
		if err != nil {
			return View{}, fmt.Errorf("the UI %s: %w", e.URI, err)
		}
		o, _ := origin(u.Scheme + "://" + u.Host)
		v.Kind, v.URL, v.Policy = KindUIURL, u.String(), Build(&CSP{FrameDomains: []string{o}})
	case strings.HasPrefix(mt, RemoteDOMType):
		v.Kind, v.HTML, v.Policy = KindUIRemote, remoteDocument(body), Build(nil)
	default:
		return View{}, fmt.Errorf("the UI %s is %q, not text/html, text/uri-list or remote DOM", e.URI, e.MIMEType)
	}
	v.Hash = hashOf(body)
	return v, nil
}

// FirstURL is the first address of a text/uri-list (lines starting with #
// are comments): http or https, with a host, no user info.
func FirstURL(list string) (*url.URL, error) {
	for _, line := range strings.Split(list, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		u, err := url.Parse(line)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" || u.User != nil {
			return nil, fmt.Errorf("%q is not an http or https address", line)
		}
		if _, ok := origin(u.Scheme + "://" + u.Host); !ok {
			return nil, fmt.Errorf("%q is not an address MCP Desk frames", line)
		}
		return u, nil
	}
	return nil, errors.New("the URI list holds no address")
}

// MaxFileBytes bounds a file a view offers for download.
const MaxFileBytes = 50 << 20

// FileData is the bytes of a file a view offers (ui/download-file): its
// text, or its base64 blob.
func FileData(text, blob string) ([]byte, error) {
	return bodyOf("the file", text, blob, MaxFileBytes)
}

// bodyOf is the bytes of what (a resource's text, or its base64 blob), at
// most limit. A resource that carries both is refused: which one counts
// would be a guess, and the UI and Go could guess differently (what the
// user is asked about must be what is shown).
func bodyOf(what, text, blob string, limit int) ([]byte, error) {
	switch {
	case text != "" && blob != "":
		return nil, fmt.Errorf("%s has both a text and a blob", what)
	case blob == "":
		if len(text) > limit {
			return nil, fmt.Errorf("%s is larger than %d MB", what, limit>>20)
		}
		return []byte(text), nil
	case base64.StdEncoding.DecodedLen(len(blob)) > limit+3:
		return nil, fmt.Errorf("%s is larger than %d MB", what, limit>>20)
	}
	b, err := base64.StdEncoding.DecodeString(blob)
	if err != nil {
		return nil, fmt.Errorf("%s is not valid base64: %w", what, err)
	}
	if len(b) > limit {
		return nil, fmt.Errorf("%s is larger than %d MB", what, limit>>20)
	}
	return b, nil
}

// FileName is the name a file a view offers is proposed under: the last
// segment of its URI, without anything that could name another folder or
// hide the file; "download" when nothing is left.
func FileName(uri string) string {
	name := uri
	if u, err := url.Parse(uri); err == nil && u.Path != "" {
		name = u.Path
	} else if err == nil && u.Opaque != "" {
		name = u.Opaque
	}
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`<>:"|?*`, r) {
			return -1
		}
		return r
	}, name)
	name = strings.TrimLeft(strings.TrimSpace(name), ".")
	if name == "" {
		return "download"
	}
	if len(name) > 120 {
		name = name[:120]
	}
	return name
}
