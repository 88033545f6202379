// Package httpguard holds the rules every HTTP client of MCP Desk that
// carries credentials follows: LLM providers (an API key and the whole
// conversation) and remote MCP servers (their headers, often a token).
package httpguard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// ErrRedirectRefused is matched (errors.Is) by the error of a request
// whose server redirected it to another host, another port or from https
// to http.
var ErrRedirectRefused = errors.New("redirect refused")

// RedirectError is a redirect that was not followed.
type RedirectError struct {
	From, To string // hosts (To with its scheme when the scheme was the problem)
	Why      string // "another host", "another port", "from https to unencrypted http"
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s redirected the request to %s (%s); not followed, so that credentials are not sent there", e.From, e.To, e.Why)
}

// Is makes errors.Is(err, ErrRedirectRefused) true.
func (e *RedirectError) Is(target error) bool { return target == ErrRedirectRefused }

// SameHostRedirects is an http.Client CheckRedirect that follows a
// redirect only to the same host and port (or from http to https on the
// same host), then asks next (nil: Go's limit of 10 redirects). Anything
// else is refused rather than followed without the credentials: Go drops
// Authorization and Cookie for another host but keeps every other header
// (api-key, X-API-Key, a server's custom token header), a transport that
// sets headers itself would set them again, and a 307 or 308 would post the
// body — a conversation, a tool call — to the other host.
func SameHostRedirects(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		from, to := via[0].URL, req.URL
		switch {
		case !strings.EqualFold(from.Hostname(), to.Hostname()):
			return &RedirectError{from.Host, to.Host, "another host"}
		case from.Scheme == "https" && to.Scheme != "https":
			return &RedirectError{from.Host, to.Scheme + "://" + to.Host, "from https to unencrypted http"}
		case portOf(from) != portOf(to) && !(from.Scheme == "http" && to.Scheme == "https"):
			return &RedirectError{from.Host, to.Host, "another port"}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

// portOf returns u's port, or its scheme's default.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}
