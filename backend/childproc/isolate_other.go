//go:build unix && !linux

package childproc

// Isolate marks every descriptor above standard error close-on-exec.
func Isolate() { markListed("/dev/fd") }
