// The seam between the frontend and Go. Production uses the Wails bindings
// (wails.ts); tests and the browser-only dev server inject an in-memory
// backend with setBackend. Only files in src/lib/api use this module.

import { wailsBackend } from './wails';
import type { ChatService, MCPPool, ProviderManager, SettingsService, UsageStats } from './generated/contract';

/** The MCPPool service bound from Go, as generated from Go (backend/contract). */
export type MCPPoolBackend = MCPPool;

/** The settings service bound from Go, as generated from Go (backend/contract). */
export type SettingsBackend = SettingsService;

/** The ProviderManager service bound from Go, as generated from Go (backend/contract). */
export type ProvidersBackend = ProviderManager;

/** The ChatService bound from Go (SPEC D1–D10), as generated from Go (backend/contract). */
export type ChatServiceBackend = ChatService;

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
