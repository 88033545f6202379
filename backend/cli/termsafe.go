package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// Text from servers and models reaches the terminal: tool names and
// descriptions, results, errors quoting a server, elicitation questions,
// sampling requests, replies, stderr tails. A terminal obeys the control
// characters in it — "\x1b[2K\r" erases the line it is on, OSC 52 writes
// the clipboard, OSC 8 makes a link, bidi controls reorder what is shown —
// so a server could rewrite the approval prompt. The command line
// therefore never writes a control character it did not put there
// itself: text output goes through termWriter, which shows each one as a
// visible stand-in (termSafe), and JSON output escapes them (jsonSafe).

// unsafeRune reports whether r must not reach a terminal as it is: C0
// controls other than newline and tab, DEL, C1 controls (U+0080–U+009F,
// among them the 8-bit CSI U+009B), bidirectional controls, invisible
// characters that hide text (zero-width space, word joiner, invisible
// operators, byte order mark, tag characters) and the line and paragraph
// separators. Zero-width joiner and non-joiner are kept: emoji sequences
// and Persian and Indic scripts need them, and they move nothing.
func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi
		return true
	case r == 0x200b, r >= 0x2060 && r <= 0x2064, r == 0xfeff, r >= 0xe0000 && r <= 0xe007f: // invisible
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// termSafe returns s with every unsafe rune made visible: ESC as ␛, other
// C0 controls as their Control Pictures (U+2400–U+241F; a carriage return
// as ␍), DEL as ␡, everything else as ⟨U+XXXX⟩, and bytes that are not
// UTF-8 (a raw 8-bit CSI, 0x9B) as ⟨0xXX⟩. Newlines and tabs stay, and a
// carriage return right before a newline (a Windows line end) is dropped:
// it moves the cursor nowhere a newline does not. A lone carriage return
// is shown, since it would let the rest of a line overwrite its start.
// termSafe of a safe string is the string itself.
func termSafe(s string) string {
	if safeString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "⟨0x%02X⟩", s[i])
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// a CRLF line end: the newline follows
		case !unsafeRune(r):
			b.WriteString(s[i : i+n])
		default:
			b.WriteString(visibleRune(r))
		}
		i += n
	}
	return b.String()
}

// visibleRune is the stand-in of an unsafe rune.
func visibleRune(r rune) string {
	switch {
	case r == 0x7f:
		return "␡"
	case r < 0x20:
		return string(0x2400 + r) // ␀ … ␟; ESC is ␛ (U+241B)
	default:
		return fmt.Sprintf("⟨U+%04X⟩", r)
	}
}

// safeString reports whether s is valid UTF-8 without unsafe runes.
func safeString(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unsafeRune(r) {
			return false
		}
		i += n
	}
	return true
}

// termWriter writes text through termSafe. A UTF-8 sequence or a CRLF
// split across two writes is held back until the next write completes it.
type termWriter struct {
	mu   sync.Mutex
	w    io.Writer
	held []byte
}

// newTermWriter returns w writing through termSafe; a termWriter is
// returned as is.
func newTermWriter(w io.Writer) io.Writer {
	if w == nil {
		return nil
	}
	if _, ok := w.(*termWriter); ok {
		return w
	}
	return &termWriter{w: w}
}

// Write implements io.Writer; it reports len(p) written on success.
func (t *termWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	buf := p
	if len(t.held) > 0 {
		buf = append(t.held, p...)
		t.held = nil
	}
	cut := incompleteTail(buf)
	if cut < len(buf) {
		t.held = append([]byte(nil), buf[cut:]...)
		buf = buf[:cut]
	}
	if len(buf) == 0 {
		return len(p), nil
	}
	if _, err := io.WriteString(t.w, termSafe(string(buf))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// incompleteTail returns where a trailing carriage return or a trailing
// incomplete UTF-8 sequence of b starts (len(b) when there is none).
func incompleteTail(b []byte) int {
	n := len(b)
	if n == 0 {
		return 0
	}
	if b[n-1] == '\r' {
		return n - 1
	}
	// A rune is at most 4 bytes: look back at most 3 for its start.
	for i := n - 1; i >= 0 && i >= n-3; i-- {
		c := b[i]
		if c < 0x80 {
			return n // ASCII: nothing pending
		}
		if c >= 0xc0 { // a leading byte
			if !utf8.FullRune(b[i:]) {
				return i
			}
			return n
		}
	}
	return n
}

// jsonSafe escapes the unsafe runes of JSON text as \uXXXX. Outside
// strings JSON is ASCII, so the result is the same JSON value, and it
// shows no control character to a terminal. (encoding/json already
// escapes C0 controls, but not DEL, C1 controls or the others.)
func jsonSafe(b []byte) []byte {
	if safeString(string(b)) {
		return b
	}
	var out bytes.Buffer
	out.Grow(len(b) + 32)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out.WriteString(`\ufffd`)
		case r == '\r' || !unsafeRune(r):
			out.Write(b[i : i+n])
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
		i += n
	}
	return out.Bytes()
}

// jsonWriter writes JSON text through jsonSafe. json.Encoder writes each
// value whole, so no rune is split across two writes.
type jsonWriter struct{ w io.Writer }

func (j jsonWriter) Write(p []byte) (int, error) {
	if _, err := j.w.Write(jsonSafe(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
