package providers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// TestConnectionDoesNotFollowKeyElsewhere: "Test" and the model list of a
// provider whose endpoint redirects to another host do not send the key
// there, and say why they failed.
func TestConnectionDoesNotFollowKeyElsewhere(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, "gotcha", http.StatusNotFound)
	}))
	defer sink.Close()
	u, _ := url.Parse(sink.URL)
	moved := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+u.Port()+r.URL.RequestURI(), http.StatusFound)
	}))
	defer moved.Close()

	e := newTestEnv(t)
	for _, typ := range []string{"openai", "ollama"} {
		p := e.mustSave(t, ProviderInput{Name: "Moved " + typ, Type: typ, BaseURL: moved.URL + "/v1", APIKey: ptr("sk-moved-S3CRET-0123456789")})
		res, err := e.m.TestConnection(e.ctx, p.ID)
		if err != nil || res.OK || !strings.Contains(res.Error, "localhost:"+u.Port()) {
			t.Errorf("%s: Test = %+v, %v; want a failure naming the other host", typ, res, err)
		}
		if list, err := e.m.Models(e.ctx, p.ID, true); err == nil && list.Error == "" {
			t.Errorf("%s: the model list of a moved endpoint succeeded: %+v", typ, list)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) > 0 {
		t.Errorf("the other host got %d requests, with Authorization %q", len(seen), seen)
	}
}
