package attach

import (
	"context"
	"net/http"
	"strings"

	"mcpdesk/backend/store"
)

// Path is where the window reads attached images from: Path + hash. The
// UI shows a message's images from there rather than carrying their bytes
// through the bindings, and the webview caches them (a hash names fixed
// bytes).
const Path = "/mcpdesk-attachment/"

// Source reads stored files; *store.Store is one.
type Source interface {
	AttachmentData(ctx context.Context, hash string) (mimeType string, data []byte, err error)
}

// imageTypes are what Middleware serves: images only, which the window
// shows in <img> and nothing runs.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// Middleware serves stored images under Path and passes everything else to
// next (for Wails' asset server). Any other file, or a name that is not a
// hash, is not found.
func Middleware(src Source) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hash, ok := strings.CutPrefix(r.URL.Path, Path)
			if !ok {
				next.ServeHTTP(w, r)
				return
			}
			if r.Method != http.MethodGet || !store.IsDigest(hash) {
				http.NotFound(w, r)
				return
			}
			mt, data, err := src.AttachmentData(r.Context(), hash)
			if err != nil || !imageTypes[mt] {
				http.NotFound(w, r)
				return
			}
			h := w.Header()
			h.Set("Content-Type", mt)
			h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Cache-Control", "private, max-age=31536000, immutable")
			_, _ = w.Write(data)
		})
	}
}
