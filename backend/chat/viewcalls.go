package chat

import (
	"context"

	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
)

// A view's tools/call in a conversation (issue 15) goes through the same
// approval policies as the model's calls: MCPPool.CallToolFromView asks
// ViewCallVerdict (mcppool.WithViewApprover).

// ViewCallVerdict says what the approval policies of conversation conv say
// of a view's call of tool on server: a "never" policy declines it; "this
// conversation", "always" and "this server" — while the tool and server are
// what they were given for — or the read-only default run it; anything
// else asks the user. A tool the engine cannot see asks.
func (e *Engine) ViewCallVerdict(ctx context.Context, conv int64, server, tool string) (store.Approval, mcppool.ViewVerdict) {
	o, ok := e.viewTool(server, tool)
	if !ok {
		return store.ApprovalUser, mcppool.ViewAsk
	}
	cs, err := e.Settings(ctx)
	if err != nil {
		e.logger.Warn("read chat settings for a view's call; using the defaults", "err", err)
	}
	approval, v, _ := e.decideFor(ctx, conv, ApproveAsk, o, cs)
	switch v {
	case verdictRun:
		return approval, mcppool.ViewRun
	case verdictDecline:
		return approval, mcppool.ViewDecline
	}
	return store.ApprovalUser, mcppool.ViewAsk
}

// AllowViewTool lets tool of server run without asking for the rest of
// conversation conv — the "this conversation" policy an approval card
// gives, pinned to the tool as it is now (SPEC G1). It is how a view's
// caller says "don't ask again" for a tool only views may call.
func (e *Engine) AllowViewTool(ctx context.Context, conv int64, server, tool string) error {
	o, ok := e.viewTool(server, tool)
	if !ok {
		return usererr.New(usererr.ViewNoSuchTool, usererr.Params{"server": server, "tool": tool})
	}
	if _, err := e.st.GetConversation(ctx, conv); err != nil {
		return err
	}
	return e.addPolicy(ctx, policyConversation, conv, ToolRef{Server: server, Tool: tool}, o)
}

// viewTool describes tool of server as the policies need it (its
// definition and its server's identity, for the pins of SPEC G1), whether
// or not it is offered to models.
func (e *Engine) viewTool(server, tool string) (*offeredTool, bool) {
	if e.tools == nil {
		return nil, false
	}
	for _, st := range e.tools.Servers() {
		if st.Config.ID != server {
			continue
		}
		tools, err := e.tools.Tools(server)
		if err != nil {
			return nil, false
		}
		for _, t := range tools {
			if t.Name == tool {
				facts := st.Config.Facts()
				return describeTool(server, t, facts, facts.Hash()), true
			}
		}
	}
	return nil, false
}
