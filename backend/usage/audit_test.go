package usage

import (
	"testing"
	"time"

	"mcpdesk/backend/store"
)

func TestAuditQuery(t *testing.T) {
	f := newFixture(t)
	at := time.Date(2025, 5, 1, 22, 30, 0, 0, time.UTC)
	for i, e := range []store.AuditEntry{
		{Source: store.AuditChat, ConversationID: f.convA.ID, Server: "fs", Tool: "read", Arguments: `{"path":"a"}`, Approval: "always", Status: store.AuditOK, Output: "hello"},
		{Source: store.AuditTools, Server: "fs", Tool: "write", Arguments: `{"path":"b"}`, Approval: "user", Status: store.AuditError, Error: "denied"},
		{Source: store.AuditCLI, Server: "web", Tool: "fetch", Approval: "cli", Status: store.AuditCancelled},
	} {
		e.Time = at.Add(time.Duration(i) * time.Hour) // 22:30, 23:30, 00:30 UTC
		f.e.RecordToolCall(f.ctx, e)
	}
	f.e.RecordToolCall(f.ctx, store.AuditEntry{Source: "chat", Tool: "x", Status: "exploded"}) // logged, not stored

	for name, c := range map[string]struct {
		q     AuditQuery
		tools []string
		total int
	}{
		"all":            {AuditQuery{}, []string{"fetch", "write", "read"}, 3},
		"UTC day":        {AuditQuery{From: "2025-05-01", To: "2025-05-01"}, []string{"write", "read"}, 2},
		"UTC+2 day":      {AuditQuery{From: "2025-05-02", TzOffsetMinutes: 120}, []string{"fetch", "write", "read"}, 3},
		"server":         {AuditQuery{Server: "fs", Limit: 1}, []string{"write"}, 2},
		"second page":    {AuditQuery{Server: "fs", Limit: 1, Offset: 1}, []string{"read"}, 2},
		"status":         {AuditQuery{Status: "error"}, []string{"write"}, 1},
		"source":         {AuditQuery{Source: "cli"}, []string{"fetch"}, 1},
		"text in output": {AuditQuery{Text: "HELLO"}, []string{"read"}, 1},
		"text in args":   {AuditQuery{Text: `"b"`}, []string{"write"}, 1},
	} {
		page, err := f.e.Audit(f.ctx, c.q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var tools []string
		for _, e := range page.Entries {
			tools = append(tools, e.Tool)
		}
		if page.Total != c.total || len(tools) != len(c.tools) {
			t.Errorf("%s: %v of %d, want %v of %d", name, tools, page.Total, c.tools, c.total)
			continue
		}
		for i := range tools {
			if tools[i] != c.tools[i] {
				t.Errorf("%s: %v, want %v", name, tools, c.tools)
				break
			}
		}
	}
	for _, q := range []AuditQuery{{Status: "fine"}, {Source: "email"}, {From: "yesterday"}, {TzOffsetMinutes: 10}} {
		if _, err := f.e.Audit(f.ctx, q); err == nil {
			t.Errorf("Audit(%+v) accepted", q)
		}
	}
	page, err := NewService(f.e, nil).Audit(AuditQuery{Tool: "read"})
	if err != nil || len(page.Entries) != 1 || page.Entries[0].ConversationID != f.convA.ID || page.Entries[0].Approval != "always" {
		t.Errorf("service Audit: %+v, %v", page, err)
	}
}
