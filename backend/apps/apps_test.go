package apps

import (
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func tool(meta map[string]any) mcp.Tool {
	t := mcp.NewTool("t")
	if meta != nil {
		t.Meta = &mcp.Meta{AdditionalFields: meta}
	}
	return t
}

func TestUIOf(t *testing.T) {
	cases := []struct {
		name             string
		meta             map[string]any
		uri              string
		forModel, forApp bool
	}{
		{"no meta", nil, "", true, true},
		{"both by default", map[string]any{"ui": map[string]any{"resourceUri": "ui://w/view.html"}}, "ui://w/view.html", true, true},
		{"app only", map[string]any{"ui": map[string]any{"resourceUri": "ui://w/v", "visibility": []any{"app"}}}, "ui://w/v", false, true},
		{"model only", map[string]any{"ui": map[string]any{"visibility": []any{"model"}}}, "", true, false},
		{"deprecated flat key", map[string]any{"ui/resourceUri": "ui://old/v"}, "ui://old/v", true, true},
		{"not a ui:// URI", map[string]any{"ui": map[string]any{"resourceUri": "https://evil.example/v.html"}}, "", true, true},
		{"visibility not a list", map[string]any{"ui": map[string]any{"visibility": "app"}}, "", true, true},
		{"visibility of unknown words", map[string]any{"ui": map[string]any{"visibility": []any{"admin", 3}}}, "", true, true},
		{"ui not an object", map[string]any{"ui": "ui://w/v"}, "", true, true},
		// The Apps SDK's keys, where MCP Apps' say nothing.
		{"apps sdk template", map[string]any{"openai/outputTemplate": "ui://widget/b.html"}, "ui://widget/b.html", true, false},
		{"apps sdk widget-accessible", map[string]any{"openai/outputTemplate": "ui://widget/b.html", "openai/widgetAccessible": true}, "ui://widget/b.html", true, true},
		{"apps sdk private for widgets", map[string]any{"openai/widgetAccessible": true, "openai/visibility": "private"}, "", false, true},
		{"apps sdk private", map[string]any{"openai/visibility": "private"}, "", false, false},
		{"apps sdk template not ui://", map[string]any{"openai/outputTemplate": "https://evil.example/w"}, "", true, false},
		{"mcp apps wins", map[string]any{"ui": map[string]any{"resourceUri": "ui://w/v", "visibility": []any{"app"}}, "openai/outputTemplate": "ui://widget/b.html", "openai/visibility": "public"}, "ui://w/v", false, true},
	}
	for _, c := range cases {
		ui := UIOf(tool(c.meta))
		if ui.ResourceURI != c.uri || ui.ForModel() != c.forModel || ui.ForApp() != c.forApp {
			t.Errorf("%s: %+v (model %v, app %v)", c.name, ui, ui.ForModel(), ui.ForApp())
		}
	}
}

func directives(h string) map[string]string {
	out := map[string]string{}
	for _, d := range strings.Split(h, ";") {
		d = strings.TrimSpace(d)
		name, value, _ := strings.Cut(d, " ")
		out[name] = value
	}
	return out
}

func TestBuildFollowsTheSpecificationsTable(t *testing.T) {
	// No csp: the specification's restrictive default, word for word.
	p := Build(nil)
	if !strings.HasPrefix(p.Header, DefaultPolicy+";") {
		t.Fatalf("default: %s", p.Header)
	}
	d := directives(p.Header)
	if d["connect-src"] != "'none'" || d["frame-src"] != "'none'" || d["base-uri"] != "'self'" || d["form-action"] != "'none'" || d["object-src"] != "'none'" {
		t.Errorf("default directives: %v", d)
	}

	p = Build(&CSP{
		ConnectDomains:  []string{"https://api.weather.example", "wss://realtime.example"},
		ResourceDomains: []string{"https://cdn.example", "https://*.cloudflare.example"},
	})
	d = directives(p.Header)
	want := map[string]string{
		"default-src": "'none'",
		"connect-src": "https://api.weather.example wss://realtime.example",
		"script-src":  "'self' 'unsafe-inline' https://cdn.example https://*.cloudflare.example",
		"style-src":   "'self' 'unsafe-inline' https://cdn.example https://*.cloudflare.example",
		"img-src":     "'self' data: https://cdn.example https://*.cloudflare.example",
		"font-src":    "'self' https://cdn.example https://*.cloudflare.example",
		"media-src":   "'self' data: https://cdn.example https://*.cloudflare.example",
		"frame-src":   "'none'",
		"base-uri":    "'self'",
		"form-action": "'none'",
		"object-src":  "'none'",
	}
	for k, v := range want {
		if d[k] != v {
			t.Errorf("%s = %q, want %q", k, d[k], v)
		}
	}
	if len(d) != len(want) || len(p.Refused) != 0 {
		t.Errorf("directives %v, refused %v", d, p.Refused)
	}

	p = Build(&CSP{FrameDomains: []string{"https://www.youtube.example"}, BaseURIDomains: []string{"https://cdn.example"}})
	d = directives(p.Header)
	if d["frame-src"] != "https://www.youtube.example" || d["base-uri"] != "https://cdn.example" || d["connect-src"] != "'none'" {
		t.Errorf("frames and base: %v", d)
	}
}

func TestBuildNeverLoosens(t *testing.T) {
	hostile := []string{
		"*", "https:", "https://*", "https://*.com", "data:", "blob:", "javascript:alert(1)",
		"'unsafe-eval'", "'self'", "https://a.example; script-src *", "https://a.example 'unsafe-eval'",
		"https://a.example/path", "https://a.example/?q=1", "https://user:pw@a.example", "file:///etc/passwd",
		"https://a.*.example", "", "https://a.example,https://b.example",
	}
	p := Build(&CSP{ConnectDomains: hostile, ResourceDomains: hostile, FrameDomains: hostile, BaseURIDomains: hostile})
	if got := Build(&CSP{}).Header; p.Header != got {
		t.Errorf("hostile declarations changed the policy:\n%s\nwant\n%s", p.Header, got)
	}
	if len(p.Refused) != 4*len(hostile) {
		t.Errorf("refused %d of %d", len(p.Refused), 4*len(hostile))
	}
	for _, bad := range []string{"*", "unsafe-eval", "javascript", "blob:"} {
		for name, v := range directives(p.Header) {
			if strings.Contains(v, bad) {
				t.Errorf("%s carries %q: %s", name, bad, v)
			}
		}
	}
	// Accepted: ports, localhost for development, case folded.
	ok := Build(&CSP{ConnectDomains: []string{"http://localhost:5173", "HTTPS://API.Example:8443"}})
	if d := directives(ok.Header); d["connect-src"] != "http://localhost:5173 https://api.example:8443" || len(ok.Refused) != 0 {
		t.Errorf("ports and localhost: %v refused %v", d["connect-src"], ok.Refused)
	}
	if !slices.Contains(p.Refused, "https://a.example; script-src *") {
		t.Error("an injection attempt is not reported as refused")
	}
}
