// Types of trust pinning (SPEC G1), mirroring backend/trust, the identity
// facts of backend/mcpconfig/identity.go and the report of
// backend/chat/trust.go. JSON field names are exact.

/** The kind of a suspicious-definition warning (trust.Warning.kind). */
export type TrustWarningKind = 'hiddenText' | 'bidi' | 'invisible' | 'instructions' | 'sensitive' | 'exfiltration' | 'otherServer';

/** One reason a tool definition looks like an attack on the model or the user (trust.Warning). */
export interface TrustWarning {
  kind: TrustWarningKind;
  /** "name", "title", "description", "annotations" or "inputSchema" (then params.path says where). */
  field: string;
  /** count, chars, text, phrase, server, tool, path: the message's values. */
  params?: Record<string, string>;
}

/** One piece of a word diff (trust.Span). */
export interface DiffSpan {
  op: 'equal' | 'insert' | 'delete';
  text: string;
}

/** One difference between two JSON documents (trust.SchemaChange). */
export interface SchemaChange {
  /** "properties.notes.description"; "" is the whole document. */
  path: string;
  op: 'added' | 'removed' | 'changed';
  /** JSON text, cut at 2000 bytes. */
  before?: string;
  after?: string;
  /** A word diff when both values are strings. */
  text?: DiffSpan[];
}

/** A server's identity as far as approving it goes, secrets left out (mcpconfig.IdentityFacts). */
export interface IdentityFacts {
  transport: string;
  /** The command line or URL, secrets masked. */
  command: string;
  program?: string;
  args?: string[];
  env?: string[];
  loadEnv?: Record<string, string>;
  cwd?: string;
  url?: string;
}

/** A server's identity then and now (trust.ServerChange). */
export interface ServerChange {
  before: IdentityFacts;
  after: IdentityFacts;
  /** Which facts differ: transport, command, args, env, loadEnv, cwd, url. */
  what: string[];
  envAdded?: string[];
  envRemoved?: string[];
  loadEnvChanged?: string[];
}

/** How a tool's definition changed (trust.ToolChange). */
export interface ToolChange {
  hashBefore: string;
  hashAfter: string;
  /** False when the approved definition was not kept: only the hashes differ. */
  known: boolean;
  title?: DiffSpan[];
  description?: DiffSpan[];
  inputSchema?: SchemaChange[];
  annotations?: SchemaChange[];
}

/** The kinds of standing approval a change can suspend. */
export type PinnedPolicy = 'always' | 'conversation' | 'server';

/** What changed since a standing approval was given (trust.Change). */
export interface TrustChange {
  policy: PinnedPolicy;
  server?: ServerChange;
  tool?: ToolChange;
  /** The tool was not there when its server was auto-approved. */
  new?: boolean;
}

/** MCP Desk's reading of a listed tool (mcp.ToolTrust), never the server's word. */
export interface ToolTrust {
  hash: string;
  warnings: TrustWarning[];
}

/** One standing approval suspended by a change (chat.SuspendedPolicy). */
export interface SuspendedPolicy {
  kind: PinnedPolicy;
  server: string;
  tool?: string;
  conversationId?: number;
}

/** One tool changed since it was approved (chat.ChangedTool). */
export interface ChangedTool {
  tool: string;
  /** Added to an auto-approved server since. */
  new?: boolean;
}

/** What changed on one server since its tools were approved (chat.ServerTrust). */
export interface ServerTrust {
  server: string;
  identity?: ServerChange;
  tools: ChangedTool[];
  suspended: SuspendedPolicy[];
}

/** The servers whose standing approvals are suspended (chat.TrustReport). */
export interface TrustReport {
  servers: ServerTrust[];
}
