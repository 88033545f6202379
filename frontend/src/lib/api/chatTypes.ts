// The chat half of the Go contract (backend/chat, backend/store,
// backend/events/chat.go), generated from Go (backend/contract). Only
// names the UI gives a generated type live here.
import type { ApprovalDecision, ChatSettings } from './generated/contract';

export type {
  Approval,
  ApprovalDecision,
  ApprovalOutcome,
  ApprovalPolicies,
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
  DoneReason,
  ExportFormat,
  Message,
  MessageRole,
  MessageStatus,
  NewConversationInput,
  OfferedTool,
  PolicyKind,
  SamplingAnswer,
  SamplingOutcome,
  SearchHit,
  SendRequest,
  SendResult,
  StepPhase,
  TokenUsage,
  ToolCall,
  ToolCallStatus,
  ToolCost,
  ToolFilter,
  ToolRef,
} from './generated/contract';

/** How an answer is remembered (SPEC D4); "" in a decision means "once". */
export type ApprovalPolicy = Exclude<ApprovalDecision['policy'], ''>;
/** What happens to a tool call no policy covers. */
export type ApprovalDefault = ChatSettings['approvalDefault'];
export type ToolSearchMode = ChatSettings['toolSearch'];

/** The markers around each match in SearchHit.snippet (STX, ETX). */
export const SNIPPET_START = '\u0002';
export const SNIPPET_END = '\u0003';
