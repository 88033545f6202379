package mcppool

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool/naming"
)

// fakeSampler answers every sampling request with fixed text.
type fakeSampler struct {
	mu     sync.Mutex
	server string
	req    mcp.CreateMessageParams
}

func (f *fakeSampler) CreateMessage(_ context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	f.mu.Lock()
	f.server, f.req = server, req.CreateMessageParams
	f.mu.Unlock()
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("sampled text")},
		Model:           "fake-model", StopReason: "endTurn",
	}, nil
}

// waitTool waits until the naming table lists server's tool.
func waitTool(t *testing.T, p *Pool, server, tool string) {
	t.Helper()
	waitFor(t, 30*time.Second, server+"/"+tool+" listed", func() bool {
		_, ok := p.ToolTable().Name(naming.Ref{Server: server, Tool: tool})
		return ok
	})
}

// A pool with a Sampler declares the sampling capability, and a server's
// sampling/createMessage reaches the Sampler, named by server id.
// server-everything registers trigger-sampling-request only for clients
// that can sample.
func TestSamplingCapability(t *testing.T) {
	entry := npmServer(t, "server-everything")
	srv := mcpconfig.Server{ID: "everything", Command: "node", Args: []string{entry, "stdio"}}

	s := &fakeSampler{}
	p, _ := newTestPool(t)
	p.SetSampler(s)
	if err := p.SaveServer("", srv); err != nil {
		t.Fatal(err)
	}
	waitState(t, p, "everything", events.StateConnected, 30*time.Second)
	waitTool(t, p, "everything", "trigger-sampling-request")
	res, err := p.CallTool(context.Background(), "everything", "trigger-sampling-request", map[string]any{"prompt": "hello", "maxTokens": 20})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.Contains(resultText(res), "sampled text") {
		t.Fatalf("result %q (isError %v)", resultText(res), res.IsError)
	}
	s.mu.Lock()
	if s.server != "everything" || s.req.MaxTokens != 20 || len(s.req.Messages) != 1 {
		t.Errorf("sampler got server %q params %+v", s.server, s.req)
	}
	s.mu.Unlock()

	// Without a Sampler the capability is not declared: the server's other
	// conditional tools appear, the sampling one does not.
	plain, _ := newTestPool(t, srv)
	waitState(t, plain, "everything", events.StateConnected, 30*time.Second)
	waitTool(t, plain, "everything", "get-roots-list")
	if _, ok := plain.ToolTable().Name(naming.Ref{Server: "everything", Tool: "trigger-sampling-request"}); ok {
		t.Error("sampling declared without a Sampler")
	}
}
