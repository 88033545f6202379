package remotecontent

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpdesk/backend/store"
)

// imageServer is an httptest server that counts every request and keeps
// its headers; handler answers them (nil: a small PNG).
type imageServer struct {
	*httptest.Server
	mu      sync.Mutex
	reqs    []*http.Request
	handler http.HandlerFunc
}

func newImageServer(t *testing.T, handler http.HandlerFunc) *imageServer {
	t.Helper()
	s := &imageServer{handler: handler}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.reqs = append(s.reqs, r.Clone(context.Background()))
		s.mu.Unlock()
		if s.handler != nil {
			s.handler(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(pngBytes(t))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *imageServer) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.reqs...)
}

// host is the server's host name as a grant names it (127.0.0.1).
func (s *imageServer) host() string { u, _ := url.Parse(s.URL); return u.Hostname() }

func pngBytes(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// newImages returns Images over a real SQLite store in a temporary folder,
// with one conversation (id 1) to allow images in.
func newImages(t *testing.T, o Options) (*Images, *store.Store, Scope) {
	t.Helper()
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c, err := st.CreateConversation(context.Background(), "Holiday plans", store.ConversationSettings{Provider: "p", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	return New(st, st, o), st, ConversationScope(c.ID)
}

func mustAllow(t *testing.T, im *Images, scope Scope, host string) {
	t.Helper()
	if _, err := im.Allow(context.Background(), scope, host); err != nil {
		t.Fatal(err)
	}
}

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one saying %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error %q does not say %q", err, p)
		}
	}
}

func TestNothingIsFetchedUntilTheHostIsAllowed(t *testing.T) {
	ctx := context.Background()
	im, _, conv := newImages(t, Options{})
	srv := newImageServer(t, nil)
	leak := srv.URL + "/leak?d=secret"

	_, err := im.Fetch(ctx, conv, leak)
	wantErr(t, err, "images from 127.0.0.1 are not allowed in conversation "+conv.ID)
	if n := len(srv.requests()); n != 0 {
		t.Fatalf("%d requests reached the image server before its host was allowed", n)
	}

	mustAllow(t, im, conv, srv.host())
	got, err := im.Fetch(ctx, conv, leak)
	if err != nil {
		t.Fatal(err)
	}
	want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngBytes(t))
	if got != want {
		t.Fatalf("Fetch = %.60q…, want %.60q…", got, want)
	}
	if n := len(srv.requests()); n != 1 {
		t.Fatalf("%d requests after allowing, want 1", n)
	}

	// Revoked: refused again, and nothing is sent.
	if err := im.Revoke(ctx, conv, srv.host()); err != nil {
		t.Fatal(err)
	}
	_, err = im.Fetch(ctx, conv, leak)
	wantErr(t, err, "not allowed")
	if n := len(srv.requests()); n != 1 {
		t.Fatalf("%d requests after revoking, want still 1", n)
	}
}

