import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENT_NAMES, type QuickChatPayload, on, uiState, saveUIState, listServers, ApiError, setBackend } from './index';
import { FakeBackend, rpcEntry, status } from './fake';
import type { ResourceUpdated, RPCEntry, ServerProblem, ServerStatus, ToolAnnotations } from './types';
import { listConversations, normalizeMessage, normalizeSettings, send } from './chat';
import type {
  Approval,
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
  ChatStepPayload,
  ChatToolCallPayload,
  ChatUsagePayload,
  Conversation,
  ConversationSettings,
  ConversationSummary,
  Message,
  MessageStatus,
  SearchHit,
  TokenUsage,
  ToolCall,
  ToolCallStatus,
  ToolFilter,
} from './chatTypes';
import { wailsBackend } from './wails';

const GO_EVENTS = readFileSync(join(import.meta.dirname, '../../../../backend/events/events.go'), 'utf8');
const GO_CHAT = readFileSync(join(import.meta.dirname, '../../../../backend/events/chat.go'), 'utf8');
const GO_USAGE_EVENTS = readFileSync(join(import.meta.dirname, '../../../../backend/events/usage.go'), 'utf8');
const GO_WINDOW_EVENTS = readFileSync(join(import.meta.dirname, '../../../../backend/events/window.go'), 'utf8');
const GO_STORE = readFileSync(join(import.meta.dirname, '../../../../backend/store/conversations.go'), 'utf8');

/** goJSONFields returns the json field names of a Go struct in events.go. */
function goJSONFields(struct: string, src = GO_EVENTS): string[] {
  const body = new RegExp(`type ${struct} struct \\{([\\s\\S]*?)\\n\\}`).exec(src)?.[1] ?? '';
  return [...body.matchAll(/json:"([^",]+)/g)].map((m) => m[1]).sort();
}

describe('event contract with backend/events/events.go', () => {
  it('names the same events', () => {
    const goNames = [...(GO_EVENTS + GO_CHAT + GO_USAGE_EVENTS + GO_WINDOW_EVENTS).matchAll(/Name = "([^"]+)"/g)].map((m) => m[1]).sort();
    expect([...EVENT_NAMES].sort()).toEqual(goNames);
  });

  it('has the same QuickChatPayload fields', () => {
    const q: Required<QuickChatPayload> = { tray: true };
    expect(Object.keys(q).sort()).toEqual(goJSONFields('QuickChatPayload', GO_WINDOW_EVENTS));
  });

  it('has the same ServerStatus and RPCEntry fields', () => {
    const s: Required<ServerStatus> = {
      ...status({ id: 'x' }),
      error: '',
      stderr: '',
      attempt: 0,
      nextRetryMs: 0,
      canSubscribe: false,
      problem: { code: 'messageTooLarge', limit: 1, program: '', params: {} },
    };
    expect(Object.keys(s).sort()).toEqual(goJSONFields('ServerStatusPayload'));
    const pr: Required<ServerProblem> = { code: 'messageTooLarge', limit: 1, program: '', params: {} };
    expect(Object.keys(pr).sort()).toEqual(goJSONFields('ServerProblem'));
    const e: Required<RPCEntry> = { ...rpcEntry({ seq: 1 }), id: '', latencyMs: 0, truncated: false, dropped: 0, note: 'cancelledByUser' };
    expect(Object.keys(e).sort()).toEqual(goJSONFields('RPCEntry'));
    expect(goJSONFields('ServersChangedPayload')).toEqual(['ids']);
    expect(goJSONFields('RPCLogBatch')).toEqual(['entries']);
    expect(goJSONFields('ConfigErrorPayload')).toEqual(['file', 'message']);
    const u: Required<ResourceUpdated> = { server: '', uri: '', at: 0 };
    expect(Object.keys(u).sort()).toEqual(goJSONFields('ResourceUpdatedPayload'));
  });
});

