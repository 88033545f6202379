package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"mcpdesk/backend/attach"
	"mcpdesk/backend/childproc"
	"mcpdesk/backend/core"
	"mcpdesk/backend/events"
	"mcpdesk/backend/hotkey"
	"mcpdesk/backend/instance"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/notify"
	"mcpdesk/backend/procmem"
	"mcpdesk/backend/secrets"
	"mcpdesk/backend/settings"
	"mcpdesk/backend/shellenv"
	"mcpdesk/backend/store"
	"mcpdesk/backend/tray"
	"mcpdesk/backend/userdirs"
	"mcpdesk/backend/websec"
	"mcpdesk/backend/webview"
)

// keychainService is the name MCP Desk's entries carry in the OS keychain.
const keychainService = "mcpdesk"

// Config is what main decides before the app is composed.
type Config struct {
	DataDir string // "" = $MCPDESK_DATA_DIR, then the user config dir
	Version string
	Started time.Time // when the process started, for the cold-start figure
	// Instance is this data folder's single-window lock (nil: none); later
	// launches are handed over through it.
	Instance *instance.Lock
	// QuickChat opens the window as quick chat (--quick-chat).
	QuickChat bool
	// OpenConversation opens a conversation (a toast's click that launched
	// the app); 0: none.
	OpenConversation int64
	// RegisterClicks registers this executable as where a click on a
	// Windows toast goes (notify.RegisterClickTarget): set for the default
	// data folder's window, as one per user can be registered.
	RegisterClicks bool
	// TrayIcon is the tray's icon (PNG; ICO on Windows); nil: no tray.
	TrayIcon []byte
	// Web is the window's navigation rule and CSP; nil: no navigation guard.
	Web *websec.Policy
	// Engine is the script-engine options set for the window's web
	// process: no program the app starts inherits them, and they leave
	// the environment once the page has loaded.
	Engine webview.EngineTuning
	// NavigationCheck, a URL, makes the window try to leave for it once
	// loaded and log what held (build/scripts/window-check.sh).
	NavigationCheck string
}

// App is the window's side of the backend: it opens backend/core (the
// composition root) with the window's emitter, keychain and login-shell
// environment, builds the bound services over it under its context, starts
// it when the window starts and closes it when the window closes, and
// adapts the backend's events.Emitter to the Wails runtime.
type App struct {
	ctx     atomic.Pointer[context.Context]
	logger  *slog.Logger
	logFile io.Closer
	// core is the backend the bound services are built over.
	core    *core.Core
	started time.Time

	// bound are the services JavaScript calls (backend/core.Bind).
	bound core.Bound

	// The desktop around the window (SPEC F2).
	cfg       Config
	tray      *tray.Tray
	hotkey    *hotkey.Hotkey
	hotkeyErr string
	// notifier shows desktop notifications; a click opens its conversation.
	notifier *notify.Notifier
	quitting atomic.Bool
	// nav keeps the window on the app's pages (backend/webview).
	nav *webview.Guard
	// loaded is closed by the first domReady (see watchFirstLoad).
	loaded     chan struct{}
	loadedOnce sync.Once
	// launchOnce: what the launch asked for is done once, when the window
	// first says it listens (windowReady), not again after a reload.
	launchOnce sync.Once
}

// NewApp opens the data folder and builds every service; nothing connects
// until startup.
func NewApp(cfg Config) (*App, error) {
	dir, err := store.ResolveDir(cfg.DataDir)
	if err != nil {
		return nil, fmt.Errorf("find data folder: %w", err)
	}
	a := &App{started: cfg.Started, cfg: cfg, loaded: make(chan struct{})}
	a.logger, a.logFile = openLog(dir)
	a.notifier = notify.New(notify.Options{AppName: "MCP Desk", OnClick: a.openConversation, Logger: a.logger})
	desk := mcppool.NewElicitationDesk(emitter{a}, 0)
	env := shellenv.NewProvider(true, shellenv.WithLogger(a.logger), shellenv.WithHidden(cfg.Engine.Names()...))
	keychain := secrets.NewKeyring(keychainService)
	c, err := core.Open(core.Options{
		DataDir: dir,
		Watch:   true,
		Logger:  a.logger,
		Emitter: emitter{a},
		// Provider keys, and servers' secret env and header values
		// (${keychain:…}).
		Secrets: keychain,
		// A window launched from a desktop does not inherit the shell's
		// PATH: stdio servers start with the login shell's environment,
		// and a key named by a variable may be set there only.
		Env:       env,
		LookupEnv: shellLookup(env),
		// Test and "Reload environment" read the login shell again, so a
		// key exported after the start counts; running servers keep theirs.
		ReloadEnv:  env.Reload,
		ClientInfo: mcp.Implementation{Name: "mcpdesk", Title: "MCP Desk", Version: cfg.Version},
		Elicitor:   desk,
		// Signing in to a remote server (OAuth) happens in the browser.
		SignIn: mcppool.SignInOptions{Open: a.signInBrowser()},
	})
	if err != nil {
		return nil, err
	}
	a.core = c
	// An MCP-UI external page the user allowed may be framed while it is
	// shown, never the window's main frame.
	a.nav = webview.New(cfg.Web.WithLiveFrames(c.Pool.ViewPages().ShowsExternal), a.logger)
	// What the bridge gate refuses is shown in the logger too.
	a.nav.OnBridgeBlocked(c.Pool.NoteBridgeBlocked)
	a.bound = c.Bind(core.Window{
		Dialogs: picker{a}, Desk: desk, Keychain: keychain, Version: cfg.Version,
		Settings: []settings.Option{
			// The tray's menu speaks the window's language.
			settings.WithPrefsListener(func(p settings.Prefs) { a.tray.SetLabels(tray.LabelsFor(p.Language, os.Getenv)) }),
			settings.WithDesktop(a.desktopStatus),
			settings.WithWindowReady(a.windowReady),
			settings.WithNotifier(a.notifier),
			// Links in rendered content open in the browser, never in the window.
			settings.WithLinkOpener(a.openInBrowser),
		},
	})
	return a, nil
}

