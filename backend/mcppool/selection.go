package mcppool

import (
	"encoding/json"
	"fmt"
	"slices"

	"mcpdesk/backend/apps"
	"mcpdesk/backend/mcppool/naming"
)

// ToolSelection says which of a server's tools are offered to models and
// what their definitions cost (SPEC A6).
type ToolSelection struct {
	// Disabled lists the tools that are not offered, by name.
	Disabled []string `json:"disabled"`
	Enabled  int      `json:"enabled"`
	Total    int      `json:"total"`
	// ViewOnly counts the tools whose visibility lacks "model" (MCP Apps,
	// or the Apps SDK's private tools): only their server's views, or only
	// the user, may call them; they are never offered to a model, enabled
	// or not, and count in neither Enabled nor the estimate.
	ViewOnly int `json:"viewOnly"`
	// EstimatedTokens approximates the prompt tokens the enabled tools'
	// definitions take in every model call (JSON length / 4).
	EstimatedTokens int `json:"estimatedTokens"`
	// WarnAbove is the estimate past which the UI warns.
	WarnAbove int `json:"warnAbove"`
}

// toolTokenWarning is where tool definitions start to crowd a context.
const toolTokenWarning = 8000

// ToolSelection reports a server's enabled tools and their token cost.
func (p *Pool) ToolSelection(id string) (ToolSelection, error) {
	c := p.conn(id)
	if c == nil {
		return ToolSelection{}, unknownServer(id)
	}
	table := p.ToolTable()
	c.mu.Lock()
	cfg, tools := c.cfg, slices.Clone(c.tools)
	c.mu.Unlock()
	sel := ToolSelection{Disabled: []string{}, Total: len(tools), WarnAbove: toolTokenWarning}
	chars := 0
	for _, t := range tools {
		if !apps.UIOf(t).ForModel() {
			sel.ViewOnly++
			continue
		}
		if !cfg.ToolEnabled(t.Name) {
			sel.Disabled = append(sel.Disabled, t.Name)
			continue
		}
		sel.Enabled++
		name, _ := table.Name(naming.Ref{Server: id, Tool: t.Name})
		def, err := json.Marshal(map[string]any{"type": "function", "function": map[string]any{
			"name": name, "description": t.Description, "parameters": t.InputSchema,
		}})
		if err != nil {
			return ToolSelection{}, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		chars += len(def)
	}
	sel.EstimatedTokens = (chars + 3) / 4
	return sel, nil
}
