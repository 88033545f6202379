// The production backend: the generated Wails bindings. This is the only
// module that imports frontend/wailsjs.

import * as ChatService from '../../../wailsjs/go/chat/ChatService';
import {
  EventsOnMultiple,
  WindowCenter,
  WindowGetSize,
  WindowHide,
  WindowSetAlwaysOnTop,
  WindowSetMinSize,
  WindowSetSize,
} from '../../../wailsjs/runtime/runtime';
import type { Backend } from './backend';
import type { TrustReport } from './trustTypes';
import type { ChatServiceBackend } from './backend';
import type { WindowBackend } from './backend';
import { bindMCPPool, bindProviderManager, bindSettingsService, bindUsageStats, type Call } from './generated/contract';
import type {
  AvailableTool,
  ChatPolicies,
  ChatSettings,
  Conversation,
  ConversationSummary,
  ConversationView,
  SearchHit,
  TurnStarted,
} from './chatTypes';

// ChatService still goes through Wails' generated functions, whose model
// classes are retyped to chatTypes.ts here; the other services are bound
// through the generated contract below.

// goCall reaches a bound Go method the way Wails' generated bindings do:
// window.go.<package>.<service>.<method>. The services bound through it are
// typed by the generated contract (backend/contract), so a drifted
// argument or result fails svelte-check.
const goCall: Call = (pkg, service, method, ...args) => window.go[pkg][service][method](...args);

// The settings service: preferences, UI state, the keychain and desktop status, remote images.
const settingsService = bindSettingsService(goCall);

// MCPPool: servers, the inspector, the logger, import.
const mcpPool = bindMCPPool(goCall);


// ProviderManager (SPEC C1–C3).
const providerManager = bindProviderManager(goCall);

// ChatService: store and event types are chatTypes.ts's (Go's JSON); the
// generated model classes describe the same shapes.
const chatService: ChatServiceBackend = {
  ListConversations: (limit, offset) => ChatService.ListConversations(limit, offset) as Promise<ConversationSummary[]>,
  NewConversation: (input) => ChatService.NewConversation(input as never) as Promise<Conversation>,
  Conversation: (id) => ChatService.Conversation(id) as Promise<ConversationView>,
  Rename: (id, title) => ChatService.Rename(id, title),
  Delete: (id) => ChatService.Delete(id),
  UpdateSettings: (id, settings) => ChatService.UpdateSettings(id, settings as never) as Promise<Conversation>,
  Search: (query, limit) => ChatService.Search(query, limit) as Promise<SearchHit[]>,
  Export: (id, format) => ChatService.Export(id, format),
  SaveExport: (id, format) => ChatService.SaveExport(id, format),
  Send: (input) => ChatService.Send(input as never) as Promise<TurnStarted>,
  Stop: (id) => ChatService.Stop(id),
  Regenerate: (id) => ChatService.Regenerate(id) as Promise<TurnStarted>,
  SelectVersion: (id, userMessageId, version) => ChatService.SelectVersion(id, userMessageId, version) as Promise<ConversationView>,
  RevealMessage: (id, messageId) => ChatService.RevealMessage(id, messageId) as Promise<ConversationView>,
  EditAndResend: (id, messageId, text) => ChatService.EditAndResend(id, messageId, text) as Promise<TurnStarted>,
  Approve: (id, decision) => ChatService.Approve(id, decision as never),
  RetryToolCall: (id, messageId, callId) => ChatService.RetryToolCall(id, messageId, callId) as Promise<TurnStarted>,
  AnswerSampling: (id, decision) => ChatService.AnswerSampling(id, decision as never),
  Policies: () => ChatService.Policies() as Promise<ChatPolicies>,
  RevokePolicy: (kind, server, tool) => ChatService.RevokePolicy(kind, server, tool),
  Settings: () => ChatService.Settings() as Promise<ChatSettings>,
  SaveSettings: (s) => ChatService.SaveSettings(s as never) as Promise<ChatSettings>,
  // Go reads a JSON null as a nil slice: every enabled server.
  AvailableTools: (servers) => ChatService.AvailableTools(servers as string[]) as Promise<AvailableTool[]>,
  Trust: () => ChatService.Trust() as unknown as Promise<TrustReport>,
};

// UsageStats (SPEC E1, E2).
const usageService = bindUsageStats(goCall);

function on(name: string, fn: (payload: unknown) => void): () => void {
  // The Wails runtime calls listeners with the emitted values as arguments
  // and returns the unsubscribe.
  return EventsOnMultiple(name, (payload: unknown) => fn(payload), -1);
}

async function copyText(text: string): Promise<void> {
  const rt = (globalThis as { runtime?: { ClipboardSetText?: (t: string) => Promise<boolean> } }).runtime;
  if (rt?.ClipboardSetText && (await rt.ClipboardSetText(text))) return;
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('clipboard unavailable');
}

// The window (SPEC F2): quick chat's size and always-on-top.
const windowControl: WindowBackend = {
  getSize: WindowGetSize,
  setSize: WindowSetSize,
  setMinSize: WindowSetMinSize,
  setAlwaysOnTop: WindowSetAlwaysOnTop,
  center: WindowCenter,
  hide: WindowHide,
};

/** wailsBackend talks to Go through the generated Wails bindings. */
export const wailsBackend: Backend = { mcp: mcpPool, settings: settingsService, chat: chatService, providers: providerManager, usage: usageService, on, copyText, window: windowControl };
