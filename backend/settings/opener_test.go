package settings

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/store"
)

func TestOpenDataFolder(t *testing.T) {
	var opened []string
	s, _, dir := newTest(t, WithOpener(func(d string) error { opened = append(opened, d); return nil }))
	if err := s.OpenDataFolder(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(opened, []string{dir}) {
		t.Errorf("opened %q, want the data folder %q", opened, dir)
	}

	// The opener's failure is the caller's, with what to do.
	failing, _, _ := newTest(t, WithOpener(func(string) error { return errors.New("no file manager could be started") }))
	if err := failing.OpenDataFolder(); err == nil || !strings.Contains(err.Error(), "no file manager") {
		t.Errorf("failing opener: %v", err)
	}

	// A folder that is gone is not handed to the opener.
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opened = nil
	for _, d := range []string{"", filepath.Join(t.TempDir(), "gone")} {
		gone := New(st, AppInfo{DataDir: d}, WithOpener(func(d string) error { opened = append(opened, d); return nil }))
		if err := gone.OpenDataFolder(); err == nil {
			t.Errorf("data folder %q: no error", d)
		}
	}
	if len(opened) != 0 {
		t.Errorf("opener called with %q", opened)
	}
}

func TestOpenCommand(t *testing.T) {
	for _, c := range []struct{ goos, want string }{
		{"linux", "xdg-open"}, {"freebsd", "xdg-open"}, {"darwin", "open"}, {"windows", "explorer"},
	} {
		name, args := openCommand(c.goos, "/data dir")
		if name != c.want || !slices.Equal(args, []string{"/data dir"}) {
			t.Errorf("%s: %s %q, want %s [/data dir]", c.goos, name, args, c.want)
		}
	}
}

// The system opener runs xdg-open with the folder and does not wait for
// it; without one on PATH it says so.
func TestSystemOpener(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("runs a fake xdg-open")
	}
	bin := t.TempDir()
	out := filepath.Join(t.TempDir(), "opened")
	script := "#!/bin/sh\nprintf '%s' \"$1\" > " + out + ".tmp && mv " + out + ".tmp " + out + "\nsleep 3\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin:/bin") // the fake first; sh, mv and sleep after
	s, _, dir := newTest(t)
	start := time.Now()
	if err := s.OpenDataFolder(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("OpenDataFolder waited %s for the file manager", took)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(out)
		if err == nil {
			if string(b) != dir {
				t.Errorf("xdg-open got %q, want %q", b, dir)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("xdg-open was not run")
		}
		time.Sleep(20 * time.Millisecond)
	}

	t.Setenv("PATH", t.TempDir())
	err := s.OpenDataFolder()
	if err == nil || !strings.Contains(err.Error(), "xdg-open was not found") || !strings.Contains(err.Error(), dir) {
		t.Errorf("without xdg-open: %v", err)
	}
}
