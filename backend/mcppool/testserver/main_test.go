package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// runAsServer makes the test binary act as the test server in a child
// process (the fork/exec trick): the child runs the real run function.
const runAsServer = "MCPDESK_TESTSERVER_RUN_AS_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(runAsServer) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// serverCmd returns a command that runs the test server with args.
func serverCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runAsServer+"=1", "MCPDESK_TESTSERVER_SECRET=s3cret")
	return cmd
}

// child is a running test server and how it ended.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *syncBuffer
	done   chan struct{}
	err    error
}

func startChild(t *testing.T, args ...string) *child {
	t.Helper()
	c := &child{cmd: serverCmd(args...), stderr: &syncBuffer{}, done: make(chan struct{})}
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if c.stdout, err = c.cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	c.cmd.Stderr = c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.err = c.cmd.Wait(); close(c.done) }()
	t.Cleanup(func() {
		_ = c.cmd.Process.Kill()
		<-c.done
	})
	return c
}

// wait returns the exit status, failing the test after d.
func (c *child) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-c.done:
		return c.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		t.Fatalf("server still running after %s (stderr %q)", d, c.stderr.String())
		return -1
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// versions are the two ways a client meets the server: negotiated (mcp-go
// prefers 2026-07-28) and pinned to the legacy 2025-11-25.
var versions = []struct {
	name string
	opts []client.ClientOption
	want string
}{
	{"negotiated", nil, mcp.LATEST_PROTOCOL_VERSION},
	{"pinned-legacy", []client.ClientOption{client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION)}, mcp.LATEST_LEGACY_PROTOCOL_VERSION},
}

func initialize(t *testing.T, c *client.Client, wantVersion string) *mcp.InitializeResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "testserver-test", Version: "1"},
	}})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if got := c.ProtocolVersion(); got != wantVersion {
		t.Errorf("protocol version %q, want %q", got, wantVersion)
	}
	return res
}

func callText(t *testing.T, c *client.Client, tool string, args map[string]any) (string, *mcp.CallToolResult) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: tool, Arguments: args}})
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	var b strings.Builder
	for _, content := range res.Content {
		if tc, ok := mcp.AsTextContent(content); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res
}

func TestStdio(t *testing.T) {
	for _, v := range versions {
		t.Run(v.name, func(t *testing.T) {
			ch := startChild(t, "--instructions", "be nice", "--name", "ours", "--tools", "3")
			c := client.NewClient(transport.NewIO(ch.stdout, ch.stdin, nil), v.opts...)
			if err := c.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			progress := countProgress(c)
			init := initialize(t, c, v.want)
			if init.Instructions != "be nice" || init.ServerInfo.Name != "ours" {
				t.Errorf("initialize result: instructions %q, name %q", init.Instructions, init.ServerInfo.Name)
			}
			caps := init.Capabilities
			if caps.Tools == nil || caps.Resources == nil || caps.Prompts == nil || caps.Logging == nil {
				t.Errorf("capabilities missing: %+v", caps)
			}
			checkTools(t, c)
			checkResourcesAndPrompts(t, c)

			if got := sleepWithProgress(t, c); got != "slept 350 ms" {
				t.Errorf("sleep returned %q", got)
			}
			if n := progress(); n < 2 {
				t.Errorf("got %d progress notifications for a 350 ms sleep, want at least 2", n)
			}

			// crash ends the process mid-call.
			cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer ccancel()
			if _, err := c.CallTool(cctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "crash"}}); err == nil {
				t.Error("crash returned a result")
			}
			if code := ch.wait(t, 5*time.Second); code != 1 {
				t.Errorf("crash: exit status %d, want 1", code)
			}
		})
	}
}

// countProgress counts the progress notifications c receives.
func countProgress(c *client.Client) func() int {
	var mu sync.Mutex
	n := 0
	c.OnNotification(func(note mcp.JSONRPCNotification) {
		if note.Method == string(mcp.MethodNotificationProgress) && note.Params.AdditionalFields["progressToken"] == "tok" {
			mu.Lock()
			n++
			mu.Unlock()
		}
	})
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

// sleepWithProgress calls sleep for 350 ms with progress token "tok".
func sleepWithProgress(t *testing.T, c *client.Client) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{
		Name: "sleep", Arguments: map[string]any{"ms": 350},
		Meta: &mcp.Meta{ProgressToken: "tok"},
	}})
	if err != nil {
		t.Fatalf("sleep: %v", err)
	}
	if len(res.Content) == 0 {
		return ""
	}
	tc, _ := mcp.AsTextContent(res.Content[0])
	return tc.Text
}

