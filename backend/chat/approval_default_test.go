package chat

import (
	"strings"
	"testing"

	"mcpdesk/backend/events"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usage"
)

func TestReadOnlyAnnotations(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		name string
		a    events.ToolAnnotations
		want bool
	}{
		{"no hints", events.ToolAnnotations{}, false},
		{"read-only", events.ToolAnnotations{ReadOnlyHint: &yes}, true},
		{"read-only, not destructive", events.ToolAnnotations{ReadOnlyHint: &yes, DestructiveHint: &no}, true},
		// mcp-go sends destructiveHint: true on every tool; the spec says it
		// means nothing on a read-only one.
		{"read-only with the default destructive hint", events.ToolAnnotations{ReadOnlyHint: &yes, DestructiveHint: &yes}, true},
		{"destructive", events.ToolAnnotations{ReadOnlyHint: &no, DestructiveHint: &yes}, false},
		{"not read-only", events.ToolAnnotations{ReadOnlyHint: &no}, false},
		{"destructive only", events.ToolAnnotations{DestructiveHint: &yes}, false},
		{"not destructive only", events.ToolAnnotations{DestructiveHint: &no}, false},
	} {
		if got := readOnly(c.a); got != c.want {
			t.Errorf("%s: readOnly = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestApprovalDefaultSetting(t *testing.T) {
	en := newEnv(t, envConfig{})
	s, err := en.e.Settings(en.ctx)
	if err != nil || s.ApprovalDefault != ApprovalDefaultAsk {
		t.Fatalf("new installation: %+v, %v; want ask", s, err)
	}
	got, err := en.e.SaveSettings(en.ctx, ChatSettings{ApprovalDefault: ApprovalDefaultReadOnly})
	if err != nil || got.ApprovalDefault != ApprovalDefaultReadOnly || got.MaxSteps != DefaultMaxSteps {
		t.Fatalf("save readOnly = %+v, %v", got, err)
	}
	if s, _ := en.e.Settings(en.ctx); s.ApprovalDefault != ApprovalDefaultReadOnly {
		t.Fatalf("read back %+v", s)
	}
	if _, err := en.e.SaveSettings(en.ctx, ChatSettings{ApprovalDefault: "always"}); err == nil || !strings.Contains(err.Error(), `"ask" or "readOnly"`) {
		t.Fatalf("unknown approval default: %v", err)
	}
	if s, _ := en.e.Settings(en.ctx); s.ApprovalDefault != ApprovalDefaultReadOnly {
		t.Fatalf("a refused save changed the setting: %+v", s)
	}
	// A value this build does not know (a newer build's) reads as ask.
	if err := en.st.PutSetting(en.ctx, settingsKey, map[string]any{"approvalDefault": "everything"}); err != nil {
		t.Fatal(err)
	}
	if s, err := en.e.Settings(en.ctx); err != nil || s.ApprovalDefault != ApprovalDefaultAsk {
		t.Fatalf("unknown stored value read as %+v, %v", s, err)
	}
}

// With the "read-only tools run" default, a tool annotated read-only runs
// without an approval and the audit log says why; a tool without the hint
// and a destructive one still wait for the user; a stored policy wins over
// the default.
func TestReadOnlyDefaultRunsWithoutAsking(t *testing.T) {
	var u *usage.Engine
	en := newEnv(t, envConfig{servers: []mcpconfig.Server{testServer("test")}, engine: withLedger(&u, nil)})
	if _, err := en.e.SaveSettings(en.ctx, ChatSettings{ApprovalDefault: ApprovalDefaultReadOnly}); err != nil {
		t.Fatal(err)
	}
	conv := en.newConv(nil)

	// echo says readOnlyHint: true.
	c, asked := en.callTurn(conv.ID, "test__echo", `{"message":"ro"}`, nil)
	if asked || c.Status != store.ToolCallDone || c.Approval != store.ApprovalReadOnly {
		t.Fatalf("read-only echo: asked %v, %+v", asked, c)
	}
	if n := len(approvalsOf(en.rec.all())); n != 0 {
		t.Fatalf("%d approval events for a read-only tool", n)
	}
	// fail has no hints: it asks.
	if c, asked := en.callTurn(conv.ID, "test__fail", `{}`, &ApprovalDecision{Action: "cancel"}); !asked || c.Status != store.ToolCallDeclined {
		t.Fatalf("unannotated fail: asked %v, %+v", asked, c)
	}
	// crash is destructive: it asks.
	if c, asked := en.callTurn(conv.ID, "test__crash", `{}`, &ApprovalDecision{Action: "cancel"}); !asked || c.Status != store.ToolCallDeclined {
		t.Fatalf("destructive crash: asked %v, %+v", asked, c)
	}
	// A "never" policy wins over the default.
	en.allow(policyNever, "test", "add")
	if c, asked := en.callTurn(conv.ID, "test__add", `{"a":1,"b":2}`, nil); asked || c.Status != store.ToolCallDeclined || c.Approval != store.ApprovalNever {
		t.Fatalf("never-policy add: asked %v, %+v", asked, c)
	}
	// "always" also wins, and is recorded as such.
	en.allow(policyAlways, "test", "structured")
	if c, _ := en.callTurn(conv.ID, "test__structured", `{}`, nil); c.Approval != store.ApprovalAlways {
		t.Fatalf("always-allowed structured: %+v", c)
	}

	got := auditByTool(t, u, conv.ID)
	if e := got[`echo {"message":"ro"}`]; e.Status != store.AuditOK || e.Approval != store.ApprovalReadOnly {
		t.Errorf("audit of the read-only echo: %+v", e)
	}
	if e := got[`fail {}`]; e.Status != store.AuditDeclined || e.Approval != store.ApprovalUser {
		t.Errorf("audit of fail: %+v", e)
	}

	// Back to "ask": the read-only tool waits again.
	if _, err := en.e.SaveSettings(en.ctx, ChatSettings{ApprovalDefault: ApprovalDefaultAsk}); err != nil {
		t.Fatal(err)
	}
	if c, asked := en.callTurn(conv.ID, "test__echo", `{"message":"ask"}`, &ApprovalDecision{Action: "run"}); !asked || c.Approval != store.ApprovalUser {
		t.Fatalf("echo under ask: asked %v, %+v", asked, c)
	}
}
