package mcpconfig

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The import preview (SPEC F3, F6): before servers from another client's
// file are added, the user sees everything that will run or be sent —
// program, every argument, working folder, every environment variable and
// header, the URL and its host — with secret values masked, every ${VAR}
// the server reads from the user's environment, warnings on settings that
// change how programs load code, and, for a server that replaces one
// already configured, what changes. Nothing here reaches the frontend with
// a secret value in it: TestPreviewNeverShowsSecrets and
// FuzzImportPreview check that.

// ServerPreview is one server of a file to import as the preview shows it.
// Every text in it is safe to show: secrets are masked (see Shown) and
// control, invisible and bidirectional characters are made visible.
type ServerPreview struct {
	ID        string    `json:"id"`
	Transport Transport `json:"transport" ts_type:"'stdio' | 'http' | 'sse'"`
	// Summary is the command line or URL on one line, for a collapsed row.
	Summary string `json:"summary"`
	// Enabled is false for a server the file imports switched off.
	Enabled bool `json:"enabled"`
	// Replaces is true when a server with this id is already configured:
	// importing replaces it. Changes then lists what differs; none means
	// the two are identical.
	Replaces bool     `json:"replaces"`
	Changes  []Change `json:"changes"`

	// A stdio server: the program, its arguments (one each), its working
	// folder and its environment variables, sorted by name.
	Command Shown   `json:"command"`
	Args    []Shown `json:"args"`
	Cwd     Shown   `json:"cwd"`
	Env     []Pair  `json:"env"`
	// A remote server: the URL, the host it connects to ("" when the URL
	// has none), and the headers sent with every request, sorted by name.
	URL     Shown  `json:"url"`
	Host    string `json:"host"`
	Headers []Pair `json:"headers"`
	// Roots are the folders the server may work in.
	Roots []Shown `json:"roots"`

	// Reads are the environment variables the server reads from the
	// user's environment (${VAR}), sorted; Inputs the VS Code inputs
	// (${input:id}) it refers to, which MCP Desk does not prompt for.
	Reads  []string `json:"reads"`
	Inputs []string `json:"inputs"`
	// Warnings are the settings the user should look at twice.
	Warnings []Warning `json:"warnings"`

	// Line and Col are where the entry is in the file (0 when not
	// known). Problems say what is wrong with it: an entry with problems
	// cannot be imported, and then only its id is shown (see
	// PreviewEntries).
	Line     int       `json:"line"`
	Col      int       `json:"col"`
	Problems []Problem `json:"problems"`
}

// Shown is one value as the preview shows it.
type Shown struct {
	// Text is the value. For a secret it is only a hint such as
	// "sk-…9f2c" (Secret is set); parts of a value that are secrets are
	// replaced by *** (Partial is set).
	Text    string `json:"text"`
	Secret  bool   `json:"secret"`
	Partial bool   `json:"partial"`
	// Length is the length of a secret value in characters; 0 otherwise.
	Length int `json:"length"`
	// Reads are the variables the value reads from the user's environment
	// (${VAR}, ${VAR:-default}, ${env:VAR}), in order of appearance.
	Reads []string `json:"reads"`
}

// Pair is an environment variable or a header.
type Pair struct {
	Name  string `json:"name"`
	Value Shown  `json:"value"`
}

// Change is one setting that differs between a configured server and the
// imported one that replaces it. Values are shown as in ServerPreview.
type Change struct {
	// Field is the setting: transport, command, args, cwd, env, url,
	// headers, enabled, timeoutMs, maxConcurrency, protocolVersion,
	// allowTools, denyTools, roots, or other (a field MCP Desk keeps but
	// does not use).
	Field string `json:"field" ts_type:"'transport' | 'command' | 'args' | 'cwd' | 'env' | 'url' | 'headers' | 'enabled' | 'timeoutMs' | 'maxConcurrency' | 'protocolVersion' | 'allowTools' | 'denyTools' | 'roots' | 'other'"`
	// Name is the variable, header or field name for env, headers and
	// other; "" for the rest.
	Name string `json:"name"`
	// Old and New are the values before and after: one for a single
	// value, one per item for a list; empty when not set.
	Old []Shown `json:"old"`
	New []Shown `json:"new"`
}

// Warning is something in a server's settings the user should look at
// twice. Code names the message (the UI translates "importer.warning." +
// Code) and Params fill it in; String gives the English text.
type Warning struct {
	Code   string            `json:"code"`
	Params map[string]string `json:"params"`
}