// ViewPages serves the sandbox pages of MCP Apps views under
// websec.ViewPath (backend/apps), in the asset server after websec's
// headers.
func (a *App) ViewPages(next http.Handler) http.Handler {
	return a.core.Pool.ViewPages().Middleware(next)
}

// Attachments serves attached images under attach.Path, in the asset
// server after websec's headers: the chat shows a message's images from
// there.
func (a *App) Attachments(next http.Handler) http.Handler {
	return attach.Middleware(a.core.Store)(next)
}

// PagePrefs puts the saved theme and language into the window's page as
// it is served (settings.InlinePrefs), in the asset server after websec's
// headers: the page opens in them without waiting for a call to Go.
func (a *App) PagePrefs(next http.Handler) http.Handler {
	return settings.InlinePrefs(a.bound.Settings.Prefs, a.logger)(next)
}

// Bindings lists the services whose exported methods JavaScript may call.
func (a *App) Bindings() []any {
	return a.bound.List()
}

func (a *App) startup(ctx context.Context) {
	a.ctx.Store(&ctx)
	a.nav.Watch()
	go a.watchFirstLoad(ctx)
	// The backend outlives no window but is not tied to Wails' context
	// either: shutdown closes it explicitly, after its children are gone.
	poolCtx := a.core.Context()
	// Turns cut short by the last exit are marked interrupted before the
	// window can start new ones.
	if err := a.core.Engine.Start(poolCtx); err != nil {
		a.logger.Warn("chat recovery", "err", err)
	}
	if err := a.core.Pool.Start(poolCtx); err != nil {
		a.logger.Warn("mcp config not loaded", "err", err)
	}
	// SIGTERM / SIGINT close the window the normal way, so that shutdown
	// runs and no MCP server child outlives the app.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		select {
		case sig := <-sigs:
			a.logger.Info("quitting on signal", "signal", sig.String())
			a.quit()
		case <-poolCtx.Done():
		}
		signal.Stop(sigs)
	}()
	a.startDesktop()
}

// firstLoadWait is how long the first page load may take before the page
// is loaded again. A cold start takes about half a second here.
const firstLoadWait = 8 * time.Second

// watchFirstLoad reloads the page when its first load never finishes.
// A fresh window stayed blank in about one start in eleven: every asset
// was served, but an MCP server started in that moment had inherited the
// write end of an asset's response pipe, so the response never ended.
// backend/childproc prevents that now (no blank start in 180); this
// stays as a net for a cause not yet seen: a short delay, not a white
// window.
func (a *App) watchFirstLoad(ctx context.Context) {
	for attempt := 1; attempt <= 3; attempt++ {
		select {
		case <-a.loaded:
			return
		case <-ctx.Done():
			return
		case <-time.After(firstLoadWait):
		}
		a.logger.Warn("the page did not finish loading; loading it again", "attempt", attempt, "waited", firstLoadWait)
		if a.nav.CanReload() {
			a.nav.Reload()
		} else {
			runtime.WindowReloadApp(ctx)
		}
	}
}

// domReady runs when the frontend has loaded; the cold-start figure of the
// benchmarks is read from this log line.
func (a *App) domReady(ctx context.Context) {
	a.logger.Info("window ready", "since_start", time.Since(a.started).Round(time.Millisecond))
	a.loadedOnce.Do(func() {
		close(a.loaded)
		// The web process runs: nothing started from now on inherits the
		// engine's options (a browser opened for a sign-in, say).
		a.cfg.Engine.Release()
		go settle(ctx, a.logger)
	})
	// Again: at startup the web view may not have been in the window yet.
	a.nav.Watch()
	if a.cfg.NavigationCheck != "" {
		target := a.cfg.NavigationCheck
		a.cfg.NavigationCheck = ""
		go a.checkNavigation(ctx, target)
	}
}

