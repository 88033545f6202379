package mcppool

import "maps"

// FillDefaults returns content with the schema's default values added for
// the top-level properties content leaves out. Elicitation schemas are flat
// objects of primitives (MCP 2025-11-25 §elicitation), so one level is all
// there is. content is not modified.
func FillDefaults(schema any, content map[string]any) map[string]any {
	out := maps.Clone(content)
	if out == nil {
		out = map[string]any{}
	}
	s, _ := schema.(map[string]any)
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		prop, _ := p.(map[string]any)
		if def, ok := prop["default"]; ok {
			if _, set := out[name]; !set {
				out[name] = def
			}
		}
	}
	return out
}
