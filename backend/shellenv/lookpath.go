package shellenv

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// NotFoundError reports a program that is not on the PATH that was
// searched, or — for a program given as a path — not there at all.
type NotFoundError struct {
	Program string
	// Path lists the directories searched; nil when Program is a path.
	Path []string
}

func (e *NotFoundError) Error() string {
	if e.Path == nil {
		return fmt.Sprintf("program %q not found", e.Program)
	}
	return fmt.Sprintf("program %q not found on PATH (searched: %s)", e.Program, strings.Join(e.Path, string(os.PathListSeparator)))
}

// ErrNotExecutable is returned for a program given as a path that exists
// but is not an executable file.
var ErrNotExecutable = errors.New("not an executable file")

// lookPath implements Provider.LookPath.
func lookPath(program string, env []string) (string, error) {
	if program == "" {
		return "", errors.New("no program given")
	}
	exts := execExts(env)
	if strings.ContainsAny(program, pathSeparators) {
		f, err := findExecutable(program, exts)
		switch {
		case err == nil:
			return f, nil
		case errors.Is(err, fs.ErrNotExist):
			return "", &NotFoundError{Program: program}
		default:
			return "", fmt.Errorf("program %q: %w", program, err)
		}
	}
	dirs := filepath.SplitList(getenv(env, "PATH"))
	for _, dir := range dirs {
		// Relative entries ("", ".") would resolve against the app's
		// working directory, which is not what the user meant.
		if !filepath.IsAbs(dir) {
			continue
		}
		if f, err := findExecutable(filepath.Join(dir, program), exts); err == nil {
			return f, nil
		}
	}
	if dirs == nil {
		dirs = []string{}
	}
	return "", &NotFoundError{Program: program, Path: dirs}
}

// getenv returns the last value of key in env.
func getenv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && keyEqual(k, key) {
			return v
		}
	}
	return ""
}
