// Types mirroring the Go structs the bound services exchange with the
// frontend (backend/mcppool/api.go, backend/events/events.go, backend/settings).
// JSON field names are exact; keep them in step with the Go side.

import type { ToolTrust } from './trustTypes';

/** How the app talks to one server. */
export type Transport = 'stdio' | 'http' | 'sse';

/** The connection state of one server (events.ServerState). */
export type ServerState = 'disabled' | 'connecting' | 'connected' | 'failed' | 'restarting';

/**
 * One env variable or header (mcp.SecretPair). A plain value comes back as
 * it is. A secret (secret true) is kept in the OS keychain: read back it has
 * value "" and keep true (revealSecret fetches it on demand); sending keep
 * true keeps the stored value, and sending secret true stores the value in
 * the keychain with a ${keychain:…} reference in the config file.
 */
export interface SecretPair {
  key: string;
  value: string;
  keep: boolean;
  secret?: boolean;
  /** Read only: the secret is still written in plain text in the config file. */
  inFile?: boolean;
}

/** The editable form of one server (mcp.ServerSpec). */
export interface ServerSpec {
  id: string;
  type: Transport;
  command: string;
  args: string[];
  env: SecretPair[];
  cwd: string;
  url: string;
  headers: SecretPair[];
  enabled: boolean;
  /** 0 means the default (60 000 ms). */
  timeoutMs: number;
  /** 0 means the default (4). */
  maxConcurrency: number;
  /** Largest message the server may send, in bytes (0: 32 MB). */
  maxMessageBytes: number;
  /** "" means automatic negotiation. */
  protocolVersion: string;
  /** Folders the server may work in (absolute paths), offered on roots/list. */
  roots?: string[];
}

/** The state of one server as the UI shows it (events.ServerStatusPayload). */
export interface ServerStatus {
  id: string;
  state: ServerState;
  transport: string;
  protocolVersion: string;
  serverName: string;
  serverVersion: string;
  tools: number;
  resources: number;
  prompts: number;
  /** The server offers resource subscriptions (resources/subscribe). */
  canSubscribe?: boolean;
  /** Why the server failed, in words a user can act on. */
  error?: string;
  /** The tail of a stdio server's standard error. */
  stderr?: string;
  /** Automatic reconnects since the last success. */
  attempt?: number;
  /** Delay before the next automatic reconnect, from when the event was sent. */
  nextRetryMs?: number;
  /** A failure the UI words itself; error keeps the English text (events.ServerProblem). */
  problem?: ServerProblem;
}

/** A server failure the UI words in the user's language (events.ServerProblem). */
export interface ServerProblem {
  /**
   * messageTooLarge: the server sent a message larger than limit bytes and was stopped.
   * programNotFound / programNotExecutable: program could not be run.
   * exitedAtStart: the program exited before the handshake finished.
   */
  code: 'messageTooLarge' | 'programNotFound' | 'programNotExecutable' | 'exitedAtStart' | (string & {});
  /** The params of any other code, a code of backend/usererr worded as errors.<code>. */
  params?: Record<string, unknown>;
  limit?: number;
  /** The program that could not be started. */
  program?: string;
}

/** One configured server with its live status (mcp.ServerView). */
export interface ServerView {
  spec: ServerSpec;
  status: ServerStatus;
}

/** The config-file formats the importer recognises. */
export type ImportFormat = 'cursor' | 'claude' | 'vscode' | 'windsurf' | 'cline' | 'mcpdesk';

/**
 * One value as the import preview shows it (mcpconfig.Shown). A secret's
 * text is only a hint such as "sk-…9f2c"; the value never reaches the page.
 */
export interface ShownValue {
  text: string;
  /** The whole value is a secret: text is a hint, length its length in characters. */
  secret: boolean;
  /** Parts of the value are secrets, replaced by *** in text. */
  partial: boolean;
  length: number;
  /** The variables the value reads from the user's environment (${VAR}). */
  reads: string[];
}

/** An env variable or header in the import preview (mcpconfig.Pair). */
export interface ShownPair {
  name: string;
  value: ShownValue;
}

