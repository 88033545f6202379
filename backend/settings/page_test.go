package settings

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/notify"
)

const testPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
  </head>
  <body><div id="app"></div></body>
</html>`

func pageServer(body, contentType string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Length", "1")
		w.Header().Set("X-Kept", "yes")
		_, _ = w.Write([]byte(body))
	})
}

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec
}

var dataBlock = regexp.MustCompile(`<script type="application/json" id="mcpdesk-prefs">(.*?)</script>`)

func TestInlinePrefsPutsTheSavedPrefsIntoThePage(t *testing.T) {
	saved := Prefs{Theme: "dark", Language: "zh-CN", QuitOnClose: true, NotifyOff: []notify.Kind{"reply"}}
	h := InlinePrefs(func() (Prefs, error) { return saved, nil }, nil)(pageServer(testPage, "text/html; charset=utf-8"))
	for _, path := range []string{"/", "/index.html"} {
		rec := get(t, h, path)
		body := rec.Body.String()
		m := dataBlock.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no data block in\n%s", path, body)
		}
		var got Prefs
		if err := json.Unmarshal([]byte(m[1]), &got); err != nil {
			t.Fatalf("%s: the block is not JSON: %v", path, err)
		}
		if got.Theme != "dark" || got.Language != "zh-CN" || !got.QuitOnClose || len(got.NotifyOff) != 1 {
			t.Errorf("%s: block says %+v, want %+v", path, got, saved)
		}
		// The block comes first in <head>, before any script of the page.
		if !strings.Contains(body, "<head>"+m[0]) {
			t.Errorf("%s: the block is not first in <head>:\n%s", path, body)
		}
		if !strings.Contains(body, `<html data-theme="dark" lang="en">`) {
			t.Errorf("%s: <html> does not carry the dark theme:\n%s", path, body)
		}
		// The length the page was served with would cut the new one.
		if rec.Header().Get("Content-Length") != "" || rec.Header().Get("X-Kept") != "yes" || rec.Code != http.StatusOK {
			t.Errorf("%s: headers %v, code %d", path, rec.Header(), rec.Code)
		}
	}
}

// The page depends on the preferences: a reload after a change must get
// the new ones, not "not modified" (the file's date has not changed) and
// not a cached copy.
func TestInlinePrefsPageIsNeverCachedOrNotModified(t *testing.T) {
	modified := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	files := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "index.html", modified, strings.NewReader(testPage))
	})
	lang := "en"
	h := InlinePrefs(func() (Prefs, error) { return Prefs{Theme: "system", Language: lang}, nil }, nil)(files)
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("If-Modified-Since", modified.Format(http.TimeFormat))
	req.Header.Set("If-None-Match", `"v1"`)
	req.Header.Set("Range", "bytes=0-10")
	lang = "zh-CN"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"language":"zh-CN"`) {
		t.Fatalf("a revalidation got %d:\n%s", rec.Code, rec.Body.String())
	}
	for _, k := range []string{"Last-Modified", "ETag", "Accept-Ranges", "Content-Length"} {
		if v := rec.Header().Get(k); v != "" {
			t.Errorf("the page is served with %s: %s", k, v)
		}
	}
	if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
}

func TestInlinePrefsLeavesTheSystemThemeToThePage(t *testing.T) {
	h := InlinePrefs(func() (Prefs, error) { return DefaultPrefs(), nil }, nil)(pageServer(testPage, "text/html"))
	body := get(t, h, "/").Body.String()
	if strings.Contains(body, "data-theme") {
		t.Errorf("the system's theme is only known to the page, yet <html> carries one:\n%s", body)
	}
	if !dataBlock.MatchString(body) {
		t.Errorf("no data block:\n%s", body)
	}
}

func TestInlinePrefsRewritesOnlyThePage(t *testing.T) {
	reads := 0
	read := func() (Prefs, error) { reads++; return DefaultPrefs(), nil }
	script := `console.log("<head>")`
	cases := []struct {
		path, body, contentType string
	}{
		{"/assets/index-abc.js", script, "text/javascript"},
		{"/", `{"head": "<head>"}`, "application/json"},
		{"/view/1/index.html", testPage, "text/html"},
	}
	for _, c := range cases {
		rec := get(t, InlinePrefs(read, nil)(pageServer(c.body, c.contentType)), c.path)
		if rec.Body.String() != c.body {
			t.Errorf("%s (%s) was rewritten:\n%s", c.path, c.contentType, rec.Body.String())
		}
	}
	post := httptest.NewRecorder()
	InlinePrefs(read, nil)(pageServer(testPage, "text/html")).ServeHTTP(post, httptest.NewRequest(http.MethodPost, "/", nil))
	if post.Body.String() != testPage {
		t.Errorf("a POST was rewritten:\n%s", post.Body.String())
	}
	if reads != 0 {
		t.Errorf("the preferences were read %d times for responses that are not the page", reads)
	}

	// A page that is not found stays not found, as it was.
	missing := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte("<html><head></head></html>"))
	})
	rec := get(t, InlinePrefs(read, nil)(missing), "/")
	if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "mcpdesk-prefs") {
		t.Errorf("not found: code %d, body %s", rec.Code, rec.Body.String())
	}
}

func TestInlinePrefsServesThePageAsItIsWhenThePrefsCannotBeRead(t *testing.T) {
	h := InlinePrefs(func() (Prefs, error) { return DefaultPrefs(), errors.New("database is locked") }, nil)(pageServer(testPage, "text/html"))
	if got := get(t, h, "/").Body.String(); got != testPage {
		t.Errorf("page changed:\n%s", got)
	}
}

func TestWithPrefsKeepsThePageWithoutAHead(t *testing.T) {
	page := []byte("<p>no head</p>")
	if got := withPrefs(page, Prefs{Theme: "dark"}); string(got) != string(page) {
		t.Errorf("got %s", got)
	}
}

// The block is JSON that json.Marshal escaped: a value with </script> in
// it (none passes Prefs.Validate, but the block must not rely on that)
// cannot end the element.
func TestWithPrefsCannotBeBrokenOutOf(t *testing.T) {
	got := string(withPrefs([]byte(testPage), Prefs{Theme: "system", Language: `</script><script>alert(1)</script>`}))
	if strings.Count(got, "</script>") != 1 || strings.Contains(got, "<script>alert") {
		t.Errorf("the block was broken out of:\n%s", got)
	}
	m := dataBlock.FindStringSubmatch(got)
	var p Prefs
	if m == nil || json.Unmarshal([]byte(m[1]), &p) != nil || p.Language != `</script><script>alert(1)</script>` {
		t.Errorf("the block does not hold the value as JSON: %v", m)
	}
}
