package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"mcpdesk/backend/secrets"
	"mcpdesk/backend/store"
)

// fakeLLM is an OpenAI-compatible (/v1/models) and Ollama (/api/tags,
// /api/version) endpoint. With key set, /v1/models wants that bearer token.
type fakeLLM struct {
	*httptest.Server
	key    string
	models []string
	hits   atomic.Int32 // requests to /v1/models and /api/tags

	mu       sync.Mutex
	lastAuth string
}

func newFakeLLM(t *testing.T, key string, models ...string) *fakeLLM {
	t.Helper()
	f := &fakeLLM{key: key, models: models}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		f.mu.Lock()
		f.lastAuth = r.Header.Get("Authorization")
		f.mu.Unlock()
		if f.key != "" && r.Header.Get("Authorization") != "Bearer "+f.key {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return
		}
		data := []map[string]string{}
		for _, m := range f.models {
			data = append(data, map[string]string{"id": m, "object": "model", "owned_by": "fake"})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
	})
	mux.HandleFunc("GET /api/tags", func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		list := []map[string]string{}
		for _, m := range f.models {
			list = append(list, map[string]string{"name": m, "model": m})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"models": list})
	})
	mux.HandleFunc("GET /api/version", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"version":"0.9.1"}`)
	})
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

func (f *fakeLLM) auth() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lastAuth
}

// testEnv is a Manager over a real SQLite file, an in-memory keychain, a
// fake environment and a captured log.
type testEnv struct {
	m    *Manager
	st   *store.Store
	mem  *secrets.Memory
	dir  string
	vars map[string]string
	logs *syncBuffer
	ctx  context.Context
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newTestEnv(t *testing.T, opts ...func(*Options)) *testEnv {
	t.Helper()
	dir := t.TempDir()
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	st, err := store.Open(dir, logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &testEnv{st: st, mem: secrets.NewMemory(), dir: dir, vars: map[string]string{}, logs: logs, ctx: context.Background()}
	o := Options{
		Store: st, Secrets: e.mem, Logger: logger,
		LookupEnv: func(k string) (string, bool) { v, ok := e.vars[k]; return v, ok },
		OllamaURL: "http://127.0.0.1:1", // nothing listens: tests that want Ollama set it
	}
	for _, f := range opts {
		f(&o)
	}
	e.m = NewManager(o)
	return e
}

func ptr[T any](v T) *T { return &v }

// mustSave saves in and fails the test on error.
func (e *testEnv) mustSave(t *testing.T, in ProviderInput) Provider {
	t.Helper()
	p, err := e.m.Save(e.ctx, in)
	if err != nil {
		t.Fatalf("Save(%+v): %v", in, err)
	}
	return p
}
