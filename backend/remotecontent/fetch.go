package remotecontent

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// imageTypes are the types a fetched image may have; WebKit shows each in
// an <img>. An SVG in an <img> runs no script and loads nothing, so it is
// as safe as a bitmap.
var imageTypes = []string{
	"image/png", "image/apng", "image/jpeg", "image/gif", "image/webp", "image/bmp",
	"image/x-icon", "image/vnd.microsoft.icon", "image/avif", "image/svg+xml",
}

// newTransport is the HTTP transport of the fetches: the environment's
// proxy, bounded dials and handshakes, few idle connections.
func newTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 15 * time.Second,
		MaxIdleConns:          4,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
	}
}

// Fetch fetches the image at rawURL for scope and returns it as a data:
// URL. It refuses, with an error that says why: a URL that is not http or
// https or carries a user name or password; a host not allowed in scope
// (checked here, whatever the window believes); a redirect to another
// scheme, to a host not allowed in scope, or more than Options.MaxRedirects
// of them; an answer other than 200; a body larger than Options.MaxBytes;
// a body that is not an image. No cookie, Authorization or Referer header
// is ever sent.
func (im *Images) Fetch(ctx context.Context, scope Scope, rawURL string) (string, error) {
	if err := scope.Validate(); err != nil {
		return "", fmt.Errorf("load image: %w", err)
	}
	u, err := checkURL(rawURL)
	if err != nil {
		return "", fmt.Errorf("load image: %w", err)
	}
	host, err := NormalizeHost(u.Hostname())
	if err != nil {
		return "", fmt.Errorf("load image: %w", err)
	}
	fail := func(format string, a ...any) error {
		return fmt.Errorf("load image from %s: %s", host, fmt.Sprintf(format, a...))
	}
	ok, err := im.Allowed(ctx, scope, host)
	if err != nil {
		return "", fail("%v", err)
	}
	if !ok {
		return "", fail("images from %s are not allowed in %s", host, scope)
	}

	select {
	case im.slots <- struct{}{}:
		defer func() { <-im.slots }()
	case <-ctx.Done():
		return "", fail("%v", ctx.Err())
	}
	ctx, cancel := context.WithTimeout(ctx, im.opts.Timeout)
	defer cancel()

	client := &http.Client{
		Transport: im.opts.Transport,
		// No Jar: no cookie is stored or sent.
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > im.opts.MaxRedirects {
				return fmt.Errorf("more than %d redirects", im.opts.MaxRedirects)
			}
			next, err := checkURL(req.URL.String())
			if err != nil {
				return fmt.Errorf("redirected: %w", err)
			}
			nh, err := NormalizeHost(next.Hostname())
			if err != nil {
				return fmt.Errorf("redirected: %w", err)
			}
			ok, err := im.Allowed(req.Context(), scope, nh)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("redirected to %s, whose images are not allowed in %s", nh, scope)
			}
			// Go sets Referer on redirects: it would carry the first URL
			// (and whatever a model put in it) to the next host.
			req.Header.Del("Referer")
			return nil
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", fail("%v", err)
	}
	req.Header.Set("Accept", "image/*")
	req.Header.Set("User-Agent", "MCPDesk")
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return "", fail("no image within %s", im.opts.Timeout)
		}
		return "", fail("%v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fail("the server answered %s", resp.Status)
	}
	limit := im.opts.MaxBytes
	if resp.ContentLength > limit {
		return "", fail("the image is %s, larger than the %s allowed", sizeText(resp.ContentLength), sizeText(limit))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return "", fail("no image within %s", im.opts.Timeout)
		}
		return "", fail("read the image: %v", err)
	}
	if int64(len(body)) > limit {
		return "", fail("the image is larger than the %s allowed", sizeText(limit))
	}
	typ, err := imageType(resp.Header.Get("Content-Type"), body)
	if err != nil {
		return "", fail("%v", err)
	}
	return "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(body), nil
}

// checkURL parses an absolute http(s) URL without a user name or password.
func checkURL(raw string) (*url.URL, error) {
	if len(raw) > maxURLBytes {
		return nil, fmt.Errorf("the URL is %d bytes, more than the %d allowed", len(raw), maxURLBytes)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("bad URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%q is not an http or https URL", shorten(raw))
	}
	if u.User != nil {
		return nil, fmt.Errorf("%q carries a user name or password; such images are never loaded", shorten(u.Redacted()))
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("%q names no host", shorten(raw))
	}
	return u, nil
}

// imageType decides the data: URL's type from what the body looks like and
// what the server declared: a recognised bitmap wins; an SVG is taken on
// the server's word when the body is XML or text; anything else is not an
// image.
func imageType(declared string, body []byte) (string, error) {
	sniffed, _, _ := mime.ParseMediaType(http.DetectContentType(body))
	if slices.Contains(imageTypes, sniffed) && sniffed != "image/svg+xml" {
		return sniffed, nil
	}
	decl, _, _ := mime.ParseMediaType(declared)
	decl = strings.ToLower(decl)
	if decl == "image/svg+xml" && (sniffed == "text/xml" || sniffed == "text/plain") && bytes.Contains(body, []byte("<svg")) {
		return decl, nil
	}
	if slices.Contains(imageTypes, decl) && decl != "image/svg+xml" && sniffed == "application/octet-stream" {
		// A format Go does not sniff (AVIF, say), declared as an image.
		return decl, nil
	}
	switch {
	case declared == "":
		return "", fmt.Errorf("not an image: no type was declared and the body looks like %s", sniffed)
	case decl == sniffed || !strings.HasPrefix(decl, "image/"):
		return "", fmt.Errorf("not an image: the server sent %s", decl)
	default:
		return "", fmt.Errorf("not an image: the server said %s but sent %s", decl, sniffed)
	}
}

// sizeText writes n bytes as people read sizes: "10 MB", "11.5 MB", "3 KB".
func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%g MB", math.Round(float64(n)/(1<<20)*10)/10)
	}
	return fmt.Sprintf("%d KB", (n+1023)/1024)
}

func shorten(s string) string {
	if len(s) > 120 {
		return s[:117] + "…"
	}
	return s
}
