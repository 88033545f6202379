package chat

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"mcpdesk/backend/llm"
	"mcpdesk/backend/store"
)

// Tool search (issue 16). With many servers enabled, the tools' schemas
// fill the context window and small local models lose their way. Past a
// budget the model is offered one meta-tool, search_tools, and the tools
// the conversation has used; a search answers with the best matching
// tools (name and description) and makes them callable for the rest of
// the turn. It is a function tool like any other, so every provider that
// calls tools, Ollama included, can use it. The search runs in MCP Desk,
// over the tools' metadata: nothing reaches a server, and it needs no
// approval.

// SearchToolName is the meta-tool's name. MCP tools are offered as
// server__tool (SPEC A5): a name without "__" is never one of theirs.
const SearchToolName = "search_tools"

// The values of ChatSettings.ToolSearch.
const (
	ToolSearchAuto = "auto"
	ToolSearchOn   = "on"
	ToolSearchOff  = "off"
)

// Where "auto" turns tool search on: more tools than this, or tool
// definitions estimated at more tokens than this.
const (
	ToolSearchMaxTools  = 30
	ToolSearchMaxTokens = 8000
	// pinnedTools is how many tools used earlier in the conversation stay offered.
	pinnedTools = 8
	// searchLimit is the most tools one search returns (the model may ask for fewer).
	searchLimit = 8
)

// ToolCost is what a conversation's tools cost a model call, in tokens
// (estimated: a quarter of the JSON the provider is sent, as OpenAI's
// tokenizers average on English and JSON), with and without tool search.
type ToolCost struct {
	Tools int `json:"tools"`
	// Tokens is every tool's definition.
	Tokens int `json:"tokens"`
	// SearchTokens is what the first call of a turn sends with tool search:
	// search_tools and the pinned tools.
	SearchTokens int `json:"searchTokens"`
	// Searching says tool search is on for this conversation (the setting,
	// and with "auto" the budget).
	Searching bool `json:"searching"`
}

// estimateTokens is the tokens defs cost a request, estimated from their JSON.
func estimateTokens(defs []llm.ToolDef) int {
	n := 0
	for _, d := range defs {
		// As providers receive it: {"type":"function","function":{…}}.
		b, _ := json.Marshal(d)
		n += len(b) + 32
	}
	return (n + 3) / 4
}

// searching reports whether tool search is on for an offer.
func searching(mode string, off offer) bool {
	switch mode {
	case ToolSearchOn:
		return len(off.defs) > 0
	case ToolSearchOff:
		return false
	}
	return len(off.defs) > ToolSearchMaxTools || estimateTokens(off.defs) > ToolSearchMaxTokens
}

// toolSearch is one turn's tool search: the tools found so far.
type toolSearch struct {
	mu    sync.Mutex
	found []string
}

func (s *toolSearch) add(names []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		if !slices.Contains(s.found, n) {
			s.found = append(s.found, n)
		}
	}
}

func (s *toolSearch) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.found)
}

// narrow is off as a turn with tool search offers it: search_tools, the
// tools pinned (used earlier in the conversation) and those found. Every
// tool stays callable by name (byName): a model that knows one calls it,
// checked and approved as any call.
func narrow(off offer, pinned, found []string) offer {
	keep := map[string]bool{}
	for _, n := range append(slices.Clone(pinned), found...) {
		keep[n] = true
	}
	out := offer{servers: off.servers, byName: off.byName, searching: true, all: off.defs}
	out.defs = append(out.defs, searchToolDef(off))
	for _, d := range off.defs {
		if keep[d.Name] {
			out.defs = append(out.defs, d)
		}
	}
	return out
}

