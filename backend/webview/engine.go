package webview

import (
	"os"
	"slices"
)

// The page's script engine. On Linux, WebKitGTK runs the page's JavaScript
// in JavaScriptCore inside the web process, which WebKit starts with the
// app's environment; JavaScriptCore reads its options from JSC_* variables
// there. Wails v2 offers no other way to reach them.
//
// The interface's scripts are short: a click, an event, one render. They
// never run long enough for JavaScriptCore's optimising tiers to pay back
// the memory their code and profiles hold, so the window runs without them:
// the web process holds 2.4 MiB less at idle than the same binary with
// MCPDESK_WEBVIEW_JIT=full (alternating runs, as in
// build/scripts/mem-bench.sh). build/scripts/engine-bench.sh prints
// the price: the chat's markdown render of a 10,000-token reply takes as
// long; a loop sorting 200,000 plain objects takes a quarter longer.

// EngineOption is one JavaScriptCore option of the window's web process.
type EngineOption struct{ Name, Value string }

// EngineOptions are the options the window's web process runs with.
var EngineOptions = []EngineOption{
	// DFG, the optimising JIT (FTL sits above it and goes with it): its
	// code and profiles held 1.3 MiB at idle. A 10,000-token reply's
	// markdown renders as fast without it (WebKitGTK 2.50, this machine).
	{"JSC_useDFGJIT", "false"},
	// The baseline JIT compiles a function after 20,000 runs instead of
	// 500, so code that runs only while the window starts stays bytecode:
	// 1 MiB less at 5,000, 0.35 MiB less again at 20,000. The window
	// starts as fast; the markdown render takes as long (engine-bench.sh:
	// 378 against 384 ms cold at 5,000). A loop runs its iterations in the
	// count, so hot code still gets the JIT early.
	{"JSC_thresholdForJITAfterWarmUp", "20000"},
}

// RenderOptions are set beside EngineOptions when the window renders
// without the GPU, as it does unless MCPDESK_WEBVIEW_GPU asks for it
// (main.go). Both turn off GPU plumbing that software rendering never
// uses; together the app process holds 0.8 MiB less at idle (3 alternating
// runs of the same binary).
var RenderOptions = []EngineOption{
	// WebKit's DMA-BUF renderer passes the page's frames to the window as
	// GPU buffers, and sets up EGL for them in the app process even when
	// the page is drawn on the CPU. Without it, frames come in shared
	// memory, WebKit's path for windows without acceleration.
	{"WEBKIT_DISABLE_DMABUF_RENDERER", "1"},
	// GTK's own OpenGL: the window has no GL widget, yet GDK loads the GLX
	// driver at start to pick GL-capable visuals.
	{"GDK_GL", "disable"},
}

// FullEngineVar set to "full" leaves JavaScriptCore as WebKit sets it up.
const FullEngineVar = "MCPDESK_WEBVIEW_JIT"

// EngineTuning is what TuneEngine set in the environment.
type EngineTuning struct {
	names []string
	unset func(string) error
}

// TuneEngine puts EngineOptions into the process environment for the web
// process WebKitGTK is about to start, unless MCPDESK_WEBVIEW_JIT=full, and
// RenderOptions for WebKit and GTK in this process when the window renders
// in software. On Linux only, and leaving any option the user set alone.
// The programs MCP Desk starts (MCP servers, the login shell, a browser)
// must not inherit them: see Names and Release.
func TuneEngine(goos string, software bool) EngineTuning {
	return tuneEngine(goos, software, os.LookupEnv, os.Setenv, os.Unsetenv)
}

func tuneEngine(goos string, software bool, lookup func(string) (string, bool), set func(string, string) error, unset func(string) error) EngineTuning {
	t := EngineTuning{unset: unset}
	if goos != "linux" {
		return t
	}
	var opts []EngineOption
	if v, _ := lookup(FullEngineVar); v != "full" {
		opts = EngineOptions
	}
	if software {
		opts = append(slices.Clip(opts), RenderOptions...)
	}
	for _, o := range opts {
		if _, ok := lookup(o.Name); ok {
			continue // the user's own choice
		}
		if set(o.Name, o.Value) == nil {
			t.names = append(t.names, o.Name)
		}
	}
	return t
}

// Names are the variables TuneEngine set: a child's environment leaves
// them out (shellenv.WithHidden).
func (t EngineTuning) Names() []string { return slices.Clone(t.names) }

// Release takes the variables out of the process environment again, once
// the window's page has loaded and its web process runs: anything started
// later (a browser opened for a sign-in, say) does not inherit them.
func (t EngineTuning) Release() {
	for _, n := range t.names {
		_ = t.unset(n)
	}
}
