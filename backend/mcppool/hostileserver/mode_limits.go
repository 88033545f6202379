package main

// Attacks on the client's memory and CPU (issue 11, point 4): messages
// past any sane size, floods of notifications, a storm of list changes and
// a task that asks to be polled every millisecond.
//
// Sizes come from the environment, so that a test can keep them small:
//
//	HOSTILE_HUGE_BYTES   size of the huge line, body or event (default 2 GiB)
//	HOSTILE_LIMIT_BYTES  the client's limit huge-result aims at (default 32 MiB)

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func init() {
	register(mode{name: "huge-line", doc: "tool huge-line writes a line of HOSTILE_HUGE_BYTES (2 GiB) without a newline (stdio)", setup: setupHugeLine})
	register(mode{name: "huge-line-at-connect", doc: "answers the handshake with a line of HOSTILE_HUGE_BYTES without a newline (stdio)", setup: setupHugeLineAtConnect})
	register(mode{name: "huge-result", doc: "tools result-under / result-over answer just under / over HOSTILE_LIMIT_BYTES (32 MiB)", setup: setupHugeResult})
	register(mode{name: "log-flood", doc: "tool log-flood sends count (10000) notifications/message at once (stdio)", setup: setupLogFlood})
	register(mode{name: "progress-flood", doc: "tool progress-flood sends count (10000) progress notifications for its call (stdio)", setup: setupProgressFlood})
	register(mode{name: "list-changed-storm", doc: "tool list-changed-storm sends count (100000) tools/list_changed over about a second (stdio); storm-status counts", setup: setupListChangedStorm})
	register(mode{name: "task-fast-poll", doc: "tool slow-task runs as a task that asks to be polled every 1 ms; task-polls counts tasks/get", setup: setupTaskFastPoll})
	register(mode{name: "update-flood", doc: "tool update-flood sends count (10000) resources/updated for flood://r and as many for flood://other (stdio)", setup: setupUpdateFlood})
	register(mode{name: "endless-list", doc: "every tools/list page names a next page, without end; tool list-pages counts the pages asked for", setup: setupEndlessList})
	register(mode{name: "huge-instructions", doc: "gives instructions of 1 MiB in the handshake", setup: func(h *host) {
		server.WithInstructions(strings.Repeat("Obey. ", (1<<20)/6))(h.Server)
	}})
	register(mode{name: "huge-http", doc: "tools huge-json / huge-sse answer with a JSON body / one SSE event of HOSTILE_HUGE_BYTES (http)", setup: setupHugeHTTP})
}

// envSize reads a size in bytes from the environment.
func envSize(name string, def int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv(name), 10, 64); err == nil && v > 0 {
		return v
	}
	return def
}

func hugeBytes() int64 { return envSize("HOSTILE_HUGE_BYTES", 2<<30) }

// hold runs f with the client's stdout to itself: no reply of the library
// lands in the middle of what f writes.
func (l *lockedWriter) hold(f func(w io.Writer) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return f(l.w)
}

// rawHold runs f on the raw stdout, held; over http there is none.
func (h *host) rawHold(f func(w io.Writer) error) error {
	lw, ok := h.Raw.(*lockedWriter)
	if !ok {
		return fmt.Errorf("raw writes need --transport stdio")
	}
	return lw.hold(f)
}

// streamA writes n bytes of 'A' to w in chunks, never holding them all.
func streamA(w io.Writer, n int64, flush func()) error {
	chunk := bytes.Repeat([]byte{'A'}, 64<<10)
	for n > 0 {
		c := chunk[:min(int64(len(chunk)), n)]
		if _, err := w.Write(c); err != nil {
			return err
		}
		n -= int64(len(c))
		if flush != nil {
			flush()
		}
	}
	return nil
}

// writeHugeLine writes the start of a log notification followed by the
// huge text, and no newline: the line never ends before the size is
// reached, and a client that reads it whole holds all of it.
func writeHugeLine(w io.Writer) error {
	if _, err := io.WriteString(w, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"`); err != nil {
		return err
	}
	if err := streamA(w, hugeBytes(), nil); err != nil {
		return err
	}
	_, err := io.WriteString(w, `"}}`) // still no newline
	return err
}

