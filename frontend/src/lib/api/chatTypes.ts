// Types mirroring the chat half of the Go contract: the store types in
// backend/store/conversations.go, the event payloads in
// backend/events/chat.go, and the values ChatService's bound methods take
// and return. JSON field names are exact; keep them in step with Go.

import type { ToolAnnotations } from './types';
import type { SuspendedPolicy, TrustChange, TrustWarning } from './trustTypes';

// ---- store (backend/store/conversations.go)

/** ToolFilter narrows the tools of one server in a conversation (store.ToolFilter). */
export interface ToolFilter {
  /** When set, only these tools are offered. */
  allowed?: string[];
  /** These tools are never offered. */
  disabled?: string[];
}

/** ConversationSettings are the per-conversation choices of SPEC D1 (store.ConversationSettings). */
export interface ConversationSettings {
  /** Provider id; "" with model "" means the default model (NewConversation only). */
  provider: string;
  model: string;
  systemPrompt: string;
  /** null = the provider's default, else 0…2. */
  temperature: number | null;
  /** MCP server ids whose tools are offered; null = every enabled server, [] = none. */
  servers: string[] | null;
  /** Per-server tool filters; null = every tool of the allowed servers. */
  tools: Record<string, ToolFilter> | null;
  /** Agent step cap; null = the application default. */
  maxSteps: number | null;
}

/** Conversation is one chat with its settings (store.Conversation). */
export interface Conversation {
  id: number;
  title: string;
  settings: ConversationSettings;
  pinned: boolean;
  /** RFC 3339. */
  createdAt: string;
  /** RFC 3339: when a message was last added or changed. */
  updatedAt: string;
}

/** ConversationSummary is one row of the sidebar (store.ConversationSummary). */
export interface ConversationSummary {
  id: number;
  title: string;
  provider: string;
  model: string;
  pinned: boolean;
  messageCount: number;
  /** Start of the last visible user or assistant text, at most 160 characters. */
  preview: string;
  createdAt: string;
  updatedAt: string;
}

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** How far a message got (store.MessageStatus). */
export type MessageStatus = 'complete' | 'streaming' | 'interrupted' | 'error';

/** The state of one tool call (store.ToolCallStatus), in the order a call passes through them. */
export type ToolCallStatus = 'pending' | 'approved' | 'declined' | 'running' | 'done' | 'error' | 'cancelled';

/** How a tool call came to run or not (store.Approval), SPEC D4. */
export type Approval = 'user' | 'conversation' | 'always' | 'server-auto' | 'never' | 'read-only';

/** ToolCall is one tool call of an assistant message (store.ToolCall). */
export interface ToolCall {
  id: string;
  /** The function name the model used. */
  name: string;
  /** The JSON text that ran (or the model's text); may be invalid JSON. */
  arguments: string;
  server: string;
  tool: string;
  status: ToolCallStatus;
  /** The MCP CallToolResult, once the call returned. */
  result?: unknown;
  resultTruncated?: boolean;
  /** Size of the original result when it was shortened. */
  resultBytes?: number;
  error?: string;
  durationMs?: number;
  approval?: Approval;
}

/** TokenUsage counts the tokens a message cost (store.TokenUsage). */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
}

/** Attachment is a file attached to a user message, inline (store.Attachment). */
export interface Attachment {
  name?: string;
  mimeType: string;
  /** Base64, no data: prefix. */
  data: string;
}

/** Message is one message of a conversation (store.Message). */
export interface Message {
  id: number;
  conversationId: number;
  /** Numbers the messages of a conversation from 1. */
  seq: number;
  role: Role;
  content: string;
  reasoning: string;
  toolCalls: ToolCall[];
  toolCallId: string;
  attachments: Attachment[];
  hidden: boolean;
  status: MessageStatus;
  error: string;
  /** The model that wrote an assistant message. */
  model: string;
  usage: TokenUsage | null;
  createdAt: string;
  updatedAt: string;
  /** The id of the user message whose answer this message belongs to; 0 before the first one. */
  versionGroup: number;
  /** Which version of that answer this message is part of, from 1. */
  version: number;
  /** On a user message: the version of its answer shown and sent to the model. */
  selectedVersion: number;
  /** On a user message: how many versions its answer has. */
  versions: number;
}

/** SearchHit is one message matching a search (store.SearchHit). */
export interface SearchHit {
  conversationId: number;
  conversationTitle: string;
  messageId: number;
  role: Role;
  /** ~64 characters around the first match; every match between SNIPPET_START and SNIPPET_END. */
  snippet: string;
  createdAt: string;
  /** The version of the answer the message belongs to, and how many that answer has (1 when one). */
  version: number;
  versions: number;
}

/** The markers around each match in SearchHit.snippet (STX, ETX). */
export const SNIPPET_START = '\u0002';
export const SNIPPET_END = '\u0003';

// ---- events (backend/events/chat.go)

/** Payload of chat:message: a message created or changed as a whole. */
export interface ChatMessagePayload {
  conversationId: number;
  turnId: string;
  message: Message;
}

/** Payload of chat:delta: more text or reasoning of the assistant message being streamed. */
export interface ChatDeltaPayload {
  conversationId: number;
  turnId: string;
  messageId: number;
  text?: string;
  reasoning?: string;
}

/** Progress of a running tool call (events.ProgressPayload). */
export interface ChatProgress {
  callId: string;
  progress: number;
  total?: number;
  message?: string;
  /** Progress notifications of this call not shown so far (flood limit). */
  dropped?: number;
}

/** Payload of chat:tool-call: a tool call of an assistant message changed. */
export interface ChatToolCallPayload {
  conversationId: number;
  turnId: string;
  messageId: number;
  call: ToolCall;
  progress?: ChatProgress;
}

