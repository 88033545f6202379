// Package userdirs finds the folders a desktop user keeps their files in,
// so that a save dialog starts there rather than in the process's working
// folder (which, started from a terminal or a build, is often a source tree).
package userdirs

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Env is what SaveFolder looks at: the environment, the home folder and the
// operating system (runtime.GOOS).
type Env struct {
	Getenv func(string) string
	Home   string
	GOOS   string
}

// FromOS returns the Env of this process.
func FromOS() Env {
	home, _ := os.UserHomeDir()
	return Env{Getenv: os.Getenv, Home: home, GOOS: runtime.GOOS}
}

// SaveFolder returns the folder a save dialog should start in: the user's
// documents folder when it exists (on Linux and the BSDs the XDG user
// directory XDG_DOCUMENTS_DIR, from the environment or user-dirs.dirs), else
// the home folder, else "" (the dialog's own default).
func SaveFolder(e Env) string {
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	if e.GOOS != "windows" && e.GOOS != "darwin" {
		if d := xdgDocuments(e); d != "" && isDir(d) {
			return d
		}
	}
	if e.Home == "" || !isDir(e.Home) {
		return ""
	}
	if d := filepath.Join(e.Home, "Documents"); isDir(d) {
		return d
	}
	return e.Home
}

// xdgDocuments returns XDG_DOCUMENTS_DIR as xdg-user-dirs(1) defines it, or
// "" when it is not set or names the home folder itself (which means "no
// such folder").
func xdgDocuments(e Env) string {
	v := e.Getenv("XDG_DOCUMENTS_DIR")
	if v == "" {
		v = fromUserDirsFile(e)
	}
	if v == "" || e.Home == "" && strings.HasPrefix(v, "$HOME") {
		return ""
	}
	v = strings.Replace(v, "$HOME", e.Home, 1)
	if !filepath.IsAbs(v) {
		if e.Home == "" {
			return ""
		}
		v = filepath.Join(e.Home, v)
	}
	v = filepath.Clean(v)
	if v == filepath.Clean(e.Home) {
		return ""
	}
	return v
}

// fromUserDirsFile reads XDG_DOCUMENTS_DIR from
// $XDG_CONFIG_HOME/user-dirs.dirs (default ~/.config/user-dirs.dirs), a
// shell fragment of lines XDG_xxx_DIR="$HOME/yyy".
func fromUserDirsFile(e Env) string {
	cfg := e.Getenv("XDG_CONFIG_HOME")
	if cfg == "" {
		if e.Home == "" {
			return ""
		}
		cfg = filepath.Join(e.Home, ".config")
	}
	f, err := os.Open(filepath.Join(cfg, "user-dirs.dirs"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		name, value, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(name) != "XDG_DOCUMENTS_DIR" {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = value[1 : len(value)-1]
		}
		return value
	}
	return ""
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
