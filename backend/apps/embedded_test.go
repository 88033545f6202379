package apps

import (
	"encoding/base64"
	"strings"
	"testing"
)

// MCP-UI resources: raw HTML under the restrictive default, an external
// page that only its own origin may be framed from, nothing else.
func TestEmbeddedView(t *testing.T) {
	html, err := EmbeddedView("s", Embedded{URI: "ui://card/1", MIMEType: "text/html", Text: "<button>go</button>"})
	if err != nil || html.Kind != KindUIHTML || html.HTML != "<button>go</button>" || len(html.Hash) != 64 {
		t.Fatalf("html: %+v %v", html, err)
	}
	if d := directives(html.Policy.Header); d["connect-src"] != "'none'" || d["frame-src"] != "'none'" {
		t.Errorf("html policy %s", html.Policy.Header)
	}
	app, err := EmbeddedView("s", Embedded{URI: "ui://card/9", MIMEType: MIMEType, Text: "<p>app</p>"})
	if err != nil || app.Kind != KindApp {
		t.Errorf("an embedded MCP Apps view: %+v %v", app, err)
	}
	blob, err := EmbeddedView("s", Embedded{URI: "ui://card/2", MIMEType: "text/html", Blob: base64.StdEncoding.EncodeToString([]byte("<p>b</p>"))})
	if err != nil || blob.HTML != "<p>b</p>" {
		t.Errorf("blob: %+v %v", blob, err)
	}

	u, err := EmbeddedView("s", Embedded{URI: "ui://page/1", MIMEType: "text/uri-list", Text: "# the dashboard\nhttps://Dash.Example:8443/board?x=1\nhttps://other.example/\n"})
	if err != nil || u.Kind != KindUIURL || u.URL != "https://Dash.Example:8443/board?x=1" {
		t.Fatalf("uri-list: %+v %v", u, err)
	}
	if d := directives(u.Policy.Header); d["frame-src"] != "https://dash.example:8443" || d["connect-src"] != "'none'" {
		t.Errorf("uri-list policy %s", u.Policy.Header)
	}
	pages := NewPages()
	page := pages.Add(u)
	if !pages.ShowsExternal("https://dash.example:8443") || pages.ShowsExternal("https://other.example") {
		t.Error("ShowsExternal does not follow the pages shown")
	}
	if body := relayPage(page); !strings.Contains(body, `"url":"https://Dash.Example:8443/board?x=1"`) || strings.Contains(body, `"html"`) {
		t.Errorf("relay page for a URL: %s", body)
	}

	pages.Remove(page.Token)
	if pages.ShowsExternal("https://dash.example:8443") {
		t.Error("a removed page still counts as shown")
	}

	for _, bad := range []Embedded{
		{URI: "https://x.example/ui", MIMEType: "text/html", Text: "<p>"},
		{URI: "ui://page/2", MIMEType: "text/uri-list", Text: "javascript:alert(1)"},
		{URI: "ui://page/3", MIMEType: "text/uri-list", Text: "https://user:pw@x.example/"},
		{URI: "ui://page/4", MIMEType: "text/uri-list", Text: "# only a comment\n"},
		{URI: "ui://page/5", MIMEType: "text/uri-list", Text: "https://*/"},
		{URI: "ui://card/3", MIMEType: "image/svg+xml", Text: "<svg/>"},
		{URI: "ui://card/4", MIMEType: "text/html", Blob: "%%%"},
		// Both: the user could be asked about one address and shown the other.
		{URI: "ui://page/6", MIMEType: "text/uri-list", Text: "https://good.example/", Blob: base64.StdEncoding.EncodeToString([]byte("https://evil.example/"))},
	} {
		if v, err := EmbeddedView("s", bad); err == nil {
			t.Errorf("%+v was accepted as %+v", bad, v)
		}
	}
}

// A remote-DOM script runs in the sandbox after the runtime, as a function
// of root; nothing in it can end its script element or hide the end tag.
func TestRemoteDOMView(t *testing.T) {
	code := "const b = document.createElement('ui-button');\nb.setAttribute('label', '</SCRIPT><script>alert(1)</script> <!-- x');\nroot.appendChild(b);"
	for _, mt := range []string{"application/vnd.mcp-ui.remote-dom+javascript; framework=react", "application/vnd.mcp-ui.remote-dom+javascript; framework=webcomponents"} {
		v, err := EmbeddedView("s", Embedded{URI: "ui://dom/1", MIMEType: mt, Text: code})
		if err != nil {
			t.Fatalf("%s: %v", mt, err)
		}
		if v.Kind != KindUIRemote || v.Policy.Header != Build(nil).Header || v.Hash != hashOf(code) {
			t.Errorf("%s: kind %q, policy %q, hash %s", mt, v.Kind, v.Policy.Header, v.Hash)
		}
		runtime := strings.Index(v.HTML, remoteDOMScript)
		script := strings.Index(v.HTML, "(function (root) {")
		if len(remoteDOMScript) < 1000 || runtime < 0 || script < runtime {
			t.Fatalf("the runtime must come first, then the script: %q", v.HTML[:200])
		}
		body := v.HTML[script:]
		if n := strings.Count(strings.ToLower(body), "</script"); n != 1 {
			t.Errorf("the script can end its element (%d end tags): %s", n, body)
		}
		if strings.Contains(body, "<!--") || !strings.Contains(body, `'\x3C/SCRIPT><script>alert(1)\x3C/script> \x3C!-- x'`) {
			t.Errorf("the script's text: %s", body)
		}
	}
	// The bundle itself holds neither.
	if strings.Contains(strings.ToLower(remoteDOMScript), "</script") || strings.Contains(remoteDOMScript, "<!--") {
		t.Error("the runtime holds </script or <!--")
	}
}

// A file a view offers: its bytes within the limit, and a name that stays
// in the folder the user picks.
func TestFileDataAndName(t *testing.T) {
	if b, err := FileData("a,b\n", ""); err != nil || string(b) != "a,b\n" {
		t.Errorf("text: %q %v", b, err)
	}
	if b, err := FileData("", base64.StdEncoding.EncodeToString([]byte{0, 1, 2})); err != nil || len(b) != 3 {
		t.Errorf("blob: %v %v", b, err)
	}
	if _, err := FileData("", "%%%"); err == nil {
		t.Error("bad base64 accepted")
	}
	if _, err := FileData(strings.Repeat("x", MaxFileBytes+1), ""); err == nil {
		t.Error("a file over the limit accepted")
	}
	for uri, want := range map[string]string{
		"ui://report/2026/sales.csv": "sales.csv",
		"file:///etc/../../passwd":   "passwd",
		`ui://x/..\..\evil.exe`:      "evil.exe",
		"ui://x/.bashrc":             "bashrc",
		"ui://x/":                    "download",
		"ui://x/a<b>:c?.txt":         "abc",
		"data:text/plain,hello":      "plain,hello",
	} {
		if got := FileName(uri); got != want {
			t.Errorf("FileName(%q) = %q, want %q", uri, got, want)
		}
	}
}
