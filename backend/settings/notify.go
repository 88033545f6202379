package settings

import (
	"errors"
	"fmt"
	"slices"

	"mcpdesk/backend/notify"
)

// Notifier shows desktop notifications; *notify.Notifier is one.
type Notifier interface {
	Send(n notify.Notification) error
}

// WithNotifier sets what Notify sends through.
func WithNotifier(n Notifier) Option {
	return func(s *Service) { s.notifier = n }
}

// ErrNoNotifier: this build or desktop sends no notifications.
var ErrNoNotifier = errors.New("desktop notifications are not available here")

// Notify shows a desktop notification (issue 16) unless its kind is
// turned off in the preferences; it reports whether it was sent. The
// window decides when one is due (a reply finished, an approval or a
// question waits, a long tool call ended) while it is hidden or
// unfocused; clicking it brings the window to n.Conversation.
func (s *Service) Notify(n notify.Notification) (bool, error) {
	if !slices.Contains(notify.Kinds, n.Kind) {
		return false, fmt.Errorf("notify: unknown kind %q", n.Kind)
	}
	p, err := s.Prefs()
	if err != nil {
		return false, err
	}
	if slices.Contains(p.NotifyOff, n.Kind) {
		return false, nil
	}
	if s.notifier == nil {
		return false, ErrNoNotifier
	}
	if err := s.notifier.Send(n); err != nil {
		return false, fmt.Errorf("notify: %w", err)
	}
	return true, nil
}
