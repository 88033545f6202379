// Package events defines the names and payloads of every event the backend
// pushes to the frontend. It is the Go half of the typed event map; the
// TypeScript half lives in frontend/src/lib/api/events.ts and must mirror it.
//
// Backend packages publish through an Emitter and never import the Wails
// runtime; app.go adapts Emitter to runtime.EventsEmit.
package events

// Emitter publishes one event to the frontend. Implementations must be safe
// for concurrent use and must not block for long.
type Emitter interface {
	Emit(name Name, payload any)
}

// Name is the name of one frontend event.
type Name string

// The event names. Each constant documents its payload type.
const (
	// ServerStatus carries a ServerStatusPayload whenever a server's
	// connection state changes.
	ServerStatus Name = "mcp:server-status"
	// ServersChanged carries a ServersChangedPayload when the set of
	// configured servers changes (edit, import, file reload).
	ServersChanged Name = "mcp:servers-changed"
	// RPCLog carries an RPCLogBatch of JSON-RPC messages, coalesced.
	RPCLog Name = "mcp:rpc-log"
	// ConfigError carries a ConfigErrorPayload when the config file on disk
	// is invalid; the previous good config stays in force.
	ConfigError Name = "mcp:config-error"
	// Progress carries a ProgressPayload for each progress notification of
	// a running tool call.
	Progress Name = "mcp:progress"
	// ListChanged carries a ListChangedPayload when a server's tools,
	// resources or prompts changed and the UI should list them again.
	ListChanged Name = "mcp:list-changed"
	// ResourceUpdated carries a ResourceUpdatedPayload when a server says a
	// resource the user subscribed to changed (notifications/resources/updated).
	ResourceUpdated Name = "mcp:resource-updated"
	// Elicitation carries an ElicitationPayload: a server asks the user
	// something; MCPPool.AnswerElicitation answers.
	Elicitation Name = "mcp:elicitation"
	// ElicitationDone carries an ElicitationDonePayload when a question was
	// answered, timed out, or its call ended: the dialog closes.
	ElicitationDone Name = "mcp:elicitation-done"
	// SignInStep carries a SignInStepPayload for each step of an OAuth
	// sign-in (the OAuth debugger), secrets redacted.
	SignInStep Name = "mcp:sign-in-step"
)

// ServerState is the connection state of one server.
type ServerState string

// The server states, in the order a server normally passes through them.
const (
	StateDisabled   ServerState = "disabled"
	StateConnecting ServerState = "connecting"
	StateConnected  ServerState = "connected"
	StateFailed     ServerState = "failed"
	StateRestarting ServerState = "restarting"
	// StateNeedsSignIn: a remote server answered 401 and no valid sign-in
	// is stored; MCPPool.SignIn starts one (issue 14).
	StateNeedsSignIn ServerState = "needs-sign-in"
)

// ServerStatusPayload is the state of one server as the UI shows it.
type ServerStatusPayload struct {
	ID              string      `json:"id"`
	State           ServerState `json:"state"`
	Transport       string      `json:"transport"`
	ProtocolVersion string      `json:"protocolVersion"`
	ServerName      string      `json:"serverName"`
	ServerVersion   string      `json:"serverVersion"`
	Tools           int         `json:"tools"`
	Resources       int         `json:"resources"`
	Prompts         int         `json:"prompts"`
	// CanSubscribe is true when the server offers resource subscriptions.
	CanSubscribe bool `json:"canSubscribe,omitempty"`
	// Error says why the server failed, in words a user can act on.
	Error string `json:"error,omitempty"`
	// Stderr is the tail of a stdio server's standard error.
	Stderr string `json:"stderr,omitempty"`
	// Attempt counts automatic reconnects since the last success.
	Attempt int `json:"attempt,omitempty"`
	// NextRetryMs is the delay before the next automatic reconnect.
	NextRetryMs int64 `json:"nextRetryMs,omitempty"`
	// Problem names the failure in Error when the UI words it itself, in
	// the user's language; Error keeps the English text.
	Problem *ServerProblem `json:"problem,omitempty"`
	// SignIn describes the server's OAuth sign-in, when it has one; nil
	// for a server that needs none (or one not yet asked).
	SignIn *SignInStatus `json:"signIn,omitempty"`
}

