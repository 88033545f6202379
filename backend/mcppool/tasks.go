package mcppool

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/events"
)

// Task-augmented tool calls (2025-11-25, SEP-1686). A tool whose
// execution.taskSupport is "required" must be called as a task: tools/call
// with a "task" parameter answers at once with the task, and the result is
// fetched later. The pool hides this: such a call looks like any other to
// its caller. Meanwhile the task's status messages are published as progress
// of the call, and stopping the call cancels the task.
//
// tasks/result is requested as soon as the task exists: it waits for the
// end, and a server delivers its questions for the task (elicitation with a
// related task) while that request is open. tasks/get runs beside it for the
// status messages.

// taskTTL is how long a server keeps a task the user's call created.
const taskTTL = 10 * time.Minute

// taskPoll is the status poll interval when the server suggests none;
// taskPollFloor is the shortest the pool polls at, whatever the server
// suggests (a server asking for 1 ms would have the app poll in a loop).
const (
	taskPoll      = 500 * time.Millisecond
	taskPollFloor = 250 * time.Millisecond
)

// taskPollInterval is how often to poll a task whose server suggested
// interval milliseconds (nil: no suggestion).
func taskPollInterval(interval *int64) time.Duration {
	if interval == nil || *interval <= 0 {
		return taskPoll
	}
	if *interval >= int64(time.Hour/time.Millisecond) {
		return time.Hour
	}
	return max(time.Duration(*interval)*time.Millisecond, taskPollFloor)
}

// taskSeq numbers the requests the pool sends itself, apart from mcp-go's.
var taskSeq atomic.Int64

// taskRequired reports whether tool of this server must run as a task.
func (c *conn) taskRequired(tool string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.tools {
		if t.Name == tool {
			return t.Execution != nil && t.Execution.TaskSupport == mcp.TaskSupportRequired
		}
	}
	return false
}

// callAsTask runs req as a task on sess and returns its final result.
// status hears each new status message.
func callAsTask(ctx context.Context, sess *Session, req mcp.CallToolRequest, status func(string)) (*mcp.CallToolResult, error) {
	ttl := taskTTL.Milliseconds()
	params := req.Params
	task := mcp.NewTaskParams(&ttl)
	params.Task = &task
	id := mcp.NewRequestId(fmt.Sprintf("mcpdesk-task-%d", taskSeq.Add(1)))
	resp, err := sess.Client.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION, ID: id, Method: string(mcp.MethodToolsCall), Params: params,
	})
	if err != nil {
		return nil, err
	}
	if resp.Error != nil {
		return nil, resp.Error.AsError()
	}
	var created mcp.CreateTaskResult
	if err := json.Unmarshal(resp.Result, &created); err != nil || created.Task.TaskId == "" {
		// A server may answer a task request directly.
		return mcp.ParseCallToolResult(&resp.Result)
	}
	taskID := created.Task.TaskId
	if created.Task.StatusMessage != "" {
		status(created.Task.StatusMessage)
	}

	// Follow the status until the result is in.
	pollCtx, stopPoll := context.WithCancel(ctx)
	defer stopPoll()
	go pollTask(pollCtx, sess, taskID, created.Task.PollInterval, status)

	result, err := sess.Client.TaskResult(ctx, mcp.TaskResultRequest{Params: mcp.TaskResultParams{TaskId: taskID}})
	if err != nil {
		if ctx.Err() != nil {
			// The user stopped the call: the task stops too.
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			_, _ = sess.Client.CancelTask(cctx, mcp.CancelTaskRequest{Params: mcp.CancelTaskParams{TaskId: taskID}})
			cancel()
		}
		return nil, err
	}
	raw, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	msg := json.RawMessage(raw)
	return mcp.ParseCallToolResult(&msg)
}

// pollTask reports every new status message of a task until it ends.
func pollTask(ctx context.Context, sess *Session, taskID string, interval *int64, status func(string)) {
	every := taskPollInterval(interval)
	last := ""
	for {
		t, err := sess.Client.GetTask(ctx, mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: taskID}})
		if err != nil {
			return
		}
		if t.StatusMessage != "" && t.StatusMessage != last {
			last = t.StatusMessage
			status(last)
		}
		if t.Status.IsTerminal() {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

// status publishes a task's status message as progress of the call id, and
// keeps its timeout from firing, as a progress notification would.
func (cs *calls) status(id string, n int, message string) {
	cs.publish(events.ProgressPayload{CallID: id, Progress: float64(n), Message: message})
}
