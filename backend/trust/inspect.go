package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Warning is one reason a tool definition looks like an attack on the
// model or the user (tool poisoning). Kind is the reason (the UI's i18n key
// is trust.warning.<kind>), Field where it was found, Params fill in the
// message.
type Warning struct {
	// Kind is one of the Warn* constants.
	Kind string `json:"kind" ts_type:"'hiddenText' | 'bidi' | 'invisible' | 'instructions' | 'sensitive' | 'exfiltration' | 'otherServer'"`
	// Field is "name", "title", "description", "annotations" or
	// "inputSchema"; Params["path"] then says where in it.
	Field string `json:"field"`
	// Params are the message's values: "count" and "chars" (code points
	// such as U+202E) for invisible text, "text" for the text hidden in
	// tag characters, "phrase" for what matched, "server" and "tool" for
	// another server's tool, "path" inside the input schema.
	Params map[string]string `json:"params,omitempty"`
}

// The kinds of Warning.
const (
	// WarnHiddenText: Unicode tag characters (U+E0000–U+E007F), invisible
	// in every font, that spell text the model reads.
	WarnHiddenText = "hiddenText"
	// WarnBidi: bidirectional controls that make text display in another
	// order than the model reads it.
	WarnBidi = "bidi"
	// WarnInvisible: zero-width and other invisible format characters,
	// variation selectors that can carry data, or control characters.
	WarnInvisible = "invisible"
	// WarnInstructions: text addressed to the model ("ignore previous
	// instructions", "do not tell the user", <IMPORTANT>, "system prompt").
	WarnInstructions = "instructions"
	// WarnSensitive: a request to read keys, credentials or other
	// clients' configuration (~/.ssh, id_rsa, .env, ~/.aws/credentials,
	// mcp.json).
	WarnSensitive = "sensitive"
	// WarnExfiltration: a request to send data out or to smuggle it
	// through a parameter ("pass it as notes", "sidechannel").
	WarnExfiltration = "exfiltration"
	// WarnOtherServer: a mention of another configured server's tool.
	WarnOtherServer = "otherServer"
)

// ToolName names a tool of another server, for WarnOtherServer.
type ToolName struct {
	Server string
	Tool   string
	// Qualified is the name models see (SPEC A5), e.g. "github__create_issue".
	Qualified string
}

// Limits of what Inspect reads: a hostile server may send megabytes.
const (
	maxScan     = 64 << 10 // bytes of one text searched for phrases
	maxStrings  = 2000     // strings of the input schema looked at
	maxPhrase   = 80       // characters of a matched phrase kept
	maxHidden   = 200      // characters of tag-character text kept
	maxCodes    = 6        // code points listed in "chars"
	maxWarnings = 20
)

// Inspector finds what looks suspicious in the tool definitions of one
// server. It is safe for concurrent use.
type Inspector struct {
	// names are the other servers' tools a description may not mention:
	// by lower-case qualified name, and by lower-case own name when that is
	// distinctive and not also a tool of this server.
	names map[string]ToolName
	// key names the set of names, for Cache.
	key string
}

// NewInspector returns an Inspector for the tools of one server. others
// are the tools of the other configured servers (for WarnOtherServer);
// own are the names of the server's own tools, which its definitions may
// mention freely.
func NewInspector(others []ToolName, own []string) *Inspector {
	in := &Inspector{names: make(map[string]ToolName, 2*len(others))}
	for _, o := range others {
		if o.Qualified != "" {
			in.names[strings.ToLower(o.Qualified)] = o
		}
		if distinctive(o.Tool) && !slices.Contains(own, o.Tool) {
			if _, taken := in.names[strings.ToLower(o.Tool)]; !taken {
				in.names[strings.ToLower(o.Tool)] = o
			}
		}
	}
	h := sha256.New()
	for _, k := range slices.Sorted(maps.Keys(in.names)) {
		h.Write([]byte(k + "\x00" + in.names[k].Server + "\x00"))
	}
	in.key = hex.EncodeToString(h.Sum(nil))
	return in
}

// Cache remembers what Inspect found, by definition hash and inspector, so
// that a definition read before is not read again (a model step offers the
// same tools as the last one). It is safe for concurrent use and holds at
// most max entries; when full it starts over.
type Cache struct {
	mu  sync.Mutex
	max int
	m   map[[2]string][]Warning
}

// NewCache returns a Cache of at most max entries.
func NewCache(max int) *Cache { return &Cache{max: max, m: map[[2]string][]Warning{}} }

