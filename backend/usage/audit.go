package usage

import (
	"context"
	"fmt"
	"slices"

	"mcpdesk/backend/store"
)

// AuditQuery selects entries of the audit log; empty fields select all.
type AuditQuery struct {
	// From and To are the first and last day included, YYYY-MM-DD, in the
	// zone TzOffsetMinutes east of UTC; either may be empty (open).
	From            string `json:"from"`
	To              string `json:"to"`
	TzOffsetMinutes int    `json:"tzOffsetMinutes"`
	Server          string `json:"server"`
	Tool            string `json:"tool"`
	// Status is ok, error, cancelled, declined or timeout.
	Status string `json:"status" ts_type:"'ok' | 'error' | 'cancelled' | 'declined' | 'timeout' | ''"`
	// Source is chat, tools or cli.
	Source string `json:"source" ts_type:"'chat' | 'tools' | 'cli' | 'view' | ''"`
	// Text finds entries whose tool, arguments, output or error contain it.
	Text string `json:"text"`
	// Limit is the page size (<= 0: 100, at most 1000); Offset skips that
	// many of the newest entries.
	Limit  int `json:"limit"`
	Offset int `json:"offset"`
}

// AuditPage is one page of the audit log, newest first, and how many
// entries the query selects in all.
type AuditPage struct {
	Entries []store.AuditEntry `json:"entries"`
	Total   int                `json:"total"`
}

// Audit returns the page of the audit log q asks for.
func (e *Engine) Audit(ctx context.Context, q AuditQuery) (AuditPage, error) {
	sp, err := resolveSpan(q.From, q.To, q.TzOffsetMinutes, e.now(), false)
	if err != nil {
		return AuditPage{}, err
	}
	if q.Status != "" && !slices.Contains([]string{store.AuditOK, store.AuditError, store.AuditCancelled, store.AuditDeclined, store.AuditTimeout}, q.Status) {
		return AuditPage{}, fmt.Errorf("status %q: want ok, error, cancelled, declined or timeout", q.Status)
	}
	if q.Source != "" && !slices.Contains([]string{store.AuditChat, store.AuditTools, store.AuditCLI, store.AuditView}, q.Source) {
		return AuditPage{}, fmt.Errorf("source %q: want chat, tools or cli", q.Source)
	}
	entries, total, err := e.st.AuditEntries(ctx, store.AuditFilter{
		From: sp.from, To: sp.to, Server: q.Server, Tool: q.Tool, Status: q.Status, Source: q.Source, Text: q.Text,
		Limit: q.Limit, Offset: q.Offset,
	})
	if err != nil {
		return AuditPage{}, err
	}
	return AuditPage{Entries: entries, Total: total}, nil
}
