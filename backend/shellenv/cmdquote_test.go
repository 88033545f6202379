package shellenv

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// The quoting of batch-file command lines runs on every OS: these tests
// check it against a model of how cmd.exe reads the line (percent
// expansion, then quotes and operators) and how the script's C runtime
// splits what it passes on (%* → node.exe), so that they run in Linux CI
// too.

// cmdEnv are the variables the model of cmd.exe knows.
var cmdEnv = map[string]string{"PATH": `C:\Windows`, "USERNAME": "victim", "cd": `C:\work`}

// cmdExpand models cmd.exe's percent expansion of a command line (not a
// batch file): %NAME% becomes NAME's value; an undefined name, or an empty
// one (%%), is left as it is and scanning resumes at its closing %, which
// may open the next expansion; %cd:~,% (an empty substring) becomes "".
func cmdExpand(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '%' {
			b.WriteByte(s[i])
			i++
			continue
		}
		end := strings.IndexByte(s[i+1:], '%')
		if end < 0 {
			b.WriteString(s[i:])
			break
		}
		name := s[i+1 : i+1+end]
		switch v, ok := cmdEnv[name]; {
		case name == "cd:~,":
			i += end + 2
		case ok:
			b.WriteString(v)
			i += end + 2
		default:
			b.WriteByte('%')
			b.WriteString(name)
			i += end + 1 // the closing % may open the next expansion
		}
	}
	return b.String()
}

// cmdParse models what cmd.exe does with an expanded /c command: it
// reports an operator (& | < >) outside quotes — a second command or a
// redirection — and removes the escaping carets outside quotes.
func cmdParse(s string) (string, error) {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '^' && i+1 < len(s):
			i++
			c = s[i]
		case strings.IndexByte("&|<>", c) >= 0:
			return "", errors.New("operator " + string(c) + " outside quotes")
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}

// crtSplit models how a C runtime (MSVC 2008 and later, as node.exe's)
// splits a command line into arguments.
func crtSplit(s string) []string {
	var args []string
	var cur strings.Builder
	inArg, quoted := false, false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			n := 0
			for i < len(s) && s[i] == '\\' {
				n++
				i++
			}
			inArg = true
			if i < len(s) && s[i] == '"' {
				cur.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					cur.WriteByte('"')
					i++
				}
			} else {
				cur.WriteString(strings.Repeat(`\`, n))
			}
			continue
		case c == '"':
			inArg = true
			if quoted && i+1 < len(s) && s[i+1] == '"' {
				cur.WriteByte('"') // "" inside quotes is a quote
				i += 2
				continue
			}
			quoted = !quoted
		case (c == ' ' || c == '\t') && !quoted:
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			inArg = true
			cur.WriteByte(c)
		}
		i++
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args
}

// runBatch models running line: it returns the script cmd.exe starts and
// the arguments the script's C runtime sees, or the injection it found.
func runBatch(t *testing.T, line string) (script string, args []string, err error) {
	t.Helper()
	rest, ok := strings.CutPrefix(line, "cmd.exe /e:ON /v:OFF /d /c ")
	if !ok {
		t.Fatalf("unexpected start: %q", line)
	}
	// /c with more than two quotes strips the first and the last one.
	if len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' {
		t.Fatalf("the command is not quoted whole: %q", rest)
	}
	parsed, err := cmdParse(cmdExpand(rest[1 : len(rest)-1]))
	if err != nil {
		return "", nil, err
	}
	// The script: a quoted path, then its arguments (%*).
	if parsed[0] != '"' {
		t.Fatalf("the script is not quoted: %q", parsed)
	}
	end := strings.IndexByte(parsed[1:], '"')
	return parsed[1 : 1+end], crtSplit(parsed[end+2:]), nil
}

func TestBatchCommandLineRoundTrips(t *testing.T) {
	hostile := []string{
		`"&calc.exe`, `a"&calc.exe`, `"|calc`, `&calc.exe`, `a&b`, `x|y`, `<in`, `>out`, `2>&1`,
		`%PATH%`, `%USERNAME%`, `%%`, `%`, `50%`, `a%b%c`, `%cd%`, `%cd:~,%`, `%PATH`, `PATH%`,
		`a"b`, `"`, `""`, `"""`, `a""b`, `"quoted"`, `\"`, `a\"b`, `a\\"b`,
		`C:\dir\`, `C:\dir\\`, `\\server\share\`, `\`, `x\y`, `trailing space\ `,
		`^`, `a^b`, `^&calc`, `!PATH!`, `(x)`, `)&calc&(`, `a b`, "tab\there", ``, ` `,
		`--flag=value`, `;`, `,`, `=`, `@scope/pkg`, `é€中文`, `C:\Program Files\x`,
		`"C:\Program Files\"`, `%"&calc&"%`, `\"&calc.exe&\"`, `^"&calc^"`,
	}
	for _, a := range hostile {
		args := []string{"-y", a, "last"}
		line, err := BatchCommandLine(`C:\Program Files (x86)\node%js\npx.cmd`, args)
		if err != nil {
			t.Errorf("%q: %v", a, err)
			continue
		}
		script, got, err := runBatch(t, line)
		if err != nil {
			t.Errorf("%q: cmd.exe would run more than the script: %v\n%s", a, err, line)
			continue
		}
		if script != `C:\Program Files (x86)\node%js\npx.cmd` {
			t.Errorf("%q: cmd.exe starts %q", a, script)
		}
		if !slices.Equal(got, args) {
			t.Errorf("%q: the script receives %q, want %q\n%s", a, got, args, line)
		}
	}
}

func TestBatchCommandLineRefuses(t *testing.T) {
	for i, a := range []string{"two\nlines", "cr\rhere", "a\r\n&calc.exe", "nul\x00byte"} {
		_, err := BatchCommandLine(`C:\x\run.cmd`, []string{"fine", a})
		var unsafe *UnsafeArgError
		if !errors.As(err, &unsafe) || unsafe.Index != 1 || !strings.Contains(err.Error(), "argument 2") {
			t.Errorf("case %d %q: %v, want an UnsafeArgError naming argument 2", i, a, err)
		}
	}
	for _, script := range []string{`C:\x"y\run.cmd`, `C:\x\`} {
		if _, err := BatchCommandLine(script, nil); err == nil {
			t.Errorf("script %q accepted", script)
		}
	}
}

// TestBatchCommandLineExact pins the exact lines for a few arguments.
func TestBatchCommandLineExact(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{nil, `cmd.exe /e:ON /v:OFF /d /c ""C:\n\npx.cmd""`},
		{[]string{"-y", "@modelcontextprotocol/server-filesystem", `C:\Users\Ada Lovelace\`},
			`cmd.exe /e:ON /v:OFF /d /c ""C:\n\npx.cmd" -y @modelcontextprotocol/server-filesystem "C:\Users\Ada Lovelace\\""`},
		{[]string{`"&calc.exe`}, `cmd.exe /e:ON /v:OFF /d /c ""C:\n\npx.cmd" """&calc.exe""`},
		{[]string{`%PATH%`}, `cmd.exe /e:ON /v:OFF /d /c ""C:\n\npx.cmd" "%%cd:~,%PATH%%cd:~,%""`},
		{[]string{""}, `cmd.exe /e:ON /v:OFF /d /c ""C:\n\npx.cmd" """`},
	}
	for _, c := range cases {
		got, err := BatchCommandLine(`C:\n\npx.cmd`, c.args)
		if err != nil || got != c.want {
			t.Errorf("BatchCommandLine(%q) = %s, %v\nwant %s", c.args, got, err, c.want)
		}
	}
}
