// The production backend: the bound Go services, reached through the
// Go↔UI contract generated from Go (backend/contract), and the Wails
// runtime (events, the window). This is the only module that imports
// frontend/wailsjs.

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
import type { WindowBackend } from './backend';
import { bindChatService, bindMCPPool, bindProviderManager, bindSettingsService, bindUsageStats, type Call } from './generated/contract';

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

// ChatService (SPEC D1–D10).
const chatService = bindChatService(goCall);

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
