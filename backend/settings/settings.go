// Package settings is the Wails-bound service behind the Settings screen:
// facts about this installation, user preferences, small pieces of UI state
// (panel sizes and the like) and, when configured, whether the OS keychain can
// be used.
//
// Every exported method of *Service is callable from JavaScript, each call on
// its own goroutine, so the service is safe for concurrent use.
package settings

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"mcpdesk/backend/notify"
	"mcpdesk/backend/remotecontent"
	"mcpdesk/backend/store"
)

// prefsKey is the settings key that holds Prefs.
const prefsKey = "prefs"

// Limits of SaveUIState.
const (
	MaxUIStateKey   = 128       // bytes of a key
	MaxUIStateValue = 64 * 1024 // bytes of a value
)

// themes and languages are the values Prefs accepts, default first.
var (
	themes    = []string{"system", "light", "dark"}
	languages = []string{"", "en", "zh-CN"}
)

// AppInfo describes this installation. It is fixed for the life of the
// process.
type AppInfo struct {
	Version      string `json:"version"`
	DataDir      string `json:"dataDir"`
	ConfigFile   string `json:"configFile"`
	DatabaseFile string `json:"databaseFile"`
}

// Prefs are the user's preferences.
type Prefs struct {
	Theme    string `json:"theme" ts_type:"'system' | 'light' | 'dark'"` // "system" (default) | "light" | "dark"
	Language string `json:"language" ts_type:"'' | 'en' | 'zh-CN'"`      // "" = follow the system | "en" | "zh-CN"
	// QuitOnClose: closing the window quits MCP Desk. By default (false)
	// it stays in the system tray when a tray is shown (SPEC F2).
	QuitOnClose bool `json:"quitOnClose"`
	// NotifyOff lists the kinds of desktop notification turned off (none:
	// every kind is sent while the window is hidden or unfocused).
	NotifyOff []notify.Kind `json:"notifyOff" ts_type:"('reply' | 'approval' | 'question' | 'task')[] | null"`
}

// DefaultPrefs returns the preferences of a new installation.
func DefaultPrefs() Prefs { return Prefs{Theme: "system", Language: ""} }

// Validate reports the first field with a value that is not allowed, naming
// the field and the allowed values.
func (p Prefs) Validate() error {
	if !slices.Contains(themes, p.Theme) {
		return fmt.Errorf("invalid theme %q: want one of %s", p.Theme, quoteAll(themes))
	}
	if !slices.Contains(languages, p.Language) {
		return fmt.Errorf("invalid language %q: want one of %s", p.Language, quoteAll(languages))
	}
	for _, k := range p.NotifyOff {
		if !slices.Contains(notify.Kinds, k) {
			return fmt.Errorf("invalid notification kind %q: want reply, approval, question or task", k)
		}
	}
	return nil
}

// Option configures a Service.
type Option func(*Service)

// WithLogger sets the logger; the default discards.
func WithLogger(l *slog.Logger) Option {
	return func(s *Service) {
		if l != nil {
			s.logger = l
		}
	}
}

// WithPrefsListener calls fn with the preferences after every save (the
// tray follows the language this way).
func WithPrefsListener(fn func(Prefs)) Option { return func(s *Service) { s.onPrefs = fn } }

// WithContext sets the context of every database call of the service,
// typically the application's context so that shutdown cancels them. The
// default is context.Background().
func WithContext(ctx context.Context) Option {
	return func(s *Service) {
		if ctx != nil {
			s.ctx = ctx
		}
	}
}

// Service is bound to the frontend. It holds no mutable state of its own: the
// store serializes writes.
type Service struct {
	st     *store.Store
	info   AppInfo
	logger *slog.Logger
	prober Prober
	// storedKeys counts the keys the keychain holds that can be read
	// (WithStoredKeys).
	storedKeys func() int
	// kcMu guards kc, the keychain status of this run (keychain.go).
	kcMu   sync.Mutex
	kc     *KeychainStatus
	opener Opener     // shows the data folder (WithOpener)
	links  LinkOpener // opens links in the browser (WithLinkOpener, links.go)
	ctx    context.Context
	// onPrefs hears about every saved Prefs (WithPrefsListener).
	onPrefs func(Prefs)
	// desktop reports the tray and the global shortcut (WithDesktop).
	desktop func() DesktopStatus
	// windowReady does what the launch asked for (WithWindowReady).
	windowReady func()
	// images keeps which hosts may show images and fetches them (remote.go).
	images *remotecontent.Images
	// notifier shows desktop notifications (WithNotifier, notify.go).
	notifier Notifier
}

