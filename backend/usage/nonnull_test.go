package usage

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"mcpdesk/backend/store"
)

// On an empty database the bound methods send empty lists, never null: the
// UI's generated types say these are arrays and it does not normalise them.
func TestEmptyListsAreArraysNotNull(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := NewService(New(Options{Store: st}), nil, WithContext(context.Background()))
	page, err := s.Audit(AuditQuery{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := s.Summary(UsageQuery{From: "2025-05-01", To: "2025-05-03"})
	if err != nil {
		t.Fatal(err)
	}
	prices, err := s.Prices()
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]any{"Audit": page, "Summary": sum, "Prices": prices} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					if x == nil && k != "cost" && k != "cachedInputPerM" {
						t.Errorf("%s: %s.%s is null", name, path, k)
					}
					walk(path+"."+k, x)
				}
			case []any:
				for _, x := range v {
					walk(path+"[]", x)
				}
			}
		}
		var decoded any
		if err := json.Unmarshal(b, &decoded); err != nil {
			t.Fatal(err)
		}
		walk(name, decoded)
		if name == "Audit" && !strings.Contains(string(b), `"entries":[]`) {
			t.Errorf("Audit of an empty log: %s", b)
		}
	}
}
