package apps

import (
	"net/url"
	"strings"
)

// CSP is a UI resource's _meta.ui.csp: the origins its view may reach.
type CSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// DefaultPolicy is the specification's restrictive default, for a view
// whose resource declares no csp.
const DefaultPolicy = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'"

// hostOnly are directives MCP Desk adds beyond the specification's (it
// MAY restrict further): no plugins, no form posts anywhere, no <base>
// elsewhere unless declared.
const hostOnly = "object-src 'none'; form-action 'none'"

// Policy is the Content-Security-Policy a view runs under, and the
// declared origins that were refused (not an origin, a wildcard for
// everything, a keyword or anything that could end the directive).
type Policy struct {
	Header  string
	Refused []string
}

// Build turns a resource's csp into the view's policy, following the
// specification's table: connectDomains → connect-src; resourceDomains →
// script-src, style-src, img-src, font-src, media-src; frameDomains →
// frame-src ('none' when empty); baseUriDomains → base-uri ('self' when
// empty). Nothing is ever allowed that was not declared; a nil csp gets
// DefaultPolicy (with MCP Desk's further restrictions).
func Build(c *CSP) Policy {
	if c == nil {
		return Policy{Header: DefaultPolicy + "; frame-src 'none'; base-uri 'self'; " + hostOnly}
	}
	var refused []string
	clean := func(list []string) []string {
		var out []string
		for _, d := range list {
			if o, ok := origin(d); ok {
				out = append(out, o)
			} else {
				refused = append(refused, d)
			}
		}
		return out
	}
	connect, resource, frame, base := clean(c.ConnectDomains), clean(c.ResourceDomains), clean(c.FrameDomains), clean(c.BaseURIDomains)
	join := func(fixed string, list []string) string {
		return strings.TrimSpace(fixed + " " + strings.Join(list, " "))
	}
	or := func(list []string, empty string) string {
		if len(list) == 0 {
			return empty
		}
		return strings.Join(list, " ")
	}
	parts := []string{
		"default-src 'none'",
		"script-src " + join("'self' 'unsafe-inline'", resource),
		"style-src " + join("'self' 'unsafe-inline'", resource),
		"img-src " + join("'self' data:", resource),
		"font-src " + join("'self'", resource),
		"media-src " + join("'self' data:", resource),
		"connect-src " + or(connect, "'none'"),
		"frame-src " + or(frame, "'none'"),
		"base-uri " + or(base, "'self'"),
		hostOnly,
	}
	return Policy{Header: strings.Join(parts, "; "), Refused: refused}
}

// origin returns d as a CSP source expression when it is an origin:
// http(s) or ws(s), a host (or *.host: any subdomain), an optional port,
// nothing else. Anything else — "*", "https:", a path with a query, a
// quote, a semicolon, whitespace — is refused: it would allow more than an
// origin or break out of its directive.
func origin(d string) (string, bool) {
	if d == "" || strings.ContainsAny(d, " \t\r\n;,'\"") {
		return "", false
	}
	u, err := url.Parse(d)
	if err != nil || u.User != nil || u.RawQuery != "" || u.Fragment != "" || (u.Path != "" && u.Path != "/") {
		return "", false
	}
	switch u.Scheme {
	case "https", "http", "wss", "ws":
	default:
		return "", false
	}
	host := u.Hostname()
	labels := strings.TrimPrefix(host, "*.")
	if labels == "" || strings.Contains(labels, "*") || !strings.Contains(labels, ".") && labels != "localhost" && !strings.Contains(host, ":") {
		return "", false
	}
	for _, r := range labels {
		if !(r == '.' || r == '-' || r == ':' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return "", false
		}
	}
	out := u.Scheme + "://" + strings.ToLower(u.Host)
	return out, true
}
