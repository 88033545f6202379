package settings

// DesktopStatus says what the desktop around the window offers now (SPEC
// F2), for the Settings screen to explain.
type DesktopStatus struct {
	// Tray: a tray icon is shown, so closing the window can keep MCP Desk
	// running.
	Tray bool `json:"tray"`
	// Hotkey is the global quick-chat shortcut ("Ctrl+Alt+Space"), or ""
	// when none could be had; HotkeyError then says why.
	Hotkey      string `json:"hotkey"`
	HotkeyError string `json:"hotkeyError"`
	// QuickChatCommand opens quick chat from a terminal or a key binding of
	// the desktop's own.
	QuickChatCommand string `json:"quickChatCommand"`
	// NotificationClicks: a click on a desktop notification opens its
	// conversation on this system (not on macOS yet).
	NotificationClicks bool `json:"notificationClicks"`
}

// WithWindowReady sets what WindowReady runs.
func WithWindowReady(fn func()) Option { return func(s *Service) { s.windowReady = fn } }

// WindowReady is the window saying it now hears the app's events: what
// the launch asked for (quick chat, a notification's conversation) is done
// now, as events sent earlier would have been lost.
func (s *Service) WindowReady() {
	if s.windowReady != nil {
		s.windowReady()
	}
}

// WithDesktop sets where Desktop reads the status from.
func WithDesktop(fn func() DesktopStatus) Option { return func(s *Service) { s.desktop = fn } }

// Desktop reports the tray and the global shortcut as they are now.
func (s *Service) Desktop() DesktopStatus {
	if s.desktop == nil {
		return DesktopStatus{}
	}
	return s.desktop()
}
