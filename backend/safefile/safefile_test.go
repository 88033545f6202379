package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteFile(t *testing.T) {
	cases := []struct {
		name  string
		plant func(t *testing.T, path, victim string)
	}{
		{"new file", func(*testing.T, string, string) {}},
		{"existing readable file", func(t *testing.T, path, _ string) {
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"symlink to a file", func(t *testing.T, path, victim string) {
			if err := os.Symlink(victim, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"dangling symlink", func(t *testing.T, path, victim string) {
			if err := os.Symlink(victim+".new", path); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(t.TempDir(), "victim")
			if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "export.md")
			c.plant(t, path, victim)
			if err := WriteFile(path, []byte("# exported")); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("%s is %v, %v; want a regular file", path, fi.Mode(), err)
			}
			if runtime.GOOS != "windows" && fi.Mode().Perm() != Mode {
				t.Errorf("mode %04o, want %04o", fi.Mode().Perm(), Mode)
			}
			if b, _ := os.ReadFile(path); string(b) != "# exported" {
				t.Errorf("content %q", b)
			}
			if b, _ := os.ReadFile(victim); string(b) != "precious" {
				t.Errorf("the link's target was written: %q", b)
			}
			if _, err := os.Lstat(victim + ".new"); err == nil {
				t.Errorf("a dangling link's target was created")
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

func TestWriteFailureLeavesTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "usage.csv")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("a failed write changed the file: %q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