// PreviewImport returns the preview of servers read from a file (in their
// order), judged against the servers already configured. The secrets of
// all of them are hidden wherever they appear: a key of one server written
// in another's arguments is masked there too.
func PreviewImport(existing, servers []Server) []ServerPreview {
	h := newHider(append(slices.Clone(existing), servers...))
	out := make([]ServerPreview, 0, len(servers))
	for _, s := range servers {
		var old *Server
		if i := slices.IndexFunc(existing, func(e Server) bool { return e.ID == s.ID }); i >= 0 {
			old = &existing[i]
		}
		out = append(out, preview(s, old, h))
	}
	return out
}

// Preview returns the preview of one server; old is the configured server
// it replaces, or nil.
func Preview(s Server, old *Server) ServerPreview {
	all := []Server{s}
	if old != nil {
		all = append(all, *old)
	}
	return preview(s, old, newHider(all))
}

// preview returns the preview of s, hiding the secrets h knows.
func preview(s Server, old *Server, h *hider) ServerPreview {
	p := &previewer{srv: s, hider: h}
	v := ServerPreview{
		ID:        s.ID,
		Transport: s.Effective(),
		Enabled:   enabledOf(s),
		Changes:   []Change{},
		Command:   Shown{Reads: []string{}},
		Args:      []Shown{},
		Cwd:       Shown{Reads: []string{}},
		URL:       Shown{Reads: []string{}},
		Env:       []Pair{},
		Headers:   []Pair{},
		Roots:     []Shown{},
		Reads:     []string{},
		Inputs:    nonNilStrings(s.InputRefs()),
		Warnings:  []Warning{},
		Problems:  []Problem{},
	}
	if old != nil {
		v.Replaces = true
		// Previewers of their own: the notes of a diff are not this
		// preview's.
		v.Changes = diff(&previewer{srv: *old, hider: h}, &previewer{srv: s, hider: h})
	}
	if v.Transport == Stdio {
		v.Command = p.plain(s.Command, "command", "", p.serverEnvSets)
		for i := range s.Args {
			v.Args = append(v.Args, p.arg(i))
		}
		v.Cwd = p.plain(s.Cwd, "cwd", "", p.serverEnvSets)
		for _, k := range sortedKeys(s.Env) {
			v.Env = append(v.Env, Pair{Name: p.name(k, "env"), Value: p.env(k)})
		}
	} else {
		v.URL = p.url(s.URL)
		v.Host = p.host(s.URL)
		for _, k := range sortedKeys(s.Headers) {
			v.Headers = append(v.Headers, Pair{Name: p.name(k, "header"), Value: p.header(k)})
		}
	}
	for _, r := range s.Roots {
		v.Roots = append(v.Roots, p.plain(r, "root", "", nil))
	}
	v.Summary = summaryOf(v)
	v.Reads = readsOf(v)
	v.Warnings = append(append(v.Warnings, p.warnings(v)...), p.notes...)
	for _, id := range v.Inputs {
		v.Warnings = append(v.Warnings, Warning{Code: WarnInput, Params: map[string]string{"name": id}})
	}
	return v
}

// previewer shows the values of one server.
type previewer struct {
	srv   Server
	hider *hider
	notes []Warning
}

// hider knows every secret of the servers being previewed (and of those
// they replace), so that none shows through another field: a key passed
// both in env and in an argument is masked in both.
type hider struct {
	// scrub replaces every secret of at least minHidden bytes by ***.
	scrub *strings.Replacer
	// secrets are what scrub hides: each value, and the env or header
	// name that holds it ("" for a key found by its look), for the
	// "hidden" warning.
	secrets map[string]string
	// order lists the secrets longest first; tag (made when first
	// needed) replaces each by its index, to tell which one is where.
	order []string
	tag   *strings.Replacer
}

// minHidden is the shortest secret hidden wherever it appears. Shorter
// ones are masked where they are set but not elsewhere: hiding every
// "node" or "curl" in a command line because a password is "node" would
// let a file hide what it runs.
const minHidden = 8

