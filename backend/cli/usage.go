package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"mcpdesk/backend/core"
	usagestats "mcpdesk/backend/usage"
)

const usageUsage = `usage: mcpdesk usage [--by day|provider|model|conversation] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                     [--provider ID] [--model M] [--json]
Prints the tokens of every model call (chat, fallbacks, sampling) and their estimated cost.
Days are local days; without dates, the last 30 days. A model without a price shows "no price set".`

// usageReport is the JSON of `mcpdesk usage --json`.
type usageReport struct {
	From            string                       `json:"from"`
	To              string                       `json:"to"`
	TzOffsetMinutes int                          `json:"tzOffsetMinutes"`
	By              usagestats.ExportBy          `json:"by"`
	Totals          usagestats.Totals            `json:"totals"`
	Rows            []usagestats.Row             `json:"rows,omitempty"`
	Conversations   []usagestats.ConversationRow `json:"conversations,omitempty"`
	Unpriced        []string                     `json:"unpriced"`
}

// runUsage prints usage and estimated cost (SPEC E1).
func runUsage(ctx context.Context, g globals, args []string, env Env) int {
	var q usagestats.UsageQuery
	var byFlag string
	var jsonOut bool
	fs := newFlags("usage", &g, env)
	fs.StringVar(&byFlag, "by", string(usagestats.ByDay), "break down by day, provider, model or conversation")
	fs.StringVar(&q.From, "from", "", "first day (YYYY-MM-DD; default: 29 days before --to)")
	fs.StringVar(&q.To, "to", "", "last day (YYYY-MM-DD; default: today)")
	fs.StringVar(&q.Provider, "provider", "", "only calls of this provider (its id)")
	fs.StringVar(&q.Model, "model", "", "only calls of this model")
	fs.BoolVar(&jsonOut, "json", false, "print JSON instead of a table")
	fs.Usage = func() { fmt.Fprintln(env.Stderr, usageUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		return usageError(env, "usage: unexpected argument %q\n%s", fs.Arg(0), usageUsage)
	}
	by := usagestats.ExportBy(byFlag)
	switch by {
	case usagestats.ByDay, usagestats.ByProvider, usagestats.ByModel, usagestats.ByConversation:
	default:
		return usageError(env, "usage: --by must be day, provider, model or conversation, not %q", by)
	}
	q.TzOffsetMinutes = localOffsetMinutes(time.Now())
	c, err := openCore(g, core.Options{})
	if err != nil {
		return fail(env, err)
	}
	defer c.Close()
	s, err := c.Ledger.FullSummary(ctx, q)
	if err != nil {
		return fail(env, err)
	}
	rep := usageReport{From: s.From, To: s.To, TzOffsetMinutes: s.TzOffsetMinutes, By: by, Totals: s.Totals, Unpriced: s.Unpriced}
	switch by {
	case usagestats.ByDay:
		for _, r := range s.ByDay {
			if r.Calls > 0 {
				rep.Rows = append(rep.Rows, r)
			}
		}
	case usagestats.ByProvider:
		rep.Rows = s.ByProvider
	case usagestats.ByModel:
		rep.Rows = s.ByModel
	case usagestats.ByConversation:
		rep.Conversations = s.ByConversation
	}
	if jsonOut {
		if rep.Rows == nil && by != usagestats.ByConversation {
			rep.Rows = []usagestats.Row{}
		}
		if rep.Conversations == nil && by == usagestats.ByConversation {
			rep.Conversations = []usagestats.ConversationRow{}
		}
		if err := printJSON(env, rep); err != nil {
			return fail(env, err)
		}
		return exitOK
	}
	printUsageTable(env, rep)
	return exitOK
}

// printUsageTable prints rep as aligned columns with a total line.
func printUsageTable(env Env, rep usageReport) {
	sign, off := '+', rep.TzOffsetMinutes
	if off < 0 {
		sign, off = '-', -off
	}
	fmt.Fprintf(env.Stdout, "Usage %s … %s (days of UTC%c%02d:%02d)\n\n", rep.From, rep.To, sign, off/60, off%60)
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	head := map[usagestats.ExportBy]string{
		usagestats.ByDay: "DAY", usagestats.ByProvider: "PROVIDER", usagestats.ByModel: "PROVIDER\tMODEL", usagestats.ByConversation: "ID\tCONVERSATION",
	}[rep.By]
	fmt.Fprintln(tw, head+"\tCALLS\tPROMPT\tCOMPLETION\tCACHED\tREASONING\tCOST")
	lead := strings.Count(head, "\t") // extra label columns
	for _, r := range rep.Rows {
		label := r.Label
		if rep.By == usagestats.ByModel {
			label = providerOf(r.Label, r.Model) + "\t" + r.Model
		}
		fmt.Fprintln(tw, label+"\t"+numbers(r.Calls, r.PromptTokens, r.CompletionTokens, r.CachedTokens, r.ReasoningTokens)+"\t"+costCell(r.Cost, r.PricedCost, r.UnpricedCalls, r.Calls))
	}
	for _, c := range rep.Conversations {
		fmt.Fprintln(tw, strconv.FormatInt(c.ConversationID, 10)+"\t"+oneLine(c.Label, 48)+"\t"+
			numbers(c.Calls, c.PromptTokens, c.CompletionTokens, c.CachedTokens, c.ReasoningTokens)+"\t"+costCell(c.Cost, c.PricedCost, c.UnpricedCalls, c.Calls))
	}
	t := rep.Totals
	fmt.Fprintln(tw, "TOTAL"+strings.Repeat("\t", lead)+"\t"+numbers(t.Calls, t.PromptTokens, t.CompletionTokens, t.CachedTokens, t.ReasoningTokens)+"\t"+costCell(t.Cost, t.PricedCost, t.UnpricedCalls, t.Calls))
	tw.Flush()
	if len(rep.Unpriced) > 0 {
		fmt.Fprintf(env.Stdout, "\nNo price set for %s: their calls have tokens but no cost. Set prices on the Usage screen.\n", strings.Join(rep.Unpriced, ", "))
	}
}

// providerOf cuts the model off a "<provider> · <model>" label.
func providerOf(label, model string) string { return strings.TrimSuffix(label, " · "+model) }

func numbers(v ...int64) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.FormatInt(n, 10)
	}
	return strings.Join(parts, "\t")
}

// costCell is the cost of a line: dollars, "no price set", or the priced
// part with a note when some calls lack a price.
func costCell(cost *float64, priced float64, unpriced, calls int64) string {
	switch {
	case cost != nil:
		return fmt.Sprintf("$%.4f", *cost)
	case unpriced < calls:
		return fmt.Sprintf("$%.4f + no price set (%d of %d calls)", priced, unpriced, calls)
	default:
		return "no price set"
	}
}
