package instance

import (
	"os"
	"path/filepath"
)

// defaultGuard keeps the socket in mcpdesk in the user's temp folder
// (%TEMP%, inside the user's profile, whose access list admits the user,
// administrators and SYSTEM). Windows has no file modes or peer
// credentials for Unix sockets that Go can read, so only that the folder
// is a real folder is checked.
func defaultGuard() guard {
	return guard{dir: filepath.Join(os.TempDir(), "mcpdesk"), uid: -1}
}

// restrictSocket does nothing: the folder's access list applies.
func restrictSocket(string) error { return nil }
