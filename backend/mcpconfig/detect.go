package mcpconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// First run (SPEC F6): the MCP configs other clients keep on this machine,
// found where those clients put them, so that the user can import their
// servers instead of typing them again.

// Machine says where the user's files are: the places other clients keep
// their configs depend on the operating system and a few environment
// variables. Tests build one around a temporary home folder.
type Machine struct {
	// OS is a runtime.GOOS value: "windows", "darwin", anything else is
	// taken as Linux or another freedesktop system.
	OS string
	// Home is the user's home folder.
	Home string
	// AppData is %APPDATA% on Windows; "" means Home\AppData\Roaming.
	AppData string
	// ConfigHome is $XDG_CONFIG_HOME elsewhere; "" means Home/.config.
	ConfigHome string
}

// ThisMachine describes the machine the app runs on.
func ThisMachine() (Machine, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Machine{}, fmt.Errorf("find home folder: %w", err)
	}
	return Machine{OS: runtime.GOOS, Home: home, AppData: os.Getenv("APPDATA"), ConfigHome: os.Getenv("XDG_CONFIG_HOME")}, nil
}

// KnownConfig is a place where a client keeps its MCP servers.
type KnownConfig struct {
	// Client is the client, named as its format: FormatClaude,
	// FormatCursor, FormatVSCode or FormatWindsurf.
	Client string
	Path   string
	// Shared is true for a file that holds the client's other settings too
	// (VS Code's settings.json): one without MCP servers is not worth
	// mentioning.
	Shared bool
}

// KnownConfigs returns where Claude Desktop, Cursor, VS Code and Windsurf
// keep their user-wide MCP servers on m, in that order. Electron apps
// (Claude Desktop, VS Code) keep theirs in the platform's application data
// folder; Cursor and Windsurf in a dot folder of the home folder on every
// platform.
func (m Machine) KnownConfigs() []KnownConfig {
	appData := m.appData()
	vscode := filepath.Join(appData, "Code", "User")
	return []KnownConfig{
		{Client: FormatClaude, Path: filepath.Join(appData, "Claude", "claude_desktop_config.json")},
		{Client: FormatCursor, Path: filepath.Join(m.Home, ".cursor", "mcp.json")},
		{Client: FormatVSCode, Path: filepath.Join(vscode, "mcp.json")},
		{Client: FormatVSCode, Path: filepath.Join(vscode, "settings.json"), Shared: true},
		{Client: FormatWindsurf, Path: filepath.Join(m.Home, ".codeium", "windsurf", "mcp_config.json")},
	}
}

// appData is where Electron apps keep their data (app.getPath("appData")).
func (m Machine) appData() string {
	switch m.OS {
	case "windows":
		if m.AppData != "" {
			return m.AppData
		}
		return filepath.Join(m.Home, "AppData", "Roaming")
	case "darwin":
		return filepath.Join(m.Home, "Library", "Application Support")
	default:
		if m.ConfigHome != "" {
			return m.ConfigHome
		}
		return filepath.Join(m.Home, ".config")
	}
}

// FoundConfig is a config file of another client found on the machine.
type FoundConfig struct {
	KnownConfig
	// Servers are the file's servers that can be imported, as ReadImport
	// reads them; none when the file has none or when Err is set.
	Servers []Server
	// Broken are the ids of the entries with mistakes, which the import
	// preview shows with their problems and does not import.
	Broken []string
	// Err says why the file cannot be imported at all: it cannot be read,
	// is not valid JSON(C), or holds no server list (see Problems).
	Err error
}

// maxFoundConfig bounds the files FindConfigs reads: configs, even VS
// Code's settings.json, are a few kilobytes.
const maxFoundConfig = 4 << 20

// FindConfigs reads the files of m.KnownConfigs that exist. A missing file
// is left out, and so is a shared settings file without MCP servers; a
// broken file is kept with its Err, so that the user learns why its
// servers are not offered.
func (m Machine) FindConfigs() []FoundConfig {
	var out []FoundConfig
	for _, k := range m.KnownConfigs() {
		f, ok := readKnown(k)
		if ok {
			out = append(out, f)
		}
	}
	return out
}

// readKnown reads one known config; ok is false when it is not worth
// listing.
func readKnown(k KnownConfig) (f FoundConfig, ok bool) {
	f.KnownConfig = k
	info, err := os.Stat(k.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f, false
	case err != nil:
		f.Err = err
		return f, true
	case info.IsDir():
		f.Err = fmt.Errorf("%s is a folder, not a config file", k.Path)
		return f, true
	case info.Size() > maxFoundConfig:
		f.Err = fmt.Errorf("%s is %d MB: too large for a config file", k.Path, info.Size()>>20)
		return f, true
	}
	data, err := os.ReadFile(k.Path)
	if err != nil {
		f.Err = err
		return f, true
	}
	if !hasServerSection(k.Path, data) {
		// Claude Desktop writes its file before any server is added.
		return f, !k.Shared
	}
	_, entries, err := ReadImport(k.Path, data)
	f.Err = err
	for _, e := range entries {
		if e.Valid() {
			f.Servers = append(f.Servers, e.Server)
		} else {
			f.Broken = append(f.Broken, e.Server.ID)
		}
	}
	return f, true
}

// hasServerSection reports whether a document has a place for MCP servers
// ("mcpServers", "servers", or "servers" under "mcp"), or is broken: then
// ReadImport says what is wrong with it. An empty file, or an object
// without such a key, has no servers to import and nothing wrong with it.
func hasServerSection(path string, data []byte) bool {
	doc, err := readDocument(path, data)
	switch {
	case err != nil:
		return true
	case doc.root < 0:
		return false
	case doc.json[doc.root] != '{':
		return true
	}
	for _, m := range objectMembers(doc.json, doc.root) {
		switch m.key {
		case "mcpServers", "servers":
			return true
		case "mcp":
			if m.val[0] != '{' {
				continue
			}
			for _, c := range objectMembers(doc.json, m.valOff) {
				if c.key == "servers" {
					return true
				}
			}
		}
	}
	return false
}
