package mcp

import (
	"context"
	"fmt"
	"log/slog"
)

// A server's secrets are known in two forms: as written in its config (the
// literal values, NewRedactor(srv.SecretValues())), and as they are after
// ${VAR} expansion — the real key read from the user's environment. Each
// dial builds a Redactor that knows both (see Session.Redact); it lives as
// long as the session, and everything that can quote a secret — the
// JSON-RPC log, errors, stderr, the transport's own log lines — goes
// through it.

// with returns a Redactor for r's secrets and more.
func (r *Redactor) with(more []string) *Redactor {
	if len(more) == 0 {
		return r
	}
	var base []string
	if r != nil {
		base = r.secrets
	}
	return NewRedactor(append(append([]string(nil), base...), more...))
}

// Redact returns text with the session's secrets — literal and expanded —
// replaced by a placeholder.
func (s *Session) Redact(text string) string { return s.redact.Redact(text) }

// RedactError returns err with the session's secrets scrubbed from its
// text; errors.Is and errors.As still reach the original. nil stays nil.
func (s *Session) RedactError(err error) error { return redactError(s.redact, err) }

func redactError(r *Redactor, err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	if clean := r.Redact(text); clean != text {
		return &redactedError{text: clean, err: err}
	}
	return err
}

// redactedError is an error whose text quoted a secret: Error returns the
// scrubbed text, Unwrap the original.
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }

// redactingLogger returns a logger that scrubs r's secrets from the message
// and every attribute before logger sees them. mcp-go logs transport
// errors that quote the server's URL ("Get \"https://…?api_key=…\": …").
func redactingLogger(logger *slog.Logger, r *Redactor) *slog.Logger {
	return slog.New(redactHandler{inner: logger.Handler(), r: r})
}

// redactHandler is the slog.Handler behind redactingLogger. Attributes
// that are not numbers, booleans, times or durations are logged as their
// scrubbed text.
type redactHandler struct {
	inner slog.Handler
	r     *Redactor
}

func (h redactHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

func (h redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.Redact(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.inner.Handle(ctx, out)
}

func (h redactHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.attr(a)
	}
	return redactHandler{inner: h.inner.WithAttrs(clean), r: h.r}
}

func (h redactHandler) WithGroup(name string) slog.Handler {
	return redactHandler{inner: h.inner.WithGroup(name), r: h.r}
}

func (h redactHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.r.Redact(v.String()))
	case slog.KindGroup:
		group := v.Group()
		clean := make([]slog.Attr, len(group))
		for i, g := range group {
			clean[i] = h.attr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(clean...)}
	case slog.KindAny:
		return slog.String(a.Key, h.r.Redact(fmt.Sprint(v.Any())))
	default:
		return slog.Attr{Key: a.Key, Value: v}
	}
}
