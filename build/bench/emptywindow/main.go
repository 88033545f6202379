// Command emptywindow is the floor of MCP Desk's memory: an empty Wails v2
// window (<h1>hello</h1>) on the same WebKitGTK, with the same GPU policy
// (software rendering) and the same window size. build/scripts/mem-bench.sh
// measures it beside MCP Desk in one run; the difference is what MCP Desk
// itself costs.
package main

import (
	"embed"
	"fmt"
	"os"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

//go:embed dist
var assets embed.FS

func main() {
	err := wails.Run(&options.App{
		Title:       "hello",
		Width:       1280,
		Height:      820,
		AssetServer: &assetserver.Options{Assets: assets},
		Linux:       &linux.Options{ProgramName: "emptywindow", WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "emptywindow:", err)
		os.Exit(1)
	}
}
