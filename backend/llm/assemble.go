package llm

import (
	"strconv"
	"strings"
)

// assembler turns provider fragments into Deltas for the caller and builds
// the Result at the same time. It is shared by the OpenAI and Ollama clients.
type assembler struct {
	res     *Result
	onDelta func(Delta)

	content   strings.Builder
	reasoning strings.Builder
	think     thinkSplitter

	calls   []ToolCall
	args    []*strings.Builder
	realID  []bool      // the call's ID came from the provider
	byIndex map[int]int // provider index → position in calls

	delivered bool // at least one Delta reached the caller
}

func newAssembler(res *Result, onDelta func(Delta)) *assembler {
	return &assembler{res: res, onDelta: onDelta}
}

func (a *assembler) emit(d Delta) {
	a.delivered = true
	if a.onDelta != nil {
		a.onDelta(d)
	}
}

// text feeds answer content, separating a leading <think>…</think> block.
func (a *assembler) text(s string) {
	if s == "" {
		return
	}
	a.think.feed(s, a.emitText, a.emitReasoning)
}

// reasoningText feeds reasoning that the provider already separated.
func (a *assembler) reasoningText(s string) {
	if s == "" {
		return
	}
	a.emitReasoning(s)
}

func (a *assembler) emitText(s string) {
	if s == "" {
		return
	}
	a.content.WriteString(s)
	a.emit(Delta{Kind: DeltaText, Text: s})
}

func (a *assembler) emitReasoning(s string) {
	if s == "" {
		return
	}
	a.reasoning.WriteString(s)
	a.emit(Delta{Kind: DeltaReasoning, Text: s})
}

// toolFragment applies one streamed tool-call fragment. index is the
// provider's index (nil when it sent none); id and name may be empty.
func (a *assembler) toolFragment(index *int, id, name, args string) {
	pos := -1
	if index != nil {
		if a.byIndex == nil {
			a.byIndex = make(map[int]int, 2)
		}
		if p, ok := a.byIndex[*index]; ok {
			pos = p
			// Some providers reuse index 0 for every parallel call; a new
			// id under a known index is a new call.
			if id != "" && a.realID[p] && a.calls[p].ID != id {
				pos = -1
			}
		}
		if pos < 0 {
			pos = a.newCall()
			a.byIndex[*index] = pos
		}
	} else {
		n := len(a.calls)
		switch {
		case n == 0:
			pos = a.newCall()
		case id != "" && a.realID[n-1] && a.calls[n-1].ID != id:
			pos = a.newCall()
		case id != "" && !a.realID[n-1] && a.calls[n-1].Name != "" && name != "" && a.args[n-1].Len() > 0:
			// The last call had no id and is complete enough; a fragment
			// carrying both an id and a name starts the next one.
			pos = a.newCall()
		default:
			pos = n - 1
		}
	}
	c := &a.calls[pos]
	if id != "" && (!a.realID[pos] || c.ID == "") {
		c.ID = id
		a.realID[pos] = true
	}
	if name != "" && c.Name == "" {
		c.Name = name
	}
	a.args[pos].WriteString(args)
	a.emit(Delta{Kind: DeltaToolCall, Index: pos, ID: c.ID, Name: c.Name, Text: args})
}

// wholeToolCall adds a complete call (Ollama sends calls whole).
func (a *assembler) wholeToolCall(id, name, args string) {
	pos := a.newCall()
	c := &a.calls[pos]
	if id != "" {
		c.ID = id
		a.realID[pos] = true
	}
	c.Name = name
	a.args[pos].WriteString(args)
	a.emit(Delta{Kind: DeltaToolCall, Index: pos, ID: c.ID, Name: c.Name, Text: args})
}

func (a *assembler) newCall() int {
	pos := len(a.calls)
	a.calls = append(a.calls, ToolCall{ID: "call_" + strconv.Itoa(pos)})
	a.args = append(a.args, new(strings.Builder))
	a.realID = append(a.realID, false)
	return pos
}