/** A setting a replacing server changes (mcpconfig.Change). */
export interface ImportChange {
  field:
    | 'transport' | 'command' | 'args' | 'cwd' | 'env' | 'url' | 'headers' | 'enabled' | 'timeoutMs'
    | 'maxConcurrency' | 'protocolVersion' | 'allowTools' | 'denyTools' | 'roots' | 'other';
  /** The variable, header or field name (env, headers, other); "" otherwise. */
  name: string;
  /** Before and after: one value, or one per list item; empty when not set. */
  old: ShownValue[];
  new: ShownValue[];
}

/** Something to look at twice (mcpconfig.Warning): the message is importer.warning.<code>. */
export interface ImportWarning {
  code: string;
  params: Record<string, string>;
}

/** One server of a file to import, with everything it runs or sends (mcpconfig.ServerPreview). */
export interface ImportItem {
  id: string;
  transport: Transport;
  /** Command line or URL on one line, secrets masked. */
  summary: string;
  /** False for a server the file imports switched off. */
  enabled: boolean;
  /** True when a server with this id is already configured; changes is then what differs (none: identical). */
  replaces: boolean;
  changes: ImportChange[];
  command: ShownValue;
  args: ShownValue[];
  cwd: ShownValue;
  env: ShownPair[];
  url: ShownValue;
  /** The host a remote server connects to. */
  host: string;
  headers: ShownPair[];
  roots: ShownValue[];
  /** Every variable the server reads from the user's environment, sorted. */
  reads: string[];
  /** VS Code ${input:id} references, which MCP Desk does not prompt for. */
  inputs: string[];
  warnings: ImportWarning[];
  /** Where the entry is in the file (1-based; 0 when not known). */
  line: number;
  col: number;
  /** What is wrong with the entry; none when it can be imported. An entry with problems shows only its id. */
  problems: ImportProblem[];
}

/** One mistake in an entry of a file to import (mcpconfig.Problem), where it is in the file. */
export interface ImportProblem {
  line: number;
  col: number;
  /** The field it is in; "" for the entry as a whole. */
  field: string;
  /** What is wrong, in plain English words (from Go, secrets hidden). */
  message: string;
  /** The same for the UI to word in the user's language (errors.<code>); absent when it has no words for it. */
  code?: string;
  params?: Record<string, unknown>;
}

/** What importing a config file would do (mcp.ImportPreview). */
export interface ImportPreview {
  /** Names the previewed servers: importServers(token, ids) imports exactly these. */
  token: string;
  file: string;
  format: ImportFormat;
  items: ImportItem[];
}

/** An MCP config of another client found on this machine (mcp.DetectedConfig), SPEC F6. */
export interface DetectedConfig {
  client: 'claude' | 'cursor' | 'vscode' | 'windsurf';
  path: string;
  /** The ids of the file's servers that can be imported, in file order; empty when it has none or error is set. */
  servers: string[];
  /** Those of servers already configured here: importing them replaces them. */
  configured: string[];
  /** The ids of entries with mistakes: the import preview shows where, and does not import them. */
  broken: string[];
  /** Why the file cannot be imported at all; "" when it can be. */
  error: string;
}

/** What an import changed (mcp.ImportResult). */
export interface ImportResult {
  added: string[];
  replaced: string[];
}

/** local: no message on the wire, but what MCP Desk noted about a request of its own. */
export type RPCDirection = 'out' | 'in' | 'local';
export type RPCKind = 'request' | 'response' | 'error' | 'notification' | 'cancelled';
/** What became of a request that ended without an answer (events.RPCEntry.Note). */
export type RPCNote = 'cancelledByUser' | 'timedOut' | 'abandoned' | 'noAnswer';

/** One JSON-RPC message in the logger (events.RPCEntry); secrets are redacted. */
export interface RPCEntry {
  seq: number;
  server: string;
  /** Unix milliseconds. */
  time: number;
  direction: RPCDirection;
  kind: RPCKind;
  method: string;
  id?: string;
  /** On a response: the time since its request. */
  latencyMs?: number;
  /** JSON text. */
  payload: string;
  /** True when payload was cut to the logger's size limit. */
  truncated?: boolean;
  /** When set, a marker: this many messages of method were not logged (flood limit). */
  dropped?: number;
  /** On a local entry: what became of request id. */
  note?: RPCNote;
}

