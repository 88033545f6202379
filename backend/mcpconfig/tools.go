package mcpconfig

import "slices"

// ToolEnabled reports whether the server's tool may be offered to a model
// (SPEC A6): it is on the allow list when there is one, and not on the
// deny list.
func (s Server) ToolEnabled(tool string) bool {
	if len(s.AllowTools) > 0 && !slices.Contains(s.AllowTools, tool) {
		return false
	}
	return !slices.Contains(s.DenyTools, tool)
}

// SetToolEnabled turns one tool on or off by editing the allow and deny
// lists as little as possible.
func (s *Server) SetToolEnabled(tool string, on bool) {
	// The lists may share storage with an older config: edit copies.
	s.AllowTools, s.DenyTools = slices.Clone(s.AllowTools), slices.Clone(s.DenyTools)
	if on {
		s.DenyTools = slices.DeleteFunc(s.DenyTools, func(t string) bool { return t == tool })
		if len(s.AllowTools) > 0 && !slices.Contains(s.AllowTools, tool) {
			s.AllowTools = append(s.AllowTools, tool)
		}
	} else if !slices.Contains(s.DenyTools, tool) {
		s.DenyTools = append(s.DenyTools, tool)
	}
	if len(s.DenyTools) == 0 {
		s.DenyTools = nil
	}
}
