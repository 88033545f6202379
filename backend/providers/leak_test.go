package providers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/store"
)

const leakKey = "sk-test-SECRET-123"

// TestKeyNeverLeaks saves a provider with a key, drives every method of the
// bound service (including a provider that echoes the key in its error),
// and then looks for the key in the database files, in every returned value
// and in the log.
func TestKeyNeverLeaks(t *testing.T) {
	srv := newFakeLLM(t, leakKey, "gpt-a", "gpt-b")
	// A provider that rejects the key and quotes it back, as some do.
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s (header %q)","type":"invalid_request_error","code":"invalid_api_key"}}`,
			strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), r.Header.Get("Authorization"))
	}))
	defer echo.Close()

	e := newTestEnv(t, func(o *Options) { o.OllamaURL = srv.URL })
	s := NewService(e.m)
	var results []any
	called := map[string]bool{}
	record := func(method string, vals ...any) {
		called[method] = true
		for _, v := range vals {
			if err, ok := v.(error); ok && err != nil {
				v = err.Error()
			}
			results = append(results, v)
		}
	}

	p, err := s.Save(ProviderInput{Name: "OpenAI", Preset: "openai", BaseURL: srv.URL + "/v1", APIKey: ptr(leakKey)})
	if err != nil || !p.HasKey || p.KeySource != KeyFromKeychain {
		t.Fatalf("Save = %+v, %v", p, err)
	}
	record("Save", p, err)
	bad, err := s.Save(ProviderInput{Name: "Echo", Preset: "openai", BaseURL: echo.URL + "/v1", APIKey: ptr(leakKey)})
	record("Save", bad, err)
	// Save again with the key, and an edit that keeps it.
	record("Save", must(s.Save(ProviderInput{ID: p.ID, Name: "OpenAI", Preset: "openai", BaseURL: srv.URL + "/v1", APIKey: ptr(leakKey + "\n")})))
	record("Save", must(s.Save(ProviderInput{ID: p.ID, Name: "OpenAI", Preset: "openai", BaseURL: srv.URL + "/v1"})))

	list, err := s.List()
	record("List", list, err)
	record("Presets", s.Presets())
	sp, err := s.SetEnabled(p.ID, true)
	record("SetEnabled", sp, err)
	tc, err := s.TestConnection(p.ID)
	if !tc.OK {
		t.Errorf("TestConnection with the right key = %+v", tc)
	}
	record("TestConnection", tc, err)
	tcBad, err := s.TestConnection(bad.ID)
	if tcBad.OK || !strings.Contains(tcBad.Error, "rejected") {
		t.Errorf("TestConnection of the echoing provider = %+v", tcBad)
	}
	record("TestConnection", tcBad, err)
	ml, err := s.Models(p.ID, true)
	record("Models", ml, err)
	mlBad, err := s.Models(bad.ID, true)
	record("Models", mlBad, err)
	am, err := s.AddManualModel(p.ID, "manual-1")
	record("AddManualModel", am, err)
	rm, err := s.RemoveManualModel(p.ID, "manual-1")
	record("RemoveManualModel", rm, err)
	record("SetDefaultModel", s.SetDefaultModel(ModelRef{p.ID, "gpt-a"}))
	dm, err := s.DefaultModel()
	record("DefaultModel", dm, err)
	record("SetFallbacks", s.SetFallbacks([]ModelRef{{bad.ID, "gpt-b"}}))
	fb, err := s.Fallbacks()
	record("Fallbacks", fb, err)
	pm, err := s.PickerModels()
	record("PickerModels", pm, err)
	record("DetectOllama", s.DetectOllama())
	er, err := s.ReloadEnvironment()
	record("ReloadEnvironment", er, err)
	// The engine's targets carry the key inside their clients only.
	if ts, err := e.m.Targets(e.ctx, ModelRef{}); err != nil || len(ts) != 2 {
		t.Errorf("Targets = %d, %v", len(ts), err)
	}
	record("Delete", s.Delete(bad.ID))

	// Every bound method was exercised.
	typ := reflect.TypeOf(s)
	var missing []string
	for i := range typ.NumMethod() {
		if name := typ.Method(i).Name; !called[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		t.Errorf("the leak test does not call %v", missing)
	}

	for i, v := range results {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("result %d (%T) does not marshal: %v", i, v, err)
		}
		if bytes.Contains(b, []byte(leakKey)) {
			t.Errorf("result %d (%T) contains the key: %s", i, v, b)
		}
	}
	if logs := e.logs.String(); strings.Contains(logs, leakKey) {
		t.Errorf("the log contains the key:\n%s", logs)
	} else if !strings.Contains(logs, "provider saved") {
		t.Errorf("the log was not captured:\n%s", logs)
	}

	// The database files, while open (the WAL holds the latest pages) and
	// after closing (checkpointed into the main file).
	scanDB := func(when string) {
		t.Helper()
		found := 0
		for _, suffix := range []string{"", "-wal", "-shm"} {
			b, err := os.ReadFile(e.st.Path() + suffix)
			if err != nil {
				if suffix == "" {
					t.Fatal(err)
				}
				continue
			}
			found++
			if bytes.Contains(b, []byte(leakKey)) {
				t.Errorf("%s%s (%s) contains the key", store.DBFileName, suffix, when)
			}
			if suffix == "" && !bytes.Contains(b, []byte("OpenAI")) && when == "closed" {
				t.Errorf("%s does not hold the provider: the scan looks at the wrong file", store.DBFileName)
			}
		}
		if found == 0 {
			t.Fatalf("no database file found (%s)", when)
		}
	}
	scanDB("open")
	if err := e.st.Close(); err != nil {
		t.Fatal(err)
	}
	scanDB("closed")

	// And the key is where it belongs.
	if v, err := e.mem.Get(account(p.ID)); err != nil || v != leakKey {
		t.Errorf("keychain holds %q, %v", v, err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestJSONShapes pins the JSON the frontend reads.
func TestJSONShapes(t *testing.T) {
	keys := func(v any) []string {
		b, _ := json.Marshal(v)
		var m map[string]any
		json.Unmarshal(b, &m)
		var out []string
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	cases := []struct {
		v    any
		want []string
	}{
		{Provider{KeyProblem: "x"}, []string{"azure", "azureApiVersion", "baseUrl", "createdAt", "enabled", "hasKey", "headers", "health", "id", "keyEnv", "keyProblem", "keySource", "manualModels", "name", "needsKey", "preset", "type", "updatedAt", "usable"}},
		{ProviderInput{Enabled: ptr(true), APIKey: ptr("k")}, []string{"apiKey", "azure", "azureApiVersion", "baseUrl", "enabled", "headers", "id", "keyEnv", "name", "preset", "type"}},
		{ModelRef{}, []string{"model", "provider"}},
		{Preset{}, []string{"azure", "baseUrl", "headers", "id", "keyEnv", "keyUrl", "name", "needsKey", "type"}},
		{ModelList{Error: "x"}, []string{"error", "models", "provider"}},
		{Model{OwnedBy: "x"}, []string{"id", "listed", "manual", "ownedBy"}},
		{ConnectionResult{Error: "x", Model: "m"}, []string{"error", "health", "latencyMs", "model", "models", "ok"}},
		{Health{Params: map[string]string{"name": "X"}, At: ptr(time.Now()), Detail: "d"}, []string{"at", "code", "detail", "message", "params", "source", "usable"}},
		{PickerProvider{Error: "x"}, []string{"error", "id", "models", "name", "type"}},
		{OllamaStatus{Version: "x"}, []string{"running", "url", "version"}},
	}
	for _, c := range cases {
		if got := keys(c.v); !slices.Equal(got, c.want) {
			t.Errorf("%T keys = %v, want %v", c.v, got, c.want)
		}
	}
	// The input's key is write-only: it does not come back in any view.
	if _, ok := reflect.TypeOf(Provider{}).FieldByName("APIKey"); ok {
		t.Error("Provider has an APIKey field")
	}
}
