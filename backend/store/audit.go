package store

// The audit log (SPEC E2): one row per tool call — from a chat turn, the
// Tools tab or the command line — with how it was approved, how it ended,
// its arguments and the start of its output. Rows are written once and
// never updated. time is Unix milliseconds (UTC), as in usage_records.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// createAuditLog is migration 7: the audit log of tool calls.
func createAuditLog(tx *gorm.DB) error {
	for _, stmt := range []string{
		`CREATE TABLE audit_log (
			id                  INTEGER PRIMARY KEY,
			time                INTEGER NOT NULL,
			source              TEXT NOT NULL CHECK (source <> ''),
			conversation_id     INTEGER,
			server              TEXT NOT NULL DEFAULT '',
			tool                TEXT NOT NULL CHECK (tool <> ''),
			arguments           TEXT NOT NULL DEFAULT '',
			arguments_truncated INTEGER NOT NULL DEFAULT 0 CHECK (arguments_truncated IN (0, 1)),
			approval            TEXT NOT NULL DEFAULT '',
			status              TEXT NOT NULL CHECK (status IN ('ok', 'error', 'cancelled', 'declined', 'timeout')),
			duration_ms         INTEGER NOT NULL DEFAULT 0 CHECK (duration_ms >= 0),
			output              TEXT NOT NULL DEFAULT '',
			output_truncated    INTEGER NOT NULL DEFAULT 0 CHECK (output_truncated IN (0, 1)),
			error               TEXT NOT NULL DEFAULT ''
		)`,
		`CREATE INDEX audit_by_time ON audit_log (time)`,
		`CREATE INDEX audit_by_server ON audit_log (server, tool, time)`,
	} {
		if err := tx.Exec(stmt).Error; err != nil {
			return err
		}
	}
	return nil
}

// Where a tool call came from (AuditEntry.Source).
const (
	AuditChat  = "chat"  // a model asked for it in a chat turn (window or command line)
	AuditTools = "tools" // the user ran it in the Tools tab
	AuditCLI   = "cli"   // mcpdesk inspect --method tools/call
	AuditView  = "view"  // an MCP Apps view asked for it (issue 15)
)

// How a tool call ended (AuditEntry.Status).
const (
	AuditOK        = "ok"        // it ran and its result is not an error
	AuditError     = "error"     // it ran and failed, or could not be made
	AuditCancelled = "cancelled" // stopped, or its turn ended before it ran
	AuditDeclined  = "declined"  // refused: by the user, a policy or validation
	AuditTimeout   = "timeout"   // it ran past its time limit
)

// Approvals only the audit log records, besides the chat's (user,
// conversation, always, server-auto, never, read-only). They are
// Approvals too, so that the UI's words for them are checked against one
// generated union.
const (
	// AuditApprovalCLI: run from the command line by whoever typed it.
	AuditApprovalCLI Approval = "cli"
	// AuditApprovalValidation: refused before anyone was asked, because the
	// tool does not exist or its arguments do not fit its input schema.
	AuditApprovalValidation Approval = "validation"
	// AuditApprovalModeAuto and AuditApprovalModeNever: decided by the
	// command line's `chat --approve auto|never`.
	AuditApprovalModeAuto  Approval = "approve-auto"
	AuditApprovalModeNever Approval = "approve-never"
)

// Limits of what the audit log keeps of one call.
const (
	MaxAuditArguments = 16 << 10 // bytes of the arguments' JSON
	MaxAuditOutput    = 2 << 10  // bytes of the output's text
	MaxAuditError     = 2 << 10  // bytes of the error message
)

// AuditEntry is one tool call of the audit log.
type AuditEntry struct {
	ID int64 `json:"id"`
	// Time is when the call started, or was decided when it never ran.
	Time   time.Time `json:"time"`
	Source string    `json:"source" ts_type:"'chat' | 'tools' | 'cli' | 'view'"`
	// ConversationID is the chat conversation, 0 for none.
	ConversationID int64  `json:"conversationId"`
	Server         string `json:"server"`
	Tool           string `json:"tool"`
	// Arguments is the JSON text the tool got (or the model's text when it
	// never ran), cut at MaxAuditArguments bytes.
	Arguments          string `json:"arguments"`
	ArgumentsTruncated bool   `json:"argumentsTruncated"`
	// Approval says who or which policy let the call run or refused it:
	// user, conversation, always, server-auto, never, validation, cli,
	// approve-auto, approve-never; "" when the call ended before anyone
	// decided.
	Approval   Approval `json:"approval"`
	Status     string   `json:"status" ts_type:"'ok' | 'error' | 'cancelled' | 'declined' | 'timeout'"`
	DurationMs int64    `json:"durationMs"`
	// Output is the start of the result's text, cut at MaxAuditOutput bytes.
	Output          string `json:"output"`
	OutputTruncated bool   `json:"outputTruncated"`
	Error           string `json:"error"`
	// DefinitionHash is the SHA-256 (hex) of the tool's definition the
	// call ran under (SPEC G1; see trust.Definition), "" when unknown.
	DefinitionHash string `json:"definitionHash"`
}

type auditRow struct {
	ID                 int64 `gorm:"primaryKey"`
	Time               int64
	Source             string
	ConversationID     *int64
	Server             string
	Tool               string
	Arguments          string
	ArgumentsTruncated bool
	Approval           string
	Status             string
	DurationMs         int64
	Output             string
	OutputTruncated    bool
	Error              string
	DefinitionHash     string
}