describe('chat contract with backend/events/chat.go and backend/store/conversations.go', () => {
  // keys lists the field names of a fully populated TypeScript value.
  const keys = (v: object) => Object.keys(v).sort();
  const message: Required<Message> = normalizeMessage({ id: 1 });
  const call: Required<ToolCall> = {
    id: '', name: '', arguments: '', server: '', tool: '', status: 'done', result: {}, resultTruncated: false,
    resultBytes: 0, error: '', durationMs: 0, approval: 'user',
  };
  const usage: Required<TokenUsage> = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 };

  it('has the same store types', () => {
    expect(keys(message)).toEqual(goJSONFields('Message', GO_STORE));
    expect(keys(call)).toEqual(goJSONFields('ToolCall', GO_STORE));
    expect(keys(usage)).toEqual(goJSONFields('TokenUsage', GO_STORE));
    const settings: Required<ConversationSettings> = normalizeSettings({});
    expect(keys(settings)).toEqual(goJSONFields('ConversationSettings', GO_STORE));
    const conv: Required<Conversation> = { id: 1, title: '', settings, pinned: false, createdAt: '', updatedAt: '' };
    expect(keys(conv)).toEqual(goJSONFields('Conversation', GO_STORE));
    const summary: Required<ConversationSummary> = {
      id: 1, title: '', provider: '', model: '', pinned: false, messageCount: 0, preview: '', createdAt: '', updatedAt: '',
    };
    expect(keys(summary)).toEqual(goJSONFields('ConversationSummary', GO_STORE));
    const att: Required<Attachment> = { name: '', mimeType: '', data: '' };
    expect(keys(att)).toEqual(goJSONFields('Attachment', GO_STORE));
    const hit: Required<SearchHit> = { conversationId: 1, conversationTitle: '', messageId: 1, role: 'user', snippet: '', createdAt: '', version: 1, versions: 1 };
    expect(keys(hit)).toEqual(goJSONFields('SearchHit', GO_STORE));
    const filter: Required<ToolFilter> = { allowed: [], disabled: [] };
    expect(keys(filter)).toEqual(goJSONFields('ToolFilter', GO_STORE));
    // The enumerations.
    const consts = (type: string) => [...GO_STORE.matchAll(new RegExp(`\\s\\w+\\s+${type} = "([^"]+)"`, 'g'))].map((m) => m[1]).sort();
    expect(consts('MessageStatus')).toEqual(['complete', 'error', 'interrupted', 'streaming'] satisfies MessageStatus[]);
    expect(consts('ToolCallStatus')).toEqual(
      ['approved', 'cancelled', 'declined', 'done', 'error', 'pending', 'running'] satisfies ToolCallStatus[],
    );
    expect(consts('Approval')).toEqual(['always', 'conversation', 'never', 'read-only', 'server-auto', 'user'] satisfies Approval[]);
    expect(GO_STORE).toContain(`SnippetStart = "\\x02"`);
  });

  it('has the same event payloads', () => {
    const base = { conversationId: 1, turnId: 't' };
    const payloads: Array<[string, object]> = [
      ['ChatMessagePayload', { ...base, message } satisfies Required<ChatMessagePayload>],
      ['ChatDeltaPayload', { ...base, messageId: 1, text: '', reasoning: '' } satisfies Required<ChatDeltaPayload>],
      ['ChatToolCallPayload', { ...base, messageId: 1, call, progress: { callId: '', progress: 0 } } satisfies Required<ChatToolCallPayload>],
      [
        'ChatApprovalPayload',
        {
          ...base, id: '', messageId: 1, callId: '', server: '', tool: '', title: '', description: '', annotations: {},
          arguments: {}, inputSchema: {}, definitionHash: '', change: { policy: 'always' }, warnings: [],
        } satisfies Required<ChatApprovalPayload>,
      ],
      ['ChatApprovalDonePayload', { id: '', conversationId: 1, outcome: 'run' } satisfies Required<ChatApprovalDonePayload>],
      ['ChatSamplingPayload', { id: '', conversationId: 1, server: '', request: {}, model: '' } satisfies Required<ChatSamplingPayload>],
      ['ChatSamplingDonePayload', { id: '', conversationId: 1, outcome: 'approved' } satisfies Required<ChatSamplingDonePayload>],
      [
        'ChatStepPayload',
        { ...base, step: 1, maxSteps: 10, phase: 'retry', model: '', message: '', waitMs: 0 } satisfies Required<ChatStepPayload>,
      ],
      ['ChatUsagePayload', { ...base, messageId: 1, provider: '', model: '', usage } satisfies Required<ChatUsagePayload>],
      ['ChatErrorPayload', { ...base, messageId: 1, kind: '', message: '', partial: false } satisfies Required<ChatErrorPayload>],
      ['ChatDonePayload', { ...base, reason: 'stop', steps: 1 } satisfies Required<ChatDonePayload>],
      ['ChatConversationsPayload', { conversationId: 1 } satisfies Required<ChatConversationsPayload>],
    ];
    for (const [struct, value] of payloads) expect(keys(value), struct).toEqual(goJSONFields(struct, GO_CHAT));
    const ann: Required<ToolAnnotations> = { title: '', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
    expect(keys(ann)).toEqual(goJSONFields('ToolAnnotations', GO_CHAT));
    // Every chat payload type in Go is checked above.
    const goPayloads = [...GO_CHAT.matchAll(/type (Chat\w+Payload) struct/g)].map((m) => m[1]).sort();
    expect(payloads.map(([s]) => s).sort()).toEqual(goPayloads);
  });
});

