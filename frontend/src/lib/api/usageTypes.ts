// Types mirroring backend/usage (the bound UsageStats, SPEC E1, E2) and
// store.AuditEntry. JSON field names are exact; keep them in step with the
// Go side (api.test.ts compares them).

/** UsageQuery selects the LLM calls a summary or an export covers. */
export interface UsageQuery {
  /** First day, YYYY-MM-DD, inclusive (local days; see tzOffsetMinutes). */
  from: string;
  /** Last day, YYYY-MM-DD, inclusive. */
  to: string;
  /** The user's offset from UTC in minutes, east positive (UTC+8 = 480): where a day starts. */
  tzOffsetMinutes: number;
  /** A provider id, or "" for every provider. */
  provider: string;
  /** A model id, or "" for every model. */
  model: string;
  /** A conversation, or 0 for all. */
  conversationId: number;
}

/** UsageTotals sums the calls of a group: tokens and estimated cost. */
export interface UsageTotals {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's cache (part of promptTokens). */
  cachedTokens: number;
  /** Completion tokens spent reasoning (part of completionTokens). */
  reasoningTokens: number;
  /** Estimated cost in US dollars; null when a call of the group has no price (see pricedCost). */
  cost: number | null;
  /** What the calls with a price cost: all of cost when every call has one, a lower bound otherwise. */
  pricedCost: number;
  /** How many calls have no price. */
  unpricedCalls: number;
  /** Some calls of the group have a price and some do not: pricedCost is a lower bound. */
  costPartial: boolean;
}

/** UsageRow is one group of a summary: a day (per provider and model), a provider or a model. */
export interface UsageRow extends UsageTotals {
  key: string;
  label: string;
  /** YYYY-MM-DD (byDay rows). */
  day?: string;
  /** The provider id (byProvider and byModel rows; byDay rows too when split by provider). */
  provider?: string;
  /** The preset the provider was made from (byProvider and byModel rows). */
  preset?: string;
  /** The model id (byModel rows; byDay rows too when split by model). */
  model?: string;
}

/** ConversationUsageRow is one conversation's totals. */
export interface ConversationUsageRow extends UsageRow {
  /** 0 for calls outside any conversation (sampling requests outside a chat turn). */
  conversationId: number;
  title: string;
  /** The conversation was deleted; its calls still count. */
  deleted: boolean;
}

/** UsageSummary aggregates the calls a UsageQuery selects. */
export interface UsageSummary {
  /** The range actually covered. */
  from: string;
  to: string;
  tzOffsetMinutes: number;
  totals: UsageTotals;
  /**
   * Every day of the range, oldest first. Go sends one row per day; rows
   * that also carry provider (and model) split a day by them.
   */
  byDay: UsageRow[];
  /** Most expensive first, then most tokens. */
  byProvider: UsageRow[];
  byModel: UsageRow[];
  /** The most expensive conversations (at most 100); conversations counts them all. */
  byConversation: ConversationUsageRow[];
  conversations: number;
  /** The models with calls but no price, as "<provider name> · <model>" (their byModel labels). */
  unpriced: string[];
}

/** Where a price comes from: shipped with the app, or set by the user. */
export type PriceSource = 'default' | 'user';

/** Price is what one model costs, in US dollars per million tokens. */
export interface Price {
  /** A preset id ("openai") for every provider made from it, or one provider's id. */
  provider: string;
  model: string;
  inputPerM: number;
  /** What cached prompt tokens cost; null: the same as inputPerM. */
  cachedInputPerM: number | null;
  outputPerM: number;
  source: PriceSource;
}

/** How a CSV export groups the calls; "calls" is one line per call. */
export type UsageExportBy = 'day' | 'provider' | 'model' | 'conversation' | 'calls';

export const USAGE_EXPORT_BY: readonly UsageExportBy[] = ['day', 'provider', 'model', 'conversation', 'calls'];

/** Where a tool call came from: a chat, the Tools screen, the command line. */
export type AuditSource = 'chat' | 'tools' | 'cli';

export const AUDIT_SOURCES: readonly AuditSource[] = ['chat', 'tools', 'cli'];

/** How a tool call ended. */
export type AuditStatus = 'ok' | 'error' | 'cancelled' | 'declined' | 'timeout';

export const AUDIT_STATUSES: readonly AuditStatus[] = ['ok', 'error', 'cancelled', 'declined', 'timeout'];

/** AuditQuery selects a page of the audit log; empty strings match everything. */
export interface AuditQuery {
  /** First day, YYYY-MM-DD, inclusive; "" = from the start. */
  from: string;
  /** Last day, YYYY-MM-DD, inclusive; "" = up to now. */
  to: string;
  /** Where days start: minutes east of UTC. */
  tzOffsetMinutes: number;
  server: string;
  tool: string;
  status: AuditStatus | '';
  source: AuditSource | '';
  /** Free text over tool, arguments, output and error. */
  text: string;
  limit: number;
  offset: number;
}

/** AuditEntry is one tool call as the audit log keeps it. */
export interface AuditEntry {
  id: number;
  /** RFC 3339. */
  time: string;
  source: AuditSource;
  /** The conversation of a chat call; 0 or absent for none. */
  conversationId?: number;
  server: string;
  tool: string;
  /** The arguments' JSON text as Go keeps it (cut at a limit: see argumentsTruncated); a value is accepted too. */
  arguments: unknown;
  argumentsTruncated?: boolean;
  durationMs: number;
  status: AuditStatus;
  /** The output as text, cut to a limit (see outputTruncated). */
  output: string;
  outputTruncated: boolean;
  error?: string;
  /**
   * How the call was allowed (or refused): "user", "conversation", "always",
   * "server-auto", "never", "validation", "cli", "approve-auto",
   * "approve-never", … — shown as is when unknown.
   */
  approval: string;
  /** The SHA-256 of the tool's definition the call ran under (SPEC G1); "" or absent when unknown. */
  definitionHash?: string;
}

/** AuditPage is one page of the audit log and how many entries match in all. */
export interface AuditPage {
  entries: AuditEntry[];
  total: number;
}
