package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestRedact(t *testing.T) {
	cases := []struct{ in, mustNot string }{
		{"key " + testKey + " rejected", testKey},
		{"Authorization: Bearer abcdef123456.xyz", "abcdef123456"},
		{"Incorrect API key provided: sk-proj-AbCdEf123456****wxyz", "AbCdEf123456"},
		{"https://x.example/v1?key=AIzaSyD-1234567890abcdefghij", "AIzaSyD-1234567890"},
		{`{"api_key": "topsecretvalue"}`, "topsecretvalue"},
		{"x-api-key=hunter2hunter2", "hunter2hunter2"},
	}
	for _, c := range cases {
		got := Redact(c.in, testKey)
		if strings.Contains(got, c.mustNot) {
			t.Errorf("Redact(%q) = %q", c.in, got)
		}
		if !strings.Contains(got, "[redacted]") {
			t.Errorf("Redact(%q) = %q: no marker", c.in, got)
		}
	}
	if got := Redact("a short key abc stays", "abc"); got != "a short key abc stays" {
		t.Errorf("keys under 4 characters must not garble text: %q", got)
	}
	for _, plain := range []string{
		"The model `gpt-4o` does not exist",
		"Missing bearer authentication header",
		"Requested token count exceeds the limit",
		"Missing required key: messages",
		"The model xai-grok is unknown",
		"Basic authentication failed",
	} {
		if got := Redact(plain, testKey); got != plain {
			t.Errorf("ordinary text changed: %q → %q", plain, got)
		}
	}
}

func TestRetryable(t *testing.T) {
	cases := map[ErrorKind]bool{
		KindRateLimit: true, KindServer: true, KindUnreachable: true,
		KindAuth: false, KindModelNotFound: false, KindContextLength: false,
		KindBadRequest: false, KindCancelled: false, KindQuota: false,
	}
	for k, want := range cases {
		if got := (&Error{Kind: k}).Retryable(); got != want {
			t.Errorf("%s: Retryable = %v", k, got)
		}
	}
	if !(&Error{Kind: KindInterrupted}).Retryable() {
		t.Error("interrupted before any text should be retryable")
	}
	if (&Error{Kind: KindInterrupted, Partial: true}).Retryable() {
		t.Error("interrupted after text must not be retryable")
	}
	var nilErr *Error
	if nilErr.Retryable() || IsRetryable(errors.New("x")) || KindOf(errors.New("x")) != "" {
		t.Error("non-*Error values")
	}
}

func TestErrorText(t *testing.T) {
	inner := errors.New("boom")
	e := &Error{Kind: KindServer, Message: "OpenAI had a server error (500).", Detail: "overloaded", Err: inner}
	if e.Error() != "OpenAI had a server error (500). (overloaded)" {
		t.Errorf("Error() = %q", e.Error())
	}
	if !errors.Is(e, inner) {
		t.Error("Unwrap")
	}
	e.Detail = ""
	if e.Error() != e.Message {
		t.Errorf("Error() = %q", e.Error())
	}
	wrapped := errors.Join(errors.New("ctx"), e)
	if got, ok := AsError(wrapped); !ok || got != e {
		t.Error("AsError through a wrapper")
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	cases := []struct {
		h    http.Header
		want time.Duration
	}{
		{h("Retry-After", "2"), 2 * time.Second},
		{h("Retry-After", "0.5"), 500 * time.Millisecond},
		{h("Retry-After", now.Add(90*time.Second).Format(http.TimeFormat)), 90 * time.Second},
		{h("Retry-After", now.Add(-time.Minute).Format(http.TimeFormat)), 0},
		{h("Retry-After", "soon"), 0},
		{h("Retry-After", "-3"), 0},
		{h("retry-after-ms", "250", "Retry-After", "1"), 250 * time.Millisecond},
		{h(), 0},
	}
	for _, c := range cases {
		if got := parseRetryAfter(c.h, now); got != c.want {
			t.Errorf("parseRetryAfter(%v) = %v, want %v", c.h, got, c.want)
		}
	}
}

func TestRateLimitMessageSaysHowLong(t *testing.T) {
	cls := classifier{provider: "Groq", apiKey: testKey}
	e := cls.build(context.Background(), "llama-3.3-70b", failure{provider: true, status: 429, retryAfter: 7 * time.Second})
	if e.Kind != KindRateLimit || !strings.Contains(e.Message, "Groq") || !strings.Contains(e.Message, "7 s") {
		t.Errorf("error = %+v", e)
	}
}

func TestForbiddenIsAuth(t *testing.T) {
	cls := classifier{provider: "OpenRouter", apiKey: testKey}
	e := cls.build(context.Background(), "x", failure{provider: true, status: 403, detail: "Key is disabled"})
	if e.Kind != KindAuth || !strings.Contains(e.Message, "403") {
		t.Errorf("error = %+v", e)
	}
	e = cls.build(context.Background(), "x", failure{provider: true, status: 402, detail: "Insufficient credits"})
	if e.Kind != KindQuota {
		t.Errorf("402 = %+v", e)
	}
}
