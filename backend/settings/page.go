package settings

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
)

// PagePrefsID is the id of the element in the window's page that carries
// the saved preferences (frontend/src/lib/state/prefs.svelte.ts reads it).
const PagePrefsID = "mcpdesk-prefs"

// InlinePrefs returns asset-server middleware that puts the saved
// preferences into the window's page as it is served: a JSON data block
// (type application/json: never run, so the page's CSP has nothing to
// allow) that the page reads before it mounts, and, for a light or dark
// theme, data-theme on <html>. The page then opens in its saved theme and
// language at once, instead of in the system's until a call to Go answers
// (issue 16: the mount waited up to 300 ms for that call).
//
// Only the page itself is rewritten (GET / or /index.html answered with
// HTML). When the preferences cannot be read the page is served as it is,
// and the page asks Go as before.
func InlinePrefs(read func() (Prefs, error), logger *slog.Logger) func(http.Handler) http.Handler {
	if logger == nil {
		logger = slog.Default()
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || (r.URL.Path != "/" && r.URL.Path != "/index.html") {
				next.ServeHTTP(w, r)
				return
			}
			// The page now depends on the preferences, not only on its
			// file: it is never answered "not modified" from the file's
			// date, nor kept in a cache (a reload after a change of
			// language would show the old one).
			r = r.Clone(r.Context())
			for _, h := range []string{"If-Modified-Since", "If-None-Match", "If-Match", "If-Unmodified-Since", "If-Range", "Range"} {
				r.Header.Del(h)
			}
			rec := &recorder{header: http.Header{}, code: http.StatusOK}
			next.ServeHTTP(rec, r)
			body := rec.body.Bytes()
			if rec.code == http.StatusOK && strings.HasPrefix(rec.header.Get("Content-Type"), "text/html") {
				if p, err := read(); err != nil {
					logger.Warn("the page is served without the saved preferences", "err", err)
				} else {
					body = withPrefs(body, p)
				}
			}
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			for _, h := range []string{"Content-Length", "Last-Modified", "ETag", "Accept-Ranges"} {
				w.Header().Del(h)
			}
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(rec.code)
			_, _ = w.Write(body)
		})
	}
}

// withPrefs returns page with p put in: the data block first in <head>,
// data-theme on <html> for an explicit theme. A page without <head> is
// returned as it is.
func withPrefs(page []byte, p Prefs) []byte {
	head := bytes.Index(page, []byte("<head>"))
	if head < 0 {
		return page
	}
	// json.Marshal escapes <, > and &: nothing in the block can end it.
	data, err := json.Marshal(p)
	if err != nil {
		return page
	}
	var out bytes.Buffer
	out.Grow(len(page) + len(data) + 96)
	at := head + len("<head>")
	before := page[:at]
	if p.Theme == "light" || p.Theme == "dark" {
		if tag := bytes.Index(before, []byte("<html")); tag >= 0 {
			end := tag + len("<html")
			out.Write(before[:end])
			out.WriteString(` data-theme="` + p.Theme + `"`)
			before = before[end:]
		}
	}
	out.Write(before)
	out.WriteString(`<script type="application/json" id="` + PagePrefsID + `">`)
	out.Write(data)
	out.WriteString(`</script>`)
	out.Write(page[at:])
	return out.Bytes()
}

// recorder keeps the page's response to rewrite it: the page is a few
// kilobytes.
type recorder struct {
	header      http.Header
	code        int
	wroteHeader bool
	body        bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if !r.wroteHeader {
		r.code, r.wroteHeader = code, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}