func (a *App) shutdown(context.Context) {
	if err := a.core.Close(); err != nil {
		a.logger.Warn("shut down", "err", err)
	}
	a.logger.Info("shut down")
	a.stopDesktop()
	if a.logFile != nil {
		_ = a.logFile.Close()
	}
}

// emitter sends backend events to the frontend once the window is up;
// before that there is nobody to tell, and the Wails runtime must not be
// called with any other context.
type emitter struct{ a *App }

func (e emitter) Emit(name events.Name, payload any) {
	if ctx := e.a.ctx.Load(); ctx != nil {
		runtime.EventsEmit(*ctx, string(name), payload)
	}
}

// errNoWindow: a dialog was asked for before the window exists.
var errNoWindow = errors.New("the window is not ready")

// picker opens native file dialogs for the backend.
type picker struct{ a *App }

func (p picker) OpenFile(title string) (string, error) {
	ctx, ok := p.a.windowCtx()
	if !ok {
		return "", errNoWindow
	}
	return runtime.OpenFileDialog(ctx, runtime.OpenDialogOptions{
		Title: title,
		Filters: []runtime.FileFilter{
			{DisplayName: "MCP config (*.json)", Pattern: "*.json;*.jsonc"},
			{DisplayName: "All files", Pattern: "*"},
		},
	})
}

func (p picker) OpenFolder(title string) (string, error) {
	ctx, ok := p.a.windowCtx()
	if !ok {
		return "", errNoWindow
	}
	return runtime.OpenDirectoryDialog(ctx, runtime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
}

func (p picker) SaveFile(title, defaultName string) (string, error) {
	ctx, ok := p.a.windowCtx()
	if !ok {
		return "", errNoWindow
	}
	// Without a DefaultDirectory the dialog opens in the working folder,
	// often a source tree: start in Documents (or home) instead.
	return runtime.SaveFileDialog(ctx, runtime.SaveDialogOptions{
		Title: title, DefaultFilename: defaultName, CanCreateDirectories: true,
		DefaultDirectory: userdirs.SaveFolder(userdirs.FromOS()),
	})
}

// openInBrowser hands a checked link (settings.Service.OpenLink) to the
// system's browser or mail program.
func (a *App) openInBrowser(link string) error {
	ctx, ok := a.windowCtx()
	if !ok {
		return errNoWindow
	}
	// Wails starts xdg-open (and so, often, the browser itself) with
	// os/exec: it must not take the window's descriptors along.
	childproc.Isolate()
	runtime.BrowserOpenURL(ctx, link)
	return nil
}

// signInBrowser opens a sign-in page in the system's browser. The
// development build under test (MCPDESK_E2E_BROWSER=fetch) requests the
// page itself and follows its redirects, as a browser would, so the
// end-to-end tests can sign in to a test authorization server that
// approves at once.
func (a *App) signInBrowser() func(string) error {
	if devBuild && os.Getenv("MCPDESK_E2E_BROWSER") == "fetch" {
		return func(u string) error {
			go func() {
				resp, err := http.Get(u)
				if err != nil {
					a.logger.Warn("e2e browser", "err", err)
					return
				}
				resp.Body.Close()
			}()
			return nil
		}
	}
	return a.openInBrowser
}

// openLog writes the app's log to <data>/logs/mcpdesk.log and stderr.
func openLog(dir string) (*slog.Logger, io.Closer) {
	opts := &slog.HandlerOptions{Level: slog.LevelInfo}
	if os.Getenv("MCPDESK_DEBUG") != "" {
		opts.Level = slog.LevelDebug
	}
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o700); err == nil {
		f, err := os.OpenFile(filepath.Join(dir, "logs", "mcpdesk.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err == nil {
			return slog.New(slog.NewTextHandler(io.MultiWriter(os.Stderr, f), opts)), f
		}
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts)), nil
}

// shellLookup looks a variable up in the login shell's environment, then in
// the process's own.
func shellLookup(env *shellenv.Provider) func(string) (string, bool) {
	return func(name string) (string, bool) {
		prefix := name + "="
		for _, kv := range env.Environ(context.Background()) {
			if len(kv) > len(prefix) && kv[:len(prefix)] == prefix {
				return kv[len(prefix):], true
			}
		}
		return os.LookupEnv(name)
	}
}

// settleAfter is how long after the window is ready the start-up garbage
// is handed back: by then the servers have connected and listed what they
// offer, which is most of it.
const settleAfter = 10 * time.Second

// settle returns the memory start-up used and no longer needs to the OS
// once, settleAfter the window is ready: the Go heap's free pages, which
// Go hands back only slowly, and the C heap's (GTK, WebKit's client side,
// SQLite), which glibc keeps for good when they lie below memory in use.
// A window that then idles would hold them.
func settle(ctx context.Context, logger *slog.Logger) {
	select {
	case <-ctx.Done():
		return
	case <-time.After(settleAfter):
	}
	f := procmem.Release()
	logger.Debug("start-up memory returned", "go_heap_mib", float64(f.GoBytes)/(1<<20), "c_heap", f.CReturned)
}
