package mcp

import "mcpdesk/backend/mcp/mcptest"

func processAlive(pid int) bool { return mcptest.ProcessAlive(pid) }
