// The seam between the frontend and Go. Production uses the Wails bindings
// (wails.ts); tests and the browser-only dev server inject an in-memory
// backend with setBackend. Only files in src/lib/api use this module.

import type {
  ApprovalDecision,
  AvailableTool,
  ChatPolicies,
  ChatSettings,
  Conversation,
  ConversationSettings,
  ConversationSummary,
  ConversationView,
  ExportFormat,
  NewConversationInput,
  PolicyKind,
  SamplingDecision,
  SearchHit,
  SendInput,
  TurnStarted,
} from './chatTypes';
import type { TrustReport } from './trustTypes';
import { wailsBackend } from './wails';
import type { MCPPool, ProviderManager, SettingsService, UsageStats } from './generated/contract';

/** The MCPPool service bound from Go, as generated from Go (backend/contract). */
export type MCPPoolBackend = MCPPool;

/** The settings service bound from Go, as generated from Go (backend/contract). */
export type SettingsBackend = SettingsService;

/** The ProviderManager service bound from Go, as generated from Go (backend/contract). */
export type ProvidersBackend = ProviderManager;

/** The ChatService bound from Go (SPEC D1–D6). A turn returns at once and streams as chat:* events. */
export interface ChatServiceBackend {
  ListConversations(limit: number, offset: number): Promise<ConversationSummary[]>;
  NewConversation(input: NewConversationInput): Promise<Conversation>;
  Conversation(id: number): Promise<ConversationView>;
  Rename(id: number, title: string): Promise<void>;
  Delete(id: number): Promise<void>;
  UpdateSettings(id: number, settings: ConversationSettings): Promise<Conversation>;
  Search(query: string, limit: number): Promise<SearchHit[]>;
  Export(id: number, format: ExportFormat): Promise<string>;
  SaveExport(id: number, format: ExportFormat): Promise<string>;
  Send(input: SendInput): Promise<TurnStarted>;
  Stop(conversationId: number): Promise<void>;
  Regenerate(conversationId: number): Promise<TurnStarted>;
  /** Shows a version of the answer to a user message; refused while a reply runs. */
  SelectVersion(conversationId: number, userMessageId: number, version: number): Promise<ConversationView>;
  /** Opens a conversation at a message, selecting the answer versions that lead to it. */
  RevealMessage(conversationId: number, messageId: number): Promise<ConversationView>;
  EditAndResend(conversationId: number, messageId: number, text: string): Promise<TurnStarted>;
  Approve(id: string, decision: ApprovalDecision): Promise<void>;
  RetryToolCall(conversationId: number, messageId: number, callId: string): Promise<TurnStarted>;
  AnswerSampling(id: string, decision: SamplingDecision): Promise<void>;
  Policies(): Promise<ChatPolicies>;
  RevokePolicy(kind: PolicyKind, server: string, tool: string): Promise<void>;
  Settings(): Promise<ChatSettings>;
  SaveSettings(s: ChatSettings): Promise<ChatSettings>;
  AvailableTools(servers: string[] | null): Promise<AvailableTool[]>;
  /** The standing approvals suspended because their server or tools changed (SPEC G1). */
  Trust(): Promise<TrustReport>;
}

/** The UsageStats service bound from Go (SPEC E1, E2), as generated from Go (backend/contract). */
export type UsageStatsBackend = UsageStats;

/** Everything the frontend needs from its host. */
export interface Backend {
  mcp: MCPPoolBackend;
  settings: SettingsBackend;
  chat: ChatServiceBackend;
  providers: ProvidersBackend;
  usage: UsageStatsBackend;
  /** Subscribes to a runtime event; returns the unsubscribe function. */
  on(name: string, fn: (payload: unknown) => void): () => void;
  /** Puts text on the system clipboard. */
  copyText(text: string): Promise<void>;
  /** The app's one window: quick chat resizes it and keeps it on top (SPEC F2). */
  window: WindowBackend;
}

/** WindowBackend is the part of the Wails runtime that moves and sizes the window. */
export interface WindowBackend {
  getSize(): Promise<{ w: number; h: number }>;
  setSize(w: number, h: number): void;
  setMinSize(w: number, h: number): void;
  setAlwaysOnTop(on: boolean): void;
  center(): void;
  /** Hides the window; the tray icon brings it back. */
  hide(): void;
}

let current: Backend | null = null;

/** setBackend replaces the backend (tests, browser-only development). */
export function setBackend(b: Backend | null): void {
  current = b;
}

/** backend returns the backend in use: the injected one or the Wails bindings. */
export function backend(): Backend {
  return current ?? wailsBackend;
}

/** hasWails reports whether the Wails bindings are present in this window. */
export function hasWails(): boolean {
  const w = globalThis as { go?: unknown };
  return typeof w.go === 'object' && w.go !== null;
}

/**
 * errorMessage returns the English text of a rejection. Go errors arrive as
 * {code, params, message} (main.go's ErrorFormatter, backend/usererr);
 * ApiError (call.ts) words them in the user's language.
 */
export function errorMessage(reason: unknown): string {
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error) return reason.message;
  if (reason && typeof reason === 'object' && 'message' in reason) {
    return String((reason as { message: unknown }).message);
  }
  return String(reason);
}
