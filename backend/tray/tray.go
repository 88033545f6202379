// Package tray puts MCP Desk in the system tray (SPEC F2): an icon whose
// menu offers Quick chat, Show MCP Desk and Quit. It knows nothing of the
// window; the actions are functions the composition root hands in.
//
// fyne.io/systray runs beside Wails' own event loop (RunWithExternalLoop).
// On Linux it is pure Go: the icon is a D-Bus StatusNotifierItem with a
// com.canonical.dbusmenu menu, shown by any panel that runs a
// StatusNotifierWatcher (KDE, XFCE, Cinnamon, GNOME with the AppIndicator
// extension). Without a watcher the item is still exported but nobody
// shows it — Available says so, and the window then quits when closed.
package tray

import (
	"log/slog"
	"strings"
)

// Actions are what the menu items do.
type Actions struct {
	QuickChat func()
	Show      func()
	Quit      func()
}

// Labels are the menu's words in one language.
type Labels struct {
	QuickChat string
	Show      string
	Quit      string
	Tooltip   string
}

var labels = map[string]Labels{
	"en":    {QuickChat: "Quick chat", Show: "Show MCP Desk", Quit: "Quit", Tooltip: "MCP Desk"},
	"zh-CN": {QuickChat: "快速对话", Show: "显示 MCP Desk", Quit: "退出", Tooltip: "MCP Desk"},
}

// LabelsFor returns the menu's words for a language preference: "en",
// "zh-CN", or "" for the system's language (read from LANG and friends,
// as the window does).
func LabelsFor(lang string, env func(string) string) Labels {
	if lang == "" {
		lang = systemLanguage(env)
	}
	if l, ok := labels[lang]; ok {
		return l
	}
	return labels["en"]
}

func systemLanguage(env func(string) string) string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"} {
		v := strings.ToLower(env(k))
		if v == "" {
			continue
		}
		if strings.HasPrefix(v, "zh") {
			return "zh-CN"
		}
		return "en"
	}
	return "en"
}

// Options configure the tray.
type Options struct {
	Icon    []byte // PNG (Linux, macOS) or ICO (Windows)
	Labels  Labels
	Actions Actions
	Logger  *slog.Logger
}
