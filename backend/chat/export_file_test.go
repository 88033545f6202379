package chat

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// pathSaver answers the save dialog with a fixed path.
type pathSaver string

func (p pathSaver) SaveFile(string, string) (string, error) { return string(p), nil }

// TestSaveExportPrivateAndNoFollow: an export saved over a symbolic link
// someone planted replaces the link — its target is untouched — and only
// the user can read it.
func TestSaveExportPrivateAndNoFollow(t *testing.T) {
	en := newEnv(t, envConfig{})
	conv, err := en.e.NewConversation(en.ctx, NewConversationInput{})
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []ExportFormat{ExportMarkdown, ExportJSON} {
		path := filepath.Join(t.TempDir(), "export."+string(format))
		if err := os.Symlink(victim, path); err != nil {
			t.Fatal(err)
		}
		got, err := NewService(en.e, pathSaver(path)).SaveExport(conv.ID, format)
		if err != nil || got != path {
			t.Fatalf("SaveExport(%s) = %q, %v", format, got, err)
		}
		if b, _ := os.ReadFile(victim); string(b) != "precious" {
			t.Fatalf("the export was written through the link into its target: %q", b)
		}
		fi, err := os.Lstat(path)
		if err != nil || !fi.Mode().IsRegular() {
			t.Fatalf("%s: %v, %v; want a regular file", path, fi.Mode(), err)
		}
		if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
			t.Errorf("%s export has mode %04o, want 0600", format, fi.Mode().Perm())
		}
		if b, _ := os.ReadFile(path); !strings.Contains(string(b), "mcpdesk.conversation") && format == "json" {
			t.Errorf("json export: %q", b)
		}
	}
}
