package main

import (
	"os"
	"strings"
	"testing"

	"mcpdesk/backend/notify"
)

// The uninstaller removes what the app registers for its toasts' clicks
// (notify.RegisterClickTarget), under the names the app uses.
func TestUninstallerRemovesTheToastClickKeys(t *testing.T) {
	nsi, err := os.ReadFile("build/windows/installer/project.nsi")
	if err != nil {
		t.Fatal(err)
	}
	_, uninstall, ok := strings.Cut(string(nsi), `Section "uninstall"`)
	if !ok {
		t.Fatal(`project.nsi has no Section "uninstall"`)
	}
	for _, key := range []string{`Software\Classes\` + notify.ClickScheme, `Software\Classes\AppUserModelId\` + notify.AppUserModelID} {
		if !strings.Contains(uninstall, `DeleteRegKey HKCU "`+key+`"`) {
			t.Errorf("the uninstaller does not delete HKCU\\%s", key)
		}
	}
}
