// Command emptywindow is the floor of MCP Desk's memory: an empty Wails v2
// window (<h1>hello</h1>) on the same WebKitGTK, with the same GPU policy
// (software rendering) and the same window size. build/scripts/mem-bench.sh
// measures it beside MCP Desk in one run; the difference is what MCP Desk
// itself costs. It is also the floor of the cold start: it prints
// "window ready since_start=…" when its page is loaded, as MCP Desk logs
// it, and build/scripts/window-bench.sh starts both in turn. With -tuned it
// runs with the engine and rendering options MCP Desk sets for its web
// process (backend/webview.TuneEngine): the floor of the same setup.
package main

import (
	"context"
	"embed"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"mcpdesk/backend/webview"
)

//go:embed dist
var assets embed.FS

func main() {
	started := time.Now()
	tuned := flag.Bool("tuned", false, "run with MCP Desk's engine and rendering options")
	flag.Parse()
	if *tuned {
		webview.TuneEngine(runtime.GOOS, true)
	}
	err := wails.Run(&options.App{
		Title:       "hello",
		Width:       1280,
		Height:      820,
		AssetServer: &assetserver.Options{Assets: assets},
		Linux:       &linux.Options{ProgramName: "emptywindow", WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
		OnDomReady: func(context.Context) {
			fmt.Printf("window ready since_start=%s\n", time.Since(started).Round(time.Millisecond))
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "emptywindow:", err)
		os.Exit(1)
	}
}