/** Facts about this installation (settings.AppInfo). */
/**
 * KeychainStatus says whether the OS keychain can hold API keys
 * (settings.KeychainStatus): one self-test per start, re-run on demand. It
 * never contradicts a stored key: "read_only" when the self-test failed but
 * stored keys read.
 */
export interface KeychainStatus {
  state: 'ok' | 'read_only' | 'unavailable';
  /** state is not "unavailable". */
  available: boolean;
  /** Why the self-test failed; "" when it passed. */
  reason: string;
  /** How many provider keys in the keychain could be read. */
  storedKeys: number;
  /** When the self-test ran (RFC 3339). */
  checkedAt: string;
}

export interface AppInfo {
  version: string;
  dataDir: string;
  configFile: string;
  databaseFile: string;
}

/** Application-wide defaults of the MCP servers (mcp.PoolDefaults, SPEC F1). */
export interface PoolDefaults {
  /** How long one request to a server without its own timeoutMs may take (1 s … 24 h). */
  timeoutMs: number;
}

export type { Prefs } from './generated/contract';
/** The theme: "system" follows the system. */
export type ThemePref = import('./generated/contract').Prefs['theme'];
/** "" follows the system language. */
export type LanguagePref = import('./generated/contract').Prefs['language'];

/** What the desktop around the window offers now (settings.DesktopStatus, SPEC F2). */
export interface DesktopStatus {
  /** A tray icon is shown: closing the window can keep MCP Desk running. */
  tray: boolean;
  /** The global quick-chat shortcut, or "" when none could be had (hotkeyError says why). */
  hotkey: string;
  hotkeyError: string;
  /** Opens quick chat from a terminal or a desktop key binding. */
  quickChatCommand: string;
}

/** Payload of mcp:servers-changed: the server ids now configured, in order. */
export interface ServersChanged {
  ids: string[];
}

/** Payload of mcp:rpc-log: the messages logged since the last batch. */
export interface RPCLogBatch {
  entries: RPCEntry[];
}

/** Payload of mcp:config-error: the config file on disk is invalid. */
export interface ConfigError {
  file: string;
  message: string;
}

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

/** ToolCallRequest is one tool call; callId names it for cancelCall and progress. */
export interface ToolCallRequest {
  callId: string;
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
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

/** Payload of mcp:progress: one progress notification of a running call. */
export interface Progress {
  callId: string;
  progress: number;
  total?: number;
  message?: string;
  /** Progress notifications of this call not shown so far (flood limit). */
  dropped?: number;
}

export type ListKind = 'tools' | 'resources' | 'prompts';

/** Payload of mcp:list-changed: re-fetch that list of that server. */
export interface ListChanged {
  server: string;
  kind: ListKind;
}

/** Payload of mcp:resource-updated: a subscribed resource changed (events.ResourceUpdatedPayload). */
export interface ResourceUpdated {
  server: string;
  uri: string;
  /** When the notification arrived, Unix milliseconds. */
  at: number;
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

/** CompletionRef names what an argument belongs to: a prompt, or a resource template (name = its URI template). */
export interface CompletionRef {
  kind: 'prompt' | 'resource';
  name: string;
}

/** Completion is a server's suggestions for one argument (completion/complete). */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** ToolSelection says which of a server's tools models are offered, and their token cost (SPEC A6). */
export interface ToolSelection {
  disabled: string[];
  enabled: number;
  total: number;
  estimatedTokens: number;
  warnAbove: number;
}

/** SavedRequest is a tool call kept for later (store.SavedRequest). id 0 = not stored yet. */
export interface SavedRequest {
  id: number;
  server: string;
  tool: string;
  name: string;
  description: string;
  arguments: Record<string, unknown>;
  createdAt?: string;
  updatedAt?: string;
}
