// Package usage is the usage ledger and the audit log (SPEC E1, E2): it
// records every model call's tokens and every tool call, prices the tokens
// from a pricing table, and answers the Usage and Audit screens through
// UsageStats, its service bound to the frontend. The chat engine, the MCP
// pool's Tools tab and the command line report to an Engine through the
// small recorder interfaces they each declare.
//
// # Costs
//
// A cost is an estimate: tokens × the model's price, computed when read (see
// Price). A model without a price has tokens but no cost — never a guessed
// one: Totals.Cost is null as soon as any call in it lacks a price, and
// Totals.PricedCost says what the priced calls alone cost.
//
// # Days
//
// A query names days (YYYY-MM-DD, both ends included) in the zone whose
// offset it gives in minutes east of UTC (JavaScript:
// -new Date().getTimezoneOffset()); 0 means UTC days. The offset applies to
// the whole range, so across a daylight-saving change the days on the other
// side are shifted by an hour.
package usage

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/store"
)

// Options configures an Engine. New copies it.
type Options struct {
	Store   *store.Store // required
	Emitter events.Emitter
	Logger  *slog.Logger
	// Now is the clock for "today" in queries without dates (default
	// time.Now).
	Now func() time.Time
}

// Engine records usage and tool calls and answers queries over them. It is
// safe for concurrent use.
type Engine struct {
	st     *store.Store
	emit   events.Emitter
	logger *slog.Logger
	now    func() time.Time

	pricesMu sync.Mutex // serialises read-modify-write of the stored prices
}

// New returns an Engine over opts.Store.
func New(opts Options) *Engine {
	if opts.Emitter == nil {
		opts.Emitter = events.Discard{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Engine{st: opts.Store, emit: opts.Emitter, logger: opts.Logger.With("component", "usage"), now: opts.Now}
}

// RecordUsage appends one model call to the ledger and emits usage:changed.
// The provider's name and preset are filled in from the providers table
// when r leaves them empty. A failure is logged: losing a record must not
// fail the call it describes.
func (e *Engine) RecordUsage(ctx context.Context, r store.UsageRecord) {
	if r.Preset == "" || r.ProviderName == "" {
		if p, err := e.st.Provider(ctx, r.Provider); err == nil {
			if r.Preset == "" {
				r.Preset = p.Preset
			}
			if r.ProviderName == "" {
				r.ProviderName = p.Name
			}
		}
	}
	if _, err := e.st.AddUsage(ctx, r); err != nil {
		e.logger.Warn("usage not recorded", "provider", r.Provider, "model", r.Model, "err", err)
		return
	}
	e.emit.Emit(events.UsageChanged, events.UsageChangedPayload{ConversationID: r.ConversationID})
}

// RecordToolCall appends one tool call to the audit log. A failure is
// logged, not returned.
func (e *Engine) RecordToolCall(ctx context.Context, a store.AuditEntry) {
	if _, err := e.st.AddAuditEntry(ctx, a); err != nil {
		e.logger.Warn("tool call not written to the audit log", "server", a.Server, "tool", a.Tool, "err", err)
	}
}
