package mcppool

import (
	"slices"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
)

// ServerDetail is everything the detail view of one server shows: its
// status, what it declared in its handshake, its instructions, the tail of
// its standard error and its recent starts. Text from the server is as the
// server sent it (bounded, secrets redacted); the UI sanitises it.
type ServerDetail struct {
	Spec   ServerSpec                 `json:"spec"`
	Status events.ServerStatusPayload `json:"status"`
	// Capabilities is nil while the server is not connected.
	Capabilities *ServerCapabilities `json:"capabilities"`
	// Instructions are the instructions of its initialize result.
	Instructions string `json:"instructions"`
	// Stderr is the tail of a stdio server's standard error.
	Stderr string `json:"stderr"`
	// Starts are its recent starts, newest first.
	Starts []StartRecord `json:"starts"`
}

// ServerCapabilities is what a server declared it offers.
type ServerCapabilities struct {
	Tools                bool `json:"tools"`
	ToolsListChanged     bool `json:"toolsListChanged"`
	Resources            bool `json:"resources"`
	ResourcesSubscribe   bool `json:"resourcesSubscribe"`
	ResourcesListChanged bool `json:"resourcesListChanged"`
	Prompts              bool `json:"prompts"`
	PromptsListChanged   bool `json:"promptsListChanged"`
	Logging              bool `json:"logging"`
	Completions          bool `json:"completions"`
	Tasks                bool `json:"tasks"`
	// Experimental names its experimental and extension capabilities,
	// sorted; at most maxCapabilityNames, each clipped.
	Experimental []string `json:"experimental"`
}

// Bounds on the capability names a server declares.
const (
	maxCapabilityNames = 32
	maxCapabilityName  = 128
)

func capabilitiesOf(c mcp.ServerCapabilities) *ServerCapabilities {
	out := &ServerCapabilities{
		Tools:       c.Tools != nil,
		Resources:   c.Resources != nil,
		Prompts:     c.Prompts != nil,
		Logging:     c.Logging != nil,
		Completions: c.Completions != nil,
		Tasks:       c.Tasks != nil,
	}
	if c.Tools != nil {
		out.ToolsListChanged = c.Tools.ListChanged
	}
	if c.Resources != nil {
		out.ResourcesSubscribe, out.ResourcesListChanged = c.Resources.Subscribe, c.Resources.ListChanged
	}
	if c.Prompts != nil {
		out.PromptsListChanged = c.Prompts.ListChanged
	}
	names := []string{}
	for k := range c.Experimental {
		names = append(names, clipText(k, maxCapabilityName))
	}
	for k := range c.Extensions {
		names = append(names, clipText(k, maxCapabilityName))
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) > maxCapabilityNames {
		names = names[:maxCapabilityNames]
	}
	out.Experimental = names
	return out
}

// ServerDetail returns the detail of server id.
func (s *MCPPool) ServerDetail(id string) (ServerDetail, error) {
	c := s.pool.conn(id)
	if c == nil {
		return ServerDetail{}, unknownServer(id)
	}
	stored, err := s.pool.Server(id)
	if err != nil {
		return ServerDetail{}, err
	}
	d := ServerDetail{Spec: specFromConfig(stored), Status: c.snapshot(), Starts: s.pool.history.get(id)}
	c.mu.Lock()
	sess := c.sess
	c.mu.Unlock()
	switch {
	case sess != nil:
		d.Capabilities = capabilitiesOf(sess.Capabilities)
		d.Instructions = sess.Instructions
		d.Stderr = sess.Stderr()
	default:
		d.Stderr = d.Status.Stderr
	}
	return d, nil
}
