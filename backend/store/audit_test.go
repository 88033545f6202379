package store

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestAuditLog(t *testing.T) {
	ctx := context.Background()
	st := openTest(t, t.TempDir())
	at := time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC)
	long := strings.Repeat("é", MaxAuditOutput) // 2 bytes each: cut mid-way
	entries := []AuditEntry{
		{Time: at, Source: AuditChat, ConversationID: 4, Server: "fs", Tool: "read_file", Arguments: `{"path":"/tmp/a"}`,
			Approval: ApprovalAlways, Status: AuditOK, DurationMs: 12, Output: long},
		{Time: at.Add(time.Minute), Source: AuditTools, Server: "fs", Tool: "write_file", Arguments: `{"path":"/tmp/b","text":"50% off"}`,
			Approval: ApprovalUser, Status: AuditError, Error: "disk full"},
		{Time: at.Add(2 * time.Minute), Source: AuditCLI, Server: "web", Tool: "fetch", Arguments: `{"url":"x"}`,
			Approval: AuditApprovalCLI, Status: AuditTimeout},
		{Time: at.Add(24 * time.Hour), Source: AuditChat, Server: "web", Tool: "fetch", Arguments: strings.Repeat("a", MaxAuditArguments+1),
			Approval: AuditApprovalValidation, Status: AuditDeclined},
	}
	for i, e := range entries {
		got, err := st.AddAuditEntry(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		entries[i] = got
	}
	if e := entries[0]; len(e.Output) > MaxAuditOutput || !utf8.ValidString(e.Output) || !e.OutputTruncated || e.ArgumentsTruncated {
		t.Errorf("output kept %d bytes, truncated %v", len(e.Output), e.OutputTruncated)
	}
	if e := entries[3]; len(e.Arguments) != MaxAuditArguments || !e.ArgumentsTruncated {
		t.Errorf("arguments kept %d bytes, truncated %v", len(e.Arguments), e.ArgumentsTruncated)
	}
	for _, bad := range []AuditEntry{
		{Source: AuditChat, Tool: "x", Status: "weird"},
		{Source: AuditChat, Status: AuditOK},
		{Tool: "x", Status: AuditOK},
	} {
		if _, err := st.AddAuditEntry(ctx, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}

	ids := func(es []AuditEntry) []int64 {
		out := []int64{}
		for _, e := range es {
			out = append(out, e.ID)
		}
		return out
	}
	id := func(i int) int64 { return entries[i].ID }
	for name, c := range map[string]struct {
		f     AuditFilter
		want  []int64
		total int
	}{
		"all, newest first":  {AuditFilter{}, []int64{id(3), id(2), id(1), id(0)}, 4},
		"page":               {AuditFilter{Limit: 2, Offset: 1}, []int64{id(2), id(1)}, 4},
		"server":             {AuditFilter{Server: "web"}, []int64{id(3), id(2)}, 2},
		"server and tool":    {AuditFilter{Server: "fs", Tool: "read_file"}, []int64{id(0)}, 1},
		"status":             {AuditFilter{Status: AuditTimeout}, []int64{id(2)}, 1},
		"source":             {AuditFilter{Source: AuditTools}, []int64{id(1)}, 1},
		"day":                {AuditFilter{From: at.Truncate(24 * time.Hour), To: at.Truncate(24 * time.Hour).Add(24 * time.Hour)}, []int64{id(2), id(1), id(0)}, 3},
		"text in output":     {AuditFilter{Text: "é"}, []int64{id(0)}, 1},
		"text in error":      {AuditFilter{Text: "DISK"}, []int64{id(1)}, 1},
		"literal percent":    {AuditFilter{Text: "50%"}, []int64{id(1)}, 1},
		"literal underscore": {AuditFilter{Text: "read_"}, []int64{id(0)}, 1},
		"nothing":            {AuditFilter{Text: "%_nope"}, []int64{}, 0},
	} {
		got, total, err := st.AuditEntries(ctx, c.f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if g := ids(got); total != c.total || !slices.Equal(g, c.want) {
			t.Errorf("%s: ids %v of %d, want %v of %d", name, g, total, c.want, c.total)
		}
	}
	got, _, _ := st.AuditEntries(ctx, AuditFilter{Tool: "read_file"})
	if e := got[0]; e.ConversationID != 4 || e.Approval != "always" || e.DurationMs != 12 || !e.Time.Equal(at) {
		t.Errorf("read back %+v", e)
	}
}
