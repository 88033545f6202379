//go:build windows

package instance

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

var errLocked = errors.New("locked by another process")

type lockFile struct{ f *os.File }

// tryLock takes an exclusive LockFileEx lock on path without waiting; the
// OS drops it when the process ends.
func tryLock(path string) (lockFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return lockFile{}, err
	}
	ol := new(windows.Overlapped)
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return lockFile{}, errLocked
		}
		return lockFile{}, err
	}
	return lockFile{f: f}, nil
}

func (l lockFile) unlock() {
	if l.f != nil {
		_ = windows.UnlockFileEx(windows.Handle(l.f.Fd()), 0, 1, 0, new(windows.Overlapped))
		_ = l.f.Close()
	}
}
