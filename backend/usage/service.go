package usage

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"mcpdesk/backend/safefile"
	"mcpdesk/backend/store"
)

// Saver asks the user where to save a file; app.go implements it with the
// native save dialog. SaveFile returns "" when the user cancels.
type Saver interface {
	SaveFile(title, defaultName string) (string, error)
}

// UsageStats is the usage ledger and audit log bound to the frontend (SPEC
// E1, E2). Every exported method is callable from JavaScript. It is safe for
// concurrent use.
type UsageStats struct {
	e     *Engine
	saver Saver
	ctx   context.Context
}

// ServiceOption configures a UsageStats.
type ServiceOption func(*UsageStats)

// WithContext sets the context of the service's calls, typically the
// application's, so that shutdown cancels them. Default: Background.
func WithContext(ctx context.Context) ServiceOption {
	return func(s *UsageStats) {
		if ctx != nil {
			s.ctx = ctx
		}
	}
}

// NewService returns the bound service over e; saver may be nil (SaveCSV
// then fails).
func NewService(e *Engine, saver Saver, opts ...ServiceOption) *UsageStats {
	s := &UsageStats{e: e, saver: saver, ctx: context.Background()}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Summary returns the totals and the breakdowns by day, provider, model and
// conversation of the calls q selects.
func (s *UsageStats) Summary(q UsageQuery) (UsageSummary, error) { return s.e.Summary(s.ctx, q) }

// ConversationTotal returns the running total of one conversation.
func (s *UsageStats) ConversationTotal(id int64) (Totals, error) {
	return s.e.ConversationTotal(s.ctx, id)
}

// Prices lists the pricing table: shipped prices and the user's.
func (s *UsageStats) Prices() ([]Price, error) { return s.e.Prices(s.ctx) }

// SetPrice stores the user's price of a model and returns it.
func (s *UsageStats) SetPrice(p Price) (Price, error) { return s.e.SetPrice(s.ctx, p) }

// ResetPrice removes the user's price of a model; the shipped one, if any,
// applies again.
func (s *UsageStats) ResetPrice(provider, model string) error {
	return s.e.ResetPrice(s.ctx, provider, model)
}

// maxExportBytes bounds ExportCSV, which hands the text to the page;
// SaveCSV has no bound.
const maxExportBytes = 16 << 20

var errExportTooLarge = errors.New("the export is larger than 16 MB: save it to a file instead")

// ExportCSV returns the CSV export of q by day, provider, model,
// conversation or calls.
func (s *UsageStats) ExportCSV(q UsageQuery, by ExportBy) (string, error) {
	var b bytes.Buffer
	if err := s.e.WriteCSV(s.ctx, &limitWriter{w: &b, n: maxExportBytes}, q, by); err != nil {
		return "", err
	}
	return b.String(), nil
}

// SaveCSV asks where to save the CSV export of q and writes it there. It
// returns the path, or "" when the user cancelled.
func (s *UsageStats) SaveCSV(q UsageQuery, by ExportBy) (string, error) {
	if s.saver == nil {
		return "", errors.New("no file dialog available")
	}
	sp, err := s.e.span(q)
	if err != nil {
		return "", err
	}
	name := fmt.Sprintf("mcpdesk-usage-by-%s-%s-to-%s.csv", by, sp.first.Format(dateLayout), sp.last.Format(dateLayout))
	path, err := s.saver.SaveFile("Export usage as CSV", name)
	if err != nil || path == "" {
		return "", err
	}
	if err := s.e.SaveCSV(s.ctx, path, q, by); err != nil {
		return "", err
	}
	return path, nil
}

// Audit returns one page of the audit log.
func (s *UsageStats) Audit(q AuditQuery) (AuditPage, error) { return s.e.Audit(s.ctx, q) }

// SaveCSV writes the CSV export of q to path, replacing it only once the
// export is complete, readable by the user alone and without following a
// link planted at path (package safefile).
func (e *Engine) SaveCSV(ctx context.Context, path string, q UsageQuery, by ExportBy) error {
	err := safefile.Write(path, func(f io.Writer) error {
		w := bufio.NewWriter(f)
		if err := e.WriteCSV(ctx, w, q, by); err != nil {
			return err
		}
		return w.Flush()
	})
	if err != nil {
		return fmt.Errorf("save CSV: %w", err)
	}
	return nil
}

// limitWriter fails once more than n bytes were written.
type limitWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.w.Len()+len(p) > l.n {
		return 0, errExportTooLarge
	}
	return l.w.Write(p)
}

// The Engine is what the chat engine, the pool and the command line record
// into.
var _ interface {
	RecordUsage(context.Context, store.UsageRecord)
	RecordToolCall(context.Context, store.AuditEntry)
} = (*Engine)(nil)
