package chat

import (
	"context"
	"fmt"
	"time"
)

// ChatSettings are the chat's application-wide settings (SPEC F1).
type ChatSettings struct {
	// MaxSteps caps the model calls of one turn (default 10); a
	// conversation's own maxSteps wins.
	MaxSteps int `json:"maxSteps"`
	// ToolTimeoutMs is how long one tool call of a chat may run (default
	// 120 000), besides the server's own timeout.
	ToolTimeoutMs int `json:"toolTimeoutMs"`
	// ApprovalDefault is what happens to a tool call no policy covers:
	// "ask" (default) puts every such call to the user; "readOnly" runs
	// the tools that say they only read (readOnlyHint true; destructive
	// tools are never read-only) without asking. A stored policy wins over
	// it.
	ApprovalDefault string `json:"approvalDefault" ts_type:"'ask' | 'readOnly'"`
	// ToolSearch offers the model search_tools instead of every tool
	// (toolsearch.go): "auto" (default) past 30 tools or 8,000 tokens of
	// tool definitions, "on" always, "off" never.
	ToolSearch string `json:"toolSearch" ts_type:"'auto' | 'on' | 'off'"`
}

// Defaults and limits of ChatSettings.
const (
	DefaultMaxSteps      = 10
	DefaultToolTimeoutMs = 120_000
	maxMaxSteps          = 1000
	minToolTimeoutMs     = 100
	maxToolTimeoutMs     = 24 * 60 * 60 * 1000
)

// The values of ChatSettings.ApprovalDefault.
const (
	ApprovalDefaultAsk      = "ask"
	ApprovalDefaultReadOnly = "readOnly"
)

// settingsKey is the settings key holding ChatSettings.
const settingsKey = "chat.settings"

// DefaultSettings returns the settings of a new installation.
func DefaultSettings() ChatSettings {
	return ChatSettings{MaxSteps: DefaultMaxSteps, ToolTimeoutMs: DefaultToolTimeoutMs, ApprovalDefault: ApprovalDefaultAsk, ToolSearch: ToolSearchAuto}
}

func (s ChatSettings) withDefaults() ChatSettings {
	d := DefaultSettings()
	if s.MaxSteps <= 0 {
		s.MaxSteps = d.MaxSteps
	}
	if s.ToolTimeoutMs <= 0 {
		s.ToolTimeoutMs = d.ToolTimeoutMs
	}
	if s.ApprovalDefault == "" {
		s.ApprovalDefault = d.ApprovalDefault
	}
	if s.ToolSearch == "" {
		s.ToolSearch = d.ToolSearch
	}
	return s
}

func (s ChatSettings) toolTimeout() time.Duration {
	return time.Duration(s.withDefaults().ToolTimeoutMs) * time.Millisecond
}

// Settings returns the stored settings, defaults filled in.
func (e *Engine) Settings(ctx context.Context) (ChatSettings, error) {
	var s ChatSettings
	if _, err := e.st.GetSetting(ctx, settingsKey, &s); err != nil {
		return DefaultSettings(), fmt.Errorf("read chat settings: %w", err)
	}
	if s.ApprovalDefault != ApprovalDefaultReadOnly {
		s.ApprovalDefault = ApprovalDefaultAsk // unknown (a newer build's) means ask
	}
	if s.ToolSearch != ToolSearchOn && s.ToolSearch != ToolSearchOff {
		s.ToolSearch = ToolSearchAuto
	}
	return s.withDefaults(), nil
}

// settings is Settings for a turn: a read failure means the defaults.
func (e *Engine) settings(ctx context.Context) ChatSettings {
	s, err := e.Settings(ctx)
	if err != nil {
		e.logger.Warn("chat settings; using defaults", "err", err)
	}
	return s
}

// SaveSettings validates and stores s (zero fields mean the defaults) and
// returns what was stored.
func (e *Engine) SaveSettings(ctx context.Context, s ChatSettings) (ChatSettings, error) {
	s = s.withDefaults()
	switch {
	case s.MaxSteps > maxMaxSteps:
		return ChatSettings{}, fmt.Errorf("save chat settings: max steps %d is more than %d", s.MaxSteps, maxMaxSteps)
	case s.ToolTimeoutMs < minToolTimeoutMs || s.ToolTimeoutMs > maxToolTimeoutMs:
		return ChatSettings{}, fmt.Errorf("save chat settings: tool timeout %d ms is outside %d ms … 24 h", s.ToolTimeoutMs, minToolTimeoutMs)
	case s.ApprovalDefault != ApprovalDefaultAsk && s.ApprovalDefault != ApprovalDefaultReadOnly:
		return ChatSettings{}, fmt.Errorf("save chat settings: approval default must be %q or %q, not %q",
			ApprovalDefaultAsk, ApprovalDefaultReadOnly, s.ApprovalDefault)
	case s.ToolSearch != ToolSearchAuto && s.ToolSearch != ToolSearchOn && s.ToolSearch != ToolSearchOff:
		return ChatSettings{}, fmt.Errorf("save chat settings: tool search must be %q, %q or %q, not %q",
			ToolSearchAuto, ToolSearchOn, ToolSearchOff, s.ToolSearch)
	}
	if err := e.st.PutSetting(ctx, settingsKey, s); err != nil {
		return ChatSettings{}, fmt.Errorf("save chat settings: %w", err)
	}
	return s, nil
}
