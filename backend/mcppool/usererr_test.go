package mcppool

import (
	"path/filepath"
	"testing"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/usererr"
)

// TestErrorsTheUserMeetsAreCoded checks that the errors of the bound
// methods a user meets reach the UI with a code and params (issue 12),
// while their English text (logs, CLI) says the same as before.
func TestErrorsTheUserMeetsAreCoded(t *testing.T) {
	off := false
	p, _ := newTestPool(t, mcpconfig.Server{ID: "sleepy", Command: testServerBin, Enabled: &off})
	svc := NewService(p, nil)

	_, callErr := svc.CallTool(ToolCallRequest{CallID: "c1", Server: "nobody", Tool: "echo"})
	offErr := svc.Restart("sleepy")
	_, dupErr := svc.SaveServer("", ServerSpec{ID: "sleepy", Type: "stdio", Command: testServerBin})
	_, fileErr := svc.PreviewImport(filepath.Join(t.TempDir(), "missing.json"))
	_, badTypeErr := svc.SaveServer("", ServerSpec{ID: "x", Type: "carrier-pigeon"})

	for _, tc := range []struct {
		name    string
		err     error
		code    usererr.Code
		params  map[string]any
		english string
	}{
		{"call to an unknown server", callErr, usererr.CallNoServer, map[string]any{"server": "nobody"}, `nobody › echo: no server with id "nobody"`},
		{"restart of a server turned off", offErr, usererr.CallServerDisabled, map[string]any{"server": "sleepy"}, ""},
		{"duplicate id", dupErr, usererr.FormDuplicateID, map[string]any{"server": "sleepy"}, `a server with id "sleepy" already exists`},
		{"missing file", fileErr, usererr.FileNotFound, nil, ""},
		{"bad transport", badTypeErr, usererr.FormBadTransport, map[string]any{"server": "x", "type": "carrier-pigeon"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Fatal("no error")
			}
			got := usererr.PayloadOf(tc.err)
			if got.Code != tc.code {
				t.Fatalf("code %q, want %q (message %q)", got.Code, tc.code, got.Message)
			}
			for k, v := range tc.params {
				if got.Params[k] != v {
					t.Errorf("params[%s] = %v, want %v", k, got.Params[k], v)
				}
			}
			if got.Message != tc.err.Error() {
				t.Errorf("message %q is not the English text %q", got.Message, tc.err.Error())
			}
			if tc.english != "" && tc.err.Error() != tc.english {
				t.Errorf("English %q, want %q", tc.err.Error(), tc.english)
			}
		})
	}
}
