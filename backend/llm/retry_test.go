package llm

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"mcpdesk/backend/llm/llmtest"
)

func TestRetryAfterHonoured(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.RateLimited("2"), llmtest.TextTurn("after", " the wait"))
	c, _ := newOpenAITest(t, srv)
	var sl sleeps
	var attempts []Attempt
	var rec recorder
	res, err := StreamWithFallback(ctxT(t), []Target{{Client: c, Model: "gpt-4o", Label: "OpenAI · gpt-4o"}},
		userReq("", "hi"), RetryPolicy{Sleep: sl.sleep}, rec.on, func(a Attempt) { attempts = append(attempts, a) })
	if err != nil {
		t.Fatalf("StreamWithFallback: %v", err)
	}
	if res.Content != "after the wait" {
		t.Fatalf("content = %q", res.Content)
	}
	if !reflect.DeepEqual(sl.waits, []time.Duration{2 * time.Second}) {
		t.Fatalf("waits = %v, want the advertised 2s", sl.waits)
	}
	if len(attempts) != 1 {
		t.Fatalf("attempts = %+v", attempts)
	}
	a := attempts[0]
	if a.Target != "OpenAI · gpt-4o" || a.Model != "gpt-4o" || a.Try != 1 || a.Wait != 2*time.Second || a.Fallback || KindOf(a.Err) != KindRateLimit {
		t.Errorf("attempt = %+v", a)
	}
	if e, _ := AsError(a.Err); e.RetryAfter != 2*time.Second {
		t.Errorf("RetryAfter = %v", e.RetryAfter)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("requests = %d", n)
	}
	if m := srv.Requests()[0].Body["model"]; m != "gpt-4o" {
		t.Errorf("target model not used: %v", m)
	}
}

func TestRetryAfterMillisecondsHeader(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	turn := llmtest.RateLimited("")
	turn.Headers = map[string]string{"retry-after-ms": "1500", "Retry-After": "2"}
	srv.Script(turn, llmtest.TextTurn("ok"))
	c, _ := newOpenAITest(t, srv)
	var sl sleeps
	if _, err := StreamWithFallback(ctxT(t), []Target{{Client: c, Model: "gpt-4o"}}, userReq("", "hi"),
		RetryPolicy{Sleep: sl.sleep}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sl.waits, []time.Duration{1500 * time.Millisecond}) {
		t.Fatalf("waits = %v", sl.waits)
	}
}

