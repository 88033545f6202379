package llm

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"mcpdesk/backend/llm/llmtest"
)

const testKey = "sk-test-S3CRETKEY-abcdefghijklmnop"

// logBuf is a goroutine-safe log sink.
type logBuf struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuf) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func newOpenAITest(t *testing.T, srv *llmtest.Server, mod ...func(*Config)) (Client, *logBuf) {
	t.Helper()
	logs := &logBuf{}
	cfg := Config{Type: TypeOpenAI, Provider: "OpenAI", BaseURL: srv.BaseURL(), APIKey: testKey, Logger: logs.logger()}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c, logs
}

func newOllamaTest(t *testing.T, srv *llmtest.Server, mod ...func(*Config)) (Client, *logBuf) {
	t.Helper()
	logs := &logBuf{}
	cfg := Config{Type: TypeOllama, BaseURL: srv.BaseURL(), Logger: logs.logger()}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c, logs
}

// recorder collects deltas.
type recorder struct{ deltas []Delta }

func (r *recorder) on(d Delta) { r.deltas = append(r.deltas, d) }

func (r *recorder) texts(kind DeltaKind) []string {
	var out []string
	for _, d := range r.deltas {
		if d.Kind == kind {
			out = append(out, d.Text)
		}
	}
	return out
}

func (r *recorder) kinds() string {
	var b strings.Builder
	for _, d := range r.deltas {
		switch d.Kind {
		case DeltaText:
			b.WriteByte('T')
		case DeltaReasoning:
			b.WriteByte('R')
		case DeltaToolCall:
			b.WriteByte('C')
		}
	}
	return b.String()
}

func userReq(model, text string) Request {
	return Request{Model: model, Messages: []Message{
		{Role: RoleSystem, Content: "You are terse."},
		{Role: RoleUser, Content: text},
	}}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustKind(t *testing.T, err error, want ErrorKind) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s error, got nil", want)
	}
	e, ok := AsError(err)
	if !ok {
		t.Fatalf("want *Error, got %T: %v", err, err)
	}
	if e.Kind != want {
		t.Fatalf("kind = %s, want %s (error: %v)", e.Kind, want, e)
	}
	t.Logf("%s error: %v", want, e)
	return e
}

func assertNoSecret(t *testing.T, where, s string) {
	t.Helper()
	if strings.Contains(s, testKey) || strings.Contains(s, "S3CRETKEY") {
		t.Errorf("%s leaks the API key: %q", where, s)
	}
}

// sleeps records the waits of a RetryPolicy without sleeping.
type sleeps struct{ waits []time.Duration }

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.waits = append(s.waits, d)
	return ctx.Err()
}
