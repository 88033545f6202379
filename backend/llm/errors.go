package llm

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"mcpdesk/backend/httpguard"
)

// ErrorKind is the user-facing category of a failed call.
type ErrorKind string

// The kinds of failure a Client reports.
const (
	// KindAuth: the API key is missing or was rejected (401/403).
	KindAuth ErrorKind = "auth"
	// KindModelNotFound: the endpoint does not know the model (404).
	KindModelNotFound ErrorKind = "model_not_found"
	// KindRateLimit: too many requests (429); retried with backoff.
	KindRateLimit ErrorKind = "rate_limit"
	// KindQuota: the account has no credit or quota left (402, or 429 with
	// code insufficient_quota). Not retried: waiting does not help.
	KindQuota ErrorKind = "quota"
	// KindContextLength: the conversation does not fit the model's context.
	KindContextLength ErrorKind = "context_length"
	// KindBadRequest: any other refusal of the request (4xx).
	KindBadRequest ErrorKind = "bad_request"
	// KindServer: the provider failed (5xx) or reported an error before the
	// reply started.
	KindServer ErrorKind = "server"
	// KindUnreachable: no response at all (connection refused, DNS, TLS,
	// timeout before the response).
	KindUnreachable ErrorKind = "unreachable"
	// KindInterrupted: the stream broke after it had started. The Result
	// holds what had arrived.
	KindInterrupted ErrorKind = "interrupted"
	// KindCancelled: the caller's context was cancelled (the user pressed
	// Stop).
	KindCancelled ErrorKind = "cancelled"
)

// Error is the error every Client returns. Message is one sentence a user
// understands; Detail is the provider's own wording. Neither, nor Error(),
// ever contains the API key.
type Error struct {
	Kind     ErrorKind
	Provider string // display name, e.g. "OpenAI"
	Model    string
	// Status is the HTTP status, 0 when there was none.
	Status int
	// RetryAfter is the wait the provider asked for (Retry-After or
	// retry-after-ms header), 0 when it did not say.
	RetryAfter time.Duration
	// Message is one sentence for the user, e.g. "The API key for OpenAI
	// was rejected (401). Check the key in Settings → Providers."
	Message string
	// Detail is the provider's own message (key removed), possibly empty.
	Detail string
	// Partial is true when some of the reply had been delivered before the
	// failure (only for KindInterrupted and KindCancelled).
	Partial bool
	// Err is the underlying error; its Error() text is redacted too.
	Err error
}

// Error returns Message followed by Detail when Detail adds something.
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	if e.Detail == "" || strings.Contains(e.Message, e.Detail) {
		return e.Message
	}
	return e.Message + " (" + e.Detail + ")"
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether trying the same call again may succeed: rate
// limits, server errors, unreachable endpoints, and a stream that broke before
// any of the reply arrived.
func (e *Error) Retryable() bool {
	if e == nil {
		return false
	}
	switch e.Kind {
	case KindRateLimit, KindServer, KindUnreachable:
		return true
	case KindInterrupted:
		return !e.Partial
	default:
		return false
	}
}

// AsError returns err as an *Error when it is one (or wraps one).
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// KindOf returns the ErrorKind of err, or "" when err is not an *Error.
func KindOf(err error) ErrorKind {
	if e, ok := AsError(err); ok {
		return e.Kind
	}
	return ""
}

// IsRetryable reports whether err is an *Error that is Retryable.
func IsRetryable(err error) bool {
	e, ok := AsError(err)
	return ok && e.Retryable()
}

// ---- redaction ----------------------------------------------------------

const redacted = "[redacted]"

// The expressions of this file are compiled when first needed: they read
// provider failures, and an app that meets none keeps their 47 KB.
var (
	reBearer   = lazyRegexp(`(?i)\b(bearer\s+)([A-Za-z0-9._~+/=\-]{6,})`)
	reKeyLike  = lazyRegexp(`\b(?:sk|pk|rk|gsk|xai)-[A-Za-z0-9_\-*.]{16,}|\bAIza[0-9A-Za-z_\-]{20,}`)
	reKeyParam = lazyRegexp(`(?i)\b((?:api[-_ ]?key|x-api-key|access[-_]token|auth[-_]token|key)["']?\s*[:=]\s*["']?)([^\s"'&,;]{6,})`)
)

