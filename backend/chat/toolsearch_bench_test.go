package chat

import (
	"encoding/json"
	"testing"

	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool/mcptest"
)

// BenchmarkToolSearch150 measures what one model call is sent with 5
// servers and 150 tools — server-everything, -filesystem and -memory
// (real npm servers) and two test servers of generated tools — with every
// tool offered and with tool search: the tools part of the request in
// bytes and in tokens (estimated, a quarter of the bytes), and the whole
// request. Run: go test -tags sqlite_fts5 -run '^$' -bench ToolSearch150 -benchtime 1x ./backend/chat/
func BenchmarkToolSearch150(b *testing.B) {
	for _, mode := range []string{ToolSearchOff, ToolSearchOn} {
		b.Run(mode, func(b *testing.B) {
			en := newEnv(b, envConfig{servers: []mcpconfig.Server{
				{ID: "everything", Command: "node", Args: []string{mcptest.NPMServer(b, "server-everything"), "stdio"}},
				{ID: "filesystem", Command: "node", Args: []string{mcptest.NPMServer(b, "server-filesystem"), b.TempDir()}},
				{ID: "memory", Command: "node", Args: []string{mcptest.NPMServer(b, "server-memory")}, Env: map[string]string{"MEMORY_FILE_PATH": b.TempDir() + "/memory.json"}},
				testServer("gen1", "--tools", "40"),
				testServer("gen2", "--tools", "46"),
			}})
			if _, err := en.e.SaveSettings(en.ctx, ChatSettings{ToolSearch: mode}); err != nil {
				b.Fatal(err)
			}
			cost := en.e.ToolCost(nilSettings(), mode)
			var toolsBytes, total int
			for b.Loop() {
				en.llm.Script(llmtest.TextTurn("ok"))
				res, err := en.e.Send(en.ctx, SendRequest{ConversationID: en.newConv(nil).ID, Text: "What can you do?"})
				if err != nil {
					b.Fatal(err)
				}
				en.done(res.TurnID)
				reqs := en.llm.Requests()
				r := reqs[len(reqs)-1]
				tools, _ := json.Marshal(r.Body["tools"])
				toolsBytes, total = len(tools), len(r.Raw)
			}
			b.ReportMetric(float64(cost.Tools), "tools")
			b.ReportMetric(float64(toolsBytes), "tool-bytes/call")
			b.ReportMetric(float64(toolsBytes)/4, "tool-tokens/call")
			b.ReportMetric(float64(total), "request-bytes")
		})
	}
}
