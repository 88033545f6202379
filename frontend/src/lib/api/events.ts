// The TypeScript half of the event contract in backend/events/events.go.
// Names and payloads must match it exactly.

import { backend } from './backend';
import type {
  ConfigError,
  ElicitationDone,
  ElicitationRequest,
  ListChanged,
  Progress,
  ResourceUpdated,
  RPCLogBatch,
  ServersChanged,
  ServerStatus,
} from './types';
import type {
  ChatApprovalDonePayload,
  ChatApprovalPayload,
  ChatConversationsPayload,
  ChatDeltaPayload,
  ChatDonePayload,
  ChatErrorPayload,
  ChatMessagePayload,
  ChatSamplingDonePayload,
  ChatSamplingPayload,
  ChatStepPayload,
  ChatToolCallPayload,
  ChatUsagePayload,
} from './chatTypes';

/** Payload of usage:changed (events.UsageChangedPayload): whose usage grew; 0 for none. */
export interface UsageChangedPayload {
  conversationId: number;
}

/** Payload of window:quick-chat (events.QuickChatPayload). */
export interface QuickChatPayload {
  /** A tray icon is shown: closing quick chat hides the window (else it returns to the full window). */
  tray: boolean;
}

/** EventMap maps each event the backend emits to its payload type. */
export interface EventMap {
  /** A server's connection state changed (events.ServerStatusPayload). */
  'mcp:server-status': ServerStatus;
  /** The set of configured servers changed: edit, import, file reload. */
  'mcp:servers-changed': ServersChanged;
  /** JSON-RPC messages logged since the last batch, coalesced. */
  'mcp:rpc-log': RPCLogBatch;
  /** The config file on disk is invalid; the previous good config stays in force. */
  'mcp:config-error': ConfigError;
  /** A progress notification of a running tool call (events.ProgressPayload). */
  'mcp:progress': Progress;
  /** A server's tools, resources or prompts changed (events.ListChangedPayload). */
  'mcp:list-changed': ListChanged;
  /** A subscribed resource changed (events.ResourceUpdatedPayload). */
  'mcp:resource-updated': ResourceUpdated;
  /** A server asks the user something (events.ElicitationPayload). */
  'mcp:elicitation': ElicitationRequest;
  /** A question was answered, timed out or its call ended (events.ElicitationDonePayload). */
  'mcp:elicitation-done': ElicitationDone;
  // Chat (backend/events/chat.go, SPEC D2): every payload carries the conversation id.
  /** A message was created or changed as a whole. */
  'chat:message': ChatMessagePayload;
  /** More text or reasoning of the assistant message being streamed (coalesced, never lost). */
  'chat:delta': ChatDeltaPayload;
  /** A tool call changed: status, result, progress. */
  'chat:tool-call': ChatToolCallPayload;
  /** A tool call waits for the user; ChatService.Approve answers. */
  'chat:approval': ChatApprovalPayload;
  /** An approval question is no longer open. */
  'chat:approval-done': ChatApprovalDonePayload;
  /** A server asks the conversation's model for a completion; AnswerSampling answers. */
  'chat:sampling': ChatSamplingPayload;
  /** A sampling request was answered or expired. */
  'chat:sampling-done': ChatSamplingDonePayload;
  /** The agent loop moved on: a model call, tools, a retry, a fallback. */
  'chat:step': ChatStepPayload;
  /** Token usage of one model call. */
  'chat:usage': ChatUsagePayload;
  /** Something in the turn failed; the turn may go on. */
  'chat:error': ChatErrorPayload;
  /** The turn is over (exactly one per turn). */
  'chat:done': ChatDonePayload;
  /** The conversation list changed. */
  'chat:conversations': ChatConversationsPayload;
  // Usage (backend/usage, SPEC E1, E2).
  /** A model call was recorded in the usage ledger: summaries and running totals are stale. */
  'usage:changed': UsageChangedPayload;
  // The window (backend/events/window.go, SPEC F2): tray, global shortcut, a second launch.
  /** Show the window as quick chat. */
  'window:quick-chat': QuickChatPayload;
  /** Show the full window (leaving quick chat). */
  'window:show': null;
}

export type EventName = keyof EventMap;

/** EVENT_NAMES lists every event name, for tests and tooling. */
export const EVENT_NAMES: readonly EventName[] = [
  'mcp:server-status',
  'mcp:servers-changed',
  'mcp:rpc-log',
  'mcp:config-error',
  'mcp:progress',
  'mcp:list-changed',
  'mcp:resource-updated',
  'mcp:elicitation',
  'mcp:elicitation-done',
  'chat:message',
  'chat:delta',
  'chat:tool-call',
  'chat:approval',
  'chat:approval-done',
  'chat:sampling',
  'chat:sampling-done',
  'chat:step',
  'chat:usage',
  'chat:error',
  'chat:done',
  'chat:conversations',
  'usage:changed',
  'window:quick-chat',
  'window:show',
];

/**
 * on subscribes fn to one backend event and returns the unsubscribe, so a
 * component can write `$effect(() => on('mcp:server-status', fn))`.
 */
export function on<K extends EventName>(name: K, fn: (payload: EventMap[K]) => void): () => void {
  return backend().on(name, (payload) => fn(payload as EventMap[K]));
}
