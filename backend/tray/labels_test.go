package tray

import "testing"

func TestLabelsFor(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		lang string
		env  map[string]string
		quit string
	}{
		{"en", nil, "Quit"},
		{"zh-CN", nil, "退出"},
		{"", map[string]string{"LANG": "zh_CN.UTF-8"}, "退出"},
		{"", map[string]string{"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, "Quit"},
		{"", nil, "Quit"},
		{"fr", nil, "Quit"},
	}
	for _, c := range cases {
		if got := LabelsFor(c.lang, env(c.env)).Quit; got != c.quit {
			t.Errorf("LabelsFor(%q, %v).Quit = %q, want %q", c.lang, c.env, got, c.quit)
		}
	}
}
