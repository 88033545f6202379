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

// commandLine runs a .cmd or .bat file through cmd.exe with a command line
// quoted for cmd.exe's rules (BatchCommandLine), given to the process as it
// is: os/exec would quote the arguments for CommandLineToArgvW, which
// cmd.exe does not follow, so "a\"&calc.exe" would run calc.
func commandLine(resolved string, args []string) (Command, error) {
	switch strings.ToLower(filepath.Ext(resolved)) {
	case ".cmd", ".bat":
	default:
		return Command{Path: resolved, Args: args}, nil
	}
	line, err := BatchCommandLine(resolved, args)
	if err != nil {
		return Command{}, err
	}
	return Command{Path: comspec(), Args: args, Line: line}, nil
}

// comspec returns the command interpreter: %ComSpec% when it is an
// absolute path, else cmd.exe.
func comspec() string {
	if c := os.Getenv("ComSpec"); filepath.IsAbs(c) {
		return c
	}
	return "cmd.exe"
}