// newHider collects the secrets of servers.
func newHider(servers []Server) *hider {
	h := &hider{secrets: map[string]string{}}
	for _, s := range servers {
		h.collect(s)
	}
	// Longest first: a secret containing another is hidden whole.
	list := make([]string, 0, len(h.secrets))
	for v := range h.secrets {
		list = append(list, v)
	}
	slices.SortFunc(list, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	pairs := make([]string, 0, 2*len(list))
	for _, v := range list {
		pairs = append(pairs, v, mask)
	}
	h.scrub = strings.NewReplacer(pairs...)
	h.order = list
	return h
}

// collect adds the secrets of s.
func (h *hider) collect(s Server) {
	add := func(v, from string) {
		if len(v) >= minHidden {
			if _, dup := h.secrets[v]; !dup {
				h.secrets[v] = from
			}
		}
	}
	for _, k := range sortedKeys(s.Env) {
		if v := s.Env[k]; secretEnv(k, v) {
			add(v, k)
		}
	}
	for _, k := range sortedKeys(s.Headers) {
		if v := s.Headers[k]; secretHeaderValue(k, v) {
			add(v, k)
			add(v[len(authScheme.FindString(v)):], k)
		}
	}
	for _, v := range urlSecrets(s.URL) {
		add(v, "")
	}
	for i, a := range s.Args {
		for _, v := range argSecrets(s.Args, i) {
			if !onlyRefs(v) {
				add(v, "")
			}
		}
		if looksLikeKey(a) {
			add(a, "")
		}
	}
	// Keys written inside longer text ("--header=Bearer ghp_…").
	texts := append([]string{s.Command, s.Cwd, s.URL}, s.Args...)
	texts = append(texts, s.Roots...)
	for _, k := range sortedKeys(s.Env) {
		texts = append(texts, s.Env[k])
	}
	for _, k := range sortedKeys(s.Headers) {
		texts = append(texts, s.Headers[k])
	}
	for _, t := range texts {
		for _, m := range keyInText.FindAllStringSubmatch(t, -1) {
			add(m[1], "")
		}
	}
}

// serverEnvSets reports whether the server's own env sets a variable: a
// ${VAR} of those in the command, args or cwd reads the server's value,
// not the user's.
func (p *previewer) serverEnvSets(name string) bool {
	_, ok := p.srv.Env[name]
	return ok
}

// hide replaces every secret in t by ***; hidden names what was hidden
// ("" for a key found by its look). Replacing can join the pieces of
// another secret ("ab" + "***" + "cd"), so it repeats until nothing
// changes; each round makes t shorter, and after a few rounds a text that
// still changes is masked whole.
func (p *previewer) hide(t string) (out string, changed bool, hidden string) {
	for range 8 {
		next := p.hider.scrub.Replace(t)
		if next == t {
			return t, changed, hidden
		}
		if hidden == "" {
			hidden = p.firstSecretIn(t)
		}
		t, changed = next, true
	}
	return mask, true, hidden
}

// firstSecretIn returns the env or header name that holds the first
// secret in t ("" for a key found by its look): t is scanned once, with
// the secrets replaced by their number, longest first.
func (p *previewer) firstSecretIn(t string) string {
	h := p.hider
	if h.tag == nil {
		pairs := make([]string, 0, 2*len(h.order))
		for i, v := range h.order {
			pairs = append(pairs, v, "\x00"+strconv.Itoa(i)+"\x00")
		}
		h.tag = strings.NewReplacer(pairs...)
	}
	tagged := h.tag.Replace(t)
	// The first tag: t itself may hold NUL-free text only up to it.
	_, rest, ok := strings.Cut(tagged, "\x00")
	if !ok {
		return ""
	}
	num, _, _ := strings.Cut(rest, "\x00")
	i, err := strconv.Atoi(num)
	if err != nil || i < 0 || i >= len(h.order) {
		return "" // a NUL in t itself
	}
	return h.secrets[h.order[i]]
}

// plain shows a value that is not a secret itself (a command, a folder, a
// URL's text) with the secrets of other fields hidden in it. field and
// name say where it is, for warnings; set reports variables that the
// server's env sets (nil: none), which the value does not read from the
// user's environment.
func (p *previewer) plain(v, field, name string, set func(string) bool) Shown {
	text, changed, hidden := p.hide(v)
	if changed {
		p.notes = append(p.notes, Warning{Code: WarnHidden, Params: map[string]string{"field": field, "name": name, "secret": hidden}})
	}
	return p.finish(Shown{Text: text, Partial: changed, Reads: readsFromUser(v, set)}, field, name)
}

// secret shows a secret value: a hint and its length.
func (p *previewer) secret(v, field, name string, set func(string) bool) Shown {
	h, _, _ := p.hide(hint(v))
	return p.finish(Shown{Text: h, Secret: true, Length: utf8.RuneCountInString(v), Reads: readsFromUser(v, set)}, field, name)
}

// finish makes control, invisible and bidirectional characters in the
// text visible, noting where it did.
func (p *previewer) finish(s Shown, field, name string) Shown {
	if t, changed := Visible(s.Text); changed {
		// Hidden again: a character made visible could complete a
		// secret that holds its picture.
		s.Text, _, _ = p.hide(t)
		p.notes = append(p.notes, Warning{Code: WarnInvisible, Params: map[string]string{"field": field, "name": name}})
	}
	if s.Reads == nil {
		s.Reads = []string{}
	}
	return s
}

// name shows an env variable or header name: never a secret, but it may
// hold characters that hide or rearrange text.
func (p *previewer) name(k, field string) string {
	t, changed := Visible(k)
	if changed {
		p.notes = append(p.notes, Warning{Code: WarnInvisible, Params: map[string]string{"field": field, "name": t}})
	}
	return t
}

// arg shows argument i.
func (p *previewer) arg(i int) Shown {
	a := p.srv.Args[i]
	n := strconv.Itoa(i + 1)
	if onlyRefs(a) {
		return p.plain(a, "arg", n, p.serverEnvSets)
	}
	masked, secret := maskArg(p.srv.Args, i)
	switch {
	case secret && masked != mask:
		// A URL with a password or a NAME=value pair: the rest stays
		// readable. Hide other secrets in what is left.
		text, _, _ := p.hide(masked)
		return p.finish(Shown{Text: text, Partial: true, Reads: readsFromUser(a, p.serverEnvSets)}, "arg", n)
	case secret || looksLikeKey(a):
		return p.secret(a, "arg", n, p.serverEnvSets)
	}
	return p.plain(a, "arg", n, p.serverEnvSets)
}

// env shows the value of env variable k. Its references read the user's
// environment (the server's own env is applied after).
func (p *previewer) env(k string) Shown {
	v := p.srv.Env[k]
	if secretEnv(k, v) {
		return p.secret(v, "env", k, nil)
	}
	return p.plain(v, "env", k, nil)
}

// header shows the value of header k.
func (p *previewer) header(k string) Shown {
	v := p.srv.Headers[k]
	if secretHeaderValue(k, v) {
		return p.secret(v, "header", k, nil)
	}
	return p.plain(v, "header", k, nil)
}

// url shows a server URL with its password and secret query values
// masked.
func (p *previewer) url(raw string) Shown {
	m := maskURLString(raw)
	text, changed, _ := p.hide(m)
	return p.finish(Shown{Text: text, Partial: changed || m != raw, Reads: readsFromUser(raw, nil)}, "url", "")
}

// host returns the host (and port) a URL connects to, secrets hidden.
func (p *previewer) host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	h, _, _ := p.hide(u.Host)
	h, _ = Visible(h)
	h, _, _ = p.hide(h)
	return h
}

