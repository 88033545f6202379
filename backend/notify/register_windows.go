//go:build windows

package notify

import (
	"fmt"

	"golang.org/x/sys/windows/registry"
)

// RegisterClickTarget makes a click on a toast reach the running MCP Desk
// at exe: in the user's own registry (HKCU, no administrator), the
// mcpdesk: URL scheme launches exe with ClickFlag, and the toasts'
// AppUserModelID is named "MCP Desk" (how Windows registers an unpackaged
// app's notifications). Values already right are left alone; the
// uninstaller removes both keys (build/windows/installer/project.nsi).
func RegisterClickTarget(exe string) error {
	for _, k := range []struct {
		path   string
		values map[string]string
	}{
		{`Software\Classes\` + ClickScheme, map[string]string{"": "URL:MCP Desk", "URL Protocol": ""}},
		{`Software\Classes\` + ClickScheme + `\DefaultIcon`, map[string]string{"": `"` + exe + `",0`}},
		{`Software\Classes\` + ClickScheme + `\shell\open\command`, map[string]string{"": `"` + exe + `" ` + ClickFlag + ` "%1"`}},
		{`Software\Classes\AppUserModelId\` + AppUserModelID, map[string]string{"DisplayName": "MCP Desk"}},
	} {
		key, _, err := registry.CreateKey(registry.CURRENT_USER, k.path, registry.QUERY_VALUE|registry.SET_VALUE)
		if err != nil {
			return fmt.Errorf("register toast clicks: HKCU\\%s: %w", k.path, err)
		}
		for name, want := range k.values {
			if got, _, err := key.GetStringValue(name); err == nil && got == want {
				continue
			}
			if err := key.SetStringValue(name, want); err != nil {
				key.Close()
				return fmt.Errorf("register toast clicks: HKCU\\%s %q: %w", k.path, name, err)
			}
		}
		key.Close()
	}
	return nil
}