/** Payload of chat:approval: a tool call waits for the user (SPEC D4). */
export interface ChatApprovalPayload {
  /** Names this question for Approve. */
  id: string;
  conversationId: number;
  turnId: string;
  messageId: number;
  callId: string;
  server: string;
  tool: string;
  title?: string;
  description?: string;
  annotations: ToolAnnotations;
  /** The model's arguments (a JSON object), editable. */
  arguments: unknown;
  /** The tool's input schema, for the argument form. */
  inputSchema: unknown;
  /** The hash of the tool's definition the user is asked about (SPEC G1). */
  definitionHash: string;
  /** What changed since a standing approval was given; absent for a first ask. */
  change?: TrustChange;
  /** What looks suspicious in the tool's definition. */
  warnings?: TrustWarning[];
}

export type ApprovalOutcome = 'run' | 'cancel' | 'expired';

/** Payload of chat:approval-done: an approval question is no longer open. */
export interface ChatApprovalDonePayload {
  id: string;
  conversationId: number;
  outcome: ApprovalOutcome;
}

/** Payload of chat:sampling: a server asks the conversation's model for a completion (SPEC A11). */
export interface ChatSamplingPayload {
  id: string;
  conversationId: number;
  server: string;
  /** The params of sampling/createMessage as the server sent them. */
  request: unknown;
  /** "provider/model" that will answer. */
  model: string;
}

export type SamplingOutcome = 'approved' | 'rejected' | 'failed' | 'expired';

/** Payload of chat:sampling-done. */
export interface ChatSamplingDonePayload {
  id: string;
  conversationId: number;
  outcome: SamplingOutcome;
}

export type StepPhase = 'model' | 'tools' | 'retry' | 'fallback';

/** Payload of chat:step: where the agent loop is. */
export interface ChatStepPayload {
  conversationId: number;
  turnId: string;
  step: number;
  maxSteps: number;
  phase: StepPhase;
  /** "provider/model" of the call. */
  model?: string;
  /** A retry or fallback explained in words (English, from Go). */
  message?: string;
  /** The wait before a retry. */
  waitMs?: number;
}

/** Payload of chat:usage: the token usage of one model call. */
export interface ChatUsagePayload {
  conversationId: number;
  turnId: string;
  messageId: number;
  provider: string;
  model: string;
  usage: TokenUsage;
}

/** Payload of chat:error: something in the turn failed. */
export interface ChatErrorPayload {
  conversationId: number;
  turnId: string;
  messageId?: number;
  /** The llm error kind ("auth", "rate_limit", …) or "tool", "validation", "internal". */
  kind: string;
  message: string;
  /** True when the answer so far is kept, marked interrupted. */
  partial?: boolean;
}

export type DoneReason = 'stop' | 'cancelled' | 'error' | 'max_steps';

/** Payload of chat:done: the turn is over. Every turn ends with exactly one. */
export interface ChatDonePayload {
  conversationId: number;
  turnId: string;
  reason: DoneReason;
  steps: number;
}

/** Payload of chat:conversations: the conversation list changed (0 = several). */
export interface ChatConversationsPayload {
  conversationId: number;
}

// ---- ChatService arguments and results

/** What NewConversation takes. */
export interface NewConversationInput {
  title: string;
  settings: ConversationSettings;
}

/** What Conversation(id) returns: the transcript and what is still open in it. */
export interface ConversationView {
  conversation: Conversation;
  messages: Message[];
  /** The running turn's id, "" when none runs. */
  running: string;
  approvals: ChatApprovalPayload[];
  sampling: ChatSamplingPayload[];
}

/** What Send takes. */
export interface SendInput {
  conversationId: number;
  text: string;
  attachments: Attachment[];
}

/** What Send, Regenerate, EditAndResend and RetryToolCall return: the turn started. */
export interface TurnStarted {
  turnId: string;
  userMessage: Message;
}

export type ApprovalAction = 'run' | 'cancel';

/** How an answer is remembered (SPEC D4). */
export type ApprovalPolicy = 'once' | 'conversation' | 'always' | 'server' | 'never';

/** The user's answer to a chat:approval. */
export interface ApprovalDecision {
  action: ApprovalAction;
  policy: ApprovalPolicy;
  /** Edited arguments; absent = the model's. */
  arguments?: Record<string, unknown>;
}

/** The user's answer to a chat:sampling. */
export interface SamplingDecision {
  approve: boolean;
  /** The edited request; absent = as the server sent it. */
  request?: Record<string, unknown>;
}

export interface ToolRef {
  server: string;
  tool: string;
}

/** The remembered approval policies. */
export interface ChatPolicies {
  alwaysAllow: ToolRef[];
  autoServers: string[];
  never: ToolRef[];
  /** The allowing policies that ask again because their server or tool changed (SPEC G1). */
  suspended: SuspendedPolicy[];
}

/** The kind of policy RevokePolicy removes. */
export type PolicyKind = 'always' | 'server' | 'never';

/** Application-wide chat settings. */
export interface ChatSettings {
  maxSteps: number;
  toolTimeoutMs: number;
  /** A call no policy covers: ask, or run read-only tools without asking. */
  approvalDefault: ApprovalDefault;
}

/** What happens to a tool call no policy covers (ChatSettings.approvalDefault). */
export type ApprovalDefault = 'ask' | 'readOnly';

/** One tool a conversation may offer (AvailableTools). */
export interface AvailableTool {
  /** The name the model sees (SPEC A5). */
  name: string;
  server: string;
  tool: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** What looks suspicious in the tool's definition (SPEC G1). */
  warnings?: TrustWarning[];
}

export type ExportFormat = 'md' | 'json';
