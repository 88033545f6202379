// Command options prints the window's script-engine options
// (backend/webview.EngineOptions) as NAME=VALUE, one per line, for the
// scripts that run WebKit with them or check that the window did.
package main

import (
	"fmt"

	"mcpdesk/backend/webview"
)

func main() {
	for _, o := range webview.EngineOptions {
		fmt.Printf("%s=%s\n", o.Name, o.Value)
	}
}