func (auditRow) TableName() string { return "audit_log" }

func (r auditRow) entry() AuditEntry {
	e := AuditEntry{
		ID: r.ID, Time: time.UnixMilli(r.Time).UTC(), Source: r.Source, Server: r.Server, Tool: r.Tool,
		Arguments: r.Arguments, ArgumentsTruncated: r.ArgumentsTruncated, Approval: Approval(r.Approval), Status: r.Status,
		DurationMs: r.DurationMs, Output: r.Output, OutputTruncated: r.OutputTruncated, Error: r.Error,
		DefinitionHash: r.DefinitionHash,
	}
	if r.ConversationID != nil {
		e.ConversationID = *r.ConversationID
	}
	return e
}

// AddAuditEntry appends e to the audit log (a zero Time is now), cutting
// arguments, output and error to their limits, and returns it as stored.
func (s *Store) AddAuditEntry(ctx context.Context, e AuditEntry) (AuditEntry, error) {
	switch {
	case e.Source == "":
		return AuditEntry{}, errors.New("record tool call: a source is required")
	case e.Tool == "":
		return AuditEntry{}, errors.New("record tool call: a tool is required")
	case e.DefinitionHash != "" && !IsDigest(e.DefinitionHash):
		return AuditEntry{}, fmt.Errorf("record tool call: definition hash %q is not a SHA-256 in hex", e.DefinitionHash)
	}
	switch e.Status {
	case AuditOK, AuditError, AuditCancelled, AuditDeclined, AuditTimeout:
	default:
		return AuditEntry{}, fmt.Errorf("record tool call: unknown status %q", e.Status)
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	e.Time = e.Time.UTC().Truncate(time.Millisecond)
	var cut bool
	e.Arguments, cut = clipAudit(e.Arguments, MaxAuditArguments)
	e.ArgumentsTruncated = e.ArgumentsTruncated || cut
	e.Output, cut = clipAudit(e.Output, MaxAuditOutput)
	e.OutputTruncated = e.OutputTruncated || cut
	e.Error, _ = clipAudit(e.Error, MaxAuditError)
	row := auditRow{
		Time: e.Time.UnixMilli(), Source: e.Source, Server: e.Server, Tool: e.Tool,
		Arguments: e.Arguments, ArgumentsTruncated: e.ArgumentsTruncated, Approval: string(e.Approval), Status: e.Status,
		DurationMs: max(e.DurationMs, 0), Output: e.Output, OutputTruncated: e.OutputTruncated, Error: e.Error,
		DefinitionHash: e.DefinitionHash,
	}
	if e.ConversationID != 0 {
		id := e.ConversationID
		row.ConversationID = &id
	}
	if err := s.db.WithContext(ctx).Create(&row).Error; err != nil {
		return AuditEntry{}, fmt.Errorf("record tool call: %w", err)
	}
	return row.entry(), nil
}

// clipAudit cuts s to at most n bytes at a character boundary and reports
// whether it cut.
func clipAudit(s string, n int) (string, bool) {
	return clipBytes(s, n), len(s) > n
}

// AuditFilter selects audit entries; zero fields select everything.
type AuditFilter struct {
	// From and To bound the time: From <= time < To.
	From, To time.Time
	Server   string
	Tool     string
	Status   string
	Source   string
	// Text finds entries whose tool, arguments, output or error contain it
	// (ASCII case-insensitive).
	Text string
	// Limit is the page size (<= 0: 100, at most 1000); Offset skips the
	// newest entries.
	Limit, Offset int
}

// AuditEntries returns one page of the entries f selects, newest first,
// and how many it selects in all.
func (s *Store) AuditEntries(ctx context.Context, f AuditFilter) ([]AuditEntry, int, error) {
	where, args := f.where()
	var total int
	if err := s.sqlDB.QueryRowContext(ctx, `SELECT COUNT(*) FROM audit_log WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("read audit log: %w", err)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	limit = min(limit, 1000)
	var rows []auditRow
	err := s.db.WithContext(ctx).Raw(`SELECT * FROM audit_log WHERE `+where+` ORDER BY time DESC, id DESC LIMIT ? OFFSET ?`,
		append(args, limit, max(f.Offset, 0))...).Scan(&rows).Error
	if err != nil {
		return nil, 0, fmt.Errorf("read audit log: %w", err)
	}
	out := make([]AuditEntry, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.entry())
	}
	return out, total, nil
}

// where returns the SQL condition of f and its arguments.
func (f AuditFilter) where() (string, []any) {
	conds := []string{"1"}
	var args []any
	if !f.From.IsZero() {
		conds, args = append(conds, "time >= ?"), append(args, f.From.UnixMilli())
	}
	if !f.To.IsZero() {
		conds, args = append(conds, "time < ?"), append(args, f.To.UnixMilli())
	}
	for _, c := range []struct{ col, v string }{{"server", f.Server}, {"tool", f.Tool}, {"status", f.Status}, {"source", f.Source}} {
		if c.v != "" {
			conds, args = append(conds, c.col+" = ?"), append(args, c.v)
		}
	}
	if t := strings.TrimSpace(f.Text); t != "" {
		like := "%" + escapeLike(t) + "%"
		conds = append(conds, `(tool LIKE ? ESCAPE '\' OR arguments LIKE ? ESCAPE '\' OR output LIKE ? ESCAPE '\' OR error LIKE ? ESCAPE '\')`)
		args = append(args, like, like, like, like)
	}
	return strings.Join(conds, " AND "), args
}
