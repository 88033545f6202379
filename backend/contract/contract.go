// Package contract is the seam between Go and the UI, declared once: the
// services app.go binds, the events the backend emits, and how the few Go
// types that write their own JSON look on the wire. TypeScript generates the
// UI's half from it (go run ./backend/contract/gen): every bound method's
// parameters and results, every event payload, the event names and the
// constants of Go's string enums, so a change in Go is a compile error in
// TypeScript. A test fails while the generated file is stale.
//
// It reads the Go types by reflection, as encoding/json sees them, and the
// Go source of this module for what reflection cannot see: parameter names,
// doc comments and the constants of enum types.
package contract

import (
	"reflect"

	"github.com/mark3labs/mcp-go/mcp"

	"mcpdesk/backend/chat"
	"mcpdesk/backend/events"
	"mcpdesk/backend/importer"
	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/mcppool"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/remotecontent"
	"mcpdesk/backend/settings"
	"mcpdesk/backend/store"
	"mcpdesk/backend/trust"
	"mcpdesk/backend/usage"
)

// Service is one bound Go service: Name is what the UI calls it.
type Service struct {
	Name string
	Type reflect.Type
}

// Services are the services app.go binds (App.Bindings), in that order.
// A service bound there and missing here cannot be called from the UI.
var Services = []Service{
	{"MCPPool", reflect.TypeFor[*mcppool.MCPPool]()},
	{"SettingsService", reflect.TypeFor[*settings.Service]()},
	{"ProviderManager", reflect.TypeFor[*providers.ProviderManager]()},
	{"ChatService", reflect.TypeFor[*chat.ChatService]()},
	{"UsageStats", reflect.TypeFor[*usage.UsageStats]()},
}

// Names gives the TypeScript name of Go types whose own name is taken by
// another package's type in the contract (without an entry here such a
// clash fails generation), or says too little without its package.
var Names = map[reflect.Type]string{
	reflect.TypeFor[remotecontent.Scope]():     "RemoteScope",
	reflect.TypeFor[remotecontent.Grant]():     "RemoteGrant",
	reflect.TypeFor[usage.Totals]():            "UsageTotals",
	reflect.TypeFor[usage.Row]():               "UsageRow",
	reflect.TypeFor[usage.ConversationRow]():   "ConversationUsageRow",
	reflect.TypeFor[trust.Change]():            "TrustChange",
	reflect.TypeFor[trust.Span]():              "DiffSpan",
	reflect.TypeFor[trust.Warning]():           "TrustWarning",
	reflect.TypeFor[mcpconfig.Change]():        "ImportChange",
	reflect.TypeFor[mcpconfig.Warning]():       "ImportWarning",
	reflect.TypeFor[mcpconfig.Problem]():       "ImportProblem",
	reflect.TypeFor[mcpconfig.Shown]():         "ShownValue",
	reflect.TypeFor[mcpconfig.Pair]():          "ShownPair",
	reflect.TypeFor[mcpconfig.ServerPreview](): "ImportItem",
	reflect.TypeFor[store.Role]():              "MessageRole",
	reflect.TypeFor[importer.Preview]():        "ImportPreview",
	reflect.TypeFor[importer.Result]():         "ImportResult",
	reflect.TypeFor[importer.Detected]():       "DetectedConfig",
}

// Shape is how a Go type that writes its own JSON looks on the wire, as a
// TypeScript type expression, and the contract types that expression
// names.
type Shape struct {
	TS   string
	Uses []reflect.Type
}

// Shapes lists the Go types of this module with a MarshalJSON of their
// own. Generation fails on any other such type, so that a custom encoding
// is never described by its Go fields.
var Shapes = map[reflect.Type]Shape{
	reflect.TypeFor[mcppool.ListedTool](): {
		TS:   "MCP.Tool & { mcpdesk: ToolTrust }",
		Uses: []reflect.Type{reflect.TypeFor[mcppool.ToolTrust]()},
	},
}

// mcpPackage is mark3labs' MCP package: its objects are written with the
// protocol's JSON, so the UI types them with the protocol's own TypeScript
// schema (the official SDK's spec.types), imported as MCP.
var mcpPackage = reflect.TypeFor[mcp.Tool]().PkgPath()

// MCPTypes maps the protocol objects that reach the contract to their
// name in the official schema; a protocol type missing here fails
// generation.
var MCPTypes = map[string]string{
	"Tool":                        "MCP.Tool",
	"CallToolResult":              "MCP.CallToolResult",
	"Completion":                  `MCP.CompleteResult["completion"]`,
	"GetPromptResult":             "MCP.GetPromptResult",
	"ListResourceTemplatesResult": "MCP.ListResourceTemplatesResult",
	"ListResourcesResult":         "MCP.ListResourcesResult",
	"Prompt":                      "MCP.Prompt",
	"PromptArgument":              "MCP.PromptArgument",
	"PromptMessage":               "MCP.PromptMessage",
	"ReadResourceResult":          "MCP.ReadResourceResult",
	"Resource":                    "MCP.Resource",
	"ResourceTemplate":            "MCP.ResourceTemplate",
	"ResourceContents":            "MCP.TextResourceContents | MCP.BlobResourceContents",
	"Content":                     "MCP.ContentBlock",
	"Role":                        "MCP.Role",
	"Icon":                        "MCP.Icon",
	"Annotations":                 "MCP.Annotations",
	"ToolAnnotation":              "MCP.ToolAnnotations",
	"Implementation":              "MCP.Implementation",
	"ServerCapabilities":          "MCP.ServerCapabilities",
	"Meta":                        "{ [key: string]: unknown }",
	"InputRequest":                "MCP.ElicitRequest[\"params\"]",
	"LoggingLevel":                "MCP.LoggingLevel",
}

// Events are the backend's events, from events.Catalog.
func Events() []events.Entry { return events.Catalog }

// Output is where the generated TypeScript lives, from the module root.
const Output = "frontend/src/lib/api/generated/contract.ts"
