package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/shellenv"
)

// openPTY opens a pseudo-terminal: the command reads the terminal side as
// its standard input (so it asks its questions), the test types into the
// other side.
func openPTY(t *testing.T) (term, keyboard *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("pty number: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open pty: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	// The terminal echoes what is typed; drain it.
	go io.Copy(io.Discard, m)
	return s, m
}

// TestTerminalPromptsHostile answers, at a real (pseudo-)terminal, the
// approval prompt of a hostile tool whose description holds control
// sequences, and the hostile server's question field by field: the
// prompts show the sequences instead of obeying them.
func TestTerminalPromptsHostile(t *testing.T) {
	useMemoryKeychain(t)
	fake := llmtest.NewOpenAI(t)
	dir := t.TempDir()
	if err := mcpconfig.WriteFile(filepath.Join(dir, "mcp.config.json"), &mcpconfig.Config{Servers: []mcpconfig.Server{
		{ID: "hostile", Command: hostileServerBin, Args: []string{"--mode", "ansi"}},
	}}); err != nil {
		t.Fatal(err)
	}
	c := &cliTranscript{t: t, dir: dir}
	if code, _, errOut := c.run("", "providers", "add", "--name", "Fake", "--type", "openai", "--base-url", fake.BaseURL()); code != 0 {
		t.Fatalf("providers add: %s", errOut)
	}
	runAtTerminal := func(typed string, args ...string) (int, string, string) {
		term, keyboard := openPTY(t)
		if _, err := keyboard.WriteString(typed); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := Run(t.Context(), append([]string{"--data-dir", dir}, args...), Env{
			Stdin: term, Stdout: &stdout, Stderr: &stderr, Version: "test", Servers: shellenv.NewProvider(false),
		})
		return code, stdout.String(), stderr.String()
	}

	// The approval prompt, then the elicitation the tool asks (choice b,
	// then send).
	fake.Script(
		llmtest.ToolTurn(llmtest.ToolCall{ID: "c1", Name: "hostile__ansi_result", Arguments: `{}`}),
		llmtest.ToolTurn(llmtest.ToolCall{ID: "c2", Name: "hostile__ansi_elicit", Arguments: `{}`}),
		llmtest.TextTurn("ok"),
	)
	code, out, errOut := runAtTerminal("y\ny\nb\ny\n", "chat", "--model", "Fake/gpt-4o", "--approve", "ask", "go")
	if code != exitOK {
		t.Fatalf("chat: exit %d\n%s\n%s", code, out, errOut)
	}
	checkTerminalSafe(t, "approval and elicitation at a terminal", out+errOut,
		"Run hostile › ansi_result", "Returns text full of terminal escapes.␛[2K FAKE PROMPT",
		"asks: Question␛[2K␍FAKE PROMPT", "choice — Choice␛[2K␍FAKE PROMPT", "one of a␛[2K␍FAKE PROMPT",
		"← hostile › ansi_elicit", "answered accept")
	if !strings.Contains(errOut, "[y]es / [N]o") {
		t.Errorf("no approval prompt:\n%s", errOut)
	}
}
