package llm

import (
	"context"
	"errors"
	"time"
)

// Target is one model to try: the default model first, then its fallbacks
// (SPEC C2).
type Target struct {
	Client Client
	// Model overrides Request.Model for this target when not empty.
	Model string
	// Label names the target for the UI ("OpenAI · gpt-4o").
	Label string
}

// RetryPolicy says how often and how long to wait before trying again.
// Zero fields take the defaults of DefaultRetryPolicy.
type RetryPolicy struct {
	// MaxAttempts per target, first try included (default 3).
	MaxAttempts int
	// BaseDelay before the first retry, doubled for each further retry
	// (default 1 s).
	BaseDelay time.Duration
	// MaxDelay caps the computed backoff (default 30 s).
	MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After the policy waits for
	// (default 60 s). A provider asking for a longer wait is not retried:
	// the next target is tried, or the error returned.
	MaxRetryAfter time.Duration
	// Sleep waits d or until ctx ends; nil means a timer. Tests inject a
	// recorder here.
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultRetryPolicy returns 3 attempts, 1 s base delay doubling, 30 s cap,
// Retry-After honoured up to 60 s.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxAttempts: 3, BaseDelay: time.Second, MaxDelay: 30 * time.Second, MaxRetryAfter: time.Minute}
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	d := DefaultRetryPolicy()
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = d.MaxAttempts
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = d.BaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = d.MaxDelay
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = d.MaxRetryAfter
	}
	if p.Sleep == nil {
		p.Sleep = sleepCtx
	}
	return p
}

// delay returns the wait before retry number try+1 after err, and false
// when the provider asked for a wait longer than MaxRetryAfter.
func (p RetryPolicy) delay(try int, err *Error) (time.Duration, bool) {
	if err.RetryAfter > 0 {
		if err.RetryAfter > p.MaxRetryAfter {
			return 0, false
		}
		return err.RetryAfter, true
	}
	d := p.BaseDelay
	for i := 1; i < try && d < p.MaxDelay; i++ {
		d *= 2
	}
	if d > p.MaxDelay {
		d = p.MaxDelay
	}
	return d, true
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Attempt reports a failed try that will be followed by another one, so the
// UI can say "rate limited, retrying in 2 s" or "falling back to X".
type Attempt struct {
	// Target and Model name the try that failed.
	Target string
	Model  string
	// Try is the 1-based number of the failed try on this target.
	Try int
	// Err is the failure (an *Error).
	Err error
	// Wait is the pause before retrying the same target; 0 when falling
	// back.
	Wait time.Duration
	// Fallback is true when the next try goes to another target, named by
	// NextTarget and NextModel.
	Fallback   bool
	NextTarget string
	NextModel  string
}

// StreamWithFallback streams req from targets[0], retrying retryable
// failures with backoff (honouring Retry-After), then from each following
// target in turn. It never retries once a delta has reached onDelta: it then
// returns the partial Result with the error. Non-retryable errors (bad key,
// unknown model, context too long, bad request, cancelled) stop at once.
// onAttempt, if not nil, hears about every retry and fallback before it
// happens. The returned Result is never nil.
func StreamWithFallback(ctx context.Context, targets []Target, req Request, policy RetryPolicy,
	onDelta func(Delta), onAttempt func(Attempt)) (*Result, error) {
	p := policy.withDefaults()
	if len(targets) == 0 {
		return &Result{Model: req.Model}, &Error{
			Kind:    KindBadRequest,
			Model:   req.Model,
			Message: "No model is configured. Pick a provider and model in Settings → Providers.",
		}
	}

	delivered := false
	forward := func(d Delta) {
		delivered = true
		if onDelta != nil {
			onDelta(d)
		}
	}

	var lastRes *Result
	var lastErr error
	for ti, t := range targets {
		r := req
		if t.Model != "" {
			r.Model = t.Model
		}
		label := t.Label
		if label == "" {
			label = r.Model
		}
		for try := 1; ; try++ {
			res, err := t.Client.Stream(ctx, r, forward)
			if res == nil {
				res = &Result{Model: r.Model}
			}
			if err == nil {
				return res, nil
			}
			lastRes, lastErr = res, err
			e, ok := AsError(err)
			if delivered || !ok || !e.Retryable() {
				return res, err
			}
			if ctx.Err() != nil {
				return res, cancelledError(e, r.Model)
			}
			wait, canWait := p.delay(try, e)
			if try < p.MaxAttempts && canWait {
				if onAttempt != nil {
					onAttempt(Attempt{Target: label, Model: r.Model, Try: try, Err: err, Wait: wait})
				}
				if serr := p.Sleep(ctx, wait); serr != nil {
					return res, cancelledError(e, r.Model)
				}
				continue
			}
			if ti+1 < len(targets) && onAttempt != nil {
				next := targets[ti+1]
				nm := next.Model
				if nm == "" {
					nm = req.Model
				}
				nl := next.Label
				if nl == "" {
					nl = nm
				}
				onAttempt(Attempt{Target: label, Model: r.Model, Try: try, Err: err,
					Fallback: true, NextTarget: nl, NextModel: nm})
			}
			break
		}
	}
	return lastRes, lastErr
}

// cancelledError turns a retry interrupted by the context into a
// KindCancelled error.
func cancelledError(last *Error, model string) *Error {
	return &Error{
		Kind:     KindCancelled,
		Provider: last.Provider,
		Model:    model,
		Message:  "The request to " + nonEmpty(last.Provider, "the provider") + " was stopped.",
		Err:      errors.Join(context.Canceled, last),
	}
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
