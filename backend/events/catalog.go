package events

import (
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
	"sync"

	"mcpdesk/backend/contract/nonnull"
)

// Entry is one event of the contract: its name and the type of its
// payload (a zero value; nil for an event without one).
type Entry struct {
	Name    Name
	Payload any
}

// Catalog lists every event the backend emits, in the order the UI's event
// map shows them. The UI's TypeScript event map is generated from it
// (backend/contract); generation fails on a Name constant missing here.
var Catalog = []Entry{
	{ServerStatus, ServerStatusPayload{}},
	{ServersChanged, ServersChangedPayload{}},
	{RPCLog, RPCLogBatch{}},
	{ConfigError, ConfigErrorPayload{}},
	{Progress, ProgressPayload{}},
	{ListChanged, ListChangedPayload{}},
	{ResourceUpdated, ResourceUpdatedPayload{}},
	{Elicitation, ElicitationPayload{}},
	{ElicitationDone, ElicitationDonePayload{}},
	{SignInStep, SignInStepPayload{}},
	{ChatMessage, ChatMessagePayload{}},
	{ChatDelta, ChatDeltaPayload{}},
	{ChatToolInput, ChatToolInputPayload{}},
	{ChatToolCall, ChatToolCallPayload{}},
	{ChatApproval, ChatApprovalPayload{}},
	{ChatApprovalDone, ChatApprovalDonePayload{}},
	{ChatSampling, ChatSamplingPayload{}},
	{ChatSamplingDone, ChatSamplingDonePayload{}},
	{ChatStep, ChatStepPayload{}},
	{ChatUsage, ChatUsagePayload{}},
	{ChatError, ChatErrorPayload{}},
	{ChatDone, ChatDonePayload{}},
	{ChatConversations, ChatConversationsPayload{}},
	{UsageChanged, UsageChangedPayload{}},
	{WindowQuickChat, QuickChatPayload{}},
	{WindowShow, nil},
	{WindowOpenConversation, OpenConversationPayload{}},
}

// Validate checks one emitted event against the contract: a name in
// Catalog, a payload of its type, and no nil list or map where the
// generated TypeScript promises one (nonnull.Check). The tests of the
// packages that emit call it on every event they record.
func Validate(name Name, payload any) []string {
	for _, e := range Catalog {
		if e.Name != name {
			continue
		}
		if e.Payload == nil {
			if payload != nil {
				return []string{fmt.Sprintf("%s: carries no payload, got %T", name, payload)}
			}
			return nil
		}
		want := reflect.TypeOf(e.Payload)
		got := reflect.TypeOf(payload)
		if got != nil && got.Kind() == reflect.Pointer {
			got = got.Elem()
		}
		if got != want {
			return []string{fmt.Sprintf("%s: payload %v, the contract says %v", name, got, want)}
		}
		var out []string
		for _, p := range nonnull.Check(payload) {
			out = append(out, fmt.Sprintf("%s: %s is nil and would reach the UI as null", name, p))
		}
		return out
	}
	return []string{fmt.Sprintf("%s: not in events.Catalog", name)}
}

// Checked collects what Validate finds in many events, once each: the
// tests of the packages that emit call Check on every event they record
// and report Problems at the end.
type Checked struct {
	mu       sync.Mutex
	problems map[string]bool
}

// Check validates one event and keeps its problems.
func (c *Checked) Check(name Name, payload any) {
	ps := Validate(name, payload)
	if len(ps) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.problems == nil {
		c.problems = map[string]bool{}
	}
	for _, p := range ps {
		c.problems[p] = true
	}
}

// Problems lists what Check found, sorted.
func (c *Checked) Problems() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.problems))
	for p := range c.problems {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Exit prints what Check found to w and returns the exit code a TestMain
// should end with: code, or 1 when the tests passed but an event broke the
// contract.
func (c *Checked) Exit(code int, w io.Writer) int {
	problems := c.Problems()
	if len(problems) == 0 {
		return code
	}
	fmt.Fprintln(w, "events that break the Go↔UI contract:\n  "+strings.Join(problems, "\n  "))
	if code == 0 {
		return 1
	}
	return code
}
