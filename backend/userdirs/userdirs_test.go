package userdirs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSaveFolder(t *testing.T) {
	mk := func(t *testing.T, dirs ...string) string {
		home := t.TempDir()
		for _, d := range dirs {
			if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return home
	}
	userDirs := func(t *testing.T, home, body string) {
		if err := os.MkdirAll(filepath.Join(home, ".config"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".config", "user-dirs.dirs"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		goos   string
		dirs   []string
		file   string            // user-dirs.dirs, if any
		env    map[string]string // $HOME in a value is replaced by the home folder
		want   string            // relative to the home folder; "-" for ""
		nohome bool
	}{
		{name: "xdg user-dirs.dirs names a translated folder", goos: "linux", dirs: []string{"Dokumente", "Documents"},
			file: "# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\n", want: "Dokumente"},
		{name: "xdg environment variable wins over the file", goos: "linux", dirs: []string{"Papers", "Dokumente"},
			file: "XDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\n", env: map[string]string{"XDG_DOCUMENTS_DIR": "$HOME/Papers"}, want: "Papers"},
		{name: "xdg folder that does not exist falls back to ~/Documents", goos: "linux", dirs: []string{"Documents"},
			file: "XDG_DOCUMENTS_DIR=\"$HOME/Gone\"\n", want: "Documents"},
		{name: "xdg set to the home folder means none: home", goos: "linux",
			file: "XDG_DOCUMENTS_DIR=\"$HOME/\"\n", want: "."},
		{name: "no xdg file, ~/Documents exists", goos: "linux", dirs: []string{"Documents"}, want: "Documents"},
		{name: "no documents folder at all: home", goos: "linux", want: "."},
		{name: "xdg file under XDG_CONFIG_HOME", goos: "linux", dirs: []string{"cfg", "Docs"},
			env: map[string]string{"XDG_CONFIG_HOME": "$HOME/cfg"}, want: "Docs"},
		{name: "windows: Documents in the profile", goos: "windows", dirs: []string{"Documents"},
			env: map[string]string{"XDG_DOCUMENTS_DIR": "$HOME/Papers"}, want: "Documents"},
		{name: "macOS without Documents: home", goos: "darwin", want: "."},
		{name: "no home folder: the dialog's own default", goos: "linux", nohome: true, want: "-"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			home := mk(t, tc.dirs...)
			if tc.file != "" {
				userDirs(t, home, tc.file)
			}
			if tc.name == "xdg file under XDG_CONFIG_HOME" {
				if err := os.WriteFile(filepath.Join(home, "cfg", "user-dirs.dirs"), []byte("XDG_DOCUMENTS_DIR=\"$HOME/Docs\"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := map[string]string{}
			for k, v := range tc.env {
				env[k] = filepath.Join(home, v[len("$HOME"):])
			}
			e := Env{Getenv: func(k string) string { return env[k] }, Home: home, GOOS: tc.goos}
			if tc.nohome {
				e.Home = filepath.Join(home, "missing")
			}
			got := SaveFolder(e)
			want := filepath.Join(home, tc.want)
			if tc.want == "-" {
				want = ""
			}
			if got != want {
				t.Errorf("SaveFolder = %q, want %q", got, want)
			}
			wd, _ := os.Getwd()
			if got == wd {
				t.Errorf("SaveFolder is the working folder %q", wd)
			}
		})
	}
}
