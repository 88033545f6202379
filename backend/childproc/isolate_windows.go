package childproc

// Isolate does nothing on Windows: a handle reaches a child only when it
// is made inheritable, and os/exec passes the child an explicit list.
func Isolate() {}