// Inspect returns in.Inspect(d), from the cache when d (whose hash is
// hash) was inspected by an equal inspector before.
func (c *Cache) Inspect(in *Inspector, d Definition, hash string) []Warning {
	k := [2]string{hash, in.key}
	c.mu.Lock()
	w, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return slices.Clone(w)
	}
	w = in.Inspect(d)
	c.mu.Lock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[k] = w
	c.mu.Unlock()
	return slices.Clone(w)
}

// Inspect is NewInspector(others, own).Inspect(d).
func Inspect(d Definition, others []ToolName, own []string) []Warning {
	return NewInspector(others, own).Inspect(d)
}

// Inspect returns what looks suspicious in d, in a stable order, at most
// one warning per kind and field.
func (ins *Inspector) Inspect(d Definition) []Warning {
	in := inspector{names: ins.names}
	in.text("name", "", d.Name, false)
	in.text("title", "", d.Title, true)
	in.text("description", "", d.Description, true)
	if len(d.Annotations) > 0 {
		var a struct {
			Title string `json:"title"`
		}
		if json.Unmarshal(d.Annotations, &a) == nil {
			in.text("annotations", "title", a.Title, true)
		}
	}
	if len(d.InputSchema) > 0 {
		var v any
		if json.Unmarshal(d.InputSchema, &v) == nil {
			in.schema(v, "")
		}
	}
	return in.out
}

type inspector struct {
	names   map[string]ToolName
	out     []Warning
	strings int
}

// add records w unless the same kind was already found in the same field.
func (in *inspector) add(w Warning) {
	if len(in.out) >= maxWarnings {
		return
	}
	for _, o := range in.out {
		if o.Kind == w.Kind && o.Field == w.Field {
			return
		}
	}
	in.out = append(in.out, w)
}

// schema looks at every string of an input schema: property names,
// descriptions, titles, enum values, defaults, examples.
func (in *inspector) schema(v any, path string) {
	if in.strings >= maxStrings {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := joinPath(path, k)
			in.strings++
			in.text("inputSchema", p, k, false)
			in.schema(x[k], p)
		}
	case []any:
		for i, e := range x {
			in.schema(e, path+"["+strconv.Itoa(i)+"]")
		}
	case string:
		in.strings++
		in.text("inputSchema", path, x, true)
	}
}

// text checks one string. prose says it is text for the model to read
// (phrases are searched in it), not a bare name.
func (in *inspector) text(field, path, s string, prose bool) {
	if s == "" {
		return
	}
	with := func(w Warning) Warning {
		w.Field = field
		if path != "" {
			if w.Params == nil {
				w.Params = map[string]string{}
			}
			w.Params["path"] = path
		}
		return w
	}
	inv := scanInvisible(s)
	if inv.tags > 0 {
		in.add(with(Warning{Kind: WarnHiddenText, Params: map[string]string{
			"count": strconv.Itoa(inv.tags), "text": clipRunes(inv.hidden.String(), maxHidden)}}))
	}
	if len(inv.bidi) > 0 {
		in.add(with(Warning{Kind: WarnBidi, Params: codesParams(inv.bidi, inv.bidiCount)}))
	}
	if len(inv.other) > 0 {
		in.add(with(Warning{Kind: WarnInvisible, Params: codesParams(inv.other, inv.otherCount)}))
	}
	if !prose {
		return
	}
	// What the model reads, as a person would read it: invisible
	// characters dropped, compatibility forms folded (ｉｇｎｏｒｅ → ignore),
	// and the text hidden in tag characters added.
	plain := normalise(s)
	if inv.tags > 0 {
		plain += "\n" + normalise(inv.hidden.String())
	}
	for _, r := range phraseRules {
		if !containsAny(plain, r.words) {
			continue // cheaper than the expression, which needs one of them
		}
		if m := r.re().FindString(plain); m != "" {
			in.add(with(Warning{Kind: r.kind, Params: map[string]string{"phrase": clipRunes(strings.TrimSpace(m), maxPhrase)}}))
		}
	}
	if name, ok := in.mentionsOther(plain); ok {
		in.add(with(Warning{Kind: WarnOtherServer, Params: map[string]string{"server": name.Server, "tool": name.Tool}}))
	}
}

// mentionsOther finds the first other server's tool the text names: by
// its qualified name, or by its own name when that is distinctive (it
// has a '_' or '-', or is camelCase, and is at least 5 characters) and is
// not also a tool of this server. text is normalised (lower case).
func (in *inspector) mentionsOther(text string) (ToolName, bool) {
	if len(in.names) == 0 {
		return ToolName{}, false
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.')
	}) {
		if o, ok := in.names[w]; ok {
			return o, true
		}
		if t := strings.TrimRight(w, ".-"); t != w {
			if o, ok := in.names[t]; ok {
				return o, true
			}
		}
	}
	return ToolName{}, false
}

