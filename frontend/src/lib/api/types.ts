// Types mirroring the Go structs the bound services exchange with the
// frontend (backend/mcppool/api.go, backend/events/events.go, backend/settings).
// JSON field names are exact; keep them in step with the Go side.

import type { ToolTrust } from './trustTypes';

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

/** ToolAnnotations are a tool's behaviour hints. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JSONSchema;
  outputSchema?: JSONSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /** MCP Desk's reading of the definition (mcp.ListedTool, SPEC G1): its hash and what looks suspicious. */
  mcpdesk?: ToolTrust;
}

/** ResourceContents is a resource's body: text, or a base64 blob. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: Record<string, unknown>;
}

/** Content is one item of a tool result or a prompt message. */
export type Content =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string }
  | { type: 'resource'; resource: ResourceContents };

export interface CallToolResult {
  content: Content[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}


/** ToolCallOutcome is a finished call; a tool failure is result.isError. */
export interface ToolCallOutcome {
  result: CallToolResult;
  durationMs: number;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ResourcePage {
  resources: Resource[];
  nextCursor?: string;
}

export interface TemplatePage {
  resourceTemplates: ResourceTemplate[];
  nextCursor?: string;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: Content;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
}





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


