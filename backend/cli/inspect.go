package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool"
)

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// methods lists what inspect can call.
var methods = []string{"tools/list", "tools/call", "resources/list", "resources/read", "resources/templates/list", "prompts/list", "prompts/get", "ping"}

func runInspect(ctx context.Context, g globals, args []string, env Env) int {
	var (
		configFile, serverID, url, transportName, method string
		protocol                                         string
		toolName, uri, promptName, elicit, callsJSON     string
		headers, toolArgs, promptArgs, envVars           multi
		timeout                                          time.Duration
		auth                                             authFlags
	)
	fs := newFlags("inspect", &g, env)
	fs.StringVar(&configFile, "config", "", "config file holding the server (with --server)")
	fs.StringVar(&serverID, "server", "", "server id in the config file")
	fs.StringVar(&url, "url", "", "URL of a remote server")
	fs.StringVar(&transportName, "transport", "", "transport for --url: http (default) or sse")
	fs.Var(&headers, "header", "HTTP header for --url as K:V (repeatable)")
	fs.Var(&envVars, "e", "environment variable KEY=VALUE for a command server (repeatable)")
	fs.StringVar(&method, "method", "", "one of: "+strings.Join(methods, ", "))
	fs.StringVar(&toolName, "tool-name", "", "tool to call (tools/call)")
	fs.Var(&toolArgs, "tool-arg", "tool argument k=v; v is parsed as JSON when it parses (repeatable)")
	fs.StringVar(&callsJSON, "calls", "", `tool calls to make in order in one session, as a JSON array of {"name": TOOL, "arguments": {...}} (implies --method tools/call); prints a JSON array of the results`)
	fs.StringVar(&uri, "uri", "", "resource URI (resources/read)")
	fs.StringVar(&promptName, "prompt-name", "", "prompt to get (prompts/get)")
	fs.Var(&promptArgs, "prompt-arg", "prompt argument k=v (repeatable)")
	auth.register(fs)
	fs.StringVar(&protocol, "protocol-version", "", "MCP revision to speak (e.g. 2025-11-25, 2026-07-28); default: the newest both sides support")
	fs.DurationVar(&timeout, "timeout", 30*time.Second, "time limit for connecting and the call")
	fs.StringVar(&elicit, "elicit", "", "answer the server's questions (elicitation): accept:FILE (JSON object; schema defaults fill the rest), decline or cancel; without it a terminal is asked, anything else answers cancel")
	fs.Usage = func() {
		fmt.Fprintln(env.Stderr, "usage: mcpdesk inspect (--config FILE --server ID | --url URL [--transport http|sse] [--header K:V]... | [-e K=V]... -- COMMAND [ARGS...]) --method METHOD [flags]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	command := fs.Args()

	srv, code := inspectTarget(env, g, configFile, serverID, url, transportName, headers, envVars, command)
	if code != exitOK {
		return code
	}
	if protocol != "" {
		srv.ProtocolVersion = protocol
	}
	if method == "" && callsJSON != "" {
		method = "tools/call"
	}
	if method == "" {
		return usageError(env, "--method is required (one of: %s)", strings.Join(methods, ", "))
	}
	var calls []toolCall
	if method == "tools/call" {
		var err error
		if calls, err = parseToolCalls(toolName, toolArgs, callsJSON); err != nil {
			return usageError(env, "%v", err)
		}
	} else if callsJSON != "" {
		return usageError(env, "--calls goes with --method tools/call, not %s", method)
	}
	call, err := buildCall(method, toolName, toolArgs, uri, promptName, promptArgs)
	if err != nil {
		return usageError(env, "%v", err)
	}

	authorize, err := auth.authorizer(env)
	if err != nil {
		return usageError(env, "%v", err)
	}

	elicitor, err := newCLIElicitor(elicit, env)
	if err != nil {
		return usageError(env, "--elicit: %v", err)
	}

	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	sess, err := mcppool.Connect(ctx, srv, mcppool.ConnectOptions{
		Env: env.Servers, ClientInfo: clientInfo(env), Logger: quietLogger(), Elicitor: elicitor, Auth: authorize,
	})
	if err != nil {
		if ctx.Err() != nil {
			return fail(env, fmt.Errorf("connect to %s: no answer within %s: %w", describe(srv), timeout, err))
		}
		return fail(env, fmt.Errorf("connect to %s: %w", describe(srv), err))
	}
	defer sess.Close()

	if method == "tools/call" {
		// Printed also when a later call failed: the results before it.
		results, err := callTools(ctx, g, env, srv, sess, calls)
		var perr error
		switch {
		case callsJSON != "":
			perr = printJSON(env, results)
		case len(results) == 1:
			perr = printJSON(env, results[0])
		}
		if err == nil {
			err = perr
		}
		if err != nil {
			return fail(env, err)
		}
		return exitOK
	}
	result, err := call(ctx, sess)
	err = sess.RedactError(err) // it may quote the server's URL or echo its key
	if err != nil {
		return fail(env, fmt.Errorf("%s: %w", method, err))
	}
	if err := printJSON(env, result); err != nil {
		return fail(env, err)
	}
	return exitOK
}

// inspectTarget builds the server to talk to from exactly one of the three
// ways of naming it.
func inspectTarget(env Env, g globals, configFile, serverID, url, transportName string, headers, envVars multi, command []string) (mcpconfig.Server, int) {
	ways := 0
	for _, set := range []bool{configFile != "" || serverID != "", url != "", len(command) > 0} {
		if set {
			ways++
		}
	}
	if ways != 1 {
		return mcpconfig.Server{}, usageError(env, "name the server one way: --config FILE --server ID, --url URL, or -- COMMAND [ARGS...]")
	}
	switch {
	case url != "":
		srv := mcpconfig.Server{ID: "cli", URL: url, Type: mcpconfig.HTTP}
		switch transportName {
		case "", "http", "streamable-http":
		case "sse":
			srv.Type = mcpconfig.SSE
		default:
			return srv, usageError(env, "--transport must be http or sse, not %q", transportName)
		}
		if len(headers) > 0 {
			srv.Headers = map[string]string{}
			for _, h := range headers {
				k, v, ok := strings.Cut(h, ":")
				if !ok || strings.TrimSpace(k) == "" {
					return srv, usageError(env, "--header %q: want K:V", h)
				}
				srv.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		return srv, exitOK
	case len(command) > 0:
		srv := mcpconfig.Server{ID: "cli", Type: mcpconfig.Stdio, Command: command[0], Args: command[1:]}
		if len(envVars) > 0 {
			srv.Env = map[string]string{}
			for _, kv := range envVars {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return srv, usageError(env, "-e %q: want KEY=VALUE", kv)
				}
				srv.Env[k] = v
			}
		}
		return srv, exitOK
	default:
		if serverID == "" {
			return mcpconfig.Server{}, usageError(env, "--config needs --server ID")
		}
		if configFile == "" {
			var err error
			if configFile, err = defaultConfigPath(g); err != nil {
				return mcpconfig.Server{}, fail(env, err)
			}
		}
		cfg, err := mcpconfig.Load(configFile)
		if err != nil {
			return mcpconfig.Server{}, fail(env, err)
		}
		for _, s := range cfg.Servers {
			if s.ID == serverID {
				return s, exitOK
			}
		}
		ids := make([]string, 0, len(cfg.Servers))
		for _, s := range cfg.Servers {
			ids = append(ids, s.ID)
		}
		return mcpconfig.Server{}, fail(env, fmt.Errorf("%s: no server %q (servers: %s)", configFile, serverID, strings.Join(ids, ", ")))
	}
}

func describe(srv mcpconfig.Server) string {
	if srv.ID == "cli" {
		return srv.Summary()
	}
	return fmt.Sprintf("server %q", srv.ID)
}

type callFunc func(ctx context.Context, s *mcppool.Session) (any, error)

// buildCall checks the method's flags and returns the call to make.
func buildCall(method, toolName string, toolArgs multi, uri, promptName string, promptArgs multi) (callFunc, error) {
	switch method {
	case "ping":
		return func(ctx context.Context, s *mcppool.Session) (any, error) {
			return map[string]any{}, s.Client.Ping(ctx)
		}, nil
	case "tools/list":
		return func(ctx context.Context, s *mcppool.Session) (any, error) {
			if s.Capabilities.Tools == nil {
				return nil, fmt.Errorf("the server does not offer tools")
			}
			return s.Client.ListTools(ctx, mcp.ListToolsRequest{})
		}, nil
	case "tools/call":
		return nil, nil // runInspect makes the calls of parseToolCalls with callTools
	case "resources/list":
		return func(ctx context.Context, s *mcppool.Session) (any, error) {
			if s.Capabilities.Resources == nil {
				return nil, fmt.Errorf("the server does not offer resources")
			}
			return s.Client.ListResources(ctx, mcp.ListResourcesRequest{})
		}, nil
	case "resources/templates/list":
		return func(ctx context.Context, s *mcppool.Session) (any, error) {
			if s.Capabilities.Resources == nil {
				return nil, fmt.Errorf("the server does not offer resources")
			}
			return s.Client.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
		}, nil
	case "resources/read":
		if uri == "" {
			return nil, fmt.Errorf("resources/read needs --uri")
		}
		return func(ctx context.Context, s *mcppool.Session) (any, error) {
			res, err := s.Client.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
			return s.ScrubResource(res), err
		}, nil
	case "prompts/list":
		return func(ctx context.Context, s *mcppool.Session) (any, error) {
			if s.Capabilities.Prompts == nil {
				return nil, fmt.Errorf("the server does not offer prompts")
			}
			return s.Client.ListPrompts(ctx, mcp.ListPromptsRequest{})
		}, nil
	case "prompts/get":
		if promptName == "" {
			return nil, fmt.Errorf("prompts/get needs --prompt-name")
		}
		raw, err := parseArgs(promptArgs, false)
		if err != nil {
			return nil, err
		}
		args := make(map[string]string, len(raw))
		for k, v := range raw {
			args[k] = v.(string)
		}
		return func(ctx context.Context, s *mcppool.Session) (any, error) {
			res, err := s.Client.GetPrompt(ctx, mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: promptName, Arguments: args}})
			return s.ScrubPrompt(res), err
		}, nil
	default:
		return nil, fmt.Errorf("unknown --method %q (one of: %s)", method, strings.Join(methods, ", "))
	}
}

// parseArgs turns k=v flags into arguments. With asJSON, a value that
// parses as JSON is taken as that JSON value, else as a string — as the
// official inspector does.
func parseArgs(kvs multi, asJSON bool) (map[string]any, error) {
	out := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("argument %q: want key=value", kv)
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("argument %q given twice", k)
		}
		var parsed any
		if asJSON && json.Unmarshal([]byte(v), &parsed) == nil {
			out[k] = parsed
		} else {
			out[k] = v
		}
	}
	return out, nil
}

