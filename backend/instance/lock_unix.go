//go:build unix

package instance

import (
	"errors"
	"os"
	"syscall"
)

var errLocked = errors.New("locked by another process")

type lockFile struct{ f *os.File }

// tryLock takes an exclusive flock on path without waiting. flock locks
// belong to the open file, so the OS drops them when the process ends.
func tryLock(path string) (lockFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return lockFile{}, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return lockFile{}, errLocked
		}
		return lockFile{}, err
	}
	return lockFile{f: f}, nil
}

func (l lockFile) unlock() {
	if l.f != nil {
		_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
		_ = l.f.Close()
	}
}
