// Types mirroring the Go structs the bound services exchange with the
// frontend (backend/mcppool/api.go, backend/events/events.go, backend/settings).
// JSON field names are exact; keep them in step with the Go side.


/** How the app talks to one server. */
export type {
  ImportItem,
  ImportProblem,
  ShownPair,
  ShownValue,
  AppInfo,
  CompletionRef,
  ConfigErrorPayload as ConfigError,
  DesktopStatus,
  DetectedConfig,
  ImportChange,
  ImportPreview,
  ImportResult,
  ImportWarning,
  KeychainStatus,
  ListChangedPayload as ListChanged,
  ListKind,
  PoolDefaults,
  ProgressPayload as Progress,
  ResourceUpdatedPayload as ResourceUpdated,
  RPCEntry,
  RPCKind,
  RPCLogBatch,
  SavedRequest,
  SecretPair,
  ServerProblem,
  ServersChangedPayload as ServersChanged,
  ServerSpec,
  ServerState,
  ServerStatusPayload as ServerStatus,
  ServerView,
  ToolCallRequest,
  ToolSelection,
  Transport,
} from './generated/contract';








/** The config-file formats the importer recognises. */
export type ImportFormat = 'cursor' | 'claude' | 'vscode' | 'windsurf' | 'cline' | 'mcpdesk';










/** local: no message on the wire, but what MCP Desk noted about a request of its own. */
export type RPCDirection = 'out' | 'in' | 'local';
/** What became of a request that ended without an answer (events.RPCEntry.Note). */
export type RPCNote = 'cancelledByUser' | 'timedOut' | 'abandoned' | 'noAnswer';




export type { Prefs } from './generated/contract';
/** The theme: "system" follows the system. */
export type ThemePref = import('./generated/contract').Prefs['theme'];
/** "" follows the system language. */
export type LanguagePref = import('./generated/contract').Prefs['language'];





// ---- Inspector: MCP objects as the protocol's JSON (see backend/mcppool/service_inspect.go)

export type JSONSchema = Record<string, unknown>;

// MCP's own objects, as the official schema types them (mcp-go writes them
// with the protocol's JSON).
export type {
  Annotations,
  CallToolResult,
  ContentBlock as Content,
  GetPromptResult,
  Icon,
  ListResourcesResult as ResourcePage,
  ListResourceTemplatesResult as TemplatePage,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/spec.types.js';
/** The contents of a resource: text or base64 bytes (MCP's two kinds, either field readable). */
export type ResourceContents = import('@modelcontextprotocol/sdk/spec.types.js').ResourceContents &
  Partial<Pick<import('@modelcontextprotocol/sdk/spec.types.js').TextResourceContents, 'text'>> &
  Partial<Pick<import('@modelcontextprotocol/sdk/spec.types.js').BlobResourceContents, 'blob'>>;
export type { ListedTool, ToolCallOutcome } from './generated/contract';
/**
 * A tool as the UI holds it: MCP's definition, with MCP Desk's reading of
 * it (mcpdesk) where the pool listed it (ListedTool always has one).
 */
export type Tool = import('@modelcontextprotocol/sdk/spec.types.js').Tool & {
  mcpdesk?: import('./generated/contract').ToolTrust;
};






















export type {
  ElicitationPayload as ElicitationRequest,
  ElicitationDonePayload as ElicitationDone,
} from './generated/contract';
/** How the user answered a server's question. */
export type ElicitationAction = import('./generated/contract').ElicitationDonePayload['action'];

/** LogLevel is an MCP log severity, lowest first. */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];


/** Completion is a server's suggestions for one argument (completion/complete). */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}


