// Package apps holds what MCP Desk knows of interactive UI from servers
// (issue 15, SPEC D9): the MCP Apps extension (io.modelcontextprotocol/ui,
// specification 2026-01-26) first, and OpenAI's Apps SDK (a tool's
// openai/outputTemplate names a text/html+skybridge resource driven
// through window.openai), which runs as an MCP Apps view with a
// window.openai made of MCP Apps messages (openai.js). This part reads a tool's UI metadata —
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
	// SkybridgeType is the type of an Apps SDK widget's HTML.
	SkybridgeType = "text/html+skybridge"
)

// The Apps SDK's tool metadata keys.
const (
	openAITemplate   = "openai/outputTemplate"
	openAIAccessible = "openai/widgetAccessible"
	openAIVisibility = "openai/visibility"
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
	// and the app (the specification's default), empty neither.
	Visibility []string `json:"visibility,omitempty"`
}

// UIOf reads t's _meta.ui, the deprecated flat _meta["ui/resourceUri"],
// and the Apps SDK's keys when there is no MCP Apps view: an
// openai/outputTemplate ui:// URI is the view; the model may call the
// tool unless openai/visibility is "private", a widget only when
// openai/widgetAccessible is true. MCP Apps' own keys win where both are
// given. Anything malformed reads as no UI and the default visibility: a
// server cannot hide a tool from the user by sending garbage.
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
	return withOpenAI(ui, t.Meta.AdditionalFields)
}

// withOpenAI fills what MCP Apps' keys left unsaid from the Apps SDK's.
func withOpenAI(ui ToolUI, meta map[string]any) ToolUI {
	tmpl, hasTemplate := meta[openAITemplate].(string)
	if ui.ResourceURI == "" && hasTemplate && isUIURI(tmpl) {
		ui.ResourceURI = tmpl
	}
	accessible, hasAccess := meta[openAIAccessible].(bool)
	vis, hasVis := meta[openAIVisibility].(string)
	if ui.Visibility != nil || !hasTemplate && !hasAccess && !hasVis {
		return ui
	}
	out := []string{}
	if !hasVis || vis != "private" {
		out = append(out, VisibleToModel)
	}
	if accessible {
		out = append(out, VisibleToApp)
	}
	ui.Visibility = out // empty (private, not for widgets): neither may call it
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
