package shellenv

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// pathSeparators are the characters that make a program name a path.
const pathSeparators = `/\:`

// keyEqual compares environment variable names; Windows ignores case.
func keyEqual(a, b string) bool { return strings.EqualFold(a, b) }

// execExts returns the executable extensions of PATHEXT in env, lower
// case, defaulting to .com .exe .bat .cmd.
func execExts(env []string) []string {
	var exts []string
	for _, e := range strings.Split(strings.ToLower(getenv(env, "PATHEXT")), ";") {
		if e == "" {
			continue
		}
		if e[0] != '.' {
			e = "." + e
		}
		exts = append(exts, e)
	}
	if len(exts) == 0 {
		exts = []string{".com", ".exe", ".bat", ".cmd"}
	}
	return exts
}

// findExecutable returns path if it names an executable file, trying the
// extensions in exts when path has none of them: "npx" finds "npx.cmd".
func findExecutable(path string, exts []string) (string, error) {
	ext := strings.ToLower(filepath.Ext(path))
	exists := false
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		for _, e := range exts {
			if ext == e {
				return path, nil
			}
		}
		exists = true
	}
	for _, e := range exts {
		if fi, err := os.Stat(path + e); err == nil && !fi.IsDir() {
			return path + e, nil
		}
	}
	if exists {
		return "", ErrNotExecutable
	}
	return "", fs.ErrNotExist
}

// prepareShell is unused on Windows, where there is no login shell to ask.
func prepareShell(*exec.Cmd) {}

// commandLine runs a .cmd or .bat file through cmd.exe: /d skips the
// AutoRun commands (which could print into the protocol stream), /s and
// /c run the rest of the line, and "call" lets the script's path carry
// spaces ("C:\Program Files\nodejs\npx.cmd") without /s stripping its
// quotes.
//
// os/exec quotes arguments that contain spaces, tabs or quotes for
// CommandLineToArgvW; cmd.exe treats & | < > ^ ( ) outside quotes as
// operators, so in an argument os/exec leaves unquoted they are escaped
// with ^.
func commandLine(resolved string, args []string) (string, []string) {
	switch strings.ToLower(filepath.Ext(resolved)) {
	case ".cmd", ".bat":
	default:
		return resolved, args
	}
	argv := make([]string, 0, len(args)+5)
	argv = append(argv, "/d", "/s", "/c", "call", resolved)
	for _, a := range args {
		argv = append(argv, escapeCmdArg(a))
	}
	return comspec(), argv
}

// escapeCmdArg escapes cmd.exe operators in an argument os/exec will not
// quote.
func escapeCmdArg(a string) string {
	if a == "" || strings.ContainsAny(a, " \t\"") || !strings.ContainsAny(a, "&|<>^()") {
		return a
	}
	var b strings.Builder
	for i := 0; i < len(a); i++ {
		if strings.IndexByte("&|<>^()", a[i]) >= 0 {
			b.WriteByte('^')
		}
		b.WriteByte(a[i])
	}
	return b.String()
}

// comspec returns the command interpreter: %ComSpec% when it is an
// absolute path, else cmd.exe.
func comspec() string {
	if c := os.Getenv("ComSpec"); filepath.IsAbs(c) {
		return c
	}
	return "cmd.exe"
}