// SignInStepPayload is one step of a server's OAuth sign-in: what was
// requested and answered (secrets replaced by "[redacted]"), the rule it
// follows, and what went wrong.
type SignInStepPayload struct {
	Server string `json:"server"`
	// Attempt numbers the sign-ins of this run; Seq the steps within one.
	Attempt int    `json:"attempt"`
	Seq     int    `json:"seq"`
	Step    string `json:"step" ts_type:"'unauthorized'|'resource-metadata'|'server-metadata'|'client'|'authorize'|'callback'|'token'|'request'|'refresh'|'revoke'|(string & {})"`
	// Status "waiting": a step-by-step sign-in waits for Continue before Step.
	Status string `json:"status" ts_type:"'ok'|'failed'|'info'|'waiting'"`
	Title  string `json:"title"`
	Rule   string `json:"rule"`
	Detail string `json:"detail"`
	// HTTP is the exchange of this step, when it made one.
	HTTP *SignInHTTP `json:"http,omitempty"`
}

// SignInHTTP is one redacted HTTP exchange of a sign-in.
type SignInHTTP struct {
	Method          string            `json:"method"`
	URL             string            `json:"url"`
	RequestHeaders  map[string]string `json:"requestHeaders"`
	RequestBody     string            `json:"requestBody"`
	Status          int               `json:"status"`
	ResponseHeaders map[string]string `json:"responseHeaders"`
	ResponseBody    string            `json:"responseBody"`
	Error           string            `json:"error"`
}

// SignInStatus is what the UI may know of a server's OAuth sign-in: never
// a token, a code or a secret.
type SignInStatus struct {
	// SignedIn is true while tokens are stored for the server.
	SignedIn bool `json:"signedIn"`
	// Issuer is the authorization server; Host its host, for "Signed in
	// to HOST".
	Issuer string `json:"issuer"`
	Host   string `json:"host"`
	// Account names who signed in, when the server said ("" otherwise).
	Account string `json:"account"`
	Scope   string `json:"scope"`
	// ExpiresAt is when the access token expires (Unix ms); 0 when the
	// server gave no lifetime.
	ExpiresAt int64 `json:"expiresAt"`
	// Renewable is true when a refresh token is stored.
	Renewable bool `json:"renewable"`
	// Client says how MCP Desk is known there: dynamic, cimd or preregistered.
	Client string `json:"client"`
}

// ServerProblem is a failure the UI can word itself.
type ServerProblem struct {
	// Code says which. messageTooLarge: the server sent a message larger
	// than Limit bytes (its maxMessageBytes) and was stopped.
	// programNotFound: Program is not on the PATH (or not at the path
	// given); programNotExecutable: Program exists but cannot be run;
	// exitedAtStart: the program exited before the handshake finished.
	// Any other code is a usererr code, worded as errors.<code> with
	// Params.
	Code string `json:"code" ts_type:"'messageTooLarge'|'programNotFound'|'programNotExecutable'|'exitedAtStart'|(string & {})"`
	// Params fill in the words of a usererr code.
	Params map[string]any `json:"params,omitempty" ts_type:"Record<string, unknown>"`
	// Limit is the limit that was passed, in bytes.
	Limit int64 `json:"limit,omitempty"`
	// Program is the program that could not be started.
	Program string `json:"program,omitempty"`
}

// ServersChangedPayload lists the server ids now configured, in order.
type ServersChangedPayload struct {
	IDs []string `json:"ids"`
}

// Direction tells which way a JSON-RPC message travelled.
type Direction string

// The directions.
const (
	Outgoing Direction = "out" // client → server
	Incoming Direction = "in"  // server → client
	// Local marks an entry that is no message on the wire: what MCP Desk
	// noted about a request of its own (see RPCEntry.Note).
	Local Direction = "local"
	// The view lane (MCP Apps): messages between a view and MCP Desk, not
	// on the server's wire.
	ViewToHost Direction = "view-in"
	HostToView Direction = "view-out"
)

// RPCKind classifies a JSON-RPC message.
type RPCKind string

// The message kinds.
const (
	KindRequest      RPCKind = "request"
	KindResponse     RPCKind = "response"
	KindError        RPCKind = "error"
	KindNotification RPCKind = "notification"
	// KindCancelled is the end of a request that was cancelled before its
	// answer came: a Local entry whose Note says by whom.
	KindCancelled RPCKind = "cancelled"
)

