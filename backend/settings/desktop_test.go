package settings

import (
	"testing"

	"mcpdesk/backend/store"
)

func TestDesktopAndQuitOnClose(t *testing.T) {
	st, err := store.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var heard []Prefs
	s := New(st, AppInfo{}, WithPrefsListener(func(p Prefs) { heard = append(heard, p) }),
		WithDesktop(func() DesktopStatus { return DesktopStatus{Tray: true, Hotkey: "Ctrl+Alt+Space"} }))

	if d := s.Desktop(); !d.Tray || d.Hotkey != "Ctrl+Alt+Space" {
		t.Fatalf("Desktop() = %+v", d)
	}
	if d := New(st, AppInfo{}).Desktop(); d.Tray || d.Hotkey != "" {
		t.Fatalf("Desktop() without a source = %+v", d)
	}
	// Keeping running in the tray is the default; quitting on close is a choice that is kept.
	p, err := s.Prefs()
	if err != nil || p.QuitOnClose {
		t.Fatalf("default prefs %+v %v", p, err)
	}
	p.QuitOnClose = true
	p.Language = "zh-CN"
	if _, err := s.SavePrefs(p); err != nil {
		t.Fatal(err)
	}
	if len(heard) != 1 || !heard[0].QuitOnClose || heard[0].Language != "zh-CN" {
		t.Fatalf("listener heard %+v", heard)
	}
	again, err := New(st, AppInfo{}).Prefs()
	if err != nil || !again.QuitOnClose {
		t.Fatalf("after reopening: %+v %v", again, err)
	}
	// A failed save is not announced.
	p.Theme = "purple"
	if _, err := s.SavePrefs(p); err == nil {
		t.Fatal("invalid theme saved")
	}
	if len(heard) != 1 {
		t.Fatalf("listener heard a failed save: %+v", heard)
	}
}