// searchToolDef is search_tools as the model sees it; its description says
// which servers are there and how many tools each has.
func searchToolDef(off offer) llm.ToolDef {
	count := map[string]int{}
	for _, d := range off.defs {
		count[off.byName[d.Name].Server]++
	}
	var servers []string
	for _, id := range off.servers {
		if count[id] > 0 {
			servers = append(servers, fmt.Sprintf("%s (%d)", id, count[id]))
		}
	}
	return llm.ToolDef{
		Name: SearchToolName,
		Description: fmt.Sprintf("Finds tools to call. %d tools are available from these MCP servers: %s. "+
			"Search with a few keywords of what you need to do; the tools found can be called right away, for the rest of this turn.",
			len(off.defs), strings.Join(servers, ", ")),
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"query":{"type":"string","description":"Keywords: what the tool should do, or its name"},` +
			fmt.Sprintf(`"limit":{"type":"integer","minimum":1,"maximum":%d,"description":"How many tools at most (default %d)"}},`, searchLimit, searchLimit/2+1) +
			`"required":["query"]}`),
	}
}

// pinnedOf lists the tools called in msgs, the latest first, at most pinnedTools.
func pinnedOf(msgs []store.Message) []string {
	var out []string
	for i := len(msgs) - 1; i >= 0 && len(out) < pinnedTools; i-- {
		for _, c := range msgs[i].ToolCalls {
			if c.Name != SearchToolName && !slices.Contains(out, c.Name) && len(out) < pinnedTools {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

// words splits s into lower-case words (letters and digits), splitting
// snake_case, kebab-case and camelCase too.
func words(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	prevLower := false
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			if prevLower {
				flush()
			}
			cur.WriteRune(unicode.ToLower(r))
			prevLower = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur.WriteRune(r)
			prevLower = unicode.IsLower(r)
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return out
}

// searchTools ranks every tool of a narrowed offer (off.all) for query: a word of the query in a
// tool's name counts most, in its parameters' names next, in its
// description least; a word also matches a longer one it begins
// ("file" finds "files"). It returns at most limit names, best first, and
// none when nothing matches.
func searchTools(off offer, query string, limit int) []string {
	q := words(query)
	if len(q) == 0 {
		return nil
	}
	type scored struct {
		name  string
		score int
		order int
	}
	var hits []scored
	for i, d := range off.all {
		o := off.byName[d.Name]
		name := words(o.Server + " " + o.Tool + " " + o.Title)
		var params []string
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		_ = json.Unmarshal(d.Parameters, &schema)
		for p := range schema.Properties {
			params = append(params, words(p)...)
		}
		desc := words(d.Description)
		score := 0
		for _, w := range q {
			score += 6*matches(name, w) + 3*matches(params, w) + min(matches(desc, w), 3)
		}
		if strings.EqualFold(query, d.Name) || strings.EqualFold(query, o.Tool) {
			score += 100
		}
		if score > 0 {
			hits = append(hits, scored{d.Name, score, i})
		}
	}
	sort.Slice(hits, func(a, b int) bool {
		if hits[a].score != hits[b].score {
			return hits[a].score > hits[b].score
		}
		return hits[a].order < hits[b].order
	})
	out := make([]string, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.name)
	}
	return out
}

// matches counts the words of list that are w or begin with it (w of at
// least 3 letters).
func matches(list []string, w string) int {
	n := 0
	for _, x := range list {
		if x == w || len(w) >= 3 && strings.HasPrefix(x, w) {
			n++
		}
	}
	return n
}

// runSearch answers a search_tools call: the tools found, each with its
// description, now callable; or why nothing was found.
func (e *Engine) runSearch(t *turn, c store.ToolCall, off offer) store.ToolCall {
	var args struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	c.Server, c.Tool, c.Approval = "", SearchToolName, store.ApprovalReadOnly
	if err := json.Unmarshal([]byte(objectOrEmpty(c.Arguments)), &args); err != nil || strings.TrimSpace(args.Query) == "" {
		c.Status, c.Error = store.ToolCallError, `search_tools needs a "query": keywords of what the tool should do.`
		return c
	}
	limit := args.Limit
	if limit <= 0 || limit > searchLimit {
		limit = searchLimit/2 + 1
	}
	found := searchTools(off, args.Query, limit)
	t.search.add(found)
	var b strings.Builder
	if len(found) == 0 {
		fmt.Fprintf(&b, "No tool matches %q. Try other keywords (a verb, or the kind of thing to work on).", args.Query)
	} else {
		fmt.Fprintf(&b, "Found %d tools, now available to call:\n", len(found))
		for _, n := range found {
			d := ""
			for _, def := range off.all {
				if def.Name == n {
					d = def.Description
				}
			}
			fmt.Fprintf(&b, "- %s: %s\n", n, clip(strings.Join(strings.Fields(d), " "), 300))
		}
	}
	res, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": b.String()}}})
	c.Status, c.Result = store.ToolCallDone, res
	return c
}

// ToolCost is what the tools of a conversation with settings s cost a
// model call, with and without tool search.
func (e *Engine) ToolCost(s store.ConversationSettings, mode string) ToolCost {
	off := e.offer(s)
	searched := narrow(off, nil, nil)
	return ToolCost{Tools: len(off.defs), Tokens: estimateTokens(off.defs), SearchTokens: estimateTokens(searched.defs),
		Searching: searching(mode, off)}
}
