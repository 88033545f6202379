package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
)

const testHash = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// A database of schema 7 with audit rows moves to schema 8 keeping them;
// new rows carry the definition hash, and it comes back.
func TestAuditDefinitionHashMigration(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, DBFileName)
	db, err := gorm.Open(sqlite.Open(path), &gorm.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, db, path, migrations[:7]); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`INSERT INTO audit_log (time, source, server, tool, status) VALUES (1, 'chat', 's', 'old', 'ok')`).Error; err != nil {
		t.Fatal(err)
	}
	sqlDB, _ := db.DB()
	sqlDB.Close()

	st := openTest(t, dir)
	if _, err := st.AddAuditEntry(ctx, AuditEntry{Source: AuditChat, Server: "s", Tool: "new", Status: AuditOK, DefinitionHash: testHash}); err != nil {
		t.Fatal(err)
	}
	got, total, err := st.AuditEntries(ctx, AuditFilter{})
	if err != nil || total != 2 {
		t.Fatalf("AuditEntries = %d, %v", total, err)
	}
	byTool := map[string]string{}
	for _, e := range got {
		byTool[e.Tool] = e.DefinitionHash
	}
	if byTool["old"] != "" || byTool["new"] != testHash {
		t.Errorf("definition hashes = %v", byTool)
	}
	if _, err := st.AddAuditEntry(ctx, AuditEntry{Source: AuditChat, Tool: "x", Status: AuditOK, DefinitionHash: "abc"}); err == nil ||
		!strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("a malformed hash was stored: %v", err)
	}
}

func TestToolDefinitions(t *testing.T) {
	ctx := context.Background()
	st := openTest(t, t.TempDir())
	if _, ok, err := st.ToolDefinition(ctx, testHash); ok || err != nil {
		t.Fatalf("ToolDefinition of nothing = %v, %v", ok, err)
	}
	for range 2 { // keeping one twice is fine
		if kept, err := st.PutToolDefinition(ctx, testHash, []byte(`{"name":"add"}`)); !kept || err != nil {
			t.Fatalf("PutToolDefinition = %v, %v", kept, err)
		}
	}
	if b, ok, err := st.ToolDefinition(ctx, testHash); !ok || err != nil || string(b) != `{"name":"add"}` {
		t.Fatalf("ToolDefinition = %s, %v, %v", b, ok, err)
	}
	if _, err := st.PutToolDefinition(ctx, "nothex", []byte(`{}`)); err == nil {
		t.Error("a malformed hash was accepted")
	}
	other := strings.Replace(testHash, "0", "f", 1)
	if _, err := st.PutToolDefinition(ctx, other, []byte(`not json`)); err == nil {
		t.Error("a definition that is not JSON was kept")
	}
	huge := []byte(`"` + strings.Repeat("a", MaxToolDefinition) + `"`)
	if kept, err := st.PutToolDefinition(ctx, other, huge); kept || err != nil {
		t.Errorf("a huge definition: kept %v, %v", kept, err)
	}
}

func TestIsDigest(t *testing.T) {
	sum := strings.Repeat("0123456789abcdef", 4)
	for s, want := range map[string]bool{
		sum: true, strings.ToUpper(sum): false, sum[:63]: false, sum + "0": false,
		sum[:63] + "g": false, "": false, sum[:62] + "é": false,
	} {
		if IsDigest(s) != want {
			t.Errorf("IsDigest(%q) = %v, want %v", s, !want, want)
		}
	}
}
