package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/core"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/store"
	usagestats "mcpdesk/backend/usage"
)

const auditUsage = `usage: mcpdesk audit [--json] [--server S] [--tool T] [--status S] [--source S] [--text T]
                     [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--limit N] [--offset N]
Lists the tool calls of the audit log (chat, Tools tab, command line), newest first.
Days are local days.`

// runAudit prints a page of the audit log (SPEC E2).
func runAudit(ctx context.Context, g globals, args []string, env Env) int {
	var q usagestats.AuditQuery
	var jsonOut bool
	fs := newFlags("audit", &g, env)
	fs.BoolVar(&jsonOut, "json", false, "print the page as JSON")
	fs.StringVar(&q.Server, "server", "", "only calls to this server")
	fs.StringVar(&q.Tool, "tool", "", "only calls of this tool")
	fs.StringVar(&q.Status, "status", "", "only calls that ended so: ok, error, cancelled, declined or timeout")
	fs.StringVar(&q.Source, "source", "", "only calls from: chat, tools or cli")
	fs.StringVar(&q.Text, "text", "", "only calls whose tool, arguments, output or error contain this")
	fs.StringVar(&q.From, "from", "", "first day (YYYY-MM-DD)")
	fs.StringVar(&q.To, "to", "", "last day (YYYY-MM-DD)")
	fs.IntVar(&q.Limit, "limit", 50, "most entries to print (at most 1000)")
	fs.IntVar(&q.Offset, "offset", 0, "skip this many of the newest entries")
	fs.Usage = func() { fmt.Fprintln(env.Stderr, auditUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		return usageError(env, "audit: unexpected argument %q\n%s", fs.Arg(0), auditUsage)
	}
	if q.Limit < 1 || q.Limit > 1000 {
		return usageError(env, "audit: --limit must be within 1…1000")
	}
	q.TzOffsetMinutes = localOffsetMinutes(time.Now())
	c, err := openCore(g, core.Options{})
	if err != nil {
		return fail(env, err)
	}
	defer c.Close()
	page, err := c.Ledger.Audit(ctx, q)
	if err != nil {
		return fail(env, err)
	}
	if jsonOut {
		if err := printJSON(env, page); err != nil {
			return fail(env, err)
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tSOURCE\tSERVER\tTOOL\tSTATUS\tAPPROVAL\tDURATION\tARGUMENTS")
	for _, e := range page.Entries {
		approval := e.Approval
		if approval == "" {
			approval = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Time.Local().Format("2006-01-02 15:04:05"), e.Source,
			cell(e.Server), e.Tool, e.Status, approval, strconv.FormatInt(e.DurationMs, 10)+" ms", oneLine(e.Arguments, 60))
	}
	tw.Flush()
	fmt.Fprintf(env.Stdout, "%d of %d entries\n", len(page.Entries), page.Total)
	return exitOK
}

// cell is s, or "-" for an empty table cell.
func cell(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// openCore builds the backend over the data folder of g (backend/core),
// with the OS keychain and the quiet logger every command uses.
func openCore(g globals, opts core.Options) (*core.Core, error) {
	opts.DataDir = g.dataDir
	if opts.Secrets == nil {
		opts.Secrets = providerSecrets()
	}
	if opts.Logger == nil {
		opts.Logger = quietLogger()
	}
	return core.Open(opts)
}

// localOffsetMinutes is the local zone's offset at t, to the nearest 15
// minutes (every zone's is a multiple of 15 today).
func localOffsetMinutes(t time.Time) int {
	_, secs := t.Zone()
	m := secs / 60
	return (m + 7*sign(m)) / 15 * 15
}

func sign(n int) int {
	if n < 0 {
		return -1
	}
	return 1
}

// cliRecorder is the chat command's recorder: its tool calls go to the
// audit log as made from the command line.
// auditInspectCall writes a tools/call of `mcpdesk inspect` to the audit
// log of the data folder. The call already happened: a log that cannot be
// written is reported on stderr and does not change the exit code.
func auditInspectCall(ctx context.Context, g globals, env Env, srv mcpconfig.Server, tool string, args map[string]any,
	result any, took time.Duration, callErr error) {
	e := store.AuditEntry{
		Time: time.Now().Add(-took), Source: store.AuditCLI, Server: srv.ID, Tool: tool,
		Approval: store.AuditApprovalCLI, DurationMs: took.Milliseconds(),
	}
	if srv.ID == "cli" { // named on the command line, not in a config
		e.Server = srv.Summary()
	}
	if b, err := json.Marshal(args); err == nil {
		e.Arguments = string(b)
	}
	res, _ := result.(*mcp.CallToolResult)
	switch {
	case callErr != nil && ctx.Err() == context.DeadlineExceeded:
		e.Status, e.Error = store.AuditTimeout, callErr.Error()
	case callErr != nil && ctx.Err() != nil:
		e.Status, e.Error = store.AuditCancelled, callErr.Error()
	case callErr != nil:
		e.Status, e.Error = store.AuditError, callErr.Error()
	case res == nil:
		e.Status, e.Error = store.AuditError, "the server returned no result"
	default:
		e.Status, e.Output = store.AuditOK, mcppool.ResultText(res)
		if res.IsError {
			e.Status = store.AuditError
		}
	}
	c, err := openCore(g, core.Options{})
	if err == nil {
		defer c.Close()
		_, err = c.Store.AddAuditEntry(context.WithoutCancel(ctx), e)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "mcpdesk: the call was not written to the audit log: %v\n", err)
	}
}
