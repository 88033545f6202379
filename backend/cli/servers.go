package cli

import (
	"context"
	"fmt"
	"time"

	"mcpdesk/backend/core"
	"mcpdesk/backend/events"
	"mcpdesk/backend/mcppool"
)

// serverReport is one line of `mcpdesk servers`.
type serverReport struct {
	ID              string `json:"id"`
	Enabled         bool   `json:"enabled"`
	State           string `json:"state"`
	Transport       string `json:"transport"`
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	ServerName      string `json:"serverName,omitempty"`
	ServerVersion   string `json:"serverVersion,omitempty"`
	Tools           int    `json:"tools"`
	Resources       int    `json:"resources"`
	Prompts         int    `json:"prompts"`
	Error           string `json:"error,omitempty"`
	Stderr          string `json:"stderr,omitempty"`
}

func runServers(ctx context.Context, g globals, args []string, env Env) int {
	var configFile string
	var timeout time.Duration
	fs := newFlags("servers", &g, env)
	fs.StringVar(&configFile, "config", "", "config file (default: mcp.config.json in the data folder)")
	fs.DurationVar(&timeout, "timeout", 30*time.Second, "time limit for every server to connect")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		return usageError(env, "servers takes no arguments, got %q", fs.Args())
	}
	// Built like the window's: servers without a timeout of their own use
	// the one set in Settings.
	c, err := openCore(g, core.Options{ConfigFile: configFile, Env: env.Servers, ClientInfo: clientInfo(env)})
	if err != nil {
		return fail(env, err)
	}
	defer c.Close()
	pool := c.Pool
	if err := pool.Start(ctx); err != nil {
		return fail(env, err)
	}

	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	states := waitSettled(ctx, pool)

	reports := make([]serverReport, 0, len(states))
	failed := 0
	for _, st := range states {
		s := st.Status
		r := serverReport{
			ID: st.Config.ID, Enabled: st.Config.Enabled == nil || *st.Config.Enabled,
			State: string(s.State), Transport: s.Transport, ProtocolVersion: s.ProtocolVersion,
			ServerName: s.ServerName, ServerVersion: s.ServerVersion,
			Tools: s.Tools, Resources: s.Resources, Prompts: s.Prompts, Error: s.Error, Stderr: s.Stderr,
		}
		if r.Enabled && s.State != events.StateConnected {
			failed++
			if r.Error == "" {
				r.Error = fmt.Sprintf("still %s after %s", s.State, timeout)
			}
			fmt.Fprintf(env.Stderr, "mcpdesk: server %q: %s\n", r.ID, r.Error)
		}
		reports = append(reports, r)
	}
	if err := printJSON(env, reports); err != nil {
		return fail(env, err)
	}
	if failed > 0 {
		return exitFail
	}
	return exitOK
}

// waitSettled polls until no enabled server is still connecting or
// restarting, or ctx ends.
func waitSettled(ctx context.Context, pool *mcppool.Pool) []mcppool.ServerState {
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		states := pool.Servers()
		settled := true
		for _, st := range states {
			switch st.Status.State {
			case events.StateConnecting, events.StateRestarting:
				settled = false
			case events.StateDisabled:
				// An enabled server reports disabled only before its
				// supervisor's first update.
				if st.Config.Enabled == nil || *st.Config.Enabled {
					settled = false
				}
			}
		}
		if settled {
			return states
		}
		select {
		case <-ctx.Done():
			return states
		case <-tick.C:
		}
	}
}
