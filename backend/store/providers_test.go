package store

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestProvidersCRUD(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()

	a, err := st.CreateProvider(ctx, Provider{
		ID: "openai-abc", Name: "OpenAI", Type: "openai", Preset: "openai", BaseURL: "https://api.openai.com/v1",
		KeyEnv: "OPENAI_API_KEY", Headers: map[string]string{"OpenAI-Organization": "org-1"}, Enabled: true,
	})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if a.Position != 0 || a.CreatedAt.IsZero() {
		t.Errorf("created = %+v", a)
	}
	b, err := st.CreateProvider(ctx, Provider{ID: "ollama-xyz", Name: "Ollama", Type: "ollama", BaseURL: "http://localhost:11434"})
	if err != nil || b.Position != 1 {
		t.Fatalf("second create: %+v %v", b, err)
	}
	if _, err := st.CreateProvider(ctx, Provider{ID: "other", Name: "openai", Type: "openai", BaseURL: "http://x"}); !errors.Is(err, ErrProviderNameTaken) {
		t.Errorf("duplicate name (other case) = %v, want ErrProviderNameTaken", err)
	}
	if _, err := st.CreateProvider(ctx, Provider{ID: "bad", Name: "Bad", Type: "anthropic", BaseURL: "http://x"}); err == nil {
		t.Error("a type outside openai|ollama was stored")
	}

	got, err := st.Provider(ctx, "openai-abc")
	if err != nil {
		t.Fatal(err)
	}
	if got.Headers["OpenAI-Organization"] != "org-1" || got.KeyEnv != "OPENAI_API_KEY" || !got.Enabled || len(got.ManualModels) != 0 || got.ManualModels == nil {
		t.Errorf("Provider = %+v", got)
	}
	if _, err := st.Provider(ctx, "nope"); !errors.Is(err, ErrProviderNotFound) {
		t.Errorf("unknown id = %v", err)
	}

	if err := st.SetProviderManualModels(ctx, "openai-abc", []string{"gpt-x", "my-finetune"}); err != nil {
		t.Fatal(err)
	}
	got.Name, got.BaseURL, got.Enabled, got.Headers = "OpenAI (work)", "https://proxy.example/v1", false, nil
	up, err := st.UpdateProvider(ctx, got)
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if up.Name != "OpenAI (work)" || up.Enabled || !reflect.DeepEqual(up.ManualModels, []string{"gpt-x", "my-finetune"}) ||
		up.Position != 0 || !up.CreatedAt.Equal(a.CreatedAt) || len(up.Headers) != 0 {
		t.Errorf("updated = %+v", up)
	}
	up.Name = "OLLAMA"
	if _, err := st.UpdateProvider(ctx, up); !errors.Is(err, ErrProviderNameTaken) {
		t.Errorf("rename onto another = %v", err)
	}
	if _, err := st.UpdateProvider(ctx, Provider{ID: "nope", Name: "x", Type: "openai"}); !errors.Is(err, ErrProviderNotFound) {
		t.Errorf("update unknown = %v", err)
	}
	if err := st.SetProviderEnabled(ctx, "openai-abc", true); err != nil {
		t.Fatal(err)
	}
	if err := st.SetProviderEnabled(ctx, "nope", true); !errors.Is(err, ErrProviderNotFound) {
		t.Errorf("enable unknown = %v", err)
	}

	list, err := st.Providers(ctx)
	if err != nil || len(list) != 2 || list[0].ID != "openai-abc" || !list[0].Enabled || list[1].ID != "ollama-xyz" {
		t.Fatalf("Providers = %+v %v", list, err)
	}

	if err := st.DeleteProvider(ctx, "openai-abc"); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteProvider(ctx, "openai-abc"); err != nil {
		t.Errorf("deleting twice = %v", err)
	}
	if list, _ := st.Providers(ctx); len(list) != 1 {
		t.Errorf("after delete: %+v", list)
	}
}

func TestModelPreferences(t *testing.T) {
	st := openTest(t, t.TempDir())
	ctx := context.Background()
	for _, id := range []string{"a", "b"} {
		if _, err := st.CreateProvider(ctx, Provider{ID: id, Name: id, Type: "openai", BaseURL: "http://x", Enabled: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, err := st.DefaultModel(ctx); ok || err != nil {
		t.Fatalf("default on a new database: %v %v", ok, err)
	}
	def := ModelRef{Provider: "a", Model: "m1"}
	if err := st.SetDefaultModel(ctx, def); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := st.DefaultModel(ctx); !ok || err != nil || got != def {
		t.Fatalf("DefaultModel = %+v %v %v", got, ok, err)
	}
	fb := []ModelRef{{"b", "m2"}, {"a", "m3"}, {"b", "m4"}}
	if err := st.SetFallbackModels(ctx, fb); err != nil {
		t.Fatal(err)
	}
	if got, err := st.FallbackModels(ctx); err != nil || !reflect.DeepEqual(got, fb) {
		t.Fatalf("FallbackModels = %+v %v", got, err)
	}
	if err := st.SetFallbackModels(ctx, []ModelRef{{"a", "ok"}, {"ghost", "m"}}); !errors.Is(err, ErrProviderNotFound) {
		t.Fatalf("unknown provider = %v", err)
	}
	if got, _ := st.FallbackModels(ctx); !reflect.DeepEqual(got, fb) {
		t.Errorf("a failed replace changed the list: %+v", got)
	}

	// Deleting a provider drops the preferences that named it.
	if err := st.DeleteProvider(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.FallbackModels(ctx); !reflect.DeepEqual(got, []ModelRef{{"a", "m3"}}) {
		t.Errorf("fallbacks after delete = %+v", got)
	}
	if err := st.DeleteProvider(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := st.DefaultModel(ctx); ok {
		t.Error("default survived its provider")
	}
	if err := st.SetDefaultModel(ctx, ModelRef{}); err != nil {
		t.Errorf("clearing: %v", err)
	}
}

func TestProvidersSchemaHasNoKeyColumn(t *testing.T) {
	st := openTest(t, t.TempDir())
	for _, table := range []string{"providers", "model_preferences"} {
		cols, err := st.DB().Migrator().ColumnTypes(table)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cols {
			name := strings.ToLower(c.Name())
			if name != "key_env" && (strings.Contains(name, "key") || strings.Contains(name, "secret") || strings.Contains(name, "token")) {
				t.Errorf("%s.%s looks like it holds a secret", table, c.Name())
			}
		}
	}
}