// secretEnv reports whether an env value is a secret: by its name
// (*KEY*, *TOKEN*, *SECRET*, *PASSWORD*, AUTH*, …) or by its look. A
// value that only refers to other variables ("${GITHUB_TOKEN}") holds no
// secret itself.
func secretEnv(name, v string) bool {
	if v == "" || onlyRefs(v) {
		return false
	}
	return secretName.MatchString(name) || looksLikeKey(v) || looksLikeKey(v[len(authScheme.FindString(v)):])
}

// secretHeaderValue reports whether a header value is a secret:
// Authorization, Cookie and the like always, others by name or look —
// unless it only refers to variables, possibly after a scheme ("Bearer
// ${TOKEN}").
func secretHeaderValue(name, v string) bool {
	cred := v[len(authScheme.FindString(v)):]
	if v == "" || onlyRefs(cred) {
		return false
	}
	return secretHeader(name) || looksLikeKey(v) || looksLikeKey(cred)
}

// onlyRefs reports whether v is nothing but ${…} references (and spaces).
func onlyRefs(v string) bool {
	if !strings.Contains(v, "${") {
		return false
	}
	rest, refs := stripRefs(v)
	return refs > 0 && strings.TrimSpace(rest) == ""
}

// stripRefs returns v without its ${…} references, and how many it had.
func stripRefs(v string) (string, int) {
	var b strings.Builder
	n := 0
	for i := 0; i < len(v); {
		switch {
		case strings.HasPrefix(v[i:], "$$"):
			b.WriteString("$$")
			i += 2
		case strings.HasPrefix(v[i:], "${"):
			end := closingBrace(v, i+2)
			if end < 0 {
				b.WriteString(v[i:])
				return b.String(), n
			}
			n++
			i = end + 1
		default:
			b.WriteByte(v[i])
			i++
		}
	}
	return b.String(), n
}

