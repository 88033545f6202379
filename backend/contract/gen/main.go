// Command gen writes the UI's half of the Go↔UI contract:
//
//	go run ./backend/contract/gen [-out frontend/src/lib/api/generated/contract.ts]
//
// Run it from the module root after changing a bound method, an event or a
// type either carries; the contract test fails until the file is current.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"mcpdesk/backend/contract"
)

func main() {
	out := flag.String("out", contract.Output, "the TypeScript file to write")
	flag.Parse()
	ts, err := contract.TypeScript(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, ts, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
