package events

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
	{ChatMessage, ChatMessagePayload{}},
	{ChatDelta, ChatDeltaPayload{}},
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
}
