package mcppool

import (
	"context"
	"errors"
	"os/exec"
	"syscall"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/shellenv"
	"mcpdesk/backend/usererr"
)

// startWait bounds how long adding, editing or enabling a server waits for
// its first start attempt: long enough for a local program to come up,
// short enough that a slow download (npx) answers "still starting".
const startWait = 20 * time.Second

// awaitStart waits until the first start attempt of server id has an
// outcome — connected, failed, restarting or disabled — or until ctx ends,
// and returns the server's status then. A server still connecting when
// ctx ends is reported as such; that is not an error.
func (p *Pool) awaitStart(ctx context.Context, id string) (events.ServerStatusPayload, error) {
	c := p.conn(id)
	if c == nil {
		return events.ServerStatusPayload{}, unknownServer(id)
	}
	select {
	case <-c.settled:
	case <-ctx.Done():
	}
	return c.snapshot(), nil
}

// startOutcome returns the status of server id after its first start
// attempt, waiting at most startWait.
func (s *MCPPool) startOutcome(id string) events.ServerStatusPayload {
	ctx, cancel := context.WithTimeout(s.pool.context(), startWait)
	defer cancel()
	st, _ := s.pool.awaitStart(ctx, id)
	return st
}

// startProblem names a failed start the UI can word in the user's
// language; nil when it has no words of its own for err. command is the
// server's program as configured.
func startProblem(err error, cfg mcpconfig.Server, redact *Redactor) *events.ServerProblem {
	var nf *shellenv.NotFoundError
	var de *DialError
	var exit *exec.ExitError
	coded := func(code usererr.Code, params usererr.Params) *events.ServerProblem {
		return &events.ServerProblem{Code: string(code), Params: usererr.JSONParams(params)}
	}
	switch {
	case errors.As(err, &nf):
		return &events.ServerProblem{Code: problemProgramNotFound, Program: nf.Program}
	case errors.Is(err, shellenv.ErrNotExecutable):
		return &events.ServerProblem{Code: problemProgramNotExecutable, Program: cfg.Command}
	case errors.As(err, &de) && de.Exited:
		if errors.As(err, &exit) && exit.ExitCode() >= 0 {
			return coded(usererr.ServerExitedWithStatus, usererr.Params{"status": exit.ExitCode()})
		}
		return &events.ServerProblem{Code: problemExitedAtStart}
	case errors.Is(err, syscall.ECONNREFUSED):
		return coded(usererr.ServerConnectionRefused, usererr.Params{"url": redact.Redact(cfg.URL)})
	case errors.Is(err, context.DeadlineExceeded):
		return coded(usererr.ServerStartTimeout, usererr.Params{"timeout": handshakeTimeout})
	}
	if c, ok := usererr.Find(err); ok {
		if code, params := c.UserError(); code != "" {
			return coded(code, params)
		}
	}
	return nil
}

// The events.ServerProblem codes of a failed start.
const (
	problemProgramNotFound      = "programNotFound"
	problemProgramNotExecutable = "programNotExecutable"
	problemExitedAtStart        = "exitedAtStart"
)
