// Package mcptest helps tests reach real MCP servers: it builds our own
// test server (../testserver) and finds the npm reference servers pinned in
// ../testdata/npm. Only tests import it.
package mcptest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// BuildServer compiles the test server into a temporary directory and
// returns its path and a cleanup function. Call it from TestMain.
func BuildServer() (path string, cleanup func(), err error) {
	return build("testserver")
}

// BuildHostileServer compiles the hostile server (../hostileserver: a
// server that attacks its client, one attack per --mode) like BuildServer.
func BuildHostileServer() (path string, cleanup func(), err error) {
	return build("hostileserver")
}

// build compiles mcpdesk/backend/mcp/<name> into a temporary directory.
func build(name string) (path string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "mcpdesk-"+name)
	if err != nil {
		return "", nil, err
	}
	path = filepath.Join(dir, name)
	if runtime.GOOS == "windows" {
		path += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", path, "mcpdesk/backend/mcppool/"+name)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("build %s: %v\n%s", name, err, out)
	}
	return path, func() { os.RemoveAll(dir) }, nil
}

// NPMServer returns the entry point of an npm reference server package,
// such as "server-everything". The packages are installed by `make deps`;
// a missing one fails the test rather than skipping it.
func NPMServer(t testing.TB, pkg string) string {
	t.Helper()
	dir := os.Getenv("MCPDESK_NPM_DIR")
	if dir == "" {
		_, file, _, _ := runtime.Caller(0)
		dir = filepath.Join(filepath.Dir(file), "..", "testdata", "npm")
	}
	p := filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("npm reference server %s is not installed (%v); run `make deps`", pkg, err)
	}
	return p
}