// EnvRefs returns the names of the environment variables that expanding
// s reads, in order of first appearance: ${NAME}, ${NAME:-default} (and
// the variables of its default, read when NAME is unset or empty) and
// ${env:NAME}. $$ is a literal $; ${input:id} is a VS Code input, not a
// variable. This is the syntax the app expands (shellenv.Expand), and
// FuzzImportPreview checks that every variable it reads is listed here.
func EnvRefs(s string) []string {
	var out []string
	var walk func(s string)
	walk = func(s string) {
		for i := 0; i < len(s); {
			switch {
			case strings.HasPrefix(s[i:], "$$"):
				i += 2
			case strings.HasPrefix(s[i:], "${"):
				end := closingBrace(s, i+2)
				if end < 0 {
					return
				}
				body := s[i+2 : end]
				i = end + 1
				if strings.HasPrefix(body, "input:") {
					continue
				}
				body = strings.TrimPrefix(body, "env:")
				name, def, hasDef := strings.Cut(body, ":-")
				if validVarName(name) && !slices.Contains(out, name) {
					out = append(out, name)
				}
				if hasDef {
					walk(def)
				}
			default:
				i++
			}
		}
	}
	walk(s)
	return out
}

// readsFromUser returns the variables s reads from the user's
// environment: its references less those set reports (nil: none).
func readsFromUser(s string, set func(string) bool) []string {
	refs := EnvRefs(s)
	if set != nil {
		refs = slices.DeleteFunc(refs, set)
	}
	if refs == nil {
		return []string{}
	}
	return refs
}