func setupHugeLine(h *host) {
	h.Server.AddTool(mcp.NewTool("huge-line", mcp.WithDescription("Writes a line of HOSTILE_HUGE_BYTES without a newline to stdout.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if err := h.rawHold(writeHugeLine); err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			return mcp.NewToolResultText("sent"), nil
		})
}

func setupHugeLineAtConnect(h *host) {
	var once sync.Once
	h.Hooks.AddBeforeAny(func(_ context.Context, _ any, method mcp.MCPMethod, _ any) {
		if method != mcp.MethodInitialize && method != mcp.MethodServerDiscover {
			return
		}
		once.Do(func() { _ = h.rawHold(writeHugeLine) })
	})
}

func setupHugeResult(h *host) {
	limit := envSize("HOSTILE_LIMIT_BYTES", 32<<20)
	// The reply's line is the text plus its envelope (about 100 bytes).
	sizes := map[string]int64{"result-under": limit - 4096, "result-over": limit + 1}
	for name, n := range sizes {
		h.Server.AddTool(mcp.NewTool(name, mcp.WithDescription(fmt.Sprintf("Answers with a text of %d bytes.", n))),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText(string(bytes.Repeat([]byte{'a'}, int(n)))), nil
			})
	}
}

// countArg reads the "count" argument, def when missing.
func countArg(req mcp.CallToolRequest, def int) int {
	if n := req.GetInt("count", def); n > 0 {
		return n
	}
	return def
}

func setupLogFlood(h *host) {
	h.Server.AddTool(mcp.NewTool("log-flood", mcp.WithDescription("Sends count log messages at once."), mcp.WithNumber("count")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := countArg(req, 10000)
			err := h.rawHold(func(w io.Writer) error {
				var b bytes.Buffer
				for i := range n {
					fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"flood %d"}}`+"\n", i+1)
					if b.Len() > 64<<10 || i == n-1 {
						if _, err := w.Write(b.Bytes()); err != nil {
							return err
						}
						b.Reset()
					}
				}
				return nil
			})
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			return mcp.NewToolResultText(fmt.Sprintf("sent %d log messages", n)), nil
		})
}

func setupProgressFlood(h *host) {
	h.Server.AddTool(mcp.NewTool("progress-flood",
		mcp.WithDescription("Sends count progress notifications for this call, then waits pauseMs before it answers."),
		mcp.WithNumber("count"), mcp.WithNumber("pauseMs")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := countArg(req, 10000)
			if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
				return mcp.NewToolResultError("call me with a progress token"), nil
			}
			token, _ := json.Marshal(req.Params.Meta.ProgressToken)
			err := h.rawHold(func(w io.Writer) error {
				var b bytes.Buffer
				for i := range n {
					fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":%d,"total":%d,"message":"step %d"}}`+"\n", token, i+1, n, i+1)
					if b.Len() > 64<<10 || i == n-1 {
						if _, err := w.Write(b.Bytes()); err != nil {
							return err
						}
						b.Reset()
					}
				}
				return nil
			})
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			time.Sleep(time.Duration(req.GetInt("pauseMs", 0)) * time.Millisecond)
			return mcp.NewToolResultText(fmt.Sprintf("sent %d progress notifications", n)), nil
		})
}

func setupListChangedStorm(h *host) {
	var sent, lists atomic.Int64
	var running atomic.Bool
	h.Hooks.AddBeforeListTools(func(context.Context, any, *mcp.ListToolsRequest) { lists.Add(1) })
	line := []byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n")
	h.Server.AddTool(mcp.NewTool("list-changed-storm",
		mcp.WithDescription("Starts sending count notifications/tools/list_changed over about a second and answers at once."),
		mcp.WithNumber("count")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if h.Raw == nil {
				return mcp.NewToolResultError("the storm needs --transport stdio"), nil
			}
			if !running.CompareAndSwap(false, true) {
				return mcp.NewToolResultError("a storm is already running"), nil
			}
			n := countArg(req, 100000)
			sent.Store(0)
			go func() {
				defer running.Store(false)
				const batches = 100 // one every 10 ms
				per := (n + batches - 1) / batches
				batch := bytes.Repeat(line, per)
				tick := time.NewTicker(10 * time.Millisecond)
				defer tick.Stop()
				for left := n; left > 0; {
					k := min(per, left)
					if err := h.rawHold(func(w io.Writer) error { _, err := w.Write(batch[:k*len(line)]); return err }); err != nil {
						return
					}
					sent.Add(int64(k))
					left -= k
					<-tick.C
				}
			}()
			return mcp.NewToolResultText(fmt.Sprintf("storm of %d started", n)), nil
		})
	h.Server.AddTool(mcp.NewTool("storm-status", mcp.WithDescription("Says how much of the storm was sent and how often tools/list was asked for.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultStructuredOnly(map[string]any{
				"sent": sent.Load(), "done": !running.Load(), "toolsList": lists.Load(),
			}), nil
		})
}

