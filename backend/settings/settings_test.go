package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpdesk/backend/secrets"
	"mcpdesk/backend/store"
)

func newTest(t *testing.T, opts ...Option) (*Service, *store.Store, string) {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return New(st, AppInfo{Version: "1.2.3", DataDir: dir, DatabaseFile: st.Path()}, opts...), st, dir
}

func TestInfo(t *testing.T) {
	s, st, dir := newTest(t)
	want := AppInfo{Version: "1.2.3", DataDir: dir, DatabaseFile: st.Path()}
	if got := s.Info(); got != want {
		t.Errorf("Info() = %+v, want %+v", got, want)
	}
}

func TestPrefsDefaults(t *testing.T) {
	s, _, _ := newTest(t)
	p, err := s.Prefs()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, Prefs{Theme: "system", Language: ""}) {
		t.Errorf("Prefs() = %+v, want defaults", p)
	}
}

func TestSavePrefs(t *testing.T) {
	s, st, dir := newTest(t)
	cases := []struct {
		in, want Prefs
	}{
		{Prefs{Theme: "dark", Language: "zh-CN"}, Prefs{Theme: "dark", Language: "zh-CN"}},
		{Prefs{Theme: "light", Language: "en"}, Prefs{Theme: "light", Language: "en"}},
		{Prefs{Theme: "", Language: ""}, Prefs{Theme: "system", Language: ""}},
	}
	for _, c := range cases {
		got, err := s.SavePrefs(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Fatalf("SavePrefs(%+v) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		read, err := s.Prefs()
		if err != nil || !reflect.DeepEqual(read, c.want) {
			t.Fatalf("Prefs() after save = %+v, %v; want %+v", read, err, c.want)
		}
	}

	// Survives a restart.
	if _, err := s.SavePrefs(Prefs{Theme: "dark", Language: "en"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	st2, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if p, err := New(st2, AppInfo{}).Prefs(); err != nil || !reflect.DeepEqual(p, Prefs{Theme: "dark", Language: "en"}) {
		t.Errorf("after reopen Prefs() = %+v, %v", p, err)
	}
}

func TestSavePrefsRejectsUnknownValues(t *testing.T) {
	s, _, _ := newTest(t)
	saved := Prefs{Theme: "dark", Language: "en"}
	if _, err := s.SavePrefs(saved); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		in      Prefs
		mention []string
	}{
		{Prefs{Theme: "sepia"}, []string{"theme", `"sepia"`, `"system", "light", "dark"`}},
		{Prefs{Theme: "Dark"}, []string{"theme"}},
		{Prefs{Theme: "light", Language: "fr"}, []string{"language", `"fr"`, `"", "en", "zh-CN"`}},
		{Prefs{Theme: "light", Language: "zh-cn"}, []string{"language"}},
	}
	for _, c := range cases {
		_, err := s.SavePrefs(c.in)
		if err == nil {
			t.Errorf("SavePrefs(%+v): no error", c.in)
			continue
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("SavePrefs(%+v) error %q does not mention %s", c.in, err, m)
			}
		}
	}
	if p, _ := s.Prefs(); !reflect.DeepEqual(p, saved) {
		t.Errorf("a rejected save changed the stored prefs to %+v", p)
	}
}

func TestPrefsFromNewerBuild(t *testing.T) {
	s, st, _ := newTest(t)
	// A newer build stored a theme this one does not know, and a new field.
	stored := map[string]any{"theme": "sepia", "language": "zh-CN", "fontSize": 14}
	if err := st.PutSetting(context.Background(), prefsKey, stored); err != nil {
		t.Fatal(err)
	}
	p, err := s.Prefs()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, Prefs{Theme: "system", Language: "zh-CN"}) {
		t.Errorf("Prefs() = %+v, want unknown theme to read as the default", p)
	}
}

func TestUIState(t *testing.T) {
	s, _, _ := newTest(t)
	if v, err := s.UIState("layout.sidebar"); err != nil || v != "" {
		t.Fatalf("unset UIState = %q, %v", v, err)
	}
	if err := s.SaveUIState("layout.sidebar", `{"width":280}`); err != nil {
		t.Fatal(err)
	}
	if v, err := s.UIState("layout.sidebar"); err != nil || v != `{"width":280}` {
		t.Fatalf("UIState = %q, %v", v, err)
	}
	if err := s.SaveUIState("layout.sidebar", "300"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.UIState("layout.sidebar"); v != "300" {
		t.Errorf("after overwrite UIState = %q", v)
	}

	maxKey := strings.Repeat("k", MaxUIStateKey)
	maxVal := strings.Repeat("v", MaxUIStateValue)
	if err := s.SaveUIState(maxKey, maxVal); err != nil {
		t.Errorf("SaveUIState at the limits: %v", err)
	}
	if v, _ := s.UIState(maxKey); v != maxVal {
		t.Errorf("value at the limit came back with %d bytes", len(v))
	}

	bad := []struct {
		name, key, value, mention string
	}{
		{"empty key", "", "x", "empty key"},
		{"long key", maxKey + "k", "x", "129 bytes"},
		{"long value", "k", maxVal + "v", "65537 bytes"},
	}
	for _, c := range bad {
		err := s.SaveUIState(c.key, c.value)
		if err == nil || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%s: SaveUIState = %v, want an error mentioning %q", c.name, err, c.mention)
		}
	}
	if _, err := s.UIState(""); err == nil {
		t.Error("UIState(\"\"): no error")
	}
}

func TestConcurrentCalls(t *testing.T) {
	s, _, _ := newTest(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	themes := []string{"system", "light", "dark"}
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 25 {
				if _, err := s.SavePrefs(Prefs{Theme: themes[(i+j)%3], Language: "en"}); err != nil {
					errs <- err
					return
				}
				if _, err := s.Prefs(); err != nil {
					errs <- err
					return
				}
				if err := s.SaveUIState(fmt.Sprintf("panel.%d", i), fmt.Sprint(j)); err != nil {
					errs <- err
					return
				}
				if _, err := s.UIState(fmt.Sprintf("panel.%d", i)); err != nil {
					errs <- err
					return
				}
				s.Info()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range 8 {
		if v, _ := s.UIState(fmt.Sprintf("panel.%d", i)); v != "24" {
			t.Errorf("panel.%d = %q, want 24", i, v)
		}
	}
}

func TestContextCancelsCalls(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s, _, _ := newTest(t, WithContext(ctx))
	if err := s.SaveUIState("k", "v"); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := s.UIState("k"); !errors.Is(err, context.Canceled) {
		t.Errorf("UIState after cancel = %v, want context.Canceled", err)
	}
}

type proberFunc func() error

func (f proberFunc) Probe() error { return f() }

// The keychain implementation satisfies Prober.
var _ Prober = (*secrets.Keyring)(nil)

func TestJSONShapes(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{AppInfo{"1", "/d", "/d/c.json", "/d/mcpdesk.db"}, `{"version":"1","dataDir":"/d","configFile":"/d/c.json","databaseFile":"/d/mcpdesk.db"}`},
		{Prefs{"dark", "zh-CN", true, nil}, `{"theme":"dark","language":"zh-CN","quitOnClose":true,"notifyOff":null}`},
		{DesktopStatus{true, "Ctrl+Alt+Space", "", "mcpdesk --quick-chat", true}, `{"tray":true,"hotkey":"Ctrl+Alt+Space","hotkeyError":"","quickChatCommand":"mcpdesk --quick-chat","notificationClicks":true}`},
		{KeychainStatus{State: "unavailable", Reason: "locked", CheckedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}, `{"state":"unavailable","available":false,"reason":"locked","storedKeys":0,"checkedAt":"2026-01-02T03:04:05Z"}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.v)
		if err != nil || string(b) != c.want {
			t.Errorf("%T = %s, %v; want %s", c.v, b, err, c.want)
		}
	}
}
