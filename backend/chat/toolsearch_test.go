package chat

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"mcpdesk/backend/llm"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
)

func nilSettings() store.ConversationSettings { return store.ConversationSettings{} }

func llmToolDef(name, desc, schema string) llm.ToolDef {
	return llm.ToolDef{Name: name, Description: desc, Parameters: json.RawMessage(schema)}
}

// offeredNames lists the tool names a chat request offered.
func offeredNames(t testing.TB, r llmtest.Request) []string {
	t.Helper()
	var names []string
	tools, _ := r.Body["tools"].([]any)
	for _, x := range tools {
		m, _ := x.(map[string]any)
		if f, ok := m["function"].(map[string]any); ok {
			names = append(names, f["name"].(string))
		} else if n, ok := m["name"].(string); ok {
			names = append(names, n)
		}
	}
	return names
}

// With more tools than the budget, the model is offered search_tools; a
// search makes the tools it finds callable for the rest of the turn, and a
// found tool runs like any other (approved by policy, on its server).
func TestToolSearchOffersTheMetaToolThenTheToolsFound(t *testing.T) {
	for _, ollama := range []bool{false, true} {
		name := map[bool]string{false: "openai", true: "ollama"}[ollama]
		t.Run(name, func(t *testing.T) {
			en := newEnv(t, envConfig{ollama: ollama, servers: []mcpconfig.Server{testServer("big", "--tools", "40")}})
			en.waitTool("big", "tool_0040")
			en.allow("server", "big", "")
			en.llm.Script(
				llmtest.ToolTurn(llmtest.ToolCall{ID: "s1", Name: SearchToolName, Arguments: `{"query":"generated tool 0007"}`}),
				llmtest.ToolTurn(llmtest.ToolCall{ID: "c1", Name: "big__tool_0007", Arguments: `{"input":"hi"}`}),
				llmtest.TextTurn("Done."),
			)
			conv := en.newConv(nil)
			res := en.send(conv.ID, "Use the seventh generated tool")
			if d := en.done(res.TurnID); d.Reason != DoneStop {
				t.Fatalf("done %+v\n%s", d, en.rec.dump())
			}
			reqs := en.llm.Requests()
			first, second := offeredNames(t, reqs[0]), offeredNames(t, reqs[1])
			if len(first) != 1 || first[0] != SearchToolName {
				t.Errorf("first call offered %v", first)
			}
			if !slices.Contains(second, "big__tool_0007") || !slices.Contains(second, SearchToolName) || len(second) > 1+searchLimit {
				t.Errorf("after the search: %v", second)
			}
			var desc string
			raw := string(reqs[0].Raw)
			if i := strings.Index(raw, "Finds tools to call."); i >= 0 {
				desc = raw[i:min(len(raw), i+200)]
			}
			if !strings.Contains(desc, "from these MCP servers: big (") {
				t.Errorf("search_tools does not name the servers: %q", desc)
			}
			if got := toolMessage(t, reqs[1], "s1"); !strings.Contains(got, "- big__tool_0007: Generated tool tool_0007") {
				t.Errorf("the search answered %q", got)
			}
			if got := toolMessage(t, reqs[2], "c1"); got != "tool_0007: hi" {
				t.Errorf("the found tool answered %q", got)
			}
			msgs := en.messages(conv.ID)
			search := callOf(t, msgs, "s1")
			if search.Status != "done" || search.Tool != SearchToolName || search.Server != "" {
				t.Errorf("search call %+v", search)
			}

			// The next turn keeps the tool it used: pinned, offered at once.
			en.llm.Script(llmtest.TextTurn("Again."))
			res = en.send(conv.ID, "And again")
			en.done(res.TurnID)
			next := offeredNames(t, en.llm.Requests()[3])
			if !slices.Equal(next, []string{SearchToolName, "big__tool_0007"}) {
				t.Errorf("the next turn offered %v", next)
			}
		})
	}
}

// Off, every tool is offered; on, even a few tools go through the search;
// ToolCost says what each costs.
func TestToolSearchSettingAndCost(t *testing.T) {
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("big", "--tools", "40")}})
	en.waitTool("big", "tool_0040")
	cost := en.e.ToolCost(nilSettings(), ToolSearchAuto)
	if !cost.Searching || cost.Tools < 40 || cost.SearchTokens >= cost.Tokens/5 {
		t.Errorf("auto with %d tools: %+v", cost.Tools, cost)
	}
	if c := en.e.ToolCost(nilSettings(), ToolSearchOff); c.Searching || c.Tokens != cost.Tokens {
		t.Errorf("off: %+v", c)
	}
	if _, err := en.e.SaveSettings(en.ctx, ChatSettings{ToolSearch: "sometimes"}); err == nil {
		t.Error("an unknown tool search mode was saved")
	}
	if _, err := en.e.SaveSettings(en.ctx, ChatSettings{ToolSearch: ToolSearchOff}); err != nil {
		t.Fatal(err)
	}
	en.llm.Script(llmtest.TextTurn("All of them."))
	res := en.send(en.newConv(nil).ID, "hi")
	en.done(res.TurnID)
	if names := offeredNames(t, en.llm.Requests()[0]); len(names) != cost.Tools || slices.Contains(names, SearchToolName) {
		t.Errorf("off offered %d tools (search_tools: %v)", len(names), slices.Contains(names, SearchToolName))
	}
}

func TestSearchToolsRanking(t *testing.T) {
	off := offer{byName: map[string]*offeredTool{}}
	add := func(server, tool, desc, schema string) {
		name := server + "__" + tool
		o := &offeredTool{}
		o.Server, o.Tool, o.Name = server, tool, name
		off.byName[name] = o
		off.defs = append(off.defs, llmToolDef(name, desc, schema))
		off.all = off.defs
	}
	add("fs", "read_file", "Read the complete contents of a file.", `{"properties":{"path":{}}}`)
	add("fs", "list_directory", "List the files in a directory.", `{"properties":{"path":{}}}`)
	add("github", "create_issue", "Open an issue in a repository.", `{"properties":{"repo":{},"title":{}}}`)
	add("github", "searchRepositories", "Search GitHub repositories.", `{"properties":{"query":{}}}`)
	add("memory", "create_entities", "Create entities in the knowledge graph.", `{}`)
	for query, want := range map[string]string{
		"read a file":         "fs__read_file",
		"open issue":          "github__create_issue",
		"repositories search": "github__searchRepositories",
		"knowledge graph":     "memory__create_entities",
		"directory listing":   "fs__list_directory",
		"create_issue":        "github__create_issue",
	} {
		if got := searchTools(off, query, 3); len(got) == 0 || got[0] != want {
			t.Errorf("%q found %v, want %s first", query, got, want)
		}
	}
	if got := searchTools(off, "weather forecast", 3); len(got) != 0 {
		t.Errorf("nothing should match: %v", got)
	}
	if n := estimateTokens(off.defs); n < 50 || n > 400 {
		t.Errorf("estimate %d tokens", n)
	}
	var def map[string]any
	json.Unmarshal(searchToolDef(off).Parameters, &def)
	if def["required"] == nil {
		t.Error("search_tools must require a query")
	}
}
