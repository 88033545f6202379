//go:build linux || windows || freebsd || openbsd || netbsd

package tray

import (
	"log/slog"
	"sync"

	"fyne.io/systray"
)

// Tray is the running tray icon. There is one per process: the systray
// library keeps its state in package variables.
type Tray struct {
	logger *slog.Logger
	stop   func()

	mu    sync.Mutex
	items struct{ quick, show, quit *systray.MenuItem }
	done  chan struct{}
}

// Start shows the icon, or returns nil (and logs why) when this session
// has no place for one. Call it once, when the window's event loop runs.
func Start(o Options) *Tray {
	t := &Tray{logger: o.Logger, done: make(chan struct{})}
	if t.logger == nil {
		t.logger = slog.Default()
	}
	if err := canStart(); err != nil {
		t.logger.Warn("no tray icon", "err", err)
		return nil
	}
	ready := make(chan struct{})
	start, end := systray.RunWithExternalLoop(func() {
		systray.SetIcon(o.Icon)
		systray.SetTitle("MCP Desk")
		systray.SetTooltip(o.Labels.Tooltip)
		t.mu.Lock()
		t.items.quick = systray.AddMenuItem(o.Labels.QuickChat, "")
		t.items.show = systray.AddMenuItem(o.Labels.Show, "")
		systray.AddSeparator()
		t.items.quit = systray.AddMenuItem(o.Labels.Quit, "")
		items := t.items
		t.mu.Unlock()
		// A left click on the icon shows the window, as in most apps.
		systray.SetOnTapped(o.Actions.Show)
		go t.loop(items.quick, items.show, items.quit, o.Actions)
		close(ready)
	}, nil)
	t.stop = end
	start()
	<-ready
	t.logger.Info("tray started", "available", t.Available())
	return t
}

func (t *Tray) loop(quick, show, quit *systray.MenuItem, a Actions) {
	for {
		select {
		// Each click is logged: a user's log (and desktop-check's) then
		// says what the window was asked to do.
		case <-quick.ClickedCh:
			t.logger.Info("tray menu clicked", "item", "quick chat")
			a.QuickChat()
		case <-show.ClickedCh:
			t.logger.Info("tray menu clicked", "item", "show")
			a.Show()
		case <-quit.ClickedCh:
			t.logger.Info("tray menu clicked", "item", "quit")
			a.Quit()
		case <-t.done:
			return
		}
	}
}

// SetLabels changes the menu's words (the language changed).
func (t *Tray) SetLabels(l Labels) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.items.quick == nil {
		return
	}
	t.items.quick.SetTitle(l.QuickChat)
	t.items.show.SetTitle(l.Show)
	t.items.quit.SetTitle(l.Quit)
	systray.SetTooltip(l.Tooltip)
}

// Stop removes the icon.
func (t *Tray) Stop() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stop == nil {
		return
	}
	close(t.done)
	t.stop()
	t.stop = nil
}
