package usererr

import (
	"errors"
	"io/fs"
)

// FileError explains why the file at path could not be opened or read:
// it does not exist, it may not be opened, or it could not be read (err
// stays the cause).
func FileError(path string, err error) *Error {
	return fileError(path, err, FileReadFailed)
}

// SaveError explains why the file at path could not be saved.
func SaveError(path string, err error) *Error {
	return fileError(path, err, FileSaveFailed)
}

// fileError codes err, a failure with the file at path; otherwise is the
// code of a failure with no words of its own, whose reason is the
// system's text (without the path it repeats).
func fileError(path string, err error, otherwise Code) *Error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Wrap(err, FileNotFound, Params{"path": path})
	case errors.Is(err, fs.ErrPermission):
		return Wrap(err, FileNotAllowed, Params{"path": path})
	}
	reason := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		reason = pe.Err
	}
	return Wrap(err, otherwise, Params{"path": path, "reason": reason.Error()})
}
