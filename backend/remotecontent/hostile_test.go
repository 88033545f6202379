package remotecontent

import (
	"context"
	"encoding/json"
	"flag"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/mcppool/mcptest"
)

var update = flag.Bool("update", false, "rewrite the hostile-content golden file the frontend's corpus test reads")

// goldenPath is the hostile server's "remote" output as the frontend's
// sanitiser corpus (frontend/src/lib/content/sanitize.test.ts) renders it
// through both markdown paths.
const goldenPath = "../../frontend/src/lib/content/testdata/hostile-remote.json"

// goldenBase is where the golden file's vectors point; nothing serves it.
const goldenBase = "https://leak.invalid/leak?d=secret"

// hostileGolden is the golden file's shape.
type hostileGolden struct {
	Comment  string   `json:"comment"`
	Base     string   `json:"base"`
	Vectors  []string `json:"vectors"`
	Markdown string   `json:"markdown"`
	HTML     string   `json:"html"`
}

// TestHostileRemoteVectors runs the hostile server's "remote" mode as a
// real subprocess, points its every vector at a counting server, and checks
// that Go fetches none of them for a scope that has not allowed the host,
// and each (as an image) once it is allowed. It also keeps the golden file
// of the frontend's sanitiser corpus equal to what the server sends.
func TestHostileRemoteVectors(t *testing.T) {
	bin, cleanup, err := mcptest.BuildHostileServer()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	ctx := context.Background()
	im, _, conv := newImages(t, Options{})
	srv := newImageServer(t, nil)
	base := srv.URL + "/leak?d=secret"

	c, err := client.NewStdioMCPClient(bin, append(os.Environ(), "HOSTILE_REMOTE_URL="+base), "--mode", "remote")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION, ClientInfo: mcp.Implementation{Name: "remotecontent-test"},
	}}); err != nil {
		t.Fatal(err)
	}
	text := func(tool, url string) string {
		t.Helper()
		res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: map[string]any{"url": url}}})
		if err != nil {
			t.Fatal(err)
		}
		tc, ok := res.Content[0].(mcp.TextContent)
		if !ok {
			t.Fatalf("%s: first content is %T, want text", tool, res.Content[0])
		}
		return tc.Text
	}

	// The golden file the frontend's corpus renders.
	golden := hostileGolden{
		Comment: "Written by `go test ./backend/remotecontent -run TestHostileRemoteVectors -update` from the hostile server's remote mode; read by sanitize.test.ts.",
		Base:    goldenBase, Markdown: text("remote_markdown", goldenBase), HTML: text("remote_html", goldenBase),
	}
	golden.Vectors = remoteVectorNames(t, golden.Markdown)
	want, err := json.MarshalIndent(golden, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if *update {
		if err := os.MkdirAll(filepath.Dir(goldenPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := os.ReadFile(goldenPath); err != nil || string(got) != string(want) {
		t.Fatalf("%s is not what the hostile server sends (%v): run go test ./backend/remotecontent -run TestHostileRemoteVectors -update", goldenPath, err)
	}

	// Every URL the server's content and its tool icon point at.
	var urls []string
	for _, s := range []string{text("remote_markdown", base), text("remote_html", base)} {
		urls = append(urls, vectorURLs(s, srv.URL)...)
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		for _, ic := range tool.Icons {
			urls = append(urls, ic.Src)
		}
	}
	slices.Sort(urls)
	urls = slices.Compact(urls)
	names := map[string]bool{}
	for _, u := range urls {
		if i := strings.Index(u, "v="); i >= 0 {
			names[strings.TrimSuffix(u[i+2:], "&2x")] = true
		}
	}
	for _, v := range append(golden.Vectors, "tool-icon") {
		if !names[v] {
			t.Errorf("vector %s points nowhere in the server's output", v)
		}
	}

	for _, u := range urls {
		if _, err := im.Fetch(ctx, conv, u); err == nil || !strings.Contains(err.Error(), "not allowed") {
			t.Errorf("Fetch(%s) before allowing = %v, want refused", u, err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Fatalf("%d requests reached the counting server before its host was allowed", n)
	}
	mustAllow(t, im, conv, srv.host())
	for _, u := range urls {
		if _, err := im.Fetch(ctx, conv, u); err != nil {
			t.Errorf("Fetch(%s) after allowing: %v", u, err)
		}
	}
	if n := len(srv.requests()); n != len(urls) {
		t.Fatalf("%d requests after allowing, want one per URL (%d)", n, len(urls))
	}
}

// remoteVectorNames lists the vector names in a document whose vectors
// point at goldenBase, in order of first appearance.
func remoteVectorNames(t *testing.T, doc string) []string {
	t.Helper()
	var names []string
	for _, u := range vectorURLs(doc, "https://leak.invalid") {
		i := strings.Index(u, "&v=")
		if i < 0 {
			t.Fatalf("URL %q has no vector name", u)
		}
		n := strings.TrimSuffix(u[i+3:], "&2x")
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// vectorURLs finds the URLs starting with prefix in doc, HTML-unescaped.
func vectorURLs(doc, prefix string) []string {
	re := regexp.MustCompile(regexp.QuoteMeta(prefix) + `[^\s"'()<>#]*`)
	var out []string
	for _, m := range re.FindAllString(doc, -1) {
		out = append(out, html.UnescapeString(m))
	}
	return out
}
