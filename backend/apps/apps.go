// Package apps holds what MCP Desk knows of interactive UI from servers
// (issue 15, SPEC D9): the MCP Apps extension (io.modelcontextprotocol/ui,
// specification 2026-01-26) first. This part reads a tool's UI metadata —
// which ui:// resource renders its results and who may call it (the model,
// the view) — and builds the Content-Security-Policy a view runs under from
// its resource's _meta.ui.csp, never allowing an origin the server did not
// declare. It imports neither the pool nor the Wails runtime.
package apps

import (
	"encoding/json"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// Extension is the MCP Apps extension's identifier; MIMEType the type of
// its HTML views.
const (
	Extension = "io.modelcontextprotocol/ui"
	MIMEType  = "text/html;profile=mcp-app"
)

// Who may call a tool (McpUiToolMeta.visibility).
const (
	VisibleToModel = "model"
	VisibleToApp   = "app"
)

// ToolUI is a tool's _meta.ui: the view that renders its results and who
// may call it.
type ToolUI struct {
	// ResourceURI is the ui:// resource of the view ("" when none).
	ResourceURI string `json:"resourceUri,omitempty"`
	// Visibility lists who may call the tool; nil means both the model
	// and the app (the specification's default).
	Visibility []string `json:"visibility,omitempty"`
}

// UIOf reads t's _meta.ui, and the deprecated flat _meta["ui/resourceUri"].
// Anything malformed reads as no UI and the default visibility: a server
// cannot hide a tool from the user by sending garbage.
func UIOf(t mcp.Tool) ToolUI {
	if t.Meta == nil || t.Meta.AdditionalFields == nil {
		return ToolUI{}
	}
	var ui ToolUI
	if raw, ok := t.Meta.AdditionalFields["ui"]; ok {
		if b, err := json.Marshal(raw); err == nil {
			var parsed struct {
				ResourceURI any `json:"resourceUri"`
				Visibility  any `json:"visibility"`
			}
			if json.Unmarshal(b, &parsed) == nil {
				if s, ok := parsed.ResourceURI.(string); ok && isUIURI(s) {
					ui.ResourceURI = s
				}
				if list, ok := parsed.Visibility.([]any); ok {
					vis := []string{}
					for _, v := range list {
						if s, ok := v.(string); ok && (s == VisibleToModel || s == VisibleToApp) && !slices.Contains(vis, s) {
							vis = append(vis, s)
						}
					}
					// A list that names neither is not a visibility at all.
					if len(vis) > 0 {
						ui.Visibility = vis
					}
				}
			}
		}
	}
	if ui.ResourceURI == "" {
		if s, ok := t.Meta.AdditionalFields["ui/resourceUri"].(string); ok && isUIURI(s) {
			ui.ResourceURI = s
		}
	}
	return ui
}

func isUIURI(s string) bool { return len(s) > len("ui://") && s[:5] == "ui://" }

// ForModel reports whether the model may be offered the tool (the
// specification: the host MUST NOT list a tool for the agent when its
// visibility lacks "model").
func (u ToolUI) ForModel() bool {
	return u.Visibility == nil || slices.Contains(u.Visibility, VisibleToModel)
}

// ForApp reports whether a view of the tool's own server may call it.
func (u ToolUI) ForApp() bool {
	return u.Visibility == nil || slices.Contains(u.Visibility, VisibleToApp)
}