// lazyRegexp compiles pattern on first use.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// Redact removes secrets from s: every occurrence of each given secret (of
// at least 4 characters), "Bearer …" credentials, key-looking tokens
// ("sk-…", "AIza…") and "api_key=…" style parameters. Ordinary words after
// "Bearer" or "key:" are kept so provider messages stay readable.
func Redact(s string, secrets ...string) string {
	if s == "" {
		return s
	}
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, redacted)
		}
	}
	s = replaceSecretGroup(reBearer(), s)
	s = reKeyLike().ReplaceAllString(s, redacted)
	s = replaceSecretGroup(reKeyParam(), s)
	return s
}

// replaceSecretGroup redacts the second group of each match of re when it
// is a credential.
func replaceSecretGroup(re *regexp.Regexp, s string) string {
	return re.ReplaceAllStringFunc(s, func(m string) string {
		sub := re.FindStringSubmatch(m)
		if len(sub) < 3 || sub[2] == redacted {
			return m
		}
		// A value named api_key/access_token is a secret whatever it looks
		// like; after "Bearer" or a bare "key" it may be an ordinary word.
		name := strings.ToLower(strings.TrimSpace(sub[1]))
		explicit := re == reKeyParam() && !strings.HasPrefix(name, "key")
		if !explicit && !looksSecret(sub[2]) {
			return m
		}
		return sub[1] + redacted
	})
}

// looksSecret tells a credential from an ordinary word: long enough and
// with digits, mixed case, or great length.
func looksSecret(s string) bool {
	if s == redacted || len(s) < 8 {
		return false
	}
	var digit, upper, lower bool
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= 'a' && r <= 'z':
			lower = true
		}
	}
	return digit || (upper && lower) || len(s) >= 24
}

// redactedError wraps an error whose text may contain a secret: Error()
// returns the redacted text, errors.As/Is still reach the original.
type redactedError struct {
	text string
	err  error
}

// Error returns the redacted text.
func (r *redactedError) Error() string { return r.text }

// Unwrap returns the original error.
func (r *redactedError) Unwrap() error { return r.err }

// ---- classification -------------------------------------------------------

// failure collects what is known about a failed call before it becomes an
// *Error.
type failure struct {
	err        error
	status     int    // HTTP status or a provider error code that looks like one
	code       string // provider error code ("context_length_exceeded", …)
	typ        string // provider error type ("invalid_request_error", …)
	detail     string // provider message
	started    bool   // the response stream had begun
	partial    bool   // deltas had been delivered
	retryAfter time.Duration
	local      bool // the request never left the process (validation)
	// provider is true when the provider described the failure (an HTTP
	// error status, an error body, or an error event in the stream).
	provider bool
}

// classifier turns failures into *Error for one provider endpoint.
type classifier struct {
	provider string
	baseURL  string
	apiKey   string
	ollama   bool
}

var (
	reContext = lazyRegexp(`(?i)(maximum context length|context[ _-]length|context window|too many tokens|prompt is too long|input is too long|too long for the context|exceeds? the (?:maximum )?(?:context|token)|reduce the length of the messages|input length exceeds|prompt too long|num_ctx)`)
	reModel   = lazyRegexp(`(?i)(model.{0,120}(does not exist|not exist|not found|is not (a )?valid|not supported|unknown|invalid)|(unknown|invalid|no such|unsupported) model|not a valid model|model_not_found|model not found)`)
)

