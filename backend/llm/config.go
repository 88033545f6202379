package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"mcpdesk/backend/httpguard"
)

// Provider types understood by New.
const (
	TypeOpenAI = "openai" // any OpenAI-compatible endpoint, through go-openai
	TypeOllama = "ollama" // Ollama's native API, through ollama/api
)

// Default endpoints.
const (
	// DefaultOpenAIBaseURL is used when an OpenAI-type Config has no BaseURL.
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
	// DefaultOllamaBaseURL is where a local Ollama listens.
	DefaultOllamaBaseURL = "http://localhost:11434"
	// DefaultAzureAPIVersion is the Azure OpenAI api-version sent when the
	// Config names none (GA, supports stream_options.include_usage).
	DefaultAzureAPIVersion = "2024-10-21"
)

// Config describes one provider endpoint.
type Config struct {
	// Type is TypeOpenAI ("openai") or TypeOllama ("ollama").
	Type string
	// Provider is the display name used in error messages ("OpenAI",
	// "DeepSeek", "My vLLM box"). Defaults from Type and BaseURL.
	Provider string
	// BaseURL of the API, e.g. "https://api.openai.com/v1" or
	// "http://localhost:11434". For Azure, the resource endpoint
	// ("https://NAME.openai.azure.com").
	BaseURL string
	// APIKey is sent as "Authorization: Bearer" (or "api-key" for Azure).
	// It is never logged or returned in errors.
	APIKey string
	// Headers are added to every request (e.g. OpenRouter's HTTP-Referer
	// and X-Title). They are never logged.
	Headers map[string]string
	// Azure selects Azure OpenAI: deployment = model name, api-key header,
	// api-version query parameter.
	Azure bool
	// AzureAPIVersion defaults to DefaultAzureAPIVersion.
	AzureAPIVersion string
	// HTTPClient is used for every request; nil means a client without an
	// overall timeout (streams can be long) over http.DefaultTransport.
	// The client is copied; its Transport is wrapped, not modified.
	HTTPClient *http.Client
	// Logger receives debug and warning lines; nil means slog.Default().
	Logger *slog.Logger
}

// New validates cfg and returns the Client for its Type.
func New(cfg Config) (Client, error) {
	switch strings.ToLower(strings.TrimSpace(cfg.Type)) {
	case TypeOpenAI:
		cfg.Type = TypeOpenAI
		if cfg.Azure && strings.TrimSpace(cfg.BaseURL) == "" {
			return nil, errors.New("llm: Azure OpenAI needs the resource endpoint as base URL (https://NAME.openai.azure.com)")
		}
		if strings.TrimSpace(cfg.BaseURL) != "" {
			if err := checkBaseURL(cfg.BaseURL); err != nil {
				return nil, err
			}
		}
		return NewOpenAI(cfg), nil
	case TypeOllama:
		cfg.Type = TypeOllama
		if strings.TrimSpace(cfg.BaseURL) != "" {
			if err := checkBaseURL(cfg.BaseURL); err != nil {
				return nil, err
			}
		}
		return NewOllama(cfg), nil
	case "":
		return nil, fmt.Errorf("llm: provider type is empty; want %q or %q", TypeOpenAI, TypeOllama)
	default:
		return nil, fmt.Errorf("llm: unknown provider type %q; want %q or %q", cfg.Type, TypeOpenAI, TypeOllama)
	}
}

func checkBaseURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("llm: base URL %q is not an http(s) URL", Redact(raw))
	}
	return nil
}

// providerName picks a display name when the config has none.
func providerName(cfg Config, fallback string) string {
	if cfg.Provider != "" {
		return cfg.Provider
	}
	if cfg.Azure {
		return "Azure OpenAI"
	}
	if u, err := url.Parse(cfg.BaseURL); err == nil && u.Host != "" {
		for _, p := range presets {
			if p.BaseURL == "" {
				continue
			}
			if pu, err := url.Parse(p.BaseURL); err == nil && pu.Host == u.Host {
				return p.Name
			}
		}
		return u.Host
	}
	return fallback
}

func logger(cfg Config) *slog.Logger {
	l := cfg.Logger
	if l == nil {
		l = slog.Default()
	}
	return l.With("component", "llm")
}

// ---- HTTP plumbing ----------------------------------------------------------

// exchange records, for one logical call, what the transport saw: whether a
// response arrived, its status, and the wait an error response asked for.
// go-openai and ollama/api drop response headers on errors, so the
// transport stores them here, found through the request context.
type exchange struct {
	mu         sync.Mutex
	responded  bool
	status     int
	retryAfter time.Duration
}

type exchangeKey struct{}

func withExchange(ctx context.Context) (context.Context, *exchange) {
	ex := &exchange{}
	return context.WithValue(ctx, exchangeKey{}, ex), ex
}

func (ex *exchange) record(resp *http.Response, now time.Time) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	ex.responded = true
	ex.status = resp.StatusCode
	ex.retryAfter = 0
	if resp.StatusCode >= 400 {
		ex.retryAfter = parseRetryAfter(resp.Header, now)
	}
}

func (ex *exchange) snapshot() (responded bool, status int, retryAfter time.Duration) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return ex.responded, ex.status, ex.retryAfter
}

// parseRetryAfter reads "retry-after-ms" (milliseconds, OpenAI) or
// "Retry-After" (seconds or an HTTP date). It returns 0 when neither says
// anything usable.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}

// transport adds configured headers and records responses in the call's
// exchange.
type transport struct {
	base    http.RoundTripper
	headers map[string]string
	bearer  string // set "Authorization: Bearer" when the request has none
	now     func() time.Time
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 || t.bearer != "" {
		req = req.Clone(req.Context())
		if t.bearer != "" && req.Header.Get("Authorization") == "" {
			req.Header.Set("Authorization", "Bearer "+t.bearer)
		}
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp != nil {
		if ex, ok := req.Context().Value(exchangeKey{}).(*exchange); ok {
			ex.record(resp, t.now())
		}
	}
	return resp, err
}

// httpClient returns a copy of cfg.HTTPClient (or a fresh client) whose
// transport adds headers and records responses.
func httpClient(cfg Config, bearer string) *http.Client {
	var c http.Client
	if cfg.HTTPClient != nil {
		c = *cfg.HTTPClient
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	var headers map[string]string
	if len(cfg.Headers) > 0 {
		headers = make(map[string]string, len(cfg.Headers))
		for k, v := range cfg.Headers {
			headers[k] = v
		}
	}
	c.Transport = &transport{base: base, headers: headers, bearer: bearer, now: time.Now}
	c.CheckRedirect = httpguard.SameHostRedirects(c.CheckRedirect)
	return &c
}

// ErrRedirectRefused is matched (errors.Is) by the error of a request
// whose server redirected it to another host, another port or from https
// to http (see httpguard.SameHostRedirects).
var ErrRedirectRefused = httpguard.ErrRedirectRefused
