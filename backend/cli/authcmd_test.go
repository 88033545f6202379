package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"mcpdesk/backend/oauth/oauthtest"
	"mcpdesk/backend/secrets"
)

// TestAuthCommands: status says "not signed in"; login signs in without a
// browser (--authorize-with http) and keeps the tokens in the keychain;
// inspect uses them without signing in again; logout revokes and forgets.
func TestAuthCommands(t *testing.T) {
	mem := secrets.NewMemory()
	prev := providerSecrets
	providerSecrets = func() secrets.Store { return mem }
	t.Cleanup(func() { providerSecrets = prev })

	s := server.NewMCPServer("guarded", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("whoami"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("hello, signed-in user"), nil
	})
	as := oauthtest.New(oauthtest.Options{Resource: server.NewStreamableHTTPServer(s), Revocation: true, ChallengeScope: "read"})
	t.Cleanup(func() { as.CloseClientConnections(); as.Close() })
	ctx := context.Background()
	dataDir := t.TempDir()
	url := as.MCPURL()

	if code, out, errOut := run(t, ctx, "auth", "status", url, "--data-dir", dataDir); code != exitFail || !strings.Contains(errOut, "not signed in") || !strings.Contains(out, `"signedIn": false`) {
		t.Fatalf("status before: %d %q %q", code, out, errOut)
	}
	code, out, errOut := run(t, ctx, "auth", "login", url, "--authorize-with", "http", "--data-dir", dataDir)
	if code != exitOK {
		t.Fatalf("login: %d %q %q", code, out, errOut)
	}
	var st authStatus
	if err := json.Unmarshal([]byte(out), &st); err != nil || !st.SignedIn || st.Issuer != as.Issuer() || st.Scope != "read" || st.ExpiresAt == "" {
		t.Fatalf("login printed %q (%v)", out, err)
	}
	// Nothing secret printed.
	for _, r := range as.Seen("/token") {
		if c := r.Form.Get("code"); c != "" && strings.Contains(out+errOut, c) {
			t.Fatal("login printed the authorization code")
		}
	}
	if code, out, _ := run(t, ctx, "auth", "status", url, "--data-dir", dataDir); code != exitOK || !strings.Contains(out, `"signedIn": true`) {
		t.Fatalf("status after: %d %q", code, out)
	}
	if code, out, errOut := run(t, ctx, "inspect", "--url", url, "--method", "tools/call", "--tool-name", "whoami", "--data-dir", dataDir); code != exitOK || !strings.Contains(out, "hello, signed-in user") {
		t.Fatalf("inspect with the stored sign-in: %d %q %q", code, out, errOut)
	}
	if n := len(as.Seen("/authorize")); n != 1 {
		t.Errorf("%d authorizations: inspect signed in again instead of using the stored tokens", n)
	}
	if code, _, errOut := run(t, ctx, "auth", "logout", url, "--data-dir", dataDir); code != exitOK {
		t.Fatalf("logout: %d %q", code, errOut)
	}
	if len(as.Seen("/revoke")) == 0 {
		t.Error("logout revoked nothing")
	}
	if code, _, _ := run(t, ctx, "auth", "status", url, "--data-dir", dataDir); code != exitFail {
		t.Errorf("status after logout: %d", code)
	}
	// A stdio server does not sign in.
	if code, _, errOut := run(t, ctx, "auth", "login", "nope", "--data-dir", dataDir); code == exitOK {
		t.Errorf("login to an unknown server: %d %q", code, errOut)
	}
}
