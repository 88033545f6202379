// MCP Desk: chat with any LLM using tools, resources and prompts from MCP
// servers, and inspect those servers. main configures; app.go composes.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	goruntime "runtime"
	"strings"
	"syscall"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"mcpdesk/backend/childproc"
	"mcpdesk/backend/cli"
	"mcpdesk/backend/instance"
	"mcpdesk/backend/notify"
	"mcpdesk/backend/shellenv"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
	"mcpdesk/backend/websec"
	"mcpdesk/backend/webview"
)

//go:embed all:frontend/dist
var assets embed.FS

// icon is the window's icon: a 256 px PNG of the app icon (build/appicon.png
// stays the installers'). GTK keeps the window icon decoded for the
// window's life: the 1024 px one held 4 MiB of pixels in the app process.
//
//go:embed build/windowicon.png
var icon []byte

// version is stamped at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// generatingBindings is set in builds for `wails generate module` (bindings.go).
var generatingBindings bool

func main() {
	// A toast's click is a launch anything could make: it carries nothing
	// but its URL (backend/notify/click.go).
	args := notify.ClickArgs(os.Args[1:])
	if !notify.IsClick(args) && cli.Lookup(args) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Run(ctx, args, cli.Env{
			Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
			Version: version, Servers: shellenv.NewProvider(false), // a terminal has the PATH already
		})
		stop()
		os.Exit(code)
	}

	started := time.Now()
	dataDir := ""
	if !notify.IsClick(args) {
		dataDir = dataDirFlag(args)
	}
	if generatingBindings {
		tmp, err := os.MkdirTemp("", "mcpdesk-bindings-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcpdesk:", err)
			os.Exit(1)
		}
		defer os.RemoveAll(tmp)
		dataDir = tmp
	}
	lock, err := singleWindow(dataDir, args)
	if errors.Is(err, instance.ErrRunning) {
		fmt.Fprintln(os.Stderr, "mcpdesk:", err)
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpdesk:", err, "— starting anyway")
	}
	// The window never leaves the app's pages, and they run only the app's
	// own scripts (backend/websec).
	web, err := websec.ForWindow(devBuild, websec.DevServerAddr(args, os.Getenv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpdesk:", err)
		os.Exit(1)
	}
	// The web process WebKitGTK is about to start takes the window's
	// script-engine options from the environment, and WebKit and GTK their
	// software-rendering ones (backend/webview).
	gpu := gpuPolicy()
	engine := webview.TuneEngine(goruntime.GOOS, gpu == linux.WebviewGpuPolicyNever)
	app, err := NewApp(Config{DataDir: dataDir, Engine: engine, Version: version, Started: started,
		Instance: lock, QuickChat: wantsQuickChat(args), OpenConversation: clickedConversation(args), TrayIcon: trayIcon(),
		Web: web, NavigationCheck: os.Getenv("MCPDESK_CHECK_NAVIGATION"),
		// Toasts' clicks come back to the default data folder's window only:
		// one per user can be registered.
		RegisterClicks: dataDir == "" && !devBuild && !generatingBindings})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpdesk:", err)
		os.Exit(1)
	}
	err = wails.Run(&options.App{
		Title:     "MCP Desk",
		Width:     1280,
		Height:    820,
		MinWidth:  900, // also FULL_MIN in frontend/src/lib/state/quickChat.svelte.ts
		MinHeight: 600,
		// childproc first: no response of the window opens its pipe while an
		// MCP server starts, which would inherit it (backend/childproc).
		AssetServer:      &assetserver.Options{Assets: assets, Middleware: assetserver.ChainMiddleware(childproc.Middleware, web.Middleware, app.ViewPages, app.Attachments, app.PagePrefs)},
		BackgroundColour: &options.RGBA{R: 24, G: 26, B: 31, A: 255},
		OnStartup:        app.startup,
		OnDomReady:       app.domReady,
		OnShutdown:       app.shutdown,
		OnBeforeClose:    app.beforeClose,
		Bind:             app.Bindings(),
		// Errors reach JavaScript as {code, params, message}: the UI
		// translates the code, or shows the English message.
		ErrorFormatter: usererr.Format,
		Linux:          &linux.Options{Icon: icon, ProgramName: "mcpdesk", WebviewGpuPolicy: gpu},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpdesk:", err)
		app.shutdown(context.Background())
		os.Exit(1)
	}
}

// singleWindow takes the data folder's instance lock, so that a second
// launch brings this window forward instead of opening another one on the
// same database (SPEC F2).
func singleWindow(dataDir string, args []string) (*instance.Lock, error) {
	if generatingBindings {
		return nil, nil
	}
	dir, err := store.ResolveDir(dataDir)
	if err != nil {
		return nil, err
	}
	return instance.Acquire(dir, args)
}

// dataDirFlag reads --data-dir from the window's arguments. Other flags are
// left alone: a development build also receives Wails' own (-devserver …).
func dataDirFlag(args []string) string {
	fs := flag.NewFlagSet("mcpdesk", flag.ContinueOnError)
	fs.SetOutput(nopWriter{})
	dir := fs.String("data-dir", "", "")
	for i, a := range args {
		if a == "--data-dir" || a == "-data-dir" || strings.HasPrefix(a, "--data-dir=") || strings.HasPrefix(a, "-data-dir=") {
			_ = fs.Parse(args[i:])
			break
		}
	}
	return *dir
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }

// gpuPolicy picks WebKitGTK's hardware acceleration. Software rendering is
// the default: the interface is text and lists, and it starts faster and
// idles in about 90 MiB less memory (see build/scripts/window-bench.sh).
// MCPDESK_WEBVIEW_GPU=on-demand or =always turns acceleration back on.
func gpuPolicy() linux.WebviewGpuPolicy {
	switch os.Getenv("MCPDESK_WEBVIEW_GPU") {
	case "on-demand":
		return linux.WebviewGpuPolicyOnDemand
	case "always":
		return linux.WebviewGpuPolicyAlways
	default:
		return linux.WebviewGpuPolicyNever
	}
}