func TestFetchRefusesOtherHostsAndScopes(t *testing.T) {
	ctx := context.Background()
	im, st, conv := newImages(t, Options{})
	other, err := st.CreateConversation(ctx, "", store.ConversationSettings{Provider: "p", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	srv := newImageServer(t, nil)
	mustAllow(t, im, conv, srv.host())
	mustAllow(t, im, ServerScope("docs"), "example.org")
	port := strings.TrimPrefix(srv.URL, "http://127.0.0.1")

	cases := []struct {
		name  string
		scope Scope
		url   string
		want  string
	}{
		{"another host, same server", conv, "http://localhost" + port + "/x.png", "images from localhost are not allowed in conversation " + conv.ID},
		{"another conversation", ConversationScope(other.ID), srv.URL + "/x.png", "not allowed in conversation " + fmt.Sprint(other.ID)},
		{"a server scope", ServerScope("docs"), srv.URL + "/x.png", `not allowed in server "docs"`},
		{"a server scope of the same name as the conversation", ServerScope(conv.ID), srv.URL + "/x.png", "not allowed in server"},
		{"not http", conv, "ftp://127.0.0.1/x.png", "is not an http or https URL"},
		{"a data URL", conv, "data:image/png;base64,AAAA", "is not an http or https URL"},
		{"javascript", conv, "javascript:alert(1)", "is not an http or https URL"},
		{"credentials in the URL", conv, "http://user:pw@127.0.0.1" + port + "/x.png", "carries a user name or password"},
		{"a relative URL", conv, "/x.png", "is not an http or https URL"},
		{"a bad scope", Scope{Kind: "window", ID: "1"}, srv.URL, `kind must be "conversation" or "server"`},
		{"a bad conversation id", Scope{Kind: KindConversation, ID: "01"}, srv.URL, "conversation id must be a positive number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := im.Fetch(ctx, c.scope, c.url)
			wantErr(t, err, c.want)
		})
	}
	if n := len(srv.requests()); n != 0 {
		t.Fatalf("%d requests reached the image server", n)
	}
}

func TestFetchRefusesWhatIsNotASmallImage(t *testing.T) {
	big := bytes.Repeat([]byte{0}, DefaultMaxBytes+DefaultMaxBytes/20*3) // 11.5 MB
	copy(big, pngBytes(t))
	svg := `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>`
	cases := []struct {
		name    string
		handler http.HandlerFunc
		want    string // error text; "" = a data URL of type wantType
		wantTyp string
	}{
		{"larger than 10 MB, with a length", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "image/png")
			w.Header().Set("Content-Length", fmt.Sprint(len(big)))
			_, _ = w.Write(big)
		}, "the image is 11.5 MB, larger than the 10 MB allowed", ""},
		{"larger than 10 MB, streamed", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "image/png")
			for i := 0; i < len(big); i += 1 << 16 {
				_, _ = w.Write(big[i:min(i+1<<16, len(big))])
				w.(http.Flusher).Flush()
			}
		}, "the image is larger than the 10 MB allowed", ""},
		{"an HTML page", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html><script>alert(1)</script></html>"))
		}, "not an image: the server sent text/html", ""},
		{"HTML that says it is a PNG", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write([]byte("<html><script>alert(1)</script></html>"))
		}, "not an image: the server said image/png but sent text/html", ""},
		{"a 404", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }, "the server answered 404 Not Found", ""},
		{"an SVG", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "image/svg+xml")
			_, _ = w.Write([]byte(svg))
		}, "", "image/svg+xml"},
		{"a PNG sent as octet-stream", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			_, _ = w.Write(pngBytes(t))
		}, "", "image/png"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			im, _, conv := newImages(t, Options{})
			srv := newImageServer(t, c.handler)
			mustAllow(t, im, conv, srv.host())
			got, err := im.Fetch(context.Background(), conv, srv.URL+"/img")
			if c.want != "" {
				wantErr(t, err, "load image from 127.0.0.1: "+c.want)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(got, "data:"+c.wantTyp+";base64,") {
				t.Fatalf("Fetch = %.60q…, want a data URL of %s", got, c.wantTyp)
			}
		})
	}
}

func TestFetchRedirects(t *testing.T) {
	ctx := context.Background()
	target := newImageServer(t, nil)
	cases := []struct {
		name     string
		location string
		allowTo  bool // allow the target's host too ("localhost")
		want     string
		targetN  int
	}{
		{"to ftp", "ftp://127.0.0.1/x.png", false, `redirected: "ftp://127.0.0.1/x.png" is not an http or https URL`, 0},
		{"to file", "file:///etc/passwd", false, "is not an http or https URL", 0},
		{"to javascript", "javascript:alert(1)", false, "is not an http or https URL", 0},
		{"to a data URL", "data:image/png;base64,AAAA", false, "is not an http or https URL", 0},
		{"to a host not allowed", strings.Replace(target.URL, "127.0.0.1", "localhost", 1) + "/x.png?d=secret", false,
			"redirected to localhost, whose images are not allowed in conversation", 0},
		{"to an allowed host", strings.Replace(target.URL, "127.0.0.1", "localhost", 1) + "/x.png", true, "", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(target.requests())
			im, _, conv := newImages(t, Options{})
			srv := newImageServer(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, c.location, http.StatusFound)
			})
			mustAllow(t, im, conv, srv.host())
			if c.allowTo {
				mustAllow(t, im, conv, "localhost")
			}
			_, err := im.Fetch(ctx, conv, srv.URL+"/start?d=secret")
			if c.want != "" {
				wantErr(t, err, c.want)
			} else if err != nil {
				t.Fatal(err)
			}
			reqs := target.requests()[before:]
			if len(reqs) != c.targetN {
				t.Fatalf("the redirect target got %d requests, want %d", len(reqs), c.targetN)
			}
			for _, r := range reqs {
				if ref := r.Header.Get("Referer"); ref != "" {
					t.Errorf("the redirect carried Referer %q", ref)
				}
			}
		})
	}

	t.Run("too many", func(t *testing.T) {
		im, _, conv := newImages(t, Options{MaxRedirects: 2})
		var srv *imageServer
		srv = newImageServer(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, srv.URL+"/again", http.StatusFound)
		})
		mustAllow(t, im, conv, srv.host())
		_, err := im.Fetch(ctx, conv, srv.URL)
		wantErr(t, err, "more than 2 redirects")
		if n := len(srv.requests()); n != 3 {
			t.Fatalf("%d requests, want 3 (the first and two redirects)", n)
		}
	})
}

