package llm

import (
	"strings"
	"testing"
)

// Every way of splitting a response into two or three chunks gives the
// same reasoning and content.
func TestThinkSplitterAnySplit(t *testing.T) {
	inputs := []struct{ in, reasoning, content string }{
		{"<think>\nweigh options\n</think>\n\nFinal answer.", "weigh options\n", "Final answer."},
		{"No thinking here, <think> is just text.", "", "No thinking here, <think> is just text."},
		{"<thinking>not our tag", "", "<thinking>not our tag"},
		{"<think></think>Empty thoughts", "", "Empty thoughts"},
		{"<think>a</thin", "a</thin", ""},
	}
	for _, tc := range inputs {
		s := tc.in
		for i := 0; i <= len(s); i++ {
			for j := i; j <= len(s); j++ {
				var r, c strings.Builder
				var sp thinkSplitter
				text := func(x string) { c.WriteString(x) }
				reason := func(x string) { r.WriteString(x) }
				for _, part := range []string{s[:i], s[i:j], s[j:]} {
					if part != "" {
						sp.feed(part, text, reason)
					}
				}
				sp.flush(text, reason)
				if r.String() != tc.reasoning || c.String() != tc.content {
					t.Fatalf("%q split at %d,%d: reasoning=%q content=%q", s, i, j, r.String(), c.String())
				}
			}
		}
	}
}

func TestToolFragmentNewIDUnderSameIndex(t *testing.T) {
	res := &Result{}
	a := newAssembler(res, nil)
	zero := 0
	a.toolFragment(&zero, "call_a", "one", `{"a":1}`)
	a.toolFragment(&zero, "call_b", "two", `{"b":2}`) // Gemini-style: index 0 for every call
	a.finish()
	if len(res.ToolCalls) != 2 || res.ToolCalls[1].Name != "two" || res.ToolCalls[1].Arguments != `{"b":2}` {
		t.Fatalf("calls = %+v", res.ToolCalls)
	}
}
