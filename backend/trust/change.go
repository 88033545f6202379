package trust

import (
	"maps"
	"slices"

	"mcpdesk/backend/mcpconfig"
)

// Change says how a tool differs from what a standing approval was given
// for; the approval is suspended until the user approves again.
type Change struct {
	// Policy is the suspended standing approval: "always",
	// "conversation" or "server".
	Policy string `json:"policy" ts_type:"'always' | 'conversation' | 'server'"`
	// Server is set when the server's identity changed: it runs another
	// command or connects elsewhere.
	Server *ServerChange `json:"server,omitempty"`
	// Tool is set when the tool's definition changed.
	Tool *ToolChange `json:"tool,omitempty"`
	// New is true when the tool was not there when its server was
	// auto-approved.
	New bool `json:"new,omitempty"`
}

// ServerChange is a server's identity then and now (secrets masked).
type ServerChange struct {
	Before mcpconfig.IdentityFacts `json:"before"`
	After  mcpconfig.IdentityFacts `json:"after"`
	// What lists the facts that differ: "transport", "command", "args",
	// "env", "loadEnv", "cwd", "url".
	What []string `json:"what"`
	// EnvAdded and EnvRemoved are the env variable names set now and not
	// then, and the reverse; LoadEnvChanged the code-loading variables
	// whose value changed.
	EnvAdded       []string `json:"envAdded,omitempty"`
	EnvRemoved     []string `json:"envRemoved,omitempty"`
	LoadEnvChanged []string `json:"loadEnvChanged,omitempty"`
}

// ToolChange is how a tool's definition changed.
type ToolChange struct {
	HashBefore string `json:"hashBefore"`
	HashAfter  string `json:"hashAfter"`
	// Known is false when the approved definition was not kept: only the
	// hashes are known to differ.
	Known bool `json:"known"`
	// Title and Description are word diffs, set when the text changed.
	Title       []Span `json:"title,omitempty"`
	Description []Span `json:"description,omitempty"`
	// InputSchema and Annotations list what changed in them.
	InputSchema []SchemaChange `json:"inputSchema,omitempty"`
	Annotations []SchemaChange `json:"annotations,omitempty"`
}

// CompareTools describes how after differs from before.
func CompareTools(before, after Definition) *ToolChange {
	c := &ToolChange{HashBefore: before.Hash(), HashAfter: after.Hash(), Known: true}
	if before.Title != after.Title {
		c.Title = DiffText(before.Title, after.Title)
	}
	if before.Description != after.Description {
		c.Description = DiffText(before.Description, after.Description)
	}
	c.InputSchema = DiffJSON(before.InputSchema, after.InputSchema)
	c.Annotations = DiffJSON(before.Annotations, after.Annotations)
	return c
}

// CompareServers describes how a server's identity changed; nil when the
// facts hash the same.
func CompareServers(before, after mcpconfig.IdentityFacts) *ServerChange {
	if before.Hash() == after.Hash() {
		return nil
	}
	c := &ServerChange{Before: before, After: after}
	if before.Transport != after.Transport {
		c.What = append(c.What, "transport")
	}
	if before.Program != after.Program {
		c.What = append(c.What, "command")
	}
	if !slices.Equal(before.Args, after.Args) {
		c.What = append(c.What, "args")
	}
	for _, k := range after.Env {
		if !slices.Contains(before.Env, k) {
			c.EnvAdded = append(c.EnvAdded, k)
		}
	}
	for _, k := range before.Env {
		if !slices.Contains(after.Env, k) {
			c.EnvRemoved = append(c.EnvRemoved, k)
		}
	}
	if len(c.EnvAdded)+len(c.EnvRemoved) > 0 {
		c.What = append(c.What, "env")
	}
	for _, k := range slices.Sorted(maps.Keys(after.LoadEnv)) {
		if v, ok := before.LoadEnv[k]; ok && v != after.LoadEnv[k] {
			c.LoadEnvChanged = append(c.LoadEnvChanged, k)
		}
	}
	if len(c.LoadEnvChanged) > 0 {
		c.What = append(c.What, "loadEnv")
	}
	if before.Cwd != after.Cwd {
		c.What = append(c.What, "cwd")
	}
	if before.URL != after.URL {
		c.What = append(c.What, "url")
	}
	return c
}
