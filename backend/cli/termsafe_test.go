package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
)

// hostilePayload is what the hostile server's "ansi" mode puts in its
// texts (see ../mcp/hostileserver/mode_terminal.go), and what the fake
// model replies.
const hostilePayload = "\x1b[2K\rFAKE PROMPT \x1b]0;title\x07\x1b]52;c;cm0=\x07\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\" +
	"\x1b[1A\x1b[31mover\rwrite\b\b\x7f\u202eevil\u202c\u2066iso\u2069\u009b2J\u0085zero\u200bwidth\ufefftag\U000E0041"

// terminalUnsafe returns a description of the first character in s that a
// terminal would act on, or "". It is written independently of
// unsafeRune on purpose: weakening the protection must not weaken the
// test.
func terminalUnsafe(s string) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return fmt.Sprintf("byte 0x%02X (not UTF-8) at %d", s[i], i)
		case r == 0x1b:
			return fmt.Sprintf("ESC at %d", i)
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f:
			return fmt.Sprintf("control 0x%02X at %d", r, i)
		case r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("C1 control U+%04X at %d", r, i)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return fmt.Sprintf("bidi control U+%04X at %d", r, i)
		case r == 0x200b, r == 0xfeff, r >= 0xe0000 && r <= 0xe007f:
			return fmt.Sprintf("invisible U+%04X at %d", r, i)
		}
		i += n
	}
	return ""
}

func TestTermSafe(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text, with → arrows and 中文\n\ttabbed", "plain text, with → arrows and 中文\n\ttabbed"},
		{"\x1b[2K\rerased", "␛[2K␍erased"},
		{"\x1b]0;title\x07", "␛]0;title␇"},
		{"\x1b]52;c;ZXZpbA==\x07", "␛]52;c;ZXZpbA==␇"},
		{"\x1b]8;;https://x/\x1b\\a\x1b]8;;\x1b\\", "␛]8;;https://x/␛\\a␛]8;;␛\\"},
		{"back\b\b", "back␈␈"},
		{"nul\x00 del\x7f", "nul␀ del␡"},
		{"windows\r\nline", "windows\nline"},
		{"over\rwrite", "over␍write"},
		{"\u009b31m 8-bit CSI", "⟨U+009B⟩31m 8-bit CSI"},
		{"raw \x9b31m byte", "raw ⟨0x9B⟩31m byte"},
		{"\u0085next line", "⟨U+0085⟩next line"},
		{"\u202eevil\u202c", "⟨U+202E⟩evil⟨U+202C⟩"},
		{"\u2066iso\u2069 \u200fmark", "⟨U+2066⟩iso⟨U+2069⟩ ⟨U+200F⟩mark"},
		{"zero\u200bwidth\ufeff", "zero⟨U+200B⟩width⟨U+FEFF⟩"},
		{"tag\U000E0041", "tag⟨U+E0041⟩"},
		{"line\u2028sep", "line⟨U+2028⟩sep"},
		{"family 👨\u200d👩\u200d👧 and \u200cZWNJ", "family 👨\u200d👩\u200d👧 and \u200cZWNJ"},
	}
	for _, c := range cases {
		if got := termSafe(c.in); got != c.want {
			t.Errorf("termSafe(%q) = %q, want %q", c.in, got, c.want)
		}
		if bad := terminalUnsafe(termSafe(c.in)); bad != "" {
			t.Errorf("termSafe(%q) still holds %s", c.in, bad)
		}
		if again := termSafe(termSafe(c.in)); again != termSafe(c.in) {
			t.Errorf("termSafe is not idempotent on %q: %q", c.in, again)
		}
	}
}

