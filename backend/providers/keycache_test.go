package providers

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"mcpdesk/backend/llm"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/secrets"
)

// countingSecrets counts the reads of the keychain it wraps.
type countingSecrets struct {
	secrets.Store
	gets atomic.Int32
	fail atomic.Bool // Get says the keychain is unavailable
}

func (c *countingSecrets) Get(key string) (string, error) {
	c.gets.Add(1)
	if c.fail.Load() {
		return "", &secrets.UnavailableError{Reason: "locked"}
	}
	return c.Store.Get(key)
}

// chatOnce streams one reply through the first route of ref and returns
// the key the provider saw.
func chatOnce(t *testing.T, e *testEnv, srv *llmtest.Server, ref ModelRef) string {
	t.Helper()
	routes, err := e.m.Routes(e.ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	before := len(srv.AllRequests())
	_, _ = routes[0].Target.Client.Stream(context.Background(), llm.Request{Model: ref.Model,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, func(llm.Delta) {})
	reqs := srv.AllRequests() // a refused request too
	if len(reqs) != before+1 {
		t.Fatalf("the provider got %d requests, want 1", len(reqs)-before)
	}
	return strings.TrimPrefix(reqs[len(reqs)-1].Header.Get("Authorization"), "Bearer ")
}

func TestChatReusesTheKeyItRead(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Repeat(llmtest.Turn{Text: []string{"ok"}})
	kc := &countingSecrets{Store: secrets.NewMemory()}
	now := time.Now()
	e := newTestEnv(t, func(o *Options) { o.Secrets = kc })
	e.m.keys.now = func() time.Time { return now }
	p := e.mustSave(t, ProviderInput{Name: "A", Type: "openai", BaseURL: srv.BaseURL(), APIKey: ptr("sk-one")})
	ref := ModelRef{Provider: p.ID, Model: "gpt-4o"}

	kc.gets.Store(0)
	for range 3 {
		if got := chatOnce(t, e, srv, ref); got != "sk-one" {
			t.Fatalf("the provider saw key %q, want sk-one", got)
		}
	}
	if n := kc.gets.Load(); n != 1 {
		t.Errorf("three replies read the keychain %d times, want once", n)
	}

	// A key saved in the app is used by the next reply.
	e.mustSave(t, ProviderInput{ID: p.ID, Name: "A", Type: "openai", BaseURL: srv.BaseURL(), APIKey: ptr("sk-two")})
	if got := chatOnce(t, e, srv, ref); got != "sk-two" {
		t.Errorf("after saving a new key the provider saw %q", got)
	}

	// A key changed outside the app is read again once the provider
	// rejects the one in use…
	if err := kc.Store.Set(account(p.ID), "sk-three"); err != nil {
		t.Fatal(err)
	}
	srv.RequireKey("sk-three")
	if got := chatOnce(t, e, srv, ref); got != "sk-two" {
		t.Fatalf("the cached key was not used: %q", got)
	}
	if got := chatOnce(t, e, srv, ref); got != "sk-three" {
		t.Errorf("after a 401 the next reply used %q, want the keychain's new key", got)
	}

	// …or once the entry is older than keyCacheTTL.
	if err := kc.Store.Set(account(p.ID), "sk-four"); err != nil {
		t.Fatal(err)
	}
	srv.RequireKey("sk-four")
	now = now.Add(keyCacheTTL + time.Second)
	if got := chatOnce(t, e, srv, ref); got != "sk-four" {
		t.Errorf("after the TTL the reply used %q", got)
	}

	// The keychain status and the providers screen read the keychain
	// itself, so they never report a key the keychain no longer gives.
	kc.gets.Store(0)
	if n := e.m.ReadableKeys(e.ctx); n != 1 || kc.gets.Load() == 0 {
		t.Errorf("ReadableKeys = %d after %d reads, want 1 from the keychain", n, kc.gets.Load())
	}
	kc.fail.Store(true)
	if n := e.m.ReadableKeys(e.ctx); n != 0 {
		t.Errorf("with the keychain locked ReadableKeys = %d, want 0", n)
	}
	kc.fail.Store(false)
}

func TestChatKeyCacheSkipsAnUnreadableKeychain(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Repeat(llmtest.Turn{Text: []string{"ok"}})
	kc := &countingSecrets{Store: secrets.NewMemory()}
	e := newTestEnv(t, func(o *Options) { o.Secrets = kc })
	p := e.mustSave(t, ProviderInput{Name: "A", Type: "openai", BaseURL: srv.BaseURL(), KeyEnv: "A_KEY"})
	e.vars["A_KEY"] = "sk-env"
	ref := ModelRef{Provider: p.ID, Model: "gpt-4o"}

	kc.fail.Store(true) // the variable's key is used, and not kept
	if got := chatOnce(t, e, srv, ref); got != "sk-env" {
		t.Fatalf("with the keychain locked the reply used %q", got)
	}
	kc.fail.Store(false)
	if err := kc.Store.Set(account(p.ID), "sk-keychain"); err != nil {
		t.Fatal(err)
	}
	if got := chatOnce(t, e, srv, ref); got != "sk-keychain" {
		t.Errorf("once the keychain opened the reply used %q, want its key", got)
	}

	// Reading the environment again drops what was read.
	kc.Store.Delete(account(p.ID))
	e.vars["A_KEY"] = "sk-env-2"
	if _, err := e.m.ReloadEnvironment(e.ctx); err != nil {
		t.Fatal(err)
	}
	if got := chatOnce(t, e, srv, ref); got != "sk-env-2" {
		t.Errorf("after reloading the environment the reply used %q", got)
	}
}
