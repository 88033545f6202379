package settings

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// LinkOpener hands a checked link to the system: the browser for http(s),
// the mail program for mailto.
type LinkOpener func(link string) error

// WithLinkOpener sets what OpenLink hands checked links to (the app passes
// Wails' BrowserOpenURL); without one OpenLink refuses every link.
func WithLinkOpener(o LinkOpener) Option { return func(s *Service) { s.links = o } }

// MaxLinkLength is the longest link OpenLink opens, in bytes.
const MaxLinkLength = 8192

// OpenLink opens link outside the app: an http or https page in the system
// browser, a mailto address in the mail program. The frontend calls it when
// the user clicks a link in rendered content; the app's window itself never
// navigates. Anything else — javascript:, file:, data:, custom schemes, a
// web address without a host or with a user name in it, control or
// invisible characters — is refused with an error that says why.
func (s *Service) OpenLink(link string) error {
	u, err := CheckLink(link)
	if err != nil {
		return err
	}
	if s.links == nil {
		return errors.New("open link: this build cannot open a browser")
	}
	s.logger.Info("opening link outside the app", "scheme", u.Scheme, "host", u.Hostname())
	if err := s.links(openerForm(u)); err != nil {
		return fmt.Errorf("open link to %s: %w", u.Hostname(), err)
	}
	return nil
}

// CheckLink parses link and returns it if OpenLink may open it.
func CheckLink(link string) (*url.URL, error) {
	if link == "" {
		return nil, errors.New("open link: the link is empty")
	}
	if len(link) > MaxLinkLength {
		return nil, fmt.Errorf("open link: the link is %d bytes long, more than the %d allowed", len(link), MaxLinkLength)
	}
	if !utf8.ValidString(link) {
		return nil, errors.New("open link: the link is not valid UTF-8")
	}
	for i, r := range link {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || unicode.In(r, unicode.Zl, unicode.Zp) {
			return nil, fmt.Errorf("open link: the link contains a space, control or invisible character (%U at byte %d), which could hide where it goes", r, i)
		}
	}
	u, err := url.Parse(link)
	if err != nil {
		return nil, fmt.Errorf("open link: not a valid link: %w", err)
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "http", "https":
		if u.Opaque != "" || u.Host == "" || u.Hostname() == "" {
			return nil, fmt.Errorf("open link: the %s: link %.80q has no host", scheme, link)
		}
		if u.User != nil {
			return nil, fmt.Errorf("open link: the link to %s carries a user name before the host (%.40q), which is how links hide where they go", u.Hostname(), u.User.Username()+"@")
		}
	case "mailto":
		if u.Opaque == "" && u.RawQuery == "" {
			return nil, errors.New("open link: the mailto: link has no address")
		}
	case "":
		return nil, fmt.Errorf("open link: %.80q is not a full link (http, https or mailto)", link)
	default:
		return nil, fmt.Errorf("open link: only http, https and mailto links open outside the app, not %s: links", scheme)
	}
	u.Scheme = scheme
	return u, nil
}

// openerChars are the characters that system openers (Wails' own check
// before xdg-open, open or ShellExecute) refuse or a shell would read;
// past the host they are sent percent-encoded, which web servers read the
// same way (Wikipedia's "Go_(programming_language)").
const openerChars = ";|`$\\<>*{}[]()~!'\" \t"

// openerForm is u as handed to the opener: everything after the host (or
// after "mailto:") percent-encodes openerChars and non-ASCII bytes.
func openerForm(u *url.URL) string {
	s := u.String()
	start := len(u.Scheme) + 1 // "mailto:"
	if u.Host != "" {
		start = len(u.Scheme) + len("://") + len(u.Host)
	}
	var b strings.Builder
	b.WriteString(s[:start])
	for i := start; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || strings.IndexByte(openerChars, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
