// Types mirroring the chat half of the Go contract: the store types in
// backend/store/conversations.go, the event payloads in
// backend/events/chat.go, and the values ChatService's bound methods take
// and return. JSON field names are exact; keep them in step with Go.

import type {
  Attachment,
  Message,
  ToolRef,
} from './generated/contract';

export type {
  Approval,
  ApprovalDecision,
  Attachment,
  ChatApprovalDonePayload,
  ChatApprovalPayload,
  ChatConversationsPayload,
  ChatDeltaPayload,
  ChatDonePayload,
  ChatErrorPayload,
  ChatMessagePayload,
  ChatSamplingDonePayload,
  ChatSamplingPayload,
  ChatSettings,
  ChatStepPayload,
  ChatToolCallPayload,
  ChatUsagePayload,
  Conversation,
  ConversationSettings,
  ConversationSummary,
  ConversationView,
  Message,
  MessageStatus,
  NewConversationInput,
  SearchHit,
  StepPhase,
  TokenUsage,
  ToolCall,
  ToolCallStatus,
  ToolFilter,
  ToolRef,
} from './generated/contract';

import type { ToolAnnotations } from './types';
import type { SuspendedPolicy, TrustWarning } from './trustTypes';

// ---- store (backend/store/conversations.go)





export type Role = 'system' | 'user' | 'assistant' | 'tool';









/** The markers around each match in SearchHit.snippet (STX, ETX). */
export const SNIPPET_START = '\u0002';
export const SNIPPET_END = '\u0003';

// ---- events (backend/events/chat.go)



/** Progress of a running tool call (events.ProgressPayload). */
export interface ChatProgress {
  callId: string;
  progress: number;
  total?: number;
  message?: string;
  /** Progress notifications of this call not shown so far (flood limit). */
  dropped?: number;
}



export type ApprovalOutcome = 'run' | 'cancel' | 'expired';



export type SamplingOutcome = 'approved' | 'rejected' | 'failed' | 'expired';






export type DoneReason = 'stop' | 'cancelled' | 'error' | 'max_steps';



// ---- ChatService arguments and results



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


/** The user's answer to a chat:sampling. */
export interface SamplingDecision {
  approve: boolean;
  /** The edited request; absent = as the server sent it. */
  request?: Record<string, unknown>;
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
