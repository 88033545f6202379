package mcppool

import "mcpdesk/backend/mcppool/mcptest"

func processAlive(pid int) bool { return mcptest.ProcessAlive(pid) }