// closingBrace returns the index of the "}" that closes a "${" whose body
// starts at from, allowing nested references; -1 if there is none. It
// matches shellenv's.
func closingBrace(s string, from int) int {
	depth := 1
	for j := from; j < len(s); j++ {
		switch {
		case s[j] == '$' && j+1 < len(s) && s[j+1] == '{':
			depth++
			j++
		case s[j] == '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// validVarName reports whether name can be an environment variable in a
// reference: letters, digits and '_'.
func validVarName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Visible makes characters that could hide or disguise what a value says
// visible: control characters become their Unicode pictures (ESC is ␛, a
// line break ␊ — an argument must not look like two), and format,
// invisible and bidirectional characters (which can reorder what is shown)
// and spaces other than U+0020 become [U+XXXX]. It reports whether it
// changed anything.
func Visible(s string) (string, bool) {
	if !needsEscape(s) {
		return s, false
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('␡')
		case hiddenRune(r):
			fmt.Fprintf(&b, "[U+%04X]", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), true
}

func needsEscape(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || hiddenRune(r) {
			return true
		}
	}
	return false
}

// hiddenRune reports characters that show as nothing, as a space, or
// change the order of what follows.
func hiddenRune(r rune) bool {
	switch {
	case r < 0x80:
		return false
	case unicode.IsControl(r), // C1
		unicode.Is(unicode.Cf, r),                                // bidi controls, zero-width, tags, soft hyphen
		unicode.Is(unicode.Zs, r) && r != ' ',                    // no-break and other spaces
		r == 0x2028 || r == 0x2029,                               // line and paragraph separators
		unicode.Is(unicode.Variation_Selector, r),                // invisible modifiers
		r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0, // Hangul fillers
		r >= 0xe0000 && r <= 0xe0fff:                             // tags and unassigned
		return true
	}
	return false
}

// summaryOf joins a preview's command line or URL on one line.
func summaryOf(v ServerPreview) string {
	if v.Transport != Stdio {
		return v.URL.Text
	}
	words := []string{quoteWord(v.Command.Text)}
	for _, a := range v.Args {
		words = append(words, quoteWord(a.Text))
	}
	return strings.Join(words, " ")
}

// readsOf collects the variables every shown value reads, sorted.
func readsOf(v ServerPreview) []string {
	var all []string
	add := func(s Shown) { all = append(all, s.Reads...) }
	add(v.Command)
	add(v.Cwd)
	add(v.URL)
	for _, s := range v.Args {
		add(s)
	}
	for _, s := range v.Roots {
		add(s)
	}
	for _, e := range v.Env {
		add(e.Value)
	}
	for _, h := range v.Headers {
		add(h.Value)
	}
	slices.Sort(all)
	return nonNilStrings(slices.Compact(all))
}

// isLoopback reports whether a URL host is this computer.
func isLoopback(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// diff lists the settings that differ between a configured server (shown
// by o) and the one replacing it (shown by n).
func diff(o, n *previewer) []Change {
	a, b := o.srv, n.srv
	out := []Change{}
	one := func(p *previewer, v, field string) []Shown {
		if v == "" {
			return []Shown{}
		}
		return []Shown{p.plain(v, field, "", nil)}
	}
	list := func(p *previewer, vs []string, field string) []Shown {
		out := []Shown{}
		for _, v := range vs {
			out = append(out, p.plain(v, field, "", nil))
		}
		return out
	}
	scalar := func(field, x, y string) {
		if x != y {
			out = append(out, Change{Field: field, Old: one(o, x, field), New: one(n, y, field)})
		}
	}
	lists := func(field string, x, y []string) {
		if !slices.Equal(x, y) {
			out = append(out, Change{Field: field, Old: list(o, x, field), New: list(n, y, field)})
		}
	}
	number := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n)
	}
	scalar("transport", string(a.Effective()), string(b.Effective()))
	scalar("command", a.Command, b.Command)
	if !slices.Equal(a.Args, b.Args) {
		c := Change{Field: "args", Old: []Shown{}, New: []Shown{}}
		for i := range a.Args {
			c.Old = append(c.Old, o.arg(i))
		}
		for i := range b.Args {
			c.New = append(c.New, n.arg(i))
		}
		out = append(out, c)
	}
	scalar("cwd", a.Cwd, b.Cwd)
	for _, k := range unionKeys(a.Env, b.Env) {
		x, inA := a.Env[k]
		y, inB := b.Env[k]
		if inA == inB && x == y {
			continue
		}
		c := Change{Field: "env", Name: o.name(k, "env"), Old: []Shown{}, New: []Shown{}}
		if inA {
			c.Old = append(c.Old, o.env(k))
		}
		if inB {
			c.New = append(c.New, n.env(k))
		}
		out = append(out, c)
	}
	if a.URL != b.URL {
		c := Change{Field: "url", Old: []Shown{}, New: []Shown{}}
		if a.URL != "" {
			c.Old = append(c.Old, o.url(a.URL))
		}
		if b.URL != "" {
			c.New = append(c.New, n.url(b.URL))
		}
		out = append(out, c)
	}
	for _, k := range unionKeys(a.Headers, b.Headers) {
		x, inA := a.Headers[k]
		y, inB := b.Headers[k]
		if inA == inB && x == y {
			continue
		}
		c := Change{Field: "headers", Name: o.name(k, "header"), Old: []Shown{}, New: []Shown{}}
		if inA {
			c.Old = append(c.Old, o.header(k))
		}
		if inB {
			c.New = append(c.New, n.header(k))
		}
		out = append(out, c)
	}
	scalar("enabled", strconv.FormatBool(enabledOf(a)), strconv.FormatBool(enabledOf(b)))
	scalar("timeoutMs", number(a.TimeoutMs), number(b.TimeoutMs))
	scalar("maxConcurrency", number(a.MaxConcurrency), number(b.MaxConcurrency))
	scalar("protocolVersion", a.ProtocolVersion, b.ProtocolVersion)
	lists("allowTools", a.AllowTools, b.AllowTools)
	lists("denyTools", a.DenyTools, b.DenyTools)
	lists("roots", a.Roots, b.Roots)
	for _, k := range unionKeys(a.Extra, b.Extra) {
		x, y := a.Extra[k], b.Extra[k]
		if string(compact(x)) == string(compact(y)) {
			continue
		}
		c := Change{Field: "other", Name: o.name(k, "other"), Old: []Shown{}, New: []Shown{}}
		if x != nil {
			c.Old = append(c.Old, o.extra(k, x))
		}
		if y != nil {
			c.New = append(c.New, n.extra(k, y))
		}
		out = append(out, c)
	}
	return out
}

// extra shows a field MCP Desk keeps but does not use, as compact JSON;
// masked whole when its name says it is a secret.
func (p *previewer) extra(k string, v json.RawMessage) Shown {
	text := string(compact(v))
	if secretName.MatchString(k) {
		return p.secret(text, "other", k, nil)
	}
	return p.plain(text, "other", k, nil)
}

// unionKeys returns the keys of two maps, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	keys := sortedKeys(a)
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// enabledOf reports whether a server is on: enabled unless it says false.
func enabledOf(s Server) bool { return s.Enabled == nil || *s.Enabled }

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
