package mcpconfig

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"

	"mcpdesk/backend/usererr"
)

// The formats DetectAndParse recognises.
const (
	FormatMCPDesk  = "mcpdesk"  // our own mcp.config.json
	FormatCursor   = "cursor"   // .cursor/mcp.json, and any other "mcpServers" file
	FormatClaude   = "claude"   // claude_desktop_config.json
	FormatVSCode   = "vscode"   // .vscode/mcp.json, or settings.json with "mcp": {"servers": …}
	FormatWindsurf = "windsurf" // ~/.codeium/windsurf/mcp_config.json
	FormatCline    = "cline"    // cline_mcp_settings.json
)

// DetectAndParse recognises the MCP configuration of another client (or
// our own) and returns its servers, validated; path names the file in
// errors and decides between the "mcpServers" formats. JSONC (comments and
// trailing commas) is accepted in every format.
//
//   - A "mcpServers" object is told apart by file name:
//     claude_desktop_config.json is "claude", cline_mcp_settings.json
//     "cline", mcp_config.json (or a file under .codeium or windsurf)
//     "windsurf", mcp.config.json "mcpdesk", anything else "cursor".
//   - A "servers" object, at the top (mcp.json) or under "mcp"
//     (settings.json), is "vscode".
//
// Other clients' spellings are mapped onto ours: "serverUrl" (Windsurf)
// is url, "disabled": true (Cline, Windsurf) is enabled: false,
// "disabledTools" (Windsurf) is denyTools, "transportType" (older Cline)
// is type, and Cline's "timeout" in seconds becomes timeoutMs. The types
// "streamableHttp" and "streamable-http" are http, and a server with only
// a URL whose path ends in /sse gets type sse: other clients guess the
// transport, we need it stated. Fields we do not know (Cline's
// autoApprove, VS Code's envFile, …) are kept in Server.Extra.
//
// VS Code's ${input:id} references are kept as they are (MCP Desk does
// not prompt for inputs); Server.InputRefs lists them so the UI can say
// which values still need filling in.
//
// Server ids that are not valid here (Cline names servers after their
// repository, such as "github.com/org/repo") are made valid by turning
// other characters into '-', adding -2, -3, … where two would be the
// same. Our own format is not rewritten: it must be valid as it is.
func DetectAndParse(path string, data []byte) (format string, servers []Server, err error) {
	format, entries, err := ReadImport(path, data)
	if err != nil {
		return format, nil, err
	}
	if format == FormatMCPDesk {
		cfg, err := Parse(path, data) // strict about the whole file
		if err != nil {
			return format, nil, err
		}
		return format, cfg.Servers, nil
	}
	p := &problems{file: path}
	for _, e := range entries {
		for _, pr := range e.Problems {
			if len(p.list) == maxProblems {
				p.list = append(p.list, moreProblemsError(path))
				return format, nil, p.err()
			}
			p.list = append(p.list, pr)
		}
		servers = append(servers, e.Server)
	}
	if err := p.err(); err != nil {
		return format, nil, err
	}
	return format, servers, nil
}

// ReadImportFile reads a config file to import. It refuses what is not a
// regular file (a folder, a pipe that would never end) and a file larger
// than limit bytes: configs are a few kilobytes.
func ReadImportFile(path string, limit int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, usererr.FileError(path, err)
	}
	switch {
	case info.IsDir():
		return nil, usererr.New(usererr.FileIsFolder, usererr.Params{"path": path})
	case !info.Mode().IsRegular():
		return nil, usererr.New(usererr.FileNotRegular, usererr.Params{"path": path})
	case info.Size() > limit:
		return nil, usererr.New(usererr.FileTooLarge, usererr.Params{"path": path, "size": info.Size() >> 20})
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, usererr.FileError(path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s grew past %d MB while it was read: too large for an MCP config file", path, limit>>20)
	}
	return data, nil
}

// find sets *m to the member named key and reports whether there is one;
// a repeated key is a problem (parent names the enclosing object). Other
// keys may repeat: VS Code tolerates that in settings.json, and they are
// not ours to judge.
func (d *decoder) find(ms []member, key, parent string, m *member) bool {
	found := false
	for _, c := range ms {
		if c.key != key {
			continue
		}
		if found {
			if parent != "" {
				d.p.add(c.keyOff, "", parent, "key %q appears twice (first at %s); keep one", key, d.p.at(m.keyOff)).
					with(usererr.ConfigKeyTwice, usererr.Params{"key": key, "first": d.p.at(m.keyOff)})
			} else {
				d.p.add(c.keyOff, "", key, "appears twice (first at %s); keep one", d.p.at(m.keyOff)).
					with(usererr.ConfigKeyTwice, usererr.Params{"key": key, "first": d.p.at(m.keyOff)})
			}
			continue
		}
		*m, found = c, true
	}
	return found
}

