package shellenv

import (
	"fmt"
	"strings"
	"unicode"
)

// Command is how to start a resolved program.
type Command struct {
	// Path is the program to start.
	Path string
	// Args are its arguments, without the program itself.
	Args []string
	// Line, when not empty, is the complete command line the program gets
	// as it is, instead of one built from Args (Windows only: a batch file
	// runs through cmd.exe, which parses its command line its own way).
	Line string
}

// UnsafeArgError reports an argument that cannot be handed to a batch
// file: cmd.exe would end the command at a line break, so what follows
// could not reach the script as an argument — it would be lost, or run.
type UnsafeArgError struct {
	Index  int    // among the arguments, from 0
	Arg    string // the argument
	Reason string
}

func (e *UnsafeArgError) Error() string {
	arg := e.Arg
	if r := []rune(arg); len(r) > 60 {
		arg = string(r[:59]) + "…"
	}
	return fmt.Sprintf("argument %d (%q) cannot be passed to a Windows batch file (.cmd, .bat) safely: %s", e.Index+1, arg, e.Reason)
}

// BatchCommandLine returns the command line that runs the batch file
// script (a .cmd or .bat, such as npx.cmd) with args through cmd.exe, such
// that the script receives each argument as given and no argument can
// make cmd.exe do anything else (the "BatBadBut" class of bugs,
// CVE-2024-24576). It follows the rules Rust's standard library adopted
// for the same fix:
//
//   - the line is cmd.exe /e:ON /v:OFF /d /c ""SCRIPT" ARG…": /d skips the
//     AutoRun commands, /v:OFF leaves "!" alone (no delayed expansion),
//     /e:ON keeps the extensions the %-trick below needs, and /c strips the
//     outer pair of quotes, leaving the script's path quoted;
//   - an argument with anything but letters, digits and #$*+-./:?@\_ (or
//     that is empty, or ends in a backslash) is put in double quotes:
//     inside them, cmd.exe treats & | < > ^ ( ) and spaces as text;
//   - a double quote inside an argument is doubled (""), which keeps cmd.exe
//     inside the quotes and which the script's C runtime reads back as one
//     quote; backslashes before a quote or the closing quote are doubled,
//     as the C runtime expects;
//   - a % becomes %%cd:~,%: cmd.exe expands %…% even inside quotes, and
//     this is an empty substring of %cd% that ends an expansion before the
//     % — so %PATH% reaches the script as the text %PATH%;
//   - an argument with a line break (CR or LF) or NUL is refused with an
//     *UnsafeArgError: cmd.exe cuts the command at a line break, and no
//     quoting prevents it.
//
// A script whose path holds a double quote or ends in a backslash is
// refused too (no Windows file name does). Scripts that turn on delayed
// expansion themselves (setlocal EnableDelayedExpansion) and then use
// their arguments may still expand !VAR! in them; that is the script's
// doing and cannot be quoted against from outside.
func BatchCommandLine(script string, args []string) (string, error) {
	if strings.Contains(script, `"`) || strings.HasSuffix(script, `\`) || strings.ContainsAny(script, "\r\n\x00") {
		return "", fmt.Errorf("batch file %q: a Windows file name cannot contain a double quote or line break, or end in a backslash", script)
	}
	var b strings.Builder
	b.WriteString(`cmd.exe /e:ON /v:OFF /d /c ""`)
	writePercentSafe(&b, script)
	b.WriteByte('"')
	for i, a := range args {
		if strings.ContainsAny(a, "\r\n") {
			return "", &UnsafeArgError{Index: i, Arg: a, Reason: "it contains a line break, at which cmd.exe would end the command"}
		}
		if strings.ContainsRune(a, 0) {
			return "", &UnsafeArgError{Index: i, Arg: a, Reason: "it contains a NUL character"}
		}
		b.WriteByte(' ')
		appendBatchArg(&b, a)
	}
	b.WriteByte('"')
	return b.String(), nil
}

// appendBatchArg appends one argument, quoted as BatchCommandLine says.
func appendBatchArg(b *strings.Builder, a string) {
	quote := a == "" || strings.HasSuffix(a, `\`)
	for _, r := range a {
		if r < 0x80 && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(`#$*+-./:?@\_`, r)) ||
			unicode.IsControl(r) {
			quote = true
			break
		}
	}
	if quote {
		b.WriteByte('"')
	}
	backslashes := 0
	for _, r := range a {
		switch r {
		case '\\':
			backslashes++
			b.WriteByte('\\')
			continue
		case '"':
			// n backslashes before a quote become 2n, then "" is one quote.
			b.WriteString(strings.Repeat(`\`, backslashes))
			b.WriteString(`""`)
		case '%':
			b.WriteString("%%cd:~,%")
		default:
			b.WriteRune(r)
		}
		backslashes = 0
	}
	if quote {
		// n backslashes before the closing quote become 2n.
		b.WriteString(strings.Repeat(`\`, backslashes))
		b.WriteByte('"')
	}
}

// writePercentSafe writes s with each % neutralised as in appendBatchArg.
func writePercentSafe(b *strings.Builder, s string) {
	b.WriteString(strings.ReplaceAll(s, "%", "%%cd:~,%"))
}