func (c classifier) build(ctx context.Context, model string, f failure) *Error {
	e := &Error{Provider: c.provider, Model: model, RetryAfter: f.retryAfter}
	secrets := []string{c.apiKey}
	e.Detail = truncate(strings.TrimSpace(Redact(f.detail, secrets...)), 500)
	if f.err != nil {
		e.Err = &redactedError{text: Redact(f.err.Error(), secrets...), err: f.err}
	}

	canceled := errors.Is(f.err, context.Canceled) || (ctx != nil && errors.Is(ctx.Err(), context.Canceled))
	switch {
	case canceled:
		e.Kind = KindCancelled
		e.Partial = f.partial
		e.Message = fmt.Sprintf("The request to %s was stopped.", c.provider)
		return e
	case f.partial:
		e.Kind = KindInterrupted
		e.Partial = true
		e.Status = f.status
		if e.Detail == "" && f.err != nil {
			e.Detail = truncate(Redact(f.err.Error(), secrets...), 500)
		}
		e.Message = fmt.Sprintf("The reply from %s broke off mid-stream; the partial answer was kept.", c.provider)
		return e
	}

	if f.local {
		e.Kind = KindBadRequest
		if e.Detail == "" && f.err != nil {
			e.Detail = Redact(f.err.Error(), secrets...)
		}
		e.Message = fmt.Sprintf("The request for %s could not be prepared: %s.", c.provider, strings.TrimSuffix(e.Detail, "."))
		return e
	}

	if f.provider {
		c.classifyProvider(e, model, f)
		return e
	}

	var redirect *httpguard.RedirectError
	if errors.As(f.err, &redirect) {
		e.Kind = KindBadRequest
		e.Message = fmt.Sprintf("%s redirected the request to %s (%s). MCP Desk does not follow it, so that your API key and conversation are not sent there; check the base URL in Settings → Providers.",
			c.provider, redirect.To, redirect.Why)
		return e
	}

	if !f.started {
		if reason, ok := netReason(f.err); ok {
			e.Kind = KindUnreachable
			if e.Detail == "" {
				e.Detail = Redact(f.err.Error(), secrets...)
			}
			e.Message = fmt.Sprintf("Could not reach %s at %s: %s. Check the base URL and that the server is running.", c.provider, c.host(), reason)
			return e
		}
	}

	if f.started {
		// The stream opened and then failed without the provider saying why.
		e.Kind = KindInterrupted
		if e.Detail == "" && f.err != nil {
			e.Detail = truncate(Redact(f.err.Error(), secrets...), 500)
		}
		e.Message = fmt.Sprintf("The connection to %s broke before the reply started.", c.provider)
		return e
	}

	e.Kind = KindBadRequest
	if e.Detail == "" && f.err != nil {
		e.Detail = truncate(Redact(f.err.Error(), secrets...), 500)
	}
	e.Message = fmt.Sprintf("The request to %s failed.", c.provider)
	return e
}

