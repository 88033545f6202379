package apps

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// fakeReader serves resources by URI and counts the reads.
type fakeReader struct {
	res   map[string]mcp.ResourceContents
	reads int
}

func (f *fakeReader) read(_ context.Context, _ string, uri string) (*mcp.ReadResourceResult, error) {
	f.reads++
	c, ok := f.res[uri]
	if !ok {
		return &mcp.ReadResourceResult{}, nil
	}
	return &mcp.ReadResourceResult{Contents: []mcp.ResourceContents{c}}, nil
}

func TestViewsReadOnceAndNoticeChanges(t *testing.T) {
	f := &fakeReader{res: map[string]mcp.ResourceContents{
		"ui://w/view.html": mcp.TextResourceContents{URI: "ui://w/view.html", MIMEType: MIMEType, Text: "<!doctype html><p>v1",
			Meta: map[string]any{"ui": map[string]any{"csp": map[string]any{"connectDomains": []any{"https://api.weather.example"}}, "prefersBorder": true}}},
	}}
	vs := NewViews(f.read)
	ctx := context.Background()
	v, err := vs.View(ctx, "weather", "ui://w/view.html")
	if err != nil {
		t.Fatal(err)
	}
	if v.HTML != "<!doctype html><p>v1" || v.Changed() || len(v.Hash) != 64 || v.Meta.PrefersBorder == nil || !*v.Meta.PrefersBorder {
		t.Fatalf("view %+v", v)
	}
	if d := directives(v.Policy.Header); d["connect-src"] != "https://api.weather.example" {
		t.Errorf("policy %s", v.Policy.Header)
	}
	if _, err := vs.View(ctx, "weather", "ui://w/view.html"); err != nil || f.reads != 1 {
		t.Fatalf("read %d times (%v)", f.reads, err)
	}

	// The server says it changed: read again, the same HTML is no change…
	vs.Forget("weather", "ui://w/view.html")
	if v, _ := vs.View(ctx, "weather", "ui://w/view.html"); v.Changed() || f.reads != 2 {
		t.Fatalf("same HTML read again: changed %v, reads %d", v.Changed(), f.reads)
	}
	// …other HTML is, and says what it was.
	f.res["ui://w/view.html"] = mcp.TextResourceContents{URI: "ui://w/view.html", MIMEType: "text/html; profile=mcp-app", Text: "<!doctype html><p>v2"}
	vs.Forget("weather", "ui://w/view.html")
	v2, err := vs.View(ctx, "weather", "ui://w/view.html")
	if err != nil || !v2.Changed() || v2.PreviousHash != v.Hash || v2.Hash == v.Hash {
		t.Fatalf("changed view %+v (%v)", v2, err)
	}
	// No csp any more: the restrictive default.
	if !strings.HasPrefix(v2.Policy.Header, DefaultPolicy) {
		t.Errorf("policy without csp: %s", v2.Policy.Header)
	}
}

func TestViewsRefuse(t *testing.T) {
	big := strings.Repeat("x", MaxViewBytes+1)
	f := &fakeReader{res: map[string]mcp.ResourceContents{
		"ui://a/plain":  mcp.TextResourceContents{URI: "ui://a/plain", MIMEType: "text/html", Text: "<p>"},
		"ui://a/other":  mcp.TextResourceContents{URI: "ui://a/elsewhere", MIMEType: MIMEType, Text: "<p>"},
		"ui://a/big":    mcp.TextResourceContents{URI: "ui://a/big", MIMEType: MIMEType, Text: big},
		"ui://a/badb64": mcp.BlobResourceContents{URI: "ui://a/badb64", MIMEType: MIMEType, Blob: "!!!"},
		"ui://a/blob":   mcp.BlobResourceContents{URI: "ui://a/blob", MIMEType: MIMEType, Blob: base64.StdEncoding.EncodeToString([]byte("<p>from a blob"))},
	}}
	vs := NewViews(f.read)
	for uri, want := range map[string]string{
		"ui://a/plain":      `is "text/html", not text/html;profile=mcp-app`,
		"ui://a/other":      "the server sent ui://a/elsewhere",
		"ui://a/big":        "larger than 8 MB",
		"ui://a/badb64":     "not valid base64",
		"ui://a/missing":    "came back empty",
		"https://x.example": "not a ui:// resource",
	} {
		if _, err := vs.View(context.Background(), "a", uri); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", uri, err, want)
		}
	}
	if v, err := vs.View(context.Background(), "a", "ui://a/blob"); err != nil || v.HTML != "<p>from a blob" {
		t.Errorf("blob view: %+v %v", v, err)
	}
}

// An Apps SDK widget (text/html+skybridge) is a view of its own kind, its
// openai/widgetCSP read as MCP Apps' csp; other types are refused.
func TestSkybridgeView(t *testing.T) {
	f := &fakeReader{res: map[string]mcp.ResourceContents{
		"ui://widget/board.html": mcp.TextResourceContents{URI: "ui://widget/board.html", MIMEType: SkybridgeType, Text: "<div id=root></div>",
			Meta: map[string]any{"openai/widgetPrefersBorder": false, "openai/widgetCSP": map[string]any{
				"connect_domains": []any{"https://api.board.example"}, "resource_domains": []any{"https://cdn.board.example", "*"}}}},
		"ui://widget/plain.html": mcp.TextResourceContents{URI: "ui://widget/plain.html", MIMEType: "text/html", Text: "<p>"},
	}}
	vs := NewViews(f.read)
	v, err := vs.View(context.Background(), "board", "ui://widget/board.html")
	if err != nil {
		t.Fatal(err)
	}
	if v.Kind != KindSkybridge || v.Meta.PrefersBorder == nil || *v.Meta.PrefersBorder {
		t.Errorf("kind %q, prefersBorder %v", v.Kind, v.Meta.PrefersBorder)
	}
	d := directives(v.Policy.Header)
	if d["connect-src"] != "https://api.board.example" || !strings.Contains(d["script-src"], "https://cdn.board.example") || strings.Contains(v.Policy.Header, " * ") {
		t.Errorf("policy %s", v.Policy.Header)
	}
	if len(v.Policy.Refused) != 1 || v.Policy.Refused[0] != "*" {
		t.Errorf("refused %v", v.Policy.Refused)
	}
	if _, err := vs.View(context.Background(), "board", "ui://widget/plain.html"); err == nil || !strings.Contains(err.Error(), SkybridgeType) {
		t.Errorf("plain text/html: %v", err)
	}
}