// RPCEntry is one JSON-RPC message in the logger. Payload has secrets
// redacted before an entry is ever stored or emitted.
type RPCEntry struct {
	Seq       uint64    `json:"seq"`
	Server    string    `json:"server"`
	Time      int64     `json:"time"` // Unix milliseconds
	Direction Direction `json:"direction"`
	Kind      RPCKind   `json:"kind"`
	Method    string    `json:"method"`
	ID        string    `json:"id,omitempty"`
	// LatencyMs is set on a response: the time since its request.
	LatencyMs *float64 `json:"latencyMs,omitempty"`
	Payload   string   `json:"payload"`
	// Truncated is true when Payload was cut to the logger's size limit.
	Truncated bool `json:"truncated,omitempty"`
	// Dropped, when not 0, makes this entry a marker: that many messages
	// of Method from Server were not logged, held back by the flood limit.
	Dropped int `json:"dropped,omitempty"`
	// Note, on a Local entry, says what became of request ID: the user
	// stopped it, it ran past its time limit, MCP Desk no longer needed
	// it, or no answer could be had (Payload then holds the reason).
	// On the view lane: 'viewOpened' (Payload: the policy the view runs
	// under) and 'blocked' (Payload: what MCP Desk refused and why).
	Note string `json:"note,omitempty" ts_type:"'cancelledByUser'|'timedOut'|'abandoned'|'noAnswer'|'viewOpened'|'blocked'"`
}

// RPCLogBatch carries the JSON-RPC messages logged since the last batch.
type RPCLogBatch struct {
	Entries []RPCEntry `json:"entries"`
}

// ConfigErrorPayload reports an invalid config file.
type ConfigErrorPayload struct {
	File    string `json:"file"`
	Message string `json:"message"`
}

// ProgressPayload is one progress notification of a running call. CallID
// is the id the caller gave the call; it doubles as the progress token.
type ProgressPayload struct {
	CallID   string  `json:"callId"`
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
	// Dropped counts the progress notifications of this call not shown so
	// far, held back by the flood limit (the latest always is).
	Dropped int `json:"dropped,omitempty"`
}

// ListKind names one of the lists a server offers.
type ListKind string

// The lists.
const (
	ListTools     ListKind = "tools"
	ListResources ListKind = "resources"
	ListPrompts   ListKind = "prompts"
)

// ListChangedPayload says that one list of one server changed.
type ListChangedPayload struct {
	Server string   `json:"server"`
	Kind   ListKind `json:"kind"`
}

// ResourceUpdatedPayload says that one resource of one server changed.
type ResourceUpdatedPayload struct {
	Server string `json:"server"`
	URI    string `json:"uri"`
	// At is when the notification arrived, in Unix milliseconds.
	At int64 `json:"at"`
}

// ElicitationPayload is one question from a server (SPEC A10). Mode "form"
// carries RequestedSchema (a JSON Schema of the answer); mode "url" carries
// the URL to open after the user consents.
type ElicitationPayload struct {
	ID              string `json:"id"`
	Server          string `json:"server"`
	Mode            string `json:"mode" ts_type:"'form' | 'url'"`
	Message         string `json:"message"`
	RequestedSchema any    `json:"requestedSchema,omitempty" ts_type:"Record<string, unknown>"`
	URL             string `json:"url,omitempty"`
	// TimeoutMs is how long the question waits before it is cancelled.
	TimeoutMs int64 `json:"timeoutMs"`
}

// ElicitationDonePayload says a question is settled, and how.
type ElicitationDonePayload struct {
	ID     string            `json:"id"`
	Action ElicitationAction `json:"action"`
}

// ElicitationAction is how a question was answered (MCP's ElicitResult
// action).
type ElicitationAction string

// The answers to a server's question.
const (
	ElicitAccept  ElicitationAction = "accept"  // answered, with content
	ElicitDecline ElicitationAction = "decline" // refused
	ElicitCancel  ElicitationAction = "cancel"  // dismissed, or timed out
)

// Discard is an Emitter that drops every event; for the CLI and tests.
type Discard struct{}

// Emit drops the event.
func (Discard) Emit(Name, any) {}