// checkTools exercises the tools every test relies on.
func checkTools(t *testing.T, c *client.Client) {
	t.Helper()
	ctx := context.Background()
	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]mcp.Tool{}
	for _, tool := range list.Tools {
		have[tool.Name] = tool
	}
	for _, name := range []string{"echo", "add", "sleep", "crash", "env", "fail", "structured", "big", "log", "add_tool", "update_resource", "tool_0001", "tool_0003"} {
		if _, ok := have[name]; !ok {
			t.Errorf("tool %q missing", name)
		}
	}
	if len(have["structured"].RawOutputSchema) == 0 && have["structured"].OutputSchema.Type == "" {
		t.Error("structured has no outputSchema")
	}

	cases := []struct {
		tool    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"echo", map[string]any{"message": "hi"}, "Echo: hi", false},
		{"add", map[string]any{"a": 2, "b": 40}, "42", false},
		{"add", map[string]any{"a": 0.5, "b": 0.25}, "0.75", false},
		{"env", map[string]any{"name": "MCPDESK_TESTSERVER_SECRET"}, "s3cret", false},
		{"env", map[string]any{"name": "MCPDESK_SURELY_UNSET"}, "environment variable MCPDESK_SURELY_UNSET is not set", true},
		{"fail", nil, "this tool always fails", true},
		{"tool_0002", map[string]any{"input": "x"}, "tool_0002: x", false},
		{"sleep", map[string]any{"ms": 1}, "slept 1 ms", false},
	}
	for _, tc := range cases {
		got, res := callText(t, c, tc.tool, tc.args)
		if got != tc.want || res.IsError != tc.isError {
			t.Errorf("%s(%v) = %q (isError %v), want %q (isError %v)", tc.tool, tc.args, got, res.IsError, tc.want, tc.isError)
		}
	}
	if got, _ := callText(t, c, "big", map[string]any{"bytes": 100000}); len(got) != 100000 {
		t.Errorf("big returned %d bytes", len(got))
	}
	_, res := callText(t, c, "structured", nil)
	if sc, ok := res.StructuredContent.(map[string]any); !ok || sc["sum"] != float64(3) {
		t.Errorf("structuredContent = %#v", res.StructuredContent)
	}
}

func checkResourcesAndPrompts(t *testing.T, c *client.Client) {
	t.Helper()
	ctx := context.Background()
	resources, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil || len(resources.Resources) != 2 {
		t.Fatalf("resources/list: %+v, %v", resources, err)
	}
	templates, err := c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil || len(templates.ResourceTemplates) != 1 {
		t.Fatalf("resources/templates/list: %+v, %v", templates, err)
	}
	for uri, want := range map[string]string{"test://hello": "Hello, MCP Desk", "test://items/7": "Item 7", "test://data.json": `"items"`} {
		res, err := c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		if tc, ok := res.Contents[0].(mcp.TextResourceContents); !ok || !strings.Contains(tc.Text, want) {
			t.Errorf("read %s: %#v", uri, res.Contents)
		}
	}
	prompt, err := c.GetPrompt(ctx, mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: "greet", Arguments: map[string]string{"name": "Ada"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(prompt.Messages) != 1 || prompt.Messages[0].Role != mcp.RoleUser ||
		prompt.Messages[0].Content.(mcp.TextContent).Text != "Please greet Ada warmly." {
		t.Errorf("greet: %+v", prompt.Messages)
	}
}

var listening = regexp.MustCompile(`^LISTENING (http://127\.0\.0\.1:\d+/(mcp|sse))\n$`)

// startRemote starts the server over http or sse and returns its URL.
func startRemote(t *testing.T, kind string) (*child, string) {
	t.Helper()
	ch := startChild(t, "--transport", kind, "--addr", "127.0.0.1:0")
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(ch.stdout).ReadString('\n')
		lines <- line
	}()
	select {
	case line := <-lines:
		m := listening.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("first line %q does not announce the endpoint (stderr %q)", line, ch.stderr.String())
		}
		if want := map[string]string{"http": "mcp", "sse": "sse"}[kind]; m[2] != want {
			t.Fatalf("%s endpoint %q", kind, m[1])
		}
		return ch, m[1]
	case <-time.After(10 * time.Second):
		t.Fatalf("no LISTENING line (stderr %q)", ch.stderr.String())
		return nil, ""
	}
}

