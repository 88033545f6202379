package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// credentialSink is a server that records the credentials of every request
// it gets.
type credentialSink struct {
	*httptest.Server
	mu  sync.Mutex
	got []string // one line of credentials per request
}

func newCredentialSink(t *testing.T) *credentialSink {
	t.Helper()
	s := &credentialSink{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = append(s.got, strings.Join([]string{r.Header.Get("Authorization"), r.Header.Get("Api-Key"),
			r.Header.Get("X-Api-Key"), r.Header.Get("Cookie"), r.URL.RawQuery}, " | "))
		s.mu.Unlock()
		http.Error(w, "not here", http.StatusNotFound)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *credentialSink) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// redirector answers every request with a 307 to target (same path and
// query), so the client would post the body there again.
func redirector(t *testing.T, target func(r *http.Request) string) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target(r), http.StatusTemporaryRedirect)
	}))
	t.Cleanup(s.Close)
	return s
}

// TestCredentialsNeverFollowRedirects: a provider endpoint that redirects
// to another host (or port, or to plain http) does not get the key, the
// custom headers or the conversation sent there — for every kind of
// provider and both calls a provider makes (model list, chat).
func TestCredentialsNeverFollowRedirects(t *testing.T) {
	sink := newCredentialSink(t)
	sinkURL, _ := url.Parse(sink.URL)
	// The same server under another name: 127.0.0.1 → localhost.
	otherHost := redirector(t, func(r *http.Request) string {
		return "http://localhost:" + sinkURL.Port() + r.URL.RequestURI()
	})
	otherPort := redirector(t, func(r *http.Request) string { return sink.URL + r.URL.RequestURI() })

	headers := map[string]string{"X-Api-Key": "custom-S3CRET", "Cookie": "session=S3CRET"}
	kinds := []struct {
		name string
		cfg  Config
	}{
		{"openai", Config{Type: TypeOpenAI, APIKey: testKey, Headers: headers}},
		{"azure", Config{Type: TypeOpenAI, APIKey: testKey, Azure: true, Headers: headers}},
		{"ollama", Config{Type: TypeOllama, APIKey: testKey, Headers: headers}},
	}
	for _, k := range kinds {
		for _, via := range []struct {
			name string
			srv  *httptest.Server
		}{{"another host", otherHost}, {"another port", otherPort}} {
			t.Run(k.name+" via "+via.name, func(t *testing.T) {
				cfg := k.cfg
				cfg.BaseURL = via.srv.URL
				if k.cfg.Type == TypeOpenAI && !k.cfg.Azure {
					cfg.BaseURL += "/v1"
				}
				c, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				before := len(sink.requests())
				_, errModels := c.Models(context.Background())
				_, errChat := c.Stream(context.Background(), Request{Model: "m", Messages: []Message{{Role: RoleUser, Content: "private words"}}}, func(Delta) {})
				for _, err := range []error{errModels, errChat} {
					if !errors.Is(err, ErrRedirectRefused) {
						t.Errorf("error %v, want ErrRedirectRefused", err)
					}
				}
				if got := sink.requests()[before:]; len(got) > 0 {
					t.Errorf("the other server got %d requests: %q", len(got), got)
				}
			})
		}
	}
}

// TestSameHostRedirectsFollowed: a redirect within the endpoint's own host
// (a moved path) still works, with the key.
func TestSameHostRedirectsFollowed(t *testing.T) {
	var mu sync.Mutex
	var auth string
	mux := http.NewServeMux()
	mux.HandleFunc("/old/api/tags", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/api/tags", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/api/tags", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = r.Header.Get("Authorization")
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"models":[{"name":"llama3.2","model":"llama3.2"}]}`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c, err := New(Config{Type: TypeOllama, BaseURL: srv.URL + "/old", APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	models, err := c.Models(context.Background())
	if err != nil || len(models) != 1 {
		t.Fatalf("Models = %v, %v", models, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if auth != "Bearer "+testKey {
		t.Errorf("the moved endpoint got Authorization %q", auth)
	}
}