func distinctive(name string) bool {
	if utf8.RuneCountInString(name) < 5 {
		return false
	}
	if strings.ContainsAny(name, "_-") {
		return true
	}
	prev := rune(0)
	for _, r := range name {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			return true
		}
		prev = r
	}
	return false
}

// invisible is what scanInvisible found.
type invisible struct {
	tags       int
	hidden     strings.Builder // the ASCII the tag characters spell
	bidi       []rune          // distinct, in order of appearance
	bidiCount  int
	other      []rune
	otherCount int
}

// scanInvisible finds the characters a person does not see but a model
// reads. Categories come from the standard library's Unicode tables:
// tag characters and bidi controls are reported apart, then every other
// format character (Cf: zero-width space, joiners, word joiner, BOM, soft
// hyphen…), variation selectors used to carry data, and control
// characters other than tab and line breaks. A zero-width joiner between
// two symbols (an emoji sequence) and a single variation selector after a
// visible character (an emoji's presentation) are left alone.
func scanInvisible(s string) invisible {
	var inv invisible
	runes := []rune(s)
	for i, r := range runes {
		switch {
		case r >= 0xE0000 && r <= 0xE007F:
			inv.tags++
			if c := r - 0xE0000; c >= 0x20 && c < 0x7F {
				inv.hidden.WriteRune(c)
			}
		case unicode.Is(unicode.Bidi_Control, r):
			inv.bidiCount++
			inv.bidi = addCode(inv.bidi, r)
		case r == 0x200D && i > 0 && i+1 < len(runes) && unicode.Is(unicode.So, runes[i-1]) && unicode.Is(unicode.So, runes[i+1]):
			// An emoji ZWJ sequence.
		case unicode.Is(unicode.Variation_Selector, r):
			if r <= 0xFE0F && i > 0 && !unicode.Is(unicode.Variation_Selector, runes[i-1]) &&
				(i+1 == len(runes) || !unicode.Is(unicode.Variation_Selector, runes[i+1])) {
				continue // one selector after a character: an emoji's presentation
			}
			inv.otherCount++
			inv.other = addCode(inv.other, r)
		case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r),
			unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r':
			inv.otherCount++
			inv.other = addCode(inv.other, r)
		}
	}
	return inv
}

func addCode(list []rune, r rune) []rune {
	if slices.Contains(list, r) {
		return list
	}
	return append(list, r)
}

// codesParams lists the first distinct code points found.
func codesParams(codes []rune, count int) map[string]string {
	names := make([]string, 0, min(len(codes), maxCodes))
	for _, r := range codes[:min(len(codes), maxCodes)] {
		names = append(names, CodePoint(r))
	}
	list := strings.Join(names, ", ")
	if len(codes) > maxCodes {
		list += ", …"
	}
	return map[string]string{"count": strconv.Itoa(count), "chars": list}
}

// CodePoint names r as U+XXXX.
func CodePoint(r rune) string { return fmt.Sprintf("U+%04X", r) }

// IsInvisible reports whether r is a character Reveal shows by its code
// point: a tag character, a bidi control, a format character, a variation
// selector, or a control character other than tab and line breaks.
func IsInvisible(r rune) bool {
	return r >= 0xE0000 && r <= 0xE007F || unicode.Is(unicode.Bidi_Control, r) || unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
}

