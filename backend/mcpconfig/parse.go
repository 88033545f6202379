package mcpconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"mcpdesk/backend/usererr"
)

// Load reads and validates the app's own mcp.config.json: Cursor's
// "mcpServers" format plus our optional fields (type, enabled, timeoutMs,
// maxConcurrency, allowTools, denyTools, protocolVersion). Comments and
// trailing commas (JSONC) are accepted. A missing file is an empty config
// and no error. Servers keep file order, and unknown fields are kept in
// Server.Extra and Config.Extra so that WriteFile loses nothing.
func Load(path string) (*Config, error) {
	data, exists, err := readFile(path)
	if err != nil {
		return nil, fmt.Errorf("load config: %w", err)
	}
	tracked.remember(fileKey(path), fingerprintOf(data, exists))
	if !exists {
		return &Config{}, nil
	}
	return Parse(path, data)
}

// readFile reads path; a missing file is not an error but exists=false.
func readFile(path string) (data []byte, exists bool, err error) {
	data, err = os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// Parse decodes and validates the contents of an mcp.config.json; path
// only names the file in errors. An empty file (or one holding only
// whitespace and comments) is an empty config. Problems are reported as
// *Error values, several joined with errors.Join.
func Parse(path string, data []byte) (*Config, error) {
	doc, err := readDocument(path, data)
	if err != nil {
		return nil, err
	}
	d := newDecoder(path, doc, ours)
	cfg, locs := d.config()
	validate(d.p, cfg, locs, true)
	if err := d.p.err(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// document is the text of a configuration file, checked to be valid JSON
// once comments and trailing commas are blanked out.
type document struct {
	src  []byte // the text without a byte order mark; positions refer to it
	json []byte // src with comments and trailing commas turned into spaces
	root int    // offset of the top-level value; -1 when there is none
}

// readDocument checks that data is JSON or JSONC and reports a syntax
// error at its line and column.
func readDocument(path string, data []byte) (*document, error) {
	src := bytes.TrimPrefix(data, utf8BOM)
	plain, open := stripJSONC(src)
	if open >= 0 {
		line, col := position(src, open)
		return nil, &Error{File: path, Line: line, Col: col, Msg: "comment is not closed: add */ to end it", Code: usererr.ConfigCommentNotClosed}
	}
	doc := &document{src: src, json: plain, root: skipSpace(plain, 0)}
	if doc.root == len(plain) {
		doc.root = -1
		return doc, nil
	}
	var raw json.RawMessage
	if err := json.Unmarshal(plain, &raw); err != nil {
		e := &Error{File: path, Msg: err.Error()}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// Offset counts the bytes read, including the offending one.
			e.Line, e.Col = position(src, int(se.Offset)-1)
		}
		return nil, e
	}
	return doc, nil
}

// mode says which dialect a decoder reads.
type mode int

const (
	// ours is mcp.config.json: strict, our field names only.
	ours mode = iota
	// imported is another client's file: the same fields plus their
	// aliases (serverUrl, disabled, disabledTools, transportType, timeout).
	imported
)

// decoder turns a document into servers, recording problems with their
// positions.
type decoder struct {
	doc    *document
	mode   mode
	format string // for imports: which client's file
	p      *problems
}

// newDecoder returns a decoder of doc in mode m; path names the file in
// problems.
func newDecoder(path string, doc *document, m mode) *decoder {
	return &decoder{doc: doc, mode: m, p: &problems{file: path, src: doc.src}}
}

// serverLoc remembers where a server and its fields are in the file.
type serverLoc struct {
	key    int             // offset of the server's id
	fields map[string]int  // offset of each field's value
	bad    map[string]bool // fields that had the wrong JSON type: not checked further
}

// locations maps the decoded config back to the file.
type locations struct {
	top     map[string]int // offset of each top-level value
	servers []serverLoc    // in the order of Config.Servers
}

// offset returns the offset of a field of server i (i < 0: a top-level
// key), of the server itself when it has no such field, or -1.
func (l *locations) offset(i int, field string) int {
	if i < 0 {
		if off, ok := l.top[field]; ok {
			return off
		}
		return -1
	}
	if i >= len(l.servers) {
		return -1
	}
	if off, ok := l.servers[i].fields[field]; ok {
		return off
	}
	return l.servers[i].key
}

// bad reports whether a field of server i already has a type error.
func (l *locations) bad(i int, field string) bool {
	return i >= 0 && i < len(l.servers) && l.servers[i].bad[field]
}

// config decodes an mcp.config.json.
func (d *decoder) config() (*Config, *locations) {
	cfg := &Config{}
	locs := &locations{top: map[string]int{}}
	if d.doc.root < 0 {
		return cfg, locs
	}
	if d.doc.json[d.doc.root] != '{' {
		d.p.add(d.doc.root, "", "", `the file must hold one JSON object such as {"mcpServers": {}}, not %s`, kindOf(d.doc.json[d.doc.root:])).
			with(usererr.ConfigRootNotObject, usererr.Params{"kind": kindWord(d.doc.json[d.doc.root:])})
		return cfg, locs
	}
	for _, m := range d.members("", "", d.doc.root) {
		locs.top[m.key] = m.valOff
		if m.key == "mcpServers" {
			cfg.Servers, locs.servers = d.servers(m)
			continue
		}
		if cfg.Extra == nil {
			cfg.Extra = map[string]json.RawMessage{}
		}
		cfg.Extra[m.key] = compact(m.val)
	}
	return cfg, locs
}

// members returns the members of the object at off, reporting and
// dropping repeated keys. server and field name the object in messages.
func (d *decoder) members(server, field string, off int) []member {
	all := objectMembers(d.doc.json, off)
	seen := make(map[string]int, len(all))
	out := all[:0]
	for _, m := range all {
		if first, dup := seen[m.key]; dup {
			if field != "" {
				d.p.add(m.keyOff, server, field, "key %q appears twice (first at %s); keep one", m.key, d.p.at(first)).
					with(usererr.ConfigKeyTwice, usererr.Params{"key": m.key, "first": d.p.at(first)})
			} else {
				d.p.add(m.keyOff, server, m.key, "appears twice (first at %s); keep one", d.p.at(first)).
					with(usererr.ConfigKeyTwice, usererr.Params{"key": m.key, "first": d.p.at(first)})
			}
			continue
		}
		seen[m.key] = m.keyOff
		out = append(out, m)
	}
	return out
}

// servers decodes the "mcpServers" (or VS Code "servers") object m.
func (d *decoder) servers(m member) ([]Server, []serverLoc) {
	switch m.val[0] {
	case 'n':
		return nil, nil
	case '{':
	default:
		d.p.add(m.valOff, "", m.key, "must be an object that maps each server id to its settings, not %s", kindOf(m.val)).
			with(usererr.ConfigServersNotObject, usererr.Params{"kind": kindWord(m.val)})
		return nil, nil
	}
	var (
		servers []Server
		locs    []serverLoc
		seen    = map[string]int{}
	)
	for _, sm := range objectMembers(d.doc.json, m.valOff) {
		if first, dup := seen[sm.key]; dup {
			d.p.add(sm.keyOff, sm.key, "", "this server id is used twice (first at %s); server ids must be unique", d.p.at(first)).
				with(usererr.ConfigServerTwice, usererr.Params{"first": d.p.at(first)})
			continue
		}
		seen[sm.key] = sm.keyOff
		if sm.val[0] != '{' {
			d.p.add(sm.valOff, sm.key, "", `must be an object with "command" (a local program) or "url" (a remote server), not %s`, kindOf(sm.val)).
				with(usererr.ConfigServerNotObject, usererr.Params{"kind": kindWord(sm.val)})
			continue
		}
		srv, loc := d.server(sm)
		servers = append(servers, srv)
		locs = append(locs, loc)
	}
	return servers, locs
}

// server decodes one server object.
func (d *decoder) server(sm member) (Server, serverLoc) {
	srv := Server{ID: sm.key}
	loc := serverLoc{key: sm.keyOff, fields: map[string]int{}, bad: map[string]bool{}}
	var aliases []member
	for _, f := range d.members(srv.ID, "", sm.valOff) {
		loc.fields[f.key] = f.valOff
		before := len(d.p.list)
		if d.field(&srv, f) {
			loc.bad[f.key] = len(d.p.list) > before
			continue
		}
		if d.mode == imported && isAlias(d.format, f.key) {
			aliases = append(aliases, f)
			continue
		}
		if srv.Extra == nil {
			srv.Extra = map[string]json.RawMessage{}
		}
		srv.Extra[f.key] = compact(f.val)
	}
	for _, f := range aliases {
		before := len(d.p.list)
		d.alias(&srv, f, &loc)
		if len(d.p.list) > before {
			loc.bad[aliasOf[f.key]] = true
		}
	}
	if d.mode == imported {
		srv.Type = importedType(srv.Type)
		if srv.Type == "" && srv.Command == "" && isSSEPath(srv.URL) {
			srv.Type = SSE // other clients detect it; we need it said
		}
	}
	return srv, loc
}

// field decodes one of our own fields into srv; it reports false for a
// field it does not know.
func (d *decoder) field(srv *Server, f member) bool {
	id := srv.ID
	switch f.key {
	case "type":
		srv.Type = Transport(d.str(id, f))
	case "command":
		srv.Command = d.str(id, f)
	case "args":
		srv.Args = d.strs(id, f)
	case "env":
		srv.Env = d.strMap(id, f)
	case "cwd":
		srv.Cwd = d.str(id, f)
	case "url":
		srv.URL = d.str(id, f)
	case "headers":
		srv.Headers = d.strMap(id, f)
	case "auth":
		srv.Auth = d.str(id, f)
	case "oauth":
		srv.OAuth = d.strMap(id, f)
	case "enabled":
		srv.Enabled = d.boolean(id, f)
	case "timeoutMs":
		srv.TimeoutMs = d.integer(id, f)
	case "maxConcurrency":
		srv.MaxConcurrency = d.integer(id, f)
	case "maxMessageBytes":
		srv.MaxMessageBytes = d.integer(id, f)
	case "allowTools":
		srv.AllowTools = d.strs(id, f)
	case "denyTools":
		srv.DenyTools = d.strs(id, f)
	case "protocolVersion":
		srv.ProtocolVersion = d.str(id, f)
	case "roots":
		srv.Roots = d.strs(id, f)
	default:
		return false
	}
	return true
}

// str decodes a string field; null is the same as leaving it out.
func (d *decoder) str(id string, f member) string {
	switch f.val[0] {
	case 'n':
		return ""
	case '"':
		var s string
		_ = json.Unmarshal(f.val, &s)
		return s
	}
	d.p.add(f.valOff, id, f.key, "must be a string, not %s%s", kindOf(f.val), quoteHint(f.val)).
		with(usererr.ConfigNotString, usererr.Params{"kind": kindWord(f.val)})
	return ""
}

// strs decodes an array of strings; an empty array is nil.
func (d *decoder) strs(id string, f member) []string {
	switch f.val[0] {
	case 'n':
		return nil
	case '[':
	default:
		d.p.add(f.valOff, id, f.key, `must be an array of strings such as ["-y", "some-package"], not %s`, kindOf(f.val)).
			with(usererr.ConfigNotStringArray, usererr.Params{"kind": kindWord(f.val)})
		return nil
	}
	var out []string
	for i, e := range arrayElements(d.doc.json, f.valOff) {
		if e.val[0] != '"' {
			d.p.add(e.off, id, f.key, "item %d must be a string, not %s%s", i+1, kindOf(e.val), quoteHint(e.val)).
				with(usererr.ConfigItemNotString, usererr.Params{"item": i + 1, "kind": kindWord(e.val)})
			continue
		}
		var s string
		_ = json.Unmarshal(e.val, &s)
		out = append(out, s)
	}
	return out
}

// strMap decodes an object of strings; an empty object is nil.
func (d *decoder) strMap(id string, f member) map[string]string {
	switch f.val[0] {
	case 'n':
		return nil
	case '{':
	default:
		d.p.add(f.valOff, id, f.key, `must be an object of names and string values such as {"NAME": "value"}, not %s`, kindOf(f.val)).
			with(usererr.ConfigNotStringMap, usererr.Params{"kind": kindWord(f.val)})
		return nil
	}
	var out map[string]string
	for _, m := range d.members(id, f.key, f.valOff) {
		if m.val[0] != '"' {
			// The value itself is not repeated: it may be a secret.
			d.p.add(m.valOff, id, f.key, "the value of %q must be a string, not %s%s", m.key, kindOf(m.val), quoteHint(m.val)).
				with(usererr.ConfigValueNotString, usererr.Params{"name": m.key, "kind": kindWord(m.val)})
			continue
		}
		var s string
		_ = json.Unmarshal(m.val, &s)
		if out == nil {
			out = map[string]string{}
		}
		out[m.key] = s
	}
	return out
}

// boolean decodes true or false; null is the same as leaving it out.
func (d *decoder) boolean(id string, f member) *bool {
	switch string(f.val) {
	case "null":
		return nil
	case "true", "false":
		b := f.val[0] == 't'
		return &b
	}
	d.p.add(f.valOff, id, f.key, "must be true or false, not %s", kindOf(f.val)).
		with(usererr.ConfigNotBoolean, usererr.Params{"kind": kindWord(f.val)})
	return nil
}

// integer decodes a whole number; null is the same as leaving it out.
func (d *decoder) integer(id string, f member) int {
	switch c := f.val[0]; {
	case c == 'n':
		return 0
	case c == '-' || (c >= '0' && c <= '9'):
		n, err := strconv.Atoi(string(f.val))
		if err == nil {
			return n
		}
		if errors.Is(err, strconv.ErrRange) {
			d.p.add(f.valOff, id, f.key, "%s is too large", f.val).
				with(usererr.ConfigNumberTooLarge, usererr.Params{"value": string(f.val)})
		} else {
			d.p.add(f.valOff, id, f.key, "must be a whole number, not %s", f.val).
				with(usererr.ConfigNotWholeNumber, usererr.Params{"value": string(f.val)})
		}
		return 0
	}
	d.p.add(f.valOff, id, f.key, "must be a number, not %s", kindOf(f.val)).
		with(usererr.ConfigNotNumber, usererr.Params{"kind": kindWord(f.val)})
	return 0
}

// quoteHint suggests quotes for a number or boolean where a string belongs.
func quoteHint(v []byte) string {
	switch v[0] {
	case '{', '[', '"', 'n':
		return ""
	}
	return " (put the value in double quotes)"
}

// compact removes insignificant whitespace from a valid JSON value, so
// that Extra values compare equal however the file was indented.
func compact(v []byte) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return json.RawMessage(bytes.Clone(v))
	}
	return json.RawMessage(b.Bytes())
}