func TestRateLimitExhaustedFallsBack(t *testing.T) {
	primary := llmtest.NewOpenAI(t)
	primary.Script(llmtest.RateLimited(""), llmtest.RateLimited(""), llmtest.RateLimited(""))
	backup := llmtest.NewOllama(t)
	backup.Script(llmtest.TextTurn("from ", "backup"))
	pc, _ := newOpenAITest(t, primary)
	bc, _ := newOllamaTest(t, backup)

	var sl sleeps
	var attempts []Attempt
	res, err := StreamWithFallback(ctxT(t),
		[]Target{{Client: pc, Model: "gpt-4o", Label: "primary"}, {Client: bc, Model: "llama3.2", Label: "backup"}},
		userReq("", "hi"), RetryPolicy{Sleep: sl.sleep}, nil, func(a Attempt) { attempts = append(attempts, a) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Content != "from backup" || res.Model != "llama3.2" {
		t.Fatalf("result = %+v", res)
	}
	if !reflect.DeepEqual(sl.waits, []time.Duration{time.Second, 2 * time.Second}) {
		t.Errorf("waits = %v, want 1s then 2s", sl.waits)
	}
	if len(primary.Requests()) != 3 || len(backup.Requests()) != 1 {
		t.Errorf("requests: primary %d, backup %d", len(primary.Requests()), len(backup.Requests()))
	}
	if len(attempts) != 3 {
		t.Fatalf("attempts = %+v", attempts)
	}
	last := attempts[2]
	if !last.Fallback || last.NextTarget != "backup" || last.NextModel != "llama3.2" || last.Try != 3 || last.Wait != 0 {
		t.Errorf("fallback attempt = %+v", last)
	}
}

func TestServerErrorRetried(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.ErrorTurn(500, ""), llmtest.ErrorTurn(503, ""), llmtest.TextTurn("ok"))
	c, _ := newOpenAITest(t, srv)
	var sl sleeps
	res, err := StreamWithFallback(ctxT(t), []Target{{Client: c, Model: "gpt-4o"}}, userReq("", "hi"),
		RetryPolicy{Sleep: sl.sleep}, nil, nil)
	if err != nil || res.Content != "ok" {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	if !reflect.DeepEqual(sl.waits, []time.Duration{time.Second, 2 * time.Second}) {
		t.Errorf("waits = %v", sl.waits)
	}
}

func TestRetriesExhaustedReturnsLastError(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.ErrorTurn(500, ""), llmtest.ErrorTurn(500, ""))
	c, _ := newOpenAITest(t, srv)
	var sl sleeps
	res, err := StreamWithFallback(ctxT(t), []Target{{Client: c, Model: "gpt-4o"}}, userReq("", "hi"),
		RetryPolicy{MaxAttempts: 2, Sleep: sl.sleep}, nil, nil)
	mustKind(t, err, KindServer)
	if res == nil || len(sl.waits) != 1 || len(srv.Requests()) != 2 {
		t.Errorf("res=%v waits=%v requests=%d", res, sl.waits, len(srv.Requests()))
	}
}

func TestLongRetryAfterSkipsToFallback(t *testing.T) {
	primary := llmtest.NewOpenAI(t)
	primary.Script(llmtest.RateLimited("3600"))
	backup := llmtest.NewOpenAI(t)
	backup.Script(llmtest.TextTurn("backup"))
	pc, _ := newOpenAITest(t, primary)
	bc, _ := newOpenAITest(t, backup)
	var sl sleeps
	res, err := StreamWithFallback(ctxT(t), []Target{{Client: pc, Model: "a"}, {Client: bc, Model: "b"}},
		userReq("", "hi"), RetryPolicy{Sleep: sl.sleep}, nil, nil)
	if err != nil || res.Content != "backup" {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	if len(sl.waits) != 0 {
		t.Errorf("waited %v for an hour-long Retry-After", sl.waits)
	}
}

func TestNonRetryableStopsImmediately(t *testing.T) {
	for name, turn := range map[string]llmtest.Turn{
		"auth":    llmtest.ErrorTurn(401, ""),
		"model":   llmtest.ErrorTurn(404, ""),
		"context": llmtest.ErrorTurn(400, llmtest.OpenAIErrorBody("maximum context length exceeded", "invalid_request_error", "context_length_exceeded")),
		"bad":     llmtest.ErrorTurn(400, llmtest.OpenAIErrorBody("messages: must not be empty", "invalid_request_error", "")),
	} {
		t.Run(name, func(t *testing.T) {
			primary := llmtest.NewOpenAI(t)
			primary.Script(turn)
			backup := llmtest.NewOpenAI(t)
			pc, _ := newOpenAITest(t, primary)
			bc, _ := newOpenAITest(t, backup)
			var sl sleeps
			called := false
			_, err := StreamWithFallback(ctxT(t), []Target{{Client: pc, Model: "a"}, {Client: bc, Model: "b"}},
				userReq("", "hi"), RetryPolicy{Sleep: sl.sleep}, nil, func(Attempt) { called = true })
			if err == nil || IsRetryable(err) {
				t.Fatalf("err = %v", err)
			}
			if len(primary.Requests()) != 1 || len(backup.Requests()) != 0 || len(sl.waits) != 0 || called {
				t.Errorf("retried or fell back: primary=%d backup=%d waits=%v", len(primary.Requests()), len(backup.Requests()), sl.waits)
			}
		})
	}
}

func TestNoRetryAfterDeltasDelivered(t *testing.T) {
	primary := llmtest.NewOpenAI(t)
	primary.Script(llmtest.Turn{Text: []string{"half ", "an answer", "never"}, CutAfter: 2})
	backup := llmtest.NewOpenAI(t)
	pc, _ := newOpenAITest(t, primary)
	bc, _ := newOpenAITest(t, backup)
	var sl sleeps
	var rec recorder
	res, err := StreamWithFallback(ctxT(t), []Target{{Client: pc, Model: "a"}, {Client: bc, Model: "b"}},
		userReq("", "hi"), RetryPolicy{Sleep: sl.sleep}, rec.on, nil)
	e := mustKind(t, err, KindInterrupted)
	if res.Content != "half an answer" || !e.Partial {
		t.Fatalf("content=%q err=%+v", res.Content, e)
	}
	if len(primary.Requests()) != 1 || len(backup.Requests()) != 0 || len(sl.waits) != 0 {
		t.Errorf("retried after deltas were delivered")
	}
	if got := rec.texts(DeltaText); !reflect.DeepEqual(got, []string{"half ", "an answer"}) {
		t.Errorf("deltas = %q", got)
	}
}

func TestBrokenBeforeAnyDeltaIsRetried(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.Turn{Text: []string{"x"}, CutAfter: llmtest.CutImmediately}, llmtest.TextTurn("second try"))
	c, _ := newOpenAITest(t, srv)
	var sl sleeps
	res, err := StreamWithFallback(ctxT(t), []Target{{Client: c, Model: "a"}}, userReq("", "hi"),
		RetryPolicy{Sleep: sl.sleep}, nil, nil)
	if err != nil || res.Content != "second try" {
		t.Fatalf("res=%+v err=%v", res, err)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(llmtest.RateLimited("5"))
	c, _ := newOpenAITest(t, srv)
	ctx, cancel := context.WithCancel(ctxT(t))
	sleep := func(ctx context.Context, d time.Duration) error {
		cancel()
		<-ctx.Done()
		return ctx.Err()
	}
	_, err := StreamWithFallback(ctx, []Target{{Client: c, Model: "a"}}, userReq("", "hi"), RetryPolicy{Sleep: sleep}, nil, nil)
	mustKind(t, err, KindCancelled)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("errors.Is(err, context.Canceled) = false for %v", err)
	}
}

func TestNoTargets(t *testing.T) {
	res, err := StreamWithFallback(context.Background(), nil, userReq("m", "hi"), RetryPolicy{}, nil, nil)
	if res == nil || KindOf(err) != KindBadRequest {
		t.Fatalf("res=%v err=%v", res, err)
	}
}

func TestBackoffDelays(t *testing.T) {
	p := RetryPolicy{BaseDelay: time.Second, MaxDelay: 5 * time.Second}.withDefaults()
	var got []time.Duration
	for try := 1; try <= 5; try++ {
		d, ok := p.delay(try, &Error{Kind: KindServer})
		if !ok {
			t.Fatal("not ok")
		}
		got = append(got, d)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("delays = %v", got)
	}
	if d, ok := p.delay(1, &Error{Kind: KindRateLimit, RetryAfter: 45 * time.Second}); !ok || d != 45*time.Second {
		t.Errorf("Retry-After 45s under the 60s cap: %v %v", d, ok)
	}
	if _, ok := p.delay(1, &Error{Kind: KindRateLimit, RetryAfter: 2 * time.Minute}); ok {
		t.Error("Retry-After above the cap should not be waited for")
	}
	d := DefaultRetryPolicy()
	if d.MaxAttempts != 3 || d.BaseDelay != time.Second || d.MaxDelay != 30*time.Second || d.MaxRetryAfter != time.Minute {
		t.Errorf("defaults = %+v", d)
	}
}

func TestDefaultSleepHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleepCtx(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("sleepCtx = %v", err)
	}
	if err := sleepCtx(context.Background(), time.Nanosecond); err != nil {
		t.Fatal(err)
	}
}