// Reveal returns s with every invisible character written as ⟨U+XXXX⟩, so
// that a person sees what a model reads.
func Reveal(s string) string {
	if !strings.ContainsFunc(s, IsInvisible) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if IsInvisible(r) {
			b.WriteString("⟨" + CodePoint(r) + "⟩")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// normalise prepares text for the phrase rules: at most maxScan bytes,
// invisible characters dropped, NFKC-folded, lower-cased, runs of white
// space as one space.
func normalise(s string) string {
	if len(s) > maxScan {
		s = strings.ToValidUTF8(s[:maxScan], "")
	}
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == '\r' {
			return ' '
		}
		if IsInvisible(r) {
			return -1
		}
		return r
	}, s)
	s = norm.NFKC.String(s)
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// phraseRule flags text matching re. words are literal strings one of
// which every match contains: a text with none of them is not searched,
// and an expression no text needed is never compiled (the thirteen take
// 113 KB).
type phraseRule struct {
	kind  string
	words []string
	re    func() *regexp.Regexp
}

// lazyRegexp compiles pattern on first use.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// phraseRules are matched against normalised (lower-case, single-spaced)
// text. They aim at what poisoned tool descriptions seen in the wild say,
// and keep clear of what honest descriptions say ("the file's contents",
// "an API key for the service").
var phraseRules = []phraseRule{
	// Text addressed to the model.
	{WarnInstructions, []string{"ignore", "disregard", "forget", "override"}, lazyRegexp(`\b(ignore|disregard|forget|override)\b[^.!?]{0,40}?\b(previous|prior|above|earlier|preceding|all|any|other|system|your|the)\b[^.!?]{0,20}?\b(instructions?|prompts?|rules|directions|guidelines|directives)\b`)},
	{WarnInstructions, []string{"the user", "users", "the human", "anyone"}, lazyRegexp(`\b(do not|don't|dont|never|must not|should not|without)\s+(tell|telling|inform|informing|notify|notifying|alert|alerting|show|showing|mention|mentioning|reveal|revealing|disclose|disclosing|let)\b[^.!?]{0,40}?\b(the user|users|the human|anyone)\b`)},
	{WarnInstructions, []string{"mention", "reveal", "disclose"}, lazyRegexp(`\b(do not|don't|dont|never)\s+(mention|reveal|disclose)\s+(that|this|it)\b`)},
	{WarnInstructions, []string{"the user"}, lazyRegexp(`\b(upset|alarm|worry|scare|frighten|confuse) the user\b`)},
	{WarnInstructions, []string{"<", "[inst", "[/inst"}, lazyRegexp(`<\s*/?\s*(important|system|instructions?|secret|hidden|admin)\s*>|<\|im_start\|>|\[/?inst\]|<<\s*sys\s*>>`)},
	{WarnInstructions, []string{"system prompt", "new instructions", "you are now"}, lazyRegexp(`\bsystem prompt\b|\bnew instructions\b|\byou are now\b`)},
	// Keys, credentials and other clients' configuration.
	{WarnSensitive, []string{".ssh", "id_", "authorized_keys"}, lazyRegexp(`~/\.ssh\b|\.ssh/|\bid_(rsa|dsa|ecdsa|ed25519)\b|\bauthorized_keys\b`)},
	{WarnSensitive, []string{".aws/", "aws_secret"}, lazyRegexp(`\.aws/(credentials|config)\b|\baws_secret_access_key\b`)},
	{WarnSensitive, []string{".env", ".npmrc", ".netrc", ".pgpass", ".git-credentials", ".docker/", ".kube/", ".gnupg", "/etc/"}, lazyRegexp(`(^|[\s'"` + "`" + `(/])\.env(\.[a-z0-9_-]+)?\b|\.npmrc\b|\.netrc\b|\.pgpass\b|\.git-credentials\b|\.docker/config\.json|\.kube/config\b|\.gnupg\b|/etc/(passwd|shadow)\b`)},
	{WarnSensitive, []string{"mcp.json", "claude_desktop_config", "mcp.config.json", ".cursor"}, lazyRegexp(`\bmcp\.json\b|\bclaude_desktop_config\.json\b|\bmcp\.config\.json\b|~/\.cursor\b|\.cursor/`)},
	// Sending data out, or smuggling it through a parameter.
	{WarnExfiltration, []string{"side"}, lazyRegexp(`\bside[ _-]?(channel|note)s?\b`)},
	{WarnExfiltration, []string{"note", "metadata", "feedback", "debug", "context", "extra", "memo", "comment"}, lazyRegexp(`\b(pass|include|put|send|add|insert|append|embed|place|provide|supply|copy)\s+((its|the|their|your|all|any|full|entire|whole|complete|this|that|these|those|user's|conversation|chat|file)\s+){0,3}(content|contents|file|files|data|conversation|history|keys?|tokens?|credentials?|secrets?|passwords?|it|them|output|text)\b[^.!?]{0,40}?\b(as|in|into|inside|via|through)\s+(the\s+)?['"` + "`" + `]?(notes?|metadata|feedback|debug|context|extra|memo|comments?)['"` + "`" + `]?(\s+(parameter|param|argument|arg|field|property))?`)},
	{WarnExfiltration, []string{" to "}, lazyRegexp(`\b(send|post|upload|forward|transmit|exfiltrate|leak|email)\b[^.!?]{0,60}?\bto\s+(https?://|[\w.+-]+@[\w-]+\.|the (following|attacker|remote|external) )`)},
}

// joinPath extends a dotted schema path; keys that are not plain names are
// quoted.
func joinPath(path, key string) string {
	plain := key != "" && strings.IndexFunc(key, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '$')
	}) < 0
	if !plain {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// clipRunes cuts s to n characters, ending with "…" when cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
