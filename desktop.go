package main

import (
	"context"
	"os"
	"slices"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"mcpdesk/backend/events"
	"mcpdesk/backend/hotkey"
	"mcpdesk/backend/instance"
	"mcpdesk/backend/notify"
	"mcpdesk/backend/procmem"
	"mcpdesk/backend/settings"
	"mcpdesk/backend/tray"
)

// The desktop around the window (SPEC F2): the tray icon, closing to the
// tray, quick chat, and later launches handed over to this one.

// quickChatArg opens quick chat, on a first launch or handed to the
// running one — bind `mcpdesk --quick-chat` to a key in the desktop's
// keyboard settings where no global shortcut of our own can be had.
const quickChatArg = "--quick-chat"

func wantsQuickChat(args []string) bool {
	return !notify.IsClick(args) && (slices.Contains(args, quickChatArg) || slices.Contains(args, "-quick-chat"))
}

// clickedConversation is the conversation a toast's click launched the
// app with (0: none).
func clickedConversation(args []string) int64 {
	id, _ := notify.ParseClick(args)
	return id
}

// startDesktop shows the tray icon and starts taking over later launches.
func (a *App) startDesktop() {
	if a.cfg.TrayIcon != nil {
		p, _ := a.bound.Settings.Prefs()
		a.tray = tray.Start(tray.Options{
			Icon:   a.cfg.TrayIcon,
			Labels: tray.LabelsFor(p.Language, os.Getenv),
			Actions: tray.Actions{
				QuickChat: a.quickChat,
				Show:      a.showWindow,
				Quit:      a.quit,
			},
			Logger: a.logger,
		})
	}
	if a.cfg.RegisterClicks {
		if exe, err := os.Executable(); err != nil {
			a.logger.Warn("notification clicks not registered", "err", err)
		} else if err := notify.RegisterClickTarget(exe); err != nil {
			a.logger.Warn("notification clicks not registered", "err", err)
		}
	}
	if hk, err := hotkey.Register("", a.quickChat); err != nil {
		a.logger.Info("no global quick-chat shortcut", "reason", err)
		a.hotkeyErr = err.Error()
	} else {
		a.hotkey = hk
	}
	if a.cfg.Instance != nil {
		a.cfg.Instance.Serve(func(r instance.Request) {
			// A toast's click (Windows): its conversation, and nothing else
			// the launch may carry (backend/notify/click.go). What a web
			// page put in the URL is not logged, only what it opens.
			if id, click := notify.ParseClick(r.Args); click {
				a.logger.Info("another launch handed over: notification clicked", "conversation", id)
				if id != 0 {
					a.openConversation(id)
				} else {
					a.showWindow()
				}
				return
			}
			a.logger.Info("another launch handed over", "args", r.Args)
			if wantsQuickChat(r.Args) {
				a.quickChat()
				return
			}
			a.showWindow()
		})
	}
}

// windowReady runs when the window's page hears the app's events
// (settings.Service.WindowReady): what the launch asked for is done now.
// At domReady it would be too early: the page mounts and subscribes later,
// and an event sent before is lost.
func (a *App) windowReady() {
	a.launchOnce.Do(func() {
		// The second figure of the cold start (build/scripts/window-bench.sh):
		// the interface is mounted, with its saved theme and language.
		a.logger.Info("interface mounted", "since_start", time.Since(a.started).Round(time.Millisecond))
		switch {
		case a.cfg.QuickChat:
			a.logger.Info("launched for quick chat")
			a.quickChat()
		case a.cfg.OpenConversation != 0:
			a.logger.Info("launched by a notification's click", "conversation", a.cfg.OpenConversation)
			a.openConversation(a.cfg.OpenConversation)
		}
	})
}

// windowCtx is the Wails context, once the window exists.
func (a *App) windowCtx() (context.Context, bool) {
	ctx := a.ctx.Load()
	if ctx == nil {
		return nil, false
	}
	return *ctx, true
}

// showWindow brings the full window forward (leaving quick chat).
func (a *App) showWindow() {
	ctx, ok := a.windowCtx()
	if !ok {
		return
	}
	raise(ctx)
	runtime.EventsEmit(ctx, string(events.WindowShow))
}

// openConversation shows the full window on a conversation: the user
// clicked its desktop notification.
func (a *App) openConversation(id int64) {
	ctx, ok := a.windowCtx()
	if !ok {
		return
	}
	a.showWindow()
	runtime.EventsEmit(ctx, string(events.WindowOpenConversation), events.OpenConversationPayload{ConversationID: id})
}

// quickChat shows the window as quick chat; the frontend sizes it and
// keeps it on top.
func (a *App) quickChat() {
	ctx, ok := a.windowCtx()
	if !ok {
		return
	}
	raise(ctx)
	runtime.EventsEmit(ctx, string(events.WindowQuickChat), events.QuickChatPayload{Tray: a.tray.Available()})
}

// raise shows the window, also when hidden in the tray or minimised.
func raise(ctx context.Context) {
	runtime.WindowShow(ctx)
	runtime.WindowUnminimise(ctx)
}

// quit ends the app for real (tray menu, signals): closing is not turned
// into hiding any more.
func (a *App) quit() {
	a.quitting.Store(true)
	if ctx, ok := a.windowCtx(); ok {
		runtime.Quit(ctx)
	}
}

// beforeClose keeps the app in the tray when the window is closed, unless
// the user chose to quit on close or no panel shows tray icons (then
// hiding would leave the app unreachable).
func (a *App) beforeClose(ctx context.Context) (prevent bool) {
	if a.quitting.Load() {
		return false
	}
	p, err := a.bound.Settings.Prefs()
	if err != nil || p.QuitOnClose || !a.tray.Available() {
		return false
	}
	runtime.WindowHide(ctx)
	a.logger.Info("window closed to the tray")
	// The window may stay hidden for hours: what the session freed goes
	// back to the OS now, not as Go's scavenger gets round to it (the C
	// heap's free pages below memory in use would stay for good).
	go func() {
		f := procmem.Release()
		a.logger.Info("memory returned while in the tray", "go_heap_mib", float64(f.GoBytes)/(1<<20), "c_heap", f.CReturned)
	}()
	return true
}

// desktopStatus is what Settings shows about the tray and the shortcut.
func (a *App) desktopStatus() settings.DesktopStatus {
	d := settings.DesktopStatus{Tray: a.tray.Available(), HotkeyError: a.hotkeyErr, QuickChatCommand: "mcpdesk " + quickChatArg,
		NotificationClicks: notify.ClicksOpen}
	if a.hotkey != nil {
		d.Hotkey = hotkey.Label
	}
	return d
}

// stopDesktop gives the shortcut back and removes the tray icon.
func (a *App) stopDesktop() {
	a.hotkey.Close()
	a.notifier.Close()
	// Last: the tray shares the D-Bus connection the keychain uses.
	a.tray.Stop()
	if a.cfg.Instance != nil {
		_ = a.cfg.Instance.Close()
	}
}
