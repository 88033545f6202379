package mcpconfig

import (
	"slices"
	"testing"
)

func TestToolEnabled(t *testing.T) {
	s := Server{AllowTools: []string{"a", "b"}, DenyTools: []string{"b"}}
	for tool, want := range map[string]bool{"a": true, "b": false, "c": false} {
		if got := s.ToolEnabled(tool); got != want {
			t.Errorf("ToolEnabled(%q) = %v, want %v", tool, got, want)
		}
	}
	shared := s.DenyTools
	s.SetToolEnabled("b", true)
	s.SetToolEnabled("c", true)
	s.SetToolEnabled("a", false)
	if !s.ToolEnabled("b") || !s.ToolEnabled("c") || s.ToolEnabled("a") {
		t.Fatalf("after edits: %+v", s)
	}
	if !slices.Equal(shared, []string{"b"}) {
		t.Fatalf("an older config's list was edited in place: %v", shared)
	}
	var open Server
	open.SetToolEnabled("x", false)
	open.SetToolEnabled("x", true)
	if open.DenyTools != nil || open.AllowTools != nil {
		t.Fatalf("lists should be empty again: %+v", open)
	}
}