// formatByName tells the "mcpServers" formats apart by where the file is.
func formatByName(path string) string {
	parts := strings.FieldsFunc(strings.ToLower(path), func(r rune) bool { return r == '/' || r == '\\' })
	if len(parts) == 0 {
		return FormatCursor
	}
	base, dirs := parts[len(parts)-1], parts[:len(parts)-1]
	switch {
	case base == "claude_desktop_config.json":
		return FormatClaude
	case base == "cline_mcp_settings.json":
		return FormatCline
	case base == "mcp_config.json", slices.Contains(dirs, ".codeium"), slices.Contains(dirs, "windsurf"):
		return FormatWindsurf
	case base == "mcp.config.json":
		return FormatMCPDesk
	default: // .cursor/mcp.json and anything else
		return FormatCursor
	}
}

// aliasOf maps other clients' field names to ours.
var aliasOf = map[string]string{
	"serverUrl":     "url",
	"disabled":      "enabled",
	"disabledTools": "denyTools",
	"transportType": "type",
	"timeout":       "timeoutMs",
}

// isAlias reports whether key is another client's name for one of our
// fields in the given format.
func isAlias(format, key string) bool {
	if key == "timeout" {
		return format == FormatCline // seconds there; unknown elsewhere
	}
	return aliasOf[key] != ""
}

// alias decodes another client's field into srv; our own spelling wins
// when both are present.
func (d *decoder) alias(srv *Server, f member, loc *serverLoc) {
	id := srv.ID
	switch f.key {
	case "serverUrl": // Windsurf
		if u := d.str(id, f); srv.URL == "" {
			srv.URL = u
			loc.fields["url"] = f.valOff
		}
	case "disabled": // Cline, Windsurf
		if b := d.boolean(id, f); b != nil && *b && srv.Enabled == nil {
			off := false
			srv.Enabled = &off
		}
	case "disabledTools": // Windsurf
		for _, t := range d.strs(id, f) {
			if !slices.Contains(srv.DenyTools, t) {
				srv.DenyTools = append(srv.DenyTools, t)
			}
		}
	case "transportType": // older Cline
		if t := d.str(id, f); srv.Type == "" {
			srv.Type = Transport(t)
			loc.fields["type"] = f.valOff
		}
	case "timeout": // Cline, in seconds
		if s := d.integer(id, f); s > 0 && srv.TimeoutMs == 0 {
			srv.TimeoutMs = min(s, maxTimeoutMs/1000) * 1000
			loc.fields["timeoutMs"] = f.valOff
		}
	}
}

// importedType maps other clients' names of a transport onto ours.
func importedType(t Transport) Transport {
	switch strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(string(t))) {
	case "stdio":
		return Stdio
	case "http", "streamablehttp":
		return HTTP
	case "sse":
		return SSE
	}
	return t
}

// isSSEPath reports whether a URL's path ends in /sse, the convention for
// the legacy HTTP+SSE transport.
func isSSEPath(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), "/sse")
}

// validIDs rewrites the ids that do not have idShape, in order,
// keeping them unique: a valid id is kept, another gets -2, -3, … where
// two would be the same.
func validIDs(ids []*string) {
	taken := map[string]bool{}
	for _, id := range ids {
		if isValidID(*id) {
			taken[*id] = true
		}
	}
	for _, p := range ids {
		if isValidID(*p) {
			continue
		}
		base := validID(*p)
		id := base
		for n := 2; taken[id]; n++ {
			suffix := fmt.Sprintf("-%d", n)
			id = strings.TrimRight(base[:min(len(base), 64-len(suffix))], "-._") + suffix
		}
		taken[id] = true
		*p = id
	}
}

// validID turns any name into one of idShape: other characters
// become '-', runs of them one '-', and the result is trimmed to 64.
func validID(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range name {
		ok := r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	id := strings.TrimLeft(b.String(), "-._")
	if len(id) > 64 {
		id = id[:64]
	}
	id = strings.TrimRight(id, "-")
	if id == "" {
		return "server"
	}
	return id
}
