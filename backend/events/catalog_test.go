package events

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name    Name
		payload any
		want    string
	}{
		{ServersChanged, ServersChangedPayload{}, "mcp:servers-changed: $.ids is nil and would reach the UI as null"},
		{ServersChanged, ConfigErrorPayload{}, "payload events.ConfigErrorPayload, the contract says events.ServersChangedPayload"},
		{WindowShow, QuickChatPayload{}, "carries no payload"},
		{Name("chat:nope"), nil, "not in events.Catalog"},
		{ServersChanged, &ServersChangedPayload{IDs: []string{}}, ""},
		{WindowShow, nil, ""},
	} {
		got := strings.Join(Validate(tc.name, tc.payload), "; ")
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("Validate(%s, %T) = %q, want %q", tc.name, tc.payload, got, tc.want)
		}
	}
}
