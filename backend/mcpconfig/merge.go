package mcpconfig

import (
	"encoding/json"
	"maps"
	"slices"
)

// Merge returns a copy of base with servers merged in: a server whose id is
// already in base replaces it in place (its id is listed in replaced), a
// new id is appended (listed in added). Ids are listed once each, in the
// order of servers; if servers repeats an id, the last one wins. base (nil
// means empty) and servers are not modified, and the result shares no
// maps or slices with them.
func Merge(base *Config, servers []Server) (merged *Config, added, replaced []string) {
	merged = &Config{}
	if base != nil {
		merged.Servers = make([]Server, 0, len(base.Servers)+len(servers))
		for _, s := range base.Servers {
			merged.Servers = append(merged.Servers, s.clone())
		}
		merged.Extra = cloneExtra(base.Extra)
	}
	index := make(map[string]int, len(merged.Servers))
	for i, s := range merged.Servers {
		if _, dup := index[s.ID]; !dup {
			index[s.ID] = i
		}
	}
	for _, s := range servers {
		if i, ok := index[s.ID]; ok {
			merged.Servers[i] = s.clone()
			if !slices.Contains(added, s.ID) && !slices.Contains(replaced, s.ID) {
				replaced = append(replaced, s.ID)
			}
			continue
		}
		index[s.ID] = len(merged.Servers)
		merged.Servers = append(merged.Servers, s.clone())
		added = append(added, s.ID)
	}
	return merged, added, replaced
}

// clone returns a deep copy of s.
func (s Server) clone() Server {
	c := s
	c.Args = slices.Clone(s.Args)
	c.Env = maps.Clone(s.Env)
	c.Headers = maps.Clone(s.Headers)
	c.OAuth = maps.Clone(s.OAuth)
	c.AllowTools = slices.Clone(s.AllowTools)
	c.DenyTools = slices.Clone(s.DenyTools)
	c.Roots = slices.Clone(s.Roots)
	if s.Enabled != nil {
		e := *s.Enabled
		c.Enabled = &e
	}
	c.Extra = cloneExtra(s.Extra)
	return c
}

// cloneExtra returns a deep copy of an Extra map.
func cloneExtra(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	c := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		c[k] = slices.Clone(v)
	}
	return c
}
