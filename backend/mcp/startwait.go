package mcp

import (
	"context"
	"errors"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/shellenv"
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
func startProblem(err error, command string) *events.ServerProblem {
	var nf *shellenv.NotFoundError
	var de *DialError
	switch {
	case errors.As(err, &nf):
		return &events.ServerProblem{Code: problemProgramNotFound, Program: nf.Program}
	case errors.Is(err, shellenv.ErrNotExecutable):
		return &events.ServerProblem{Code: problemProgramNotExecutable, Program: command}
	case errors.As(err, &de) && de.Exited:
		return &events.ServerProblem{Code: problemExitedAtStart}
	}
	return nil
}

// The events.ServerProblem codes of a failed start.
const (
	problemProgramNotFound      = "programNotFound"
	problemProgramNotExecutable = "programNotExecutable"
	problemExitedAtStart        = "exitedAtStart"
)
