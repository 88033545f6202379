package settings

import (
	"errors"
	"testing"

	"mcpdesk/backend/notify"
	"mcpdesk/backend/store"
)

type sentNotes struct{ got []notify.Notification }

func (s *sentNotes) Send(n notify.Notification) error {
	s.got = append(s.got, n)
	return nil
}

// Notify sends unless the kind is turned off in the preferences; without a
// notifier it says notifications are not available.
func TestNotifyFollowsThePreferences(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sent := &sentNotes{}
	s := New(st, AppInfo{}, WithNotifier(sent))
	reply := notify.Notification{Kind: notify.Reply, Title: "Reply finished", Body: "Done.", Conversation: 3}
	if ok, err := s.Notify(reply); !ok || err != nil || len(sent.got) != 1 || sent.got[0] != reply {
		t.Fatalf("on by default: %v %v %+v", ok, err, sent.got)
	}
	if _, err := s.SavePrefs(Prefs{Theme: "system", NotifyOff: []notify.Kind{notify.Reply}}); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Notify(reply); ok || err != nil || len(sent.got) != 1 {
		t.Errorf("turned off: %v %v, %d sent", ok, err, len(sent.got))
	}
	if ok, err := s.Notify(notify.Notification{Kind: notify.Approval, Title: "Approval needed"}); !ok || err != nil || len(sent.got) != 2 {
		t.Errorf("another kind: %v %v", ok, err)
	}
	if _, err := s.Notify(notify.Notification{Kind: "spam"}); err == nil {
		t.Error("an unknown kind was sent")
	}
	if _, err := s.SavePrefs(Prefs{Theme: "system", NotifyOff: []notify.Kind{"spam"}}); err == nil {
		t.Error("an unknown kind was saved")
	}
	if _, err := New(st, AppInfo{}).Notify(notify.Notification{Kind: notify.Task, Title: "x"}); !errors.Is(err, ErrNoNotifier) {
		t.Errorf("without a notifier: %v", err)
	}
}