describe('api layer', () => {
  afterEach(() => {
    setBackend(null);
    delete (window as { go?: unknown }).go;
    delete (window as { runtime?: unknown }).runtime;
  });

  it('on() delivers typed payloads and returns the unsubscribe', () => {
    const fake = new FakeBackend({});
    setBackend(fake);
    const got: string[] = [];
    const off = on('mcp:servers-changed', (p) => got.push(p.ids.join(',')));
    fake.emit('mcp:servers-changed', { ids: ['a', 'b'] });
    off();
    fake.emit('mcp:servers-changed', { ids: ['c'] });
    expect(got).toEqual(['a,b']);
    expect(fake.listenerCount('mcp:servers-changed')).toBe(0);
  });

  it('turns Go error strings into ApiError with the message as is', async () => {
    const fake = new FakeBackend({});
    setBackend(fake);
    fake.failNext('ListServers', 'config: server "x": field "url": missing');
    const err = await listServers().catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('config: server "x": field "url": missing');
  });

  it('wails backend calls the generated bindings on window.go', async () => {
    const UIState = vi.fn(async (k: string) => `v:${k}`);
    const SaveUIState = vi.fn(async () => undefined);
    const ListServers = vi.fn(async () => []);
    (window as { go?: unknown }).go = { settings: { Service: { UIState, SaveUIState } }, mcppool: { MCPPool: { ListServers } } };
    expect(await uiState('loggerHeight')).toBe('v:loggerHeight');
    await saveUIState('loggerOpen', 'true');
    expect(SaveUIState).toHaveBeenCalledWith('loggerOpen', 'true');
    expect(await listServers()).toEqual([]);
    expect(ListServers).toHaveBeenCalled();
  });

  it('wails backend calls the generated ChatService bindings and fills in Go nulls', async () => {
    const ListConversations = vi.fn(async () => null);
    const Send = vi.fn(async () => ({ turnId: 't1', userMessage: { id: 3, role: 'user', content: 'hi', toolCalls: null, attachments: null } }));
    (window as { go?: unknown }).go = { chat: { ChatService: { ListConversations, Send } } };
    expect(await listConversations(20, 40)).toEqual([]);
    expect(ListConversations).toHaveBeenCalledWith(20, 40);
    const started = await send(7, 'hi');
    expect(Send).toHaveBeenCalledWith({ conversationId: 7, text: 'hi', attachments: [] });
    expect(started.userMessage).toMatchObject({ id: 3, toolCalls: [], attachments: [], status: 'complete', usage: null });
  });

  it('wails backend events return the runtime unsubscribe', () => {
    const listeners = new Set<(p: unknown) => void>();
    (window as { runtime?: unknown }).runtime = {
      EventsOnMultiple: (_: string, fn: (p: unknown) => void) => {
        listeners.add(fn);
        return () => listeners.delete(fn);
      },
    };
    const got: unknown[] = [];
    const off = wailsBackend.on('mcp:config-error', (p) => got.push(p));
    for (const l of listeners) l({ file: 'f', message: 'm' });
    off();
    for (const l of listeners) l({ file: 'g', message: 'n' });
    expect(got).toEqual([{ file: 'f', message: 'm' }]);
    expect(listeners.size).toBe(0);
  });
});
