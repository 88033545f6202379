// The pool's half of the Go contract (backend/mcppool, backend/events,
// backend/settings), generated from Go (backend/contract), and MCP's own
// objects as the official schema types them. Only names the UI gives a
// generated or protocol type live here.
import type * as MCP from '@modelcontextprotocol/sdk/spec.types.js';
import type { ImportPreview, Notification, Prefs, RPCEntry, ToolTrust } from './generated/contract';
import { allOf } from './values';

export type {
  AppInfo,
  CompletionRef,
  ConfigErrorPayload as ConfigError,
  DesktopStatus,
  DetectedConfig,
  Direction as RPCDirection,
  ElicitationAction,
  ElicitationDonePayload as ElicitationDone,
  ElicitationPayload as ElicitationRequest,
  ImportChange,
  ImportItem,
  ImportPreview,
  ImportProblem,
  ImportResult,
  ImportWarning,
  KeychainStatus,
  ListChangedPayload as ListChanged,
  ListedTool,
  ListKind,
  Notification,
  PoolDefaults,
  Prefs,
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
  ShownPair,
  ShownValue,
  SignInStatus,
  SignInStepPayload as SignInStep,
  ToolCallOutcome,
  ToolCallRequest,
  ToolSelection,
  Transport,
  EmbeddedUI,
  ViewDomains,
  ViewFile,
  ViewPage,
  ViewToolCall,
} from './generated/contract';

/** The config-file formats the importer recognises. */
export type ImportFormat = ImportPreview['format'];
/** What became of a request that ended without an answer. */
export type RPCNote = NonNullable<RPCEntry['note']>;
/** The theme: "system" follows the system. */
export type ThemePref = Prefs['theme'];
/** "" follows the system language. */
export type LanguagePref = Prefs['language'];

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
  LoggingLevel as LogLevel,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/spec.types.js';
/** The contents of a resource: text or base64 bytes (MCP's two kinds, either field readable). */
export type ResourceContents = MCP.ResourceContents &
  Partial<Pick<MCP.TextResourceContents, 'text'>> &
  Partial<Pick<MCP.BlobResourceContents, 'blob'>>;
/** A server's suggestions for one argument (completion/complete). */
export type Completion = MCP.CompleteResult['completion'];
/**
 * A tool as the UI holds it: MCP's definition, with MCP Desk's reading of
 * it (mcpdesk) where the pool listed it (ListedTool always has one).
 */
export type Tool = MCP.Tool & { mcpdesk?: ToolTrust };

/** A JSON Schema as the UI's form and validator read it. */
export type JSONSchema = Record<string, unknown>;

/** MCP's log severities, lowest first (the logger's level picker). */
export const LOG_LEVELS = allOf<MCP.LoggingLevel>()(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/** What a desktop notification is about; each kind can be turned off. */
export type NotificationKind = Notification['kind'];
