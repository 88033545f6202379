package attach

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type files map[string][2]string // hash → type, bytes

func (f files) AttachmentData(_ context.Context, hash string) (string, []byte, error) {
	v, ok := f[hash]
	if !ok {
		return "", nil, errors.New("not found")
	}
	return v[0], []byte(v[1]), nil
}

// Stored images are served under Path, and nothing else is: not a text
// file (it could be HTML), not a name that is not a hash.
func TestMiddlewareServesImagesOnly(t *testing.T) {
	img, page := strings.Repeat("a", 64), strings.Repeat("b", 64)
	src := files{img: {"image/png", "PNG"}, page: {"text/html", "<script>alert(1)</script>"}}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h := Middleware(src)(next)
	get := func(method, path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(method, path, nil))
		return w
	}
	w := get("GET", Path+img)
	if w.Code != 200 || w.Body.String() != "PNG" || w.Header().Get("Content-Type") != "image/png" ||
		w.Header().Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(w.Header().Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("image: %d %q %v", w.Code, w.Body, w.Header())
	}
	for _, path := range []string{Path + page, Path + strings.Repeat("c", 64), Path + "../index.html", Path + strings.ToUpper(img)} {
		if w := get("GET", path); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d", path, w.Code)
		}
	}
	if w := get("POST", Path+img); w.Code != http.StatusNotFound {
		t.Errorf("POST: %d", w.Code)
	}
	if w := get("GET", "/index.html"); w.Code != http.StatusTeapot {
		t.Errorf("the app's own files: %d", w.Code)
	}
}