// toolCall is one tools/call to make.
type toolCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// parseToolCalls returns the calls asked for: the one of --tool-name and
// --tool-arg, or those of --calls.
func parseToolCalls(toolName string, toolArgs multi, callsJSON string) ([]toolCall, error) {
	if callsJSON == "" {
		if toolName == "" {
			return nil, fmt.Errorf("tools/call needs --tool-name (or --calls)")
		}
		args, err := parseArgs(toolArgs, true)
		if err != nil {
			return nil, err
		}
		return []toolCall{{Name: toolName, Arguments: args}}, nil
	}
	if toolName != "" || len(toolArgs) > 0 {
		return nil, fmt.Errorf("name the calls with --calls or with --tool-name and --tool-arg, not both")
	}
	dec := json.NewDecoder(strings.NewReader(callsJSON))
	dec.DisallowUnknownFields()
	dec.UseNumber() // numbers go out as written: 42 stays an integer, 3.14159 keeps its digits
	var calls []toolCall
	if err := dec.Decode(&calls); err != nil {
		return nil, fmt.Errorf(`--calls: want a JSON array of {"name": TOOL, "arguments": {...}}: %v`, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("--calls: more than one JSON value")
	}
	if len(calls) == 0 {
		return nil, fmt.Errorf("--calls: no calls")
	}
	for i := range calls {
		if calls[i].Name == "" {
			return nil, fmt.Errorf("--calls: call %d has no name", i+1)
		}
		if calls[i].Arguments == nil {
			calls[i].Arguments = map[string]any{}
		}
	}
	return calls, nil
}

// callTools makes calls in order in s and returns the results of those that
// succeeded; it stops at the first that fails. Each call is audited.
//
// On a 2026-07-28 connection it lists the tools first. A call there carries
// the arguments the tool's input schema marks with x-mcp-header in
// Mcp-Param-* headers too (SEP-2243), which mcp-go can only do for a tool it
// has listed; and a tool whose annotations are invalid is left out of the
// list, so it is not called.
func callTools(ctx context.Context, g globals, env Env, srv mcpconfig.Server, s *mcppool.Session, calls []toolCall) ([]*mcp.CallToolResult, error) {
	listed, err := listToolNames(ctx, s)
	if err != nil {
		fmt.Fprintf(env.Stderr, "mcpdesk: tools/list: %v (calling without the tools' x-mcp-header parameters)\n", s.RedactError(err))
	}
	results := make([]*mcp.CallToolResult, 0, len(calls))
	for _, c := range calls {
		if listed != nil && !listed[c.Name] {
			why := ""
			if s.Transport == mcpconfig.HTTP {
				why = " (a tool whose x-mcp-header annotations are invalid is left out)"
			}
			return results, fmt.Errorf("tools/call: the server lists no tool %q%s", c.Name, why)
		}
		start := time.Now()
		res, err := s.Client.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: c.Name, Arguments: c.Arguments}})
		err = s.RedactError(err) // it may quote the server's URL or echo its key
		auditInspectCall(ctx, g, env, srv, c.Name, c.Arguments, res, time.Since(start), err)
		if err != nil {
			if len(calls) > 1 {
				return results, fmt.Errorf("tools/call %q: %w", c.Name, err)
			}
			return results, fmt.Errorf("tools/call: %w", err)
		}
		results = append(results, res)
	}
	return results, nil
}

// listToolNames lists the tools of a 2026-07-28 connection that offers
// tools, as callTools needs; nil, nil elsewhere.
func listToolNames(ctx context.Context, s *mcppool.Session) (map[string]bool, error) {
	if !mcp.IsModernProtocol(s.Protocol) || s.Capabilities.Tools == nil {
		return nil, nil
	}
	res, err := s.Client.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return nil, err
	}
	names := make(map[string]bool, len(res.Tools))
	for _, t := range res.Tools {
		names[t.Name] = true
	}
	return names, nil
}
