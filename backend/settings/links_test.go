package settings

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestOpenLink(t *testing.T) {
	var opened []string
	s, _, _ := newTest(t, WithLinkOpener(func(l string) error { opened = append(opened, l); return nil }))
	for _, c := range []struct{ link, want string }{
		{"https://example.com/docs?q=1#top", "https://example.com/docs?q=1#top"},
		{"http://example.com", "http://example.com"},
		{"HTTPS://Example.com/a", "https://Example.com/a"},
		{"https://example.com:8443/", "https://example.com:8443/"},
		{"mailto:someone@example.com", "mailto:someone@example.com"},
		{"mailto:someone@example.com?subject=Hello%20there", "mailto:someone@example.com?subject=Hello%20there"},
		{"mailto:?to=a@example.com", "mailto:?to=a@example.com"},
		// Characters the system opener refuses are percent-encoded, not lost.
		{"https://en.wikipedia.org/wiki/Go_(programming_language)", "https://en.wikipedia.org/wiki/Go_%28programming_language%29"},
		{"https://example.com/a?x=$HOME;y=`id`", "https://example.com/a?x=%24HOME%3By=%60id%60"},
		{"https://example.com/%E4%BD%A0", "https://example.com/%E4%BD%A0"},
		{"https://example.com/?q=你好", "https://example.com/?q=%E4%BD%A0%E5%A5%BD"},
	} {
		opened = nil
		if err := s.OpenLink(c.link); err != nil {
			t.Errorf("OpenLink(%q): %v", c.link, err)
			continue
		}
		if len(opened) != 1 || opened[0] != c.want {
			t.Errorf("OpenLink(%q) opened %q, want %q", c.link, opened, c.want)
		}
	}
}

func TestOpenLinkRefuses(t *testing.T) {
	var opened []string
	s, _, _ := newTest(t, WithLinkOpener(func(l string) error { opened = append(opened, l); return nil }))
	for _, c := range []struct{ link, says string }{
		{"", "empty"},
		{"javascript:alert(1)", "not javascript:"},
		{"JavaScript:alert(1)", "not javascript:"},
		{"file:///etc/passwd", "not file:"},
		{"data:text/html,<script>alert(1)</script>", "not data:"},
		{"vbscript:msgbox(1)", "not vbscript:"},
		{"ms-settings:privacy", "not ms-settings:"},
		{"zoommtg://zoom.us/join?confno=1", "not zoommtg:"},
		{"ftp://example.com/file", "not ftp:"},
		{"smb://host/share", "not smb:"},
		{"blob:https://example.com/uuid", "not blob:"},
		{"wails://wails/", "not wails:"},
		{"https:", "no host"},
		{"https:example.com", "no host"},
		{"https:///path", "no host"},
		{"http://:80/", "no host"},
		{"//example.com/x", "not a full link"},
		{"/relative", "not a full link"},
		{"mailto:", "no address"},
		{"https://paypal.com@evil.example/", "user name"},
		{"https://user:pw@example.com/", "user name"},
		{"https://example.com/\x00", "control"},
		{"https://example.com/\r\nx", "control"},
		{"https://example.com/\x1b[31m", "control"},
		{"https://example.com/\u0085", "control"},
		{"https://exa\u200bmple.com/", "invisible"},
		{"https://example.com/\u202egnp.exe", "invisible"},
		{"https://example.com/a b", "space"},
		{"https://example.com/\u2028", "space"},
		{" https://example.com/", "space"},
		{"https://example.com/\xff", "UTF-8"},
		{"https://example.com/" + strings.Repeat("a", MaxLinkLength), "bytes long"},
	} {
		opened = nil
		err := s.OpenLink(c.link)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("OpenLink(%q) = %v, want an error saying %q", c.link, err, c.says)
		}
		if len(opened) != 0 {
			t.Errorf("OpenLink(%q) opened %q", c.link, opened)
		}
	}
}

// Every link the opener gets survives the system opener's own check: no
// character it refuses is left after the host.
func TestOpenLinkOpenerForm(t *testing.T) {
	for _, link := range []string{
		"https://example.com/a(b)c!d~e*f[g]{h}|i;j$k<l>m'n\"o",
		"https://example.com/?a=(1)&b=[2]#frag(3)",
		"mailto:a@example.com?subject=(hi)!",
		"https://例え.jp/パス?q=値",
	} {
		u, err := CheckLink(link)
		if err != nil {
			t.Fatalf("CheckLink(%q): %v", link, err)
		}
		form := openerForm(u)
		rest := strings.TrimPrefix(strings.TrimPrefix(form, u.Scheme+"://"+u.Host), u.Scheme+":")
		if i := strings.IndexAny(rest, openerChars); i >= 0 {
			t.Errorf("openerForm(%q) = %q keeps %q", link, form, rest[i])
		}
		for i := 0; i < len(rest); i++ {
			if rest[i] >= 0x80 {
				t.Errorf("openerForm(%q) = %q keeps a non-ASCII byte", link, form)
				break
			}
		}
		// It still names the same place.
		back, err := url.Parse(form)
		if err != nil || back.Host != u.Host || back.Scheme != u.Scheme {
			t.Errorf("openerForm(%q) = %q parses to %v, %v", link, form, back, err)
		}
	}
}

func TestOpenLinkOpenerFails(t *testing.T) {
	s, _, _ := newTest(t, WithLinkOpener(func(string) error { return errors.New("no browser could be started") }))
	if err := s.OpenLink("https://example.com/"); err == nil || !strings.Contains(err.Error(), "no browser") || !strings.Contains(err.Error(), "example.com") {
		t.Errorf("failing opener: %v", err)
	}
	bare, _, _ := newTest(t)
	if err := bare.OpenLink("https://example.com/"); err == nil {
		t.Error("a service without an opener opened a link")
	}
}