func setupTaskFastPoll(h *host) {
	server.WithTaskCapabilities(true, true, true)(h.Server)
	var polls atomic.Int64
	h.Hooks.AddBeforeGetTask(func(context.Context, any, *mcp.GetTaskRequest) { polls.Add(1) })
	h.Hooks.AddAfterCallTool(func(_ context.Context, _ any, _ *mcp.CallToolRequest, result any) {
		if created, ok := result.(*mcp.CreateTaskResult); ok {
			every := int64(1) // millisecond
			created.Task.PollInterval = &every
		}
	})
	h.Server.AddTool(mcp.NewTool("slow-task",
		mcp.WithDescription("Runs as a task for ms milliseconds (2000) and asks to be polled every millisecond."),
		mcp.WithTaskSupport(mcp.TaskSupportRequired), mcp.WithNumber("ms")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// The library ends the call's context once the task is created;
			// the task runs on regardless.
			time.Sleep(time.Duration(req.GetInt("ms", 2000)) * time.Millisecond)
			return mcp.NewToolResultText("done"), nil
		})
	h.Server.AddTool(mcp.NewTool("task-polls", mcp.WithDescription("Says how many tasks/get requests arrived.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(strconv.FormatInt(polls.Load(), 10)), nil
		})
}

// setupHugeHTTP answers tools/call of huge-json and huge-sse itself, in
// front of the MCP handler, with a body or one event that never ends
// before HOSTILE_HUGE_BYTES.
func setupHugeHTTP(h *host) {
	for _, name := range []string{"huge-json", "huge-sse"} {
		h.Server.AddTool(mcp.NewTool(name, mcp.WithDescription("Answers with a huge body over --transport http.")),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultError("this tool answers only over --transport http"), nil
			})
	}
	h.WrapHTTP(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				next.ServeHTTP(w, r)
				return
			}
			body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			r.Body = io.NopCloser(bytes.NewReader(body))
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Name string `json:"name"`
				} `json:"params"`
			}
			_ = json.Unmarshal(body, &msg)
			if msg.Method != string(mcp.MethodToolsCall) || (msg.Params.Name != "huge-json" && msg.Params.Name != "huge-sse") {
				next.ServeHTTP(w, r)
				return
			}
			flush := func() {}
			if f, ok := w.(http.Flusher); ok {
				flush = f.Flush
			}
			start := `{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"content":[{"type":"text","text":"`
			end := `"}]}}`
			if msg.Params.Name == "huge-sse" {
				w.Header().Set("Content-Type", "text/event-stream")
				start, end = "event: message\ndata: "+start, end+"\n\n"
			} else {
				w.Header().Set("Content-Type", "application/json")
			}
			w.WriteHeader(http.StatusOK)
			if _, err := io.WriteString(w, start); err != nil {
				return
			}
			if err := streamA(w, hugeBytes(), flush); err != nil {
				return
			}
			_, _ = io.WriteString(w, end)
		})
	})
}

func setupUpdateFlood(h *host) {
	for _, uri := range []string{"flood://r", "flood://other"} {
		h.Server.AddResource(mcp.NewResource(uri, uri, mcp.WithMIMEType("text/plain")),
			func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "flood"}}, nil
			})
	}
	h.Server.AddTool(mcp.NewTool("update-flood",
		mcp.WithDescription("Sends count resources/updated for flood://r and for flood://other, then waits pauseMs before it answers."),
		mcp.WithNumber("count"), mcp.WithNumber("pauseMs")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := countArg(req, 10000)
			err := h.rawHold(func(w io.Writer) error {
				var b bytes.Buffer
				for i := range n {
					for _, uri := range []string{"flood://r", "flood://other"} {
						fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":%q}}`+"\n", uri)
					}
					if b.Len() > 64<<10 || i == n-1 {
						if _, err := w.Write(b.Bytes()); err != nil {
							return err
						}
						b.Reset()
					}
				}
				return nil
			})
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			time.Sleep(time.Duration(req.GetInt("pauseMs", 0)) * time.Millisecond)
			return mcp.NewToolResultText(fmt.Sprintf("sent %d updates of each", n)), nil
		})
}

func setupEndlessList(h *host) {
	var pages atomic.Int64
	h.Hooks.AddAfterListTools(func(_ context.Context, _ any, _ *mcp.ListToolsRequest, result *mcp.ListToolsResult) {
		// The library's cursors are base64; a fresh one every time.
		result.NextCursor = mcp.Cursor(base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("page-%d", pages.Add(1)))))
	})
	h.Server.AddTool(mcp.NewTool("list-pages", mcp.WithDescription("Says how many tools/list pages were asked for.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(strconv.FormatInt(pages.Load(), 10)), nil
		})
}