// New returns a Service over st describing the installation with info.
func New(st *store.Store, info AppInfo, opts ...Option) *Service {
	s := &Service{
		st:     st,
		info:   info,
		logger: slog.New(slog.DiscardHandler),
		opener: systemOpener,
		ctx:    context.Background(),
	}
	for _, o := range opts {
		o(s)
	}
	if s.images == nil {
		s.images = remotecontent.New(st, st, remotecontent.Options{Logger: s.logger})
	}
	return s
}

// Info returns the facts about this installation given to New.
func (s *Service) Info() AppInfo { return s.info }

// Prefs returns the stored preferences, or the defaults when none are stored.
// A stored field this build does not know a value of (written by a newer
// build, say) reads as its default.
func (s *Service) Prefs() (Prefs, error) {
	p := DefaultPrefs()
	if _, err := s.st.GetSetting(s.ctx, prefsKey, &p); err != nil {
		return DefaultPrefs(), fmt.Errorf("read preferences: %w", err)
	}
	def := DefaultPrefs()
	if !slices.Contains(themes, p.Theme) {
		s.logger.Warn("stored theme unknown, using default", "theme", p.Theme)
		p.Theme = def.Theme
	}
	if !slices.Contains(languages, p.Language) {
		s.logger.Warn("stored language unknown, using default", "language", p.Language)
		p.Language = def.Language
	}
	p.NotifyOff = slices.DeleteFunc(p.NotifyOff, func(k notify.Kind) bool { return !slices.Contains(notify.Kinds, k) })
	return p, nil
}

// SavePrefs validates p, stores it and returns what was stored. An empty
// theme means the default theme; an unknown theme or language is an error
// naming the field and the allowed values, and stores nothing.
func (s *Service) SavePrefs(p Prefs) (Prefs, error) {
	if p.Theme == "" {
		p.Theme = DefaultPrefs().Theme
	}
	if err := p.Validate(); err != nil {
		return Prefs{}, fmt.Errorf("save preferences: %w", err)
	}
	if err := s.st.PutSetting(s.ctx, prefsKey, p); err != nil {
		return Prefs{}, fmt.Errorf("save preferences: %w", err)
	}
	if s.onPrefs != nil {
		s.onPrefs(p)
	}
	return p, nil
}

// UIState returns the value saved under key, or "" when there is none.
func (s *Service) UIState(key string) (string, error) {
	if err := checkUIStateKey(key); err != nil {
		return "", fmt.Errorf("read ui state: %w", err)
	}
	v, _, err := s.st.GetUIState(s.ctx, key)
	if err != nil {
		return "", fmt.Errorf("read ui state: %w", err)
	}
	return v, nil
}

// SaveUIState saves value under key. The key must be 1 to 128 bytes and the
// value at most 64 KiB.
func (s *Service) SaveUIState(key, value string) error {
	if err := checkUIStateKey(key); err != nil {
		return fmt.Errorf("save ui state: %w", err)
	}
	if len(value) > MaxUIStateValue {
		return fmt.Errorf("save ui state %q: value is %d bytes, more than the %d allowed", key, len(value), MaxUIStateValue)
	}
	if err := s.st.PutUIState(s.ctx, key, value); err != nil {
		return fmt.Errorf("save ui state: %w", err)
	}
	return nil
}

func checkUIStateKey(key string) error {
	switch {
	case key == "":
		return errors.New("empty key")
	case len(key) > MaxUIStateKey:
		return fmt.Errorf("key is %d bytes, more than the %d allowed", len(key), MaxUIStateKey)
	}
	return nil
}

func quoteAll(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}
