package mcppool

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
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
	var base, keychain []string
	if r != nil {
		base, keychain = r.secrets, r.keychain
	}
	out := NewRedactor(append(append([]string(nil), base...), more...))
	out.keychain = keychain
	return out
}

// withKeychain returns a Redactor for r's secrets and the values read from
// the keychain, which it also keeps apart for tool results.
func (r *Redactor) withKeychain(values []string) *Redactor {
	if len(values) == 0 {
		return r
	}
	out := r.with(values)
	out.keychain = append(slices.Clone(out.keychain), values...)
	return out
}

// scrubResult returns res with the values the session read from the OS
// keychain replaced in its text, embedded text resources and structured
// content: a server that echoes its key (an "env" tool, an error quoting
// its Authorization header) must not put it in front of the user, the
// model, the audit log or a conversation. Other env values (paths and
// the like) stay: results quote them for good reasons.
func (s *Session) scrubResult(res *mcp.CallToolResult) *mcp.CallToolResult {
	r := s.keychainRedactor()
	if res == nil || r == nil {
		return res
	}
	out := *res
	out.Content = make([]mcp.Content, len(res.Content))
	for i, c := range res.Content {
		out.Content[i] = scrubContent(r, c)
	}
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			if clean := r.Redact(string(b)); clean != string(b) {
				var v any
				if json.Unmarshal([]byte(clean), &v) == nil {
					out.StructuredContent = v
				}
			}
		}
	}
	return &out
}

// ScrubResource returns res with the values the session read from the OS
// keychain replaced in its text contents, as scrubResult does for tool
// results: a resource that quotes the server's key (a config file, an
// environment dump) must not show it in the inspector, a chat attachment
// or the model's context. Blobs stay as they are.
func (s *Session) ScrubResource(res *mcp.ReadResourceResult) *mcp.ReadResourceResult {
	r := s.keychainRedactor()
	if res == nil || r == nil {
		return res
	}
	out := *res
	out.Contents = make([]mcp.ResourceContents, len(res.Contents))
	for i, c := range res.Contents {
		if t, ok := c.(mcp.TextResourceContents); ok {
			t.Text = r.Redact(t.Text)
			c = t
		}
		out.Contents[i] = c
	}
	return &out
}

// ScrubPrompt returns res with the values the session read from the OS
// keychain replaced in its description and its messages' text and
// embedded text resources.
func (s *Session) ScrubPrompt(res *mcp.GetPromptResult) *mcp.GetPromptResult {
	r := s.keychainRedactor()
	if res == nil || r == nil {
		return res
	}
	out := *res
	out.Description = r.Redact(res.Description)
	out.Messages = make([]mcp.PromptMessage, len(res.Messages))
	for i, m := range res.Messages {
		m.Content = scrubContent(r, m.Content)
		out.Messages[i] = m
	}
	return &out
}

// keychainRedactor hides the values the session read from the OS
// keychain; nil when it read none.
func (s *Session) keychainRedactor() *Redactor {
	if s.redact == nil || len(s.redact.keychain) == 0 {
		return nil
	}
	return NewRedactor(s.redact.keychain)
}

// scrubContent hides r's secrets in one content item's text.
func scrubContent(r *Redactor, c mcp.Content) mcp.Content {
	switch v := c.(type) {
	case mcp.TextContent:
		v.Text = r.Redact(v.Text)
		return v
	case mcp.EmbeddedResource:
		if t, ok := v.Resource.(mcp.TextResourceContents); ok {
			t.Text = r.Redact(t.Text)
			v.Resource = t
		}
		return v
	}
	return c
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