// TestTermWriterSplitWrites feeds text one byte at a time: a rune or a
// CRLF split between writes comes out as if written whole.
func TestTermWriterSplitWrites(t *testing.T) {
	in := "é中👍 a\r\nb\x1b[2K\rc\u009bd"
	var out bytes.Buffer
	w := newTermWriter(&out)
	for i := 0; i < len(in); i++ {
		if n, err := w.Write([]byte{in[i]}); n != 1 || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if got, want := out.String(), termSafe(in); got != want {
		t.Fatalf("byte by byte: %q, want %q", got, want)
	}
}

func TestJSONSafe(t *testing.T) {
	v := map[string]string{"text": hostilePayload + "\u2028"}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	safe := jsonSafe(b)
	if bad := terminalUnsafe(string(safe)); bad != "" {
		t.Fatalf("jsonSafe output holds %s: %q", bad, safe)
	}
	var back map[string]string
	if err := json.Unmarshal(safe, &back); err != nil || back["text"] != v["text"] {
		t.Fatalf("jsonSafe changed the value: %v %q", err, back["text"])
	}
}

// checkTerminalSafe fails when output holds a character a terminal would
// act on, and when it lacks want (proof that the hostile text got there).
func checkTerminalSafe(t *testing.T, what, output string, want ...string) {
	t.Helper()
	if bad := terminalUnsafe(output); bad != "" {
		t.Errorf("%s: output holds %s:\n%q", what, bad, output)
	}
	for _, w := range want {
		if !strings.Contains(output, w) {
			t.Errorf("%s: output lacks %q:\n%s", what, w, output)
		}
	}
}

// TestInspectHostileTerminal runs `mcpdesk inspect` against the hostile
// server's "ansi" mode: JSON output still carries the server's text
// exactly (escaped), text output shows its control characters.
func TestInspectHostileTerminal(t *testing.T) {
	dir := t.TempDir()
	ansi := []string{"--", hostileServerBin, "--mode", "ansi"}
	inspect := func(args ...string) (int, string, string) {
		return run(t, t.Context(), append([]string{"--data-dir", dir, "inspect"}, args...)...)
	}
	for _, method := range []string{"tools/list", "resources/list", "prompts/list"} {
		code, out, errOut := inspect(append([]string{"--method", method}, ansi...)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", method, code, errOut)
		}
		checkTerminalSafe(t, method, out+errOut, `\u001b[2K`, `\u009b`, `\u202e`)
		if !strings.Contains(out, `"ansi_result"`) && method == "tools/list" {
			t.Errorf("tools/list lacks the tool: %s", out)
		}
	}
	code, out, errOut := inspect(append([]string{"--method", "tools/call", "--tool-name", "ansi_result"}, ansi...)...)
	if code != exitOK {
		t.Fatalf("ansi_result: exit %d: %s", code, errOut)
	}
	checkTerminalSafe(t, "ansi_result", out+errOut, `result\u001b[2K`)
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Content) != 1 || !strings.HasPrefix(res.Content[0].Text, "result\x1b[2K\r") {
		t.Errorf("the JSON result does not carry the server's text exactly: %v %q", err, out)
	}

	// Text output: an error quoting the server, the server's questions.
	code, out, errOut = inspect(append([]string{"--method", "tools/call", "--tool-name", "ansi_error"}, ansi...)...)
	if code != exitFail {
		t.Errorf("ansi_error: exit %d", code)
	}
	checkTerminalSafe(t, "ansi_error", out+errOut, "failure␛[2K␍FAKE PROMPT")
	for _, answer := range []string{"decline", "cancel", "accept"} {
		code, out, errOut = inspect(append([]string{"--elicit", answer, "--method", "tools/call", "--tool-name", "ansi_elicit"}, ansi...)...)
		if code != exitOK {
			t.Errorf("--elicit %s: exit %d: %s", answer, code, errOut)
		}
		checkTerminalSafe(t, "--elicit "+answer, out+errOut, "the server asks: Question␛[2K␍FAKE PROMPT", "⟨U+009B⟩2J")
	}
	// Without a terminal the question is answered cancel, and shown.
	code, out, errOut = inspect(append([]string{"--method", "tools/call", "--tool-name", "ansi_elicit"}, ansi...)...)
	checkTerminalSafe(t, "elicit without a terminal", out+errOut, "answering cancel")

	// A server that fails to start, printing escapes (and a raw 8-bit CSI
	// byte) on stderr.
	code, out, errOut = inspect("--method", "ping", "--", hostileServerBin, "--mode", "ansi-exit")
	if code != exitFail {
		t.Errorf("ansi-exit: exit %d", code)
	}
	checkTerminalSafe(t, "ansi-exit", out+errOut, "server stderr:", "starting␛[2K␍FAKE PROMPT", "⟨0x9B⟩1mraw 8-bit CSI")

	cfg := filepath.Join(dir, "mcp.config.json")
	if err := mcpconfig.WriteFile(cfg, &mcpconfig.Config{Servers: []mcpconfig.Server{
		{ID: "hostile", Command: hostileServerBin, Args: []string{"--mode", "ansi-exit"}},
	}}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(t, t.Context(), "servers", "--config", cfg)
	if code != exitFail {
		t.Errorf("servers: exit %d", code)
	}
	checkTerminalSafe(t, "servers", out+errOut, `starting\u001b[2K\r`)
}

// TestChatHostileTerminal runs `mcpdesk chat` with a fake model whose
// reply holds control sequences and a tool of the hostile server whose
// result does: neither the answer (stdout) nor the tool lines (stderr)
// carry them, and --json carries them escaped and exact.
func TestChatHostileTerminal(t *testing.T) {
	useMemoryKeychain(t)
	fake := llmtest.NewOpenAI(t)
	c := &cliTranscript{t: t, dir: t.TempDir()}
	if err := mcpconfig.WriteFile(filepath.Join(c.dir, "mcp.config.json"), &mcpconfig.Config{Servers: []mcpconfig.Server{
		{ID: "hostile", Command: hostileServerBin, Args: []string{"--mode", "ansi"}},
	}}); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := c.run("", "providers", "add", "--name", "Fake", "--type", "openai", "--base-url", fake.BaseURL()); code != 0 {
		t.Fatalf("providers add: %s", errOut)
	}
	// The reply splits a CRLF and an escape sequence between chunks.
	reply := []string{"Done.\r", "\n" + hostilePayload[:1], hostilePayload[1:], " The end."}

	fake.Script(
		llmtest.ToolTurn(llmtest.ToolCall{ID: "c1", Name: "hostile__ansi_result", Arguments: `{"note":"\u001b[2Kx"}`}),
		llmtest.TextTurn(reply...),
	)
	code, out, errOut := c.run("", "chat", "--model", "Fake/gpt-4o", "--approve", "auto", "go")
	if code != exitOK {
		t.Fatalf("chat: exit %d\n%s\n%s", code, out, errOut)
	}
	checkTerminalSafe(t, "chat answer", out, "Done.\n␛[2K␍FAKE PROMPT", "⟨U+202E⟩evil", " The end.")
	checkTerminalSafe(t, "chat tool lines", errOut, "→ hostile › ansi_result", "← hostile › ansi_result", "result␛[2K FAKE PROMPT")

	// Ask mode without a terminal declines, naming the tool.
	fake.Script(llmtest.ToolTurn(llmtest.ToolCall{ID: "c2", Name: "hostile__ansi_result", Arguments: `{}`}), llmtest.TextTurn(hostilePayload))
	code, out, errOut = c.run("", "chat", "--model", "Fake/gpt-4o", "--approve", "ask", "again")
	if code != exitOK {
		t.Fatalf("chat ask: exit %d\n%s", code, errOut)
	}
	checkTerminalSafe(t, "chat ask without a terminal", out+errOut, "no terminal to ask")

	// --json: one JSON object per line, the reply exact.
	fake.Script(llmtest.TextTurn(reply...))
	code, out, errOut = c.run("", "chat", "--model", "Fake/gpt-4o", "--json", "once more")
	if code != exitOK {
		t.Fatalf("chat --json: exit %d\n%s", code, errOut)
	}
	checkTerminalSafe(t, "chat --json", out+errOut)
	var text strings.Builder
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e chatEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if e.Event == "chat:delta" {
			s, _ := e.Payload["text"].(string)
			text.WriteString(s)
		}
	}
	if got, want := text.String(), strings.Join(reply, ""); got != want {
		t.Errorf("--json reply %q, want %q", got, want)
	}
}