// classifyProvider handles failures the provider described (HTTP status,
// error body or an error event in the stream).
func (c classifier) classifyProvider(e *Error, model string, f failure) {
	e.Status = f.status
	status := f.status
	code := strings.ToLower(f.code)
	typ := strings.ToLower(f.typ)
	msg := f.detail
	st := ""
	if status != 0 {
		st = fmt.Sprintf(" (%d)", status)
	}

	ctxLen := code == "context_length_exceeded" || code == "string_above_max_length" ||
		((status == 0 || status == 400 || status == 413 || status == 422 || status == 500) && reContext().MatchString(msg))
	modelMissing := code == "model_not_found" || status == 404 ||
		((status == 0 || status == 400 || status == 422) && reModel().MatchString(msg))

	switch {
	case status == 401 || code == "invalid_api_key" || typ == "authentication_error":
		e.Kind = KindAuth
		if e.Status == 0 {
			e.Status = 401
			st = " (401)"
		}
		if c.apiKey == "" && !c.ollama {
			e.Message = fmt.Sprintf("%s needs an API key%s. Add one in Settings → Providers.", c.provider, st)
		} else {
			e.Message = fmt.Sprintf("The API key for %s was rejected%s. Check the key in Settings → Providers.", c.provider, st)
		}
	case status == 403 || typ == "permission_error":
		e.Kind = KindAuth
		e.Message = fmt.Sprintf("%s refused access%s: the API key may not be allowed to use %s. Check the key in Settings → Providers.", c.provider, st, quoteModel(model))
	case status == 402 || code == "insufficient_quota" || typ == "insufficient_quota":
		e.Kind = KindQuota
		e.Message = fmt.Sprintf("%s says the account is out of credit or quota%s. Check billing with the provider.", c.provider, st)
	case ctxLen:
		e.Kind = KindContextLength
		e.Message = fmt.Sprintf("The conversation is too long for %s on %s. Start a new conversation, remove attachments or pick a model with a larger context window.", quoteModel(model), c.provider)
	case status == 404 && model == "":
		// Listing models: the endpoint itself is missing.
		e.Kind = KindBadRequest
		e.Message = fmt.Sprintf("%s has no model list at %s (404). Check the base URL, or enter model names by hand.", c.provider, c.host())
	case modelMissing:
		e.Kind = KindModelNotFound
		switch {
		case c.ollama:
			e.Message = fmt.Sprintf("Ollama does not have the model %s%s. Pull it with \"ollama pull %s\" or pick another model.", quoteModel(model), st, model)
		case reModel().MatchString(msg) || code == "model_not_found":
			e.Message = fmt.Sprintf("%s does not know the model %s%s. Pick another model or refresh the model list.", c.provider, quoteModel(model), st)
		default:
			e.Message = fmt.Sprintf("%s answered Not Found%s for model %s: the model does not exist there or the base URL is wrong.", c.provider, st, quoteModel(model))
		}
	case status == 429 || code == "rate_limit_exceeded" || typ == "rate_limit_error" || typ == "rate_limit_exceeded":
		e.Kind = KindRateLimit
		if e.Status == 0 {
			e.Status = 429
			st = " (429)"
		}
		if e.RetryAfter > 0 {
			e.Message = fmt.Sprintf("%s is rate-limiting requests%s and asked to wait %s.", c.provider, st, humanDuration(e.RetryAfter))
		} else {
			e.Message = fmt.Sprintf("%s is rate-limiting requests%s.", c.provider, st)
		}
	case status == 408:
		e.Kind = KindServer
		e.Message = fmt.Sprintf("%s timed out handling the request%s. Try again in a moment.", c.provider, st)
	case status >= 400 && status < 500:
		e.Kind = KindBadRequest
		if e.Detail != "" {
			e.Message = fmt.Sprintf("%s rejected the request%s: %s", c.provider, st, sentence(e.Detail))
		} else {
			e.Message = fmt.Sprintf("%s rejected the request%s.", c.provider, st)
		}
	case status == 503 || status == 529:
		e.Kind = KindServer
		e.Message = fmt.Sprintf("%s is overloaded or unavailable%s. Try again in a moment.", c.provider, st)
	case status >= 500:
		e.Kind = KindServer
		e.Message = fmt.Sprintf("%s had a server error%s. Try again in a moment.", c.provider, st)
	default:
		// An error event in the stream, or a non-HTTP provider error,
		// before any of the reply arrived.
		e.Kind = KindServer
		e.Message = fmt.Sprintf("%s reported an error before the reply started. Try again in a moment.", c.provider)
	}
}

func (c classifier) host() string {
	u, err := url.Parse(c.baseURL)
	if err != nil || u.Host == "" {
		return Redact(c.baseURL, c.apiKey)
	}
	return u.Host
}

// netReason says in a few words why a request got no response, or false
// when err is not a network failure.
func netReason(err error) (string, bool) {
	if err == nil {
		return "", false
	}
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var recordErr tls.RecordHeaderError
	var opErr *net.OpError
	var netErr net.Error
	var urlErr *url.Error
	switch {
	case errors.As(err, &dnsErr):
		return "the host name could not be resolved", true
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused", true
	case errors.Is(err, syscall.ECONNRESET):
		return "the connection was reset", true
	case errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr):
		return "its TLS certificate was not accepted", true
	case errors.As(err, &recordErr):
		return "it does not speak HTTPS at that address", true
	case errors.Is(err, context.DeadlineExceeded):
		return "it did not answer in time", true
	case errors.As(err, &netErr) && netErr.Timeout():
		return "it did not answer in time", true
	case errors.As(err, &opErr):
		return "network error", true
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection closed before a response", true
	case errors.As(err, &urlErr):
		if strings.Contains(urlErr.Err.Error(), "unsupported protocol scheme") {
			return "the base URL is not an http(s) URL", true
		}
		return "the request failed", true
	}
	return "", false
}

func quoteModel(m string) string {
	if m == "" {
		return "(no model)"
	}
	return `"` + m + `"`
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// sentence makes s end with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	switch s[len(s)-1] {
	case '.', '!', '?':
		return s
	}
	if strings.HasSuffix(s, "…") {
		return s
	}
	return s + "."
}

func humanDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%d s", int((d+time.Second-1)/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int((d+time.Minute-1)/time.Minute))
	default:
		return fmt.Sprintf("%.1f h", d.Hours())
	}
}