func TestRemote(t *testing.T) {
	for _, kind := range []string{"http", "sse"} {
		t.Run(kind, func(t *testing.T) {
			ch, url := startRemote(t, kind)
			for _, v := range versions {
				t.Run(v.name, func(t *testing.T) {
					var tr transport.Interface
					var err error
					if kind == "http" {
						tr, err = transport.NewStreamableHTTP(url)
					} else {
						tr, err = transport.NewSSE(url)
					}
					if err != nil {
						t.Fatal(err)
					}
					c := client.NewClient(tr, v.opts...)
					if err := c.Start(context.Background()); err != nil {
						t.Fatal(err)
					}
					defer c.Close()
					progress := countProgress(c)
					initialize(t, c, v.want)
					if got := sleepWithProgress(t, c); got != "slept 350 ms" {
						t.Errorf("sleep returned %q", got)
					}
					if n := progress(); n < 2 {
						t.Errorf("got %d progress notifications for a 350 ms sleep, want at least 2", n)
					}
					if got, _ := callText(t, c, "echo", map[string]any{"message": "over " + kind}); got != "Echo: over "+kind {
						t.Errorf("echo returned %q", got)
					}
					if got, _ := callText(t, c, "add", map[string]any{"a": 2, "b": 40}); got != "42" {
						t.Errorf("add returned %q", got)
					}
				})
			}
			// crash takes the whole server down with status 1.
			c, err := client.NewStreamableHttpClient(url)
			if kind == "sse" {
				c, err = client.NewSSEMCPClient(url)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			initialize(t, c, mcp.LATEST_PROTOCOL_VERSION)
			// mcp-go's SSE client does not fail a pending call when the
			// stream ends, so do not wait long for the answer.
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			if _, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "crash"}}); err == nil {
				t.Error("crash returned a result")
			}
			if code := ch.wait(t, 5*time.Second); code != 1 {
				t.Errorf("crash: exit status %d, want 1", code)
			}
		})
	}
}

func TestStdinEOFEndsTheServer(t *testing.T) {
	ch := startChild(t)
	_ = ch.stdin.Close()
	if code := ch.wait(t, 5*time.Second); code != 0 {
		t.Fatalf("exit status %d after stdin EOF, want 0 (stderr %q)", code, ch.stderr.String())
	}
}

func TestSIGTERMEndsTheServer(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	for _, args := range [][]string{nil, {"--transport", "http"}, {"--transport", "sse"}} {
		name := "stdio"
		if args != nil {
			name = args[1]
		}
		t.Run(name, func(t *testing.T) {
			var ch *child
			if args == nil {
				ch = startChild(t)
				time.Sleep(200 * time.Millisecond) // let it install its handler
			} else {
				var url string
				ch, url = startRemote(t, args[1])
				// An open client connection, with its long-lived listening
				// stream, must not hold up shutdown.
				var tr transport.Interface
				var err error
				if args[1] == "http" {
					tr, err = transport.NewStreamableHTTP(url, transport.WithContinuousListening())
				} else {
					tr, err = transport.NewSSE(url)
				}
				if err != nil {
					t.Fatal(err)
				}
				c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
				defer c.Close()
				if err := c.Start(context.Background()); err != nil {
					t.Fatal(err)
				}
				initialize(t, c, mcp.LATEST_LEGACY_PROTOCOL_VERSION)
				time.Sleep(100 * time.Millisecond) // let the listening stream open
			}
			if err := ch.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			defer func() { t.Logf("exited %s after SIGTERM", time.Since(start)) }()
			if code := ch.wait(t, 5*time.Second); code != 0 {
				t.Fatalf("exit status %d after SIGTERM, want 0 (stderr %q)", code, ch.stderr.String())
			}
		})
	}
}

func TestStartupFlags(t *testing.T) {
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"--stderr", "fatal: missing API_KEY", "--exit-after-start"}, exitAfterStart, "fatal: missing API_KEY\n"},
		{[]string{"--transport", "pigeon"}, 2, "--transport must be"},
		{[]string{"--no-such-flag"}, 2, "flag provided but not defined"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		code := run(c.args, strings.NewReader(""), &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.stderr) || stdout.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit %d, stderr with %q", c.args, code, stderr.String(), stdout.String(), c.code, c.stderr)
		}
	}
	// In a real process too: the pool reads the exit status and stderr.
	cmd := serverCmd("--stderr", "token expired", "--exit-after-start")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitAfterStart || stderr.String() != "token expired\n" {
		t.Fatalf("exit-after-start: %v, stderr %q", err, stderr.String())
	}
}
