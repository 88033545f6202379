package oauth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Transport adds a server's bearer token to each request and keeps it
// valid: it refreshes before expiry and after a 401, signs in (when
// SignIn allows) on a 401 without a usable token, and steps up on a 403
// insufficient_scope, at most MaxStepUps times per request.
type Transport struct {
	Base  http.RoundTripper
	OAuth *Client
	// Options are the server's sign-in settings (Key, ServerURL, Client,
	// Scopes, Authorizer, Observer); Challenge and Granted are filled in.
	Options SignIn
	// Interactive allows a sign-in from a request; when false a request
	// that needs one fails with ErrNeedsSignIn.
	Interactive bool
	// MaxStepUps bounds step-up sign-ins per request (default 2).
	MaxStepUps int

	mu sync.Mutex // one refresh or sign-in at a time
	// keychainErr is why the stored sign-in could not be read.
	keychainErr error
}

// refreshAhead is how long before expiry a token is renewed.
const refreshAhead = 60 * time.Second

// NeedsSignInError is a request that failed because the server wants a
// sign-in the transport was not allowed to start.
type NeedsSignInError struct {
	ServerURL string
	Challenge Challenge
	Reason    string
}

func (e *NeedsSignInError) Error() string {
	if e.Reason != "" {
		return "this server needs you to sign in: " + e.Reason
	}
	return "this server needs you to sign in"
}

func (e *NeedsSignInError) Is(target error) bool { return target == ErrNeedsSignIn }

func (t *Transport) base() http.RoundTripper {
	if t.Base != nil {
		return t.Base
	}
	return http.DefaultTransport
}

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	// The body may be sent again after a sign-in.
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	send := func(tok *Tokens) (*http.Response, error) {
		r := req.Clone(req.Context())
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
			r.ContentLength = int64(len(body))
		}
		if tok != nil {
			r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		}
		return t.base().RoundTrip(r)
	}

	tok, err := t.current(req.Context())
	if err != nil {
		return nil, err
	}
	resp, err := send(tok)
	if err != nil {
		return nil, err
	}
	refreshed, signedIn, stepUps := false, false, 0
	limit := t.MaxStepUps
	if limit <= 0 {
		limit = 2
	}
	for {
		switch {
		case resp.StatusCode == http.StatusUnauthorized:
			ch := ParseChallenge(resp.Header)
			drain(resp)
			if tok != nil && tok.RefreshToken != "" && !refreshed && !signedIn {
				refreshed = true
				if n, err := t.refresh(req.Context(), tok); err == nil {
					tok = n
					break
				}
			}
			if signedIn {
				return nil, fmt.Errorf("the server still answers 401 after signing in")
			}
			n, err := t.signIn(req.Context(), ch, nil)
			if err != nil {
				return nil, err
			}
			tok, signedIn = n, true
		case resp.StatusCode == http.StatusForbidden:
			ch := ParseChallenge(resp.Header)
			if ch.Error != "insufficient_scope" {
				return resp, nil
			}
			drain(resp)
			if stepUps >= limit {
				return nil, fmt.Errorf("the server still wants more scope (%s) after %d step-up sign-ins: giving up", orNone(ch.Scope), stepUps)
			}
			stepUps++
			var granted []string
			if tok != nil {
				granted = strings.Fields(tok.Scope)
			}
			n, err := t.signIn(req.Context(), ch, granted)
			if err != nil {
				return nil, err
			}
			tok = n
		default:
			return resp, nil
		}
		if resp, err = send(tok); err != nil {
			return nil, err
		}
	}
}

// current returns the stored token, renewed when it is about to expire.
func (t *Transport) current(ctx context.Context) (*Tokens, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tok, err := t.OAuth.Store.Tokens(t.Options.Key)
	if err != nil {
		// A server that needs no sign-in must work without the keychain;
		// one that does says so at its 401 (keychainErr).
		t.keychainErr = err
		return nil, nil
	}
	t.keychainErr = nil
	if tok == nil || !tok.expiresWithin(refreshAhead, t.OAuth.now()) {
		return tok, nil
	}
	if tok.RefreshToken == "" {
		return tok, nil // the server will say 401; then sign in
	}
	n, err := t.OAuth.Refresh(ctx, t.Options.Key, tok, t.Options.Observer)
	if err != nil {
		return tok, nil // try the old one; a 401 leads to a sign-in
	}
	return n, nil
}

func (t *Transport) refresh(ctx context.Context, old *Tokens) (*Tokens, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	// Another request may have renewed it meanwhile.
	if cur, err := t.OAuth.Store.Tokens(t.Options.Key); err == nil && cur != nil && cur.AccessToken != old.AccessToken {
		return cur, nil
	}
	return t.OAuth.Refresh(ctx, t.Options.Key, old, t.Options.Observer)
}

func (t *Transport) signIn(ctx context.Context, ch Challenge, granted []string) (*Tokens, error) {
	t.mu.Lock()
	kerr := t.keychainErr
	t.mu.Unlock()
	if kerr != nil {
		return nil, fmt.Errorf("this server needs a sign-in, and the sign-in kept in the OS keychain cannot be read: %w", kerr)
	}
	if !t.Interactive {
		return nil, &NeedsSignInError{ServerURL: t.Options.ServerURL, Challenge: ch}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	o := t.Options
	o.Challenge, o.Granted = ch, granted
	tok, err := t.OAuth.SignIn(ctx, o)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return nil, err
		}
		return nil, fmt.Errorf("sign-in: %w", err)
	}
	return tok, nil
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}
