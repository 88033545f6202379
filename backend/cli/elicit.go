package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/mcppool"
)

// cliElicitor answers a server's questions (elicitation) on the command
// line: with the answer given by --elicit, else by asking on the terminal,
// else with cancel — a script is never left hanging.
type cliElicitor struct {
	action  mcp.ElicitationResponseAction // "" = ask when interactive
	content map[string]any                // for accept
	env     Env
	tty     bool

	mu sync.Mutex // one question at a time on the terminal
	in *bufio.Reader
}

// newCLIElicitor parses --elicit: accept:FILE, decline or cancel.
func newCLIElicitor(flagValue string, env Env) (*cliElicitor, error) {
	e := &cliElicitor{env: env, tty: isTerminal(env.Stdin), in: bufio.NewReader(env.Stdin)}
	switch {
	case flagValue == "":
	case flagValue == "decline" || flagValue == "cancel":
		e.action = mcp.ElicitationResponseAction(flagValue)
	case strings.HasPrefix(flagValue, "accept:"):
		file := strings.TrimPrefix(flagValue, "accept:")
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, &e.content); err != nil || e.content == nil {
			return nil, fmt.Errorf("%s must hold a JSON object (the answer's fields)", file)
		}
		e.action = mcp.ElicitationResponseActionAccept
	case flagValue == "accept":
		e.action, e.content = mcp.ElicitationResponseActionAccept, map[string]any{}
	default:
		return nil, fmt.Errorf("want accept:FILE, accept, decline or cancel, not %q", flagValue)
	}
	return e, nil
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Elicit answers one question.
func (e *cliElicitor) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	p := req.Params
	switch {
	case e.action == mcp.ElicitationResponseActionAccept:
		fmt.Fprintf(e.env.Stderr, "mcpdesk: the server asks: %s — answering accept (--elicit)\n", p.Message)
		return answer(e.action, mcppool.FillDefaults(p.RequestedSchema, onlyAsked(p.RequestedSchema, e.content))), nil
	case e.action != "":
		fmt.Fprintf(e.env.Stderr, "mcpdesk: the server asks: %s — answering %s (--elicit)\n", p.Message, e.action)
		return answer(e.action, nil), nil
	case !e.tty:
		fmt.Fprintf(e.env.Stderr, "mcpdesk: the server asks: %s — answering cancel (no terminal; use --elicit accept:FILE|decline|cancel)\n", p.Message)
		return answer(mcp.ElicitationResponseActionCancel, nil), nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ask(ctx, server, p)
}

// onlyAsked keeps the fields the question's schema names, so that one
// answer file serves every question of a call.
func onlyAsked(schema any, content map[string]any) map[string]any {
	s, _ := schema.(map[string]any)
	props, ok := s["properties"].(map[string]any)
	if !ok {
		return content
	}
	out := map[string]any{}
	for k, v := range content {
		if _, asked := props[k]; asked {
			out[k] = v
		}
	}
	return out
}

func answer(action mcp.ElicitationResponseAction, content map[string]any) *mcp.ElicitationResult {
	res := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: action}}
	if action == mcp.ElicitationResponseActionAccept {
		res.Content = content
	}
	return res
}

// ask puts the question on the terminal, one field per line.
func (e *cliElicitor) ask(ctx context.Context, server string, p mcp.ElicitationParams) (*mcp.ElicitationResult, error) {
	w := e.env.Stderr
	fmt.Fprintf(w, "\n%s asks: %s\n", server, p.Message)
	if p.Mode == mcp.ElicitationModeURL {
		fmt.Fprintf(w, "It wants you to open: %s\n", p.URL)
		return e.confirm(ctx, nil)
	}
	schema, _ := p.RequestedSchema.(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	required, _ := schema["required"].([]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	slices.Sort(names)
	content := map[string]any{}
	for _, name := range names {
		prop, _ := props[name].(map[string]any)
		req := slices.Contains(required, any(name))
		for {
			fmt.Fprint(w, fieldPrompt(name, prop, req))
			line, err := e.readLine(ctx)
			if err != nil {
				return answer(mcp.ElicitationResponseActionCancel, nil), nil
			}
			if line == "" {
				if def, ok := prop["default"]; ok {
					content[name] = def
					break
				}
				if !req {
					break
				}
				fmt.Fprintln(w, "  this field is required")
				continue
			}
			v, err := parseField(line, prop)
			if err != nil {
				fmt.Fprintf(w, "  %v\n", err)
				continue
			}
			content[name] = v
			break
		}
	}
	return e.confirm(ctx, content)
}

func (e *cliElicitor) confirm(ctx context.Context, content map[string]any) (*mcp.ElicitationResult, error) {
	fmt.Fprint(e.env.Stderr, "Send this answer? [Y]es / [n]o (decline) / [c]ancel: ")
	line, err := e.readLine(ctx)
	if err != nil {
		return answer(mcp.ElicitationResponseActionCancel, nil), nil
	}
	switch strings.ToLower(line) {
	case "", "y", "yes":
		return answer(mcp.ElicitationResponseActionAccept, content), nil
	case "n", "no":
		return answer(mcp.ElicitationResponseActionDecline, nil), nil
	default:
		return answer(mcp.ElicitationResponseActionCancel, nil), nil
	}
}

func (e *cliElicitor) readLine(ctx context.Context) (string, error) {
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		line, err := e.in.ReadString('\n')
		if err != nil && !(errors.Is(err, io.EOF) && line != "") {
			ch <- result{"", err}
			return
		}
		ch <- result{strings.TrimSpace(line), nil}
	}()
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case r := <-ch:
		return r.line, r.err
	}
}

// fieldPrompt describes one field: "name (integer 1–100) [42]: ".
func fieldPrompt(name string, prop map[string]any, required bool) string {
	var b strings.Builder
	b.WriteString("  " + name)
	if t, _ := prop["title"].(string); t != "" && t != name {
		b.WriteString(" — " + t)
	}
	kind, _ := prop["type"].(string)
	if enum, ok := prop["enum"].([]any); ok {
		parts := make([]string, len(enum))
		for i, v := range enum {
			parts[i] = fmt.Sprint(v)
		}
		kind = "one of " + strings.Join(parts, ", ")
	}
	b.WriteString(" (" + kind)
	if required {
		b.WriteString(", required")
	}
	b.WriteString(")")
	if def, ok := prop["default"]; ok {
		fmt.Fprintf(&b, " [%v]", def)
	}
	b.WriteString(": ")
	return b.String()
}

// parseField turns a typed line into the field's JSON value.
func parseField(line string, prop map[string]any) (any, error) {
	if enum, ok := prop["enum"].([]any); ok {
		for _, v := range enum {
			if fmt.Sprint(v) == line {
				return v, nil
			}
		}
		return nil, fmt.Errorf("choose one of the listed values")
	}
	switch prop["type"] {
	case "boolean":
		switch strings.ToLower(line) {
		case "y", "yes", "true", "1":
			return true, nil
		case "n", "no", "false", "0":
			return false, nil
		}
		return nil, fmt.Errorf("answer yes or no")
	case "integer":
		n, err := strconv.ParseInt(line, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("enter a whole number")
		}
		return n, nil
	case "number":
		f, err := strconv.ParseFloat(line, 64)
		if err != nil {
			return nil, fmt.Errorf("enter a number")
		}
		return f, nil
	case "array":
		var out []any
		for _, part := range strings.Split(line, ",") {
			out = append(out, strings.TrimSpace(part))
		}
		return out, nil
	default:
		return line, nil
	}
}
