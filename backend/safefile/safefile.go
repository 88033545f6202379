// Package safefile writes the files a user saves — conversation exports,
// usage CSVs — so that only the user can read them and nothing planted at
// the path is followed.
package safefile

import (
	"io"
	"os"
	"path/filepath"
	"runtime"

	"mcpdesk/backend/usererr"
)

// Mode is the permission of every file written: the user's alone. Exports
// hold conversations and usage; a user who wants to share one can change
// its mode or copy it.
const Mode = 0o600

// Write creates or replaces the file at path with what write writes. The
// text goes to a new file beside path, created exclusively (O_EXCL: an
// existing name — a symbolic link someone planted there — is never
// opened) with mode 0600, and is then renamed over path. Rename replaces a
// symbolic link at path itself, never the file it points to, and the file
// appears whole or not at all: a failed write leaves path as it was.
//
// On Windows the file gets the access list of its folder (the mode only
// decides that it is not read-only), and the rename likewise replaces a
// link at path rather than its target.
func Write(path string, write func(w io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return usererr.SaveError(path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = usererr.SaveError(path, err)
		}
	}()
	if runtime.GOOS != "windows" {
		// CreateTemp asked for 0600; the umask could only have taken
		// more away. Make it exactly that, on the open file.
		if err := f.Chmod(Mode); err != nil {
			return err
		}
	}
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// WriteFile is Write with the whole content at hand.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
