import { appWindow, on, type QuickChatPayload } from '../api';
import type { ChatStore } from './chat.svelte';

/** The quick-chat window's size: one column, one input (SPEC F2). */
export const QUICK_SIZE = { w: 460, h: 640 } as const;
/** How small quick chat may be made. */
export const QUICK_MIN = { w: 360, h: 400 } as const;
/** The full window's minimum size: main.go's MinWidth and MinHeight. */
export const FULL_MIN = { w: 900, h: 600 } as const;
/** The full window's first size (main.go's Width and Height): where leaving
 * quick chat goes when the size before it could not be read. */
export const FULL_SIZE = { w: 1280, h: 820 } as const;

/**
 * QuickChat is the window's quick-chat mode (SPEC F2). The tray, the global
 * shortcut or `mcpdesk --quick-chat` ask for it (window:quick-chat): the
 * one window shrinks, stays on top and shows one conversation with the
 * default model and servers — the same chat store, approvals and history
 * as the full window. Leaving restores the size it had.
 */
export class QuickChat {
  #active = $state(false);
  #tray = $state(false);
  #restore: { w: number; h: number } | null = null;
  #chat: ChatStore;

  constructor(chat: ChatStore) {
    this.#chat = chat;
  }

  /** active is true while the window is quick chat. */
  get active(): boolean {
    return this.#active;
  }

  /** tray is true when a tray icon can bring the window back after closing. */
  get tray(): boolean {
    return this.#tray;
  }

  /** start follows the backend's window events; returns the cleanup. */
  start(): () => void {
    const stops = [on('window:quick-chat', (p) => void this.enter(p)), on('window:show', () => this.leave())];
    return () => stops.forEach((s) => s());
  }

  /**
   * enter turns the window into quick chat. A new conversation starts
   * unless the open one is still working or waits for the user.
   */
  async enter(p: QuickChatPayload): Promise<void> {
    this.#tray = p?.tray ?? false;
    const w = appWindow();
    if (!this.#active) {
      this.#active = true;
      const before = await w.getSize().catch(() => null);
      // Show came while the size was read (the tray's two entries clicked
      // in quick succession): the window stays as it is, full.
      if (!this.#active) return;
      this.#restore = before;
      const c = this.#chat;
      const busy = c.running || (c.current !== null && c.waitingIn(c.current.id) > 0);
      if (!busy) c.newChat();
    }
    w.setMinSize(QUICK_MIN.w, QUICK_MIN.h);
    w.setAlwaysOnTop(true);
    await this.#resize(QUICK_SIZE.w, QUICK_SIZE.h, () => this.#active);
  }

  // Wails applies a new minimum size later, on the UI thread, while a
  // resize goes at once and is clamped by the old minimum (or, leaving
  // quick chat, undone by the new one applied to the old size): resize, and
  // again shortly if the window did not take the size — as long as still()
  // says the window is still meant to have it.
  async #resize(width: number, height: number, still: () => boolean): Promise<void> {
    const w = appWindow();
    w.setSize(width, height);
    w.center();
    for (const ms of [60, 200]) {
      await new Promise((r) => setTimeout(r, ms));
      if (!still()) return;
      const now = await w.getSize().catch(() => null);
      if (!now || (now.w === width && now.h === height)) return;
      w.setSize(width, height);
      w.center();
    }
  }

  /** leave returns to the full window, the quick conversation open in Chat. */
  leave(): void {
    if (!this.#active) return;
    this.#active = false;
    const w = appWindow();
    w.setAlwaysOnTop(false);
    w.setMinSize(FULL_MIN.w, FULL_MIN.h);
    const to = this.#restore ?? FULL_SIZE;
    this.#restore = null;
    void this.#resize(to.w, to.h, () => !this.#active);
  }

  /**
   * close puts quick chat away: into the tray when there is one, else back
   * to the full window (hiding would leave no way back).
   */
  close(): void {
    const hide = this.#tray;
    this.leave();
    if (hide) appWindow().hide();
  }
}
