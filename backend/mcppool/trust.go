package mcppool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/mcppool/naming"
	"mcpdesk/backend/trust"
)

// ListedTool is a tool as the Tools tab lists it: the server's definition,
// and apart from it what MCP Desk found in it (SPEC G1). It travels as the
// protocol's JSON of the tool with one more member, "mcpdesk", which a
// server cannot send: the tool's JSON holds only the members mcp-go knows.
type ListedTool struct {
	mcp.Tool
	// Trust is MCP Desk's reading of the definition.
	Trust ToolTrust `json:"-"`
}

// ToolTrust is MCP Desk's reading of a tool definition.
type ToolTrust struct {
	// Hash is the definition's hash (trust.Definition.Hash).
	Hash string `json:"hash"`
	// Warnings are what looks suspicious in it.
	Warnings []trust.Warning `json:"warnings"`
}

// MarshalJSON writes the tool's JSON with "mcpdesk" added.
func (t ListedTool) MarshalJSON() ([]byte, error) {
	tool, err := t.Tool.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encode tool %q: %w", t.Name, err)
	}
	ours, err := json.Marshal(t.Trust)
	if err != nil {
		return nil, err
	}
	tool = bytes.TrimRight(tool, " \n")
	if len(tool) < 2 || tool[len(tool)-1] != '}' {
		return nil, fmt.Errorf("encode tool %q: not an object", t.Name)
	}
	out := make([]byte, 0, len(tool)+len(ours)+12)
	out = append(out, tool[:len(tool)-1]...)
	if len(tool) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"mcpdesk":`...)
	out = append(out, ours...)
	return append(out, '}'), nil
}

// listedTools reads the tools of server: each one's hash, and the
// warnings of trust.Inspect, with the other connected servers' tools as
// the ones it must not mention.
func (p *Pool) listedTools(server string) ([]ListedTool, error) {
	tools, err := p.Tools(server)
	if err != nil {
		return nil, err
	}
	own := make([]string, 0, len(tools))
	for _, t := range tools {
		own = append(own, t.Name)
	}
	inspector := trust.NewInspector(p.otherToolNames(server), own)
	out := make([]ListedTool, 0, len(tools))
	for _, t := range tools {
		def := trust.DefinitionOf(t)
		w := inspector.Inspect(def)
		if w == nil {
			w = []trust.Warning{}
		}
		out = append(out, ListedTool{Tool: t, Trust: ToolTrust{Hash: def.Hash(), Warnings: w}})
	}
	return out, nil
}

// otherToolNames names the tools of every server but self.
func (p *Pool) otherToolNames(self string) []trust.ToolName {
	p.mu.Lock()
	conns := maps.Clone(p.conns)
	table := p.table
	p.mu.Unlock()
	var out []trust.ToolName
	for _, id := range slices.Sorted(maps.Keys(conns)) {
		if id == self {
			continue
		}
		c := conns[id]
		c.mu.Lock()
		tools := slices.Clone(c.tools)
		c.mu.Unlock()
		for _, t := range tools {
			n := trust.ToolName{Server: id, Tool: t.Name}
			if table != nil {
				n.Qualified, _ = table.Name(naming.Ref{Server: id, Tool: t.Name})
			}
			out = append(out, n)
		}
	}
	return out
}

// toolHash returns the definition hash of a server's tool as last listed,
// "" when the tool is not listed.
func (p *Pool) toolHash(server, tool string) string {
	tools, _ := p.Tools(server)
	for _, t := range tools {
		if t.Name == tool {
			return trust.DefinitionOf(t).Hash()
		}
	}
	return ""
}