// flush releases text held back by the <think> detector and copies what has
// arrived into the Result. It is called on success and on failure.
func (a *assembler) flush() {
	a.think.flush(a.emitText, a.emitReasoning)
	a.res.Content = a.content.String()
	a.res.Reasoning = a.reasoning.String()
	if len(a.calls) > 0 {
		a.res.ToolCalls = make([]ToolCall, len(a.calls))
		for i := range a.calls {
			c := a.calls[i]
			c.Arguments = a.args[i].String()
			a.res.ToolCalls[i] = c
		}
	}
}

// finish completes a successful Result: empty arguments become "{}" and a
// response with tool calls reports FinishReason "tool_calls" even when the
// provider said "stop".
func (a *assembler) finish() {
	a.flush()
	for i := range a.res.ToolCalls {
		if strings.TrimSpace(a.res.ToolCalls[i].Arguments) == "" {
			a.res.ToolCalls[i].Arguments = "{}"
		}
	}
	if len(a.res.ToolCalls) > 0 && (a.res.FinishReason == "" || a.res.FinishReason == "stop") {
		a.res.FinishReason = "tool_calls"
	}
	if a.res.FinishReason == "" {
		a.res.FinishReason = "stop"
	}
}

// ---- <think> tags -------------------------------------------------------------

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

type thinkState uint8

const (
	thinkDetect thinkState = iota // deciding whether content starts with <think>
	thinkInside                   // inside <think>…</think>
	thinkAfter                    // just after </think>: drop leading blank lines
	thinkText                     // plain answer text
)

// thinkSplitter moves a <think>…</think> block at the very start of the
// content (as DeepSeek-R1, Qwen3 and others emit it through plain
// OpenAI-compatible servers) to reasoning. Tags may be split across chunks.
type thinkSplitter struct {
	state   thinkState
	pending string // held back: a possible tag, or the tail of the reasoning
	started bool   // reasoning emitted since <think>
}

func (t *thinkSplitter) feed(s string, text, reasoning func(string)) {
	for s != "" {
		switch t.state {
		case thinkText:
			text(s)
			return
		case thinkDetect:
			buf := t.pending + s
			s = ""
			trimmed := strings.TrimLeft(buf, " \t\r\n")
			switch {
			case strings.HasPrefix(trimmed, thinkOpen):
				t.pending = ""
				t.state = thinkInside
				s = trimmed[len(thinkOpen):]
			case trimmed == "" || strings.HasPrefix(thinkOpen, trimmed):
				t.pending = buf // wait for more
			default:
				t.pending = ""
				t.state = thinkText
				text(buf)
			}
		case thinkInside:
			buf := t.pending + s
			s = ""
			if !t.started {
				buf = strings.TrimLeft(buf, "\r\n")
			}
			if i := strings.Index(buf, thinkClose); i >= 0 {
				t.emitReasoning(buf[:i], reasoning)
				t.pending = ""
				t.state = thinkAfter
				s = buf[i+len(thinkClose):]
				continue
			}
			keep := partialSuffix(buf, thinkClose)
			t.emitReasoning(buf[:len(buf)-keep], reasoning)
			t.pending = buf[len(buf)-keep:]
		case thinkAfter:
			s = strings.TrimLeft(s, "\r\n")
			if s != "" {
				t.state = thinkText
			}
		}
	}
}

func (t *thinkSplitter) emitReasoning(s string, reasoning func(string)) {
	if s == "" {
		return
	}
	t.started = true
	reasoning(s)
}

// flush releases whatever is held back at the end of the stream.
func (t *thinkSplitter) flush(text, reasoning func(string)) {
	p := t.pending
	t.pending = ""
	if p == "" {
		return
	}
	switch t.state {
	case thinkDetect:
		text(p)
	case thinkInside:
		t.emitReasoning(p, reasoning)
	}
}

// partialSuffix returns the length of the longest suffix of s that is a
// proper prefix of tag.
func partialSuffix(s, tag string) int {
	max := len(tag) - 1
	if max > len(s) {
		max = len(s)
	}
	for n := max; n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}