func TestFetchSendsNoCredentials(t *testing.T) {
	ctx := context.Background()
	im, _, conv := newImages(t, Options{})
	srv := newImageServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "s3cret", Path: "/"})
		if r.URL.Path == "/first" {
			http.Redirect(w, r, "/second", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
		_, _ = w.Write(pngBytes(t))
	})
	mustAllow(t, im, conv, srv.host())
	for range 2 {
		if _, err := im.Fetch(ctx, conv, srv.URL+"/first"); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	for _, r := range reqs {
		for _, h := range []string{"Cookie", "Authorization", "Proxy-Authorization", "Referer"} {
			if v := r.Header.Get(h); v != "" {
				t.Errorf("%s %s carried %s: %q", r.Method, r.URL, h, v)
			}
		}
	}
}

func TestFetchTimesOut(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	im, _, conv := newImages(t, Options{Timeout: 300 * time.Millisecond})
	srv := newImageServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	mustAllow(t, im, conv, srv.host())
	_, err := im.Fetch(context.Background(), conv, srv.URL)
	wantErr(t, err, "no image within 300ms")
}

func TestGrants(t *testing.T) {
	ctx := context.Background()
	im, st, conv := newImages(t, Options{})
	if g, err := im.List(ctx); err != nil || len(g) != 0 {
		t.Fatalf("List on a new store = %v, %v; want none", g, err)
	}
	mustAllow(t, im, conv, "Images.Example.COM.")
	mustAllow(t, im, ServerScope("docs"), "[::1]")
	// Allowing twice keeps one grant.
	mustAllow(t, im, conv, "images.example.com")

	// What is stored is read back by a new Images over the same store.
	list, err := New(st, st, Options{}).List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ kind, id, host, label string }
	var got []row
	for _, g := range list {
		got = append(got, row{g.Scope.Kind, g.Scope.ID, g.Host, g.Label})
	}
	want := map[row]bool{
		{KindConversation, conv.ID, "images.example.com", "Holiday plans"}: true,
		{KindServer, "docs", "::1", "docs"}:                                true,
	}
	if len(got) != 2 || !want[got[0]] || !want[got[1]] {
		t.Fatalf("List = %+v, want %v", got, want)
	}
	for _, c := range []struct {
		scope Scope
		host  string
		want  bool
	}{
		{conv, "IMAGES.example.com", true},
		{conv, "example.com", false},
		{ServerScope("docs"), "::1", true},
		{ServerScope("docs"), "images.example.com", false},
		{ServerScope("other"), "::1", false},
	} {
		if ok, err := im.Allowed(ctx, c.scope, c.host); err != nil || ok != c.want {
			t.Errorf("Allowed(%v, %q) = %v, %v; want %v", c.scope, c.host, ok, err, c.want)
		}
	}

	// Allowing in a conversation that does not exist is refused.
	_, err = im.Allow(ctx, ConversationScope(999), "x.org")
	wantErr(t, err, "conversation 999 does not exist")

	// A deleted conversation's grants are forgotten.
	id, _ := conv.conversationID()
	if err := st.DeleteConversation(ctx, id); err != nil {
		t.Fatal(err)
	}
	list, err = im.List(ctx)
	if err != nil || len(list) != 1 || list[0].Scope.Kind != KindServer {
		t.Fatalf("List after deleting the conversation = %+v, %v; want the server grant only", list, err)
	}
	if ok, _ := im.Allowed(ctx, conv, "images.example.com"); ok {
		t.Fatal("the deleted conversation's grant is still in force")
	}

	if err := im.Revoke(ctx, ServerScope("docs"), "::1"); err != nil {
		t.Fatal(err)
	}
	if err := im.Revoke(ctx, ServerScope("docs"), "::1"); err != nil {
		t.Fatalf("revoking twice: %v", err)
	}
	if list, _ := im.List(ctx); len(list) != 0 {
		t.Fatalf("List after revoking = %+v", list)
	}
}

func TestNormalizeHost(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{"Example.COM", "example.com", ""},
		{"example.com.", "example.com", ""},
		{"[::1]", "::1", ""},
		{"127.0.0.1", "127.0.0.1", ""},
		{"xn--bcher-kva.example", "xn--bcher-kva.example", ""},
		{"bücher.example", "", "is not ASCII"},
		{"", "", "empty"},
		{"a b", "", "which no host name has"},
		{"evil.com/x", "", "which no host name has"},
		{strings.Repeat("a", 254), "", "more than the 253"},
	}
	for _, c := range cases {
		got, err := NormalizeHost(c.in)
		if c.err != "" {
			wantErr(t, err, c.err)
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("NormalizeHost(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
