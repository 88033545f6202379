// The host side of an MCP Apps view (io.modelcontextprotocol/ui,
// specification 2026-01-26): JSON-RPC 2.0 over postMessage with the view's
// sandbox page. Written here rather than taken from
// @modelcontextprotocol/ext-apps' AppBridge, which needs the TypeScript SDK
// and zod in the window's bundle (issue 16 counts that weight) and routes
// calls itself; here every request a view makes goes through handlers the
// app gives, and Go checks each one again (MCPPool.CallToolFromView).
//
// Everything from a view is hostile: a message is read only if it comes
// from the view's own window, is JSON-RPC 2.0, and is small enough; fields
// are checked before use; unknown methods get "method not found".

import type { CallToolResult, ReadResourceResult } from '../api';

export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** The largest message a view may send (its JSON). */
export const MAX_VIEW_MESSAGE = 4 << 20;

export type DisplayMode = 'inline' | 'fullscreen' | 'pip';
export const DISPLAY_MODES: readonly DisplayMode[] = ['inline', 'fullscreen', 'pip'];

/** What the view is told about where it runs (McpUiHostContext). */
export interface HostContext {
  theme?: 'light' | 'dark';
  /** The app's look as the standard CSS variables. */
  styles?: { variables?: Record<string, string> };
  locale?: string;
  timeZone?: string;
  displayMode?: DisplayMode;
  availableDisplayModes?: DisplayMode[];
  containerDimensions?: { width?: number; maxWidth?: number; height?: number; maxHeight?: number };
  platform?: 'web' | 'desktop' | 'mobile';
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
  userAgent?: string;
  toolInfo?: { id?: string | number; tool: unknown };
  /** An Apps SDK widget's saved state (window.openai.widgetState); only for those. */
  widgetState?: unknown;
}

export interface ContentBlock {
  type: string;
  [key: string]: unknown;
}

/** What the app does for a view. Each may refuse by throwing (an Error's message reaches the view). */
export interface ViewHandlers {
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  readResource(uri: string): Promise<ReadResourceResult>;
  /** Opens url (http or https, checked here) after the user agrees; false: not opened. */
  openLink(url: string): Promise<boolean>;
  /** A follow-up user turn, after the user's consent; false: declined. */
  message(content: ContentBlock[]): Promise<boolean>;
  updateModelContext(content: ContentBlock[], structured?: Record<string, unknown>): Promise<void>;
  /**
   * Saves the files a view offers (ui/download-file: embedded resources) where
   * the user says; false: nothing saved (cancelled, or links only). Offered
   * only when given.
   */
  downloadFile?(files: { uri: string; mimeType?: string; text?: string; blob?: string }[]): Promise<boolean>;
  /** The view's localStorage changed (mcpdesk/storage, from MCP Desk's storage script): all its items. */
  storage?(items: Record<string, string>): void;
  /**
   * An MCP-UI remote-DOM UI's tree changed (McpUiHost.remote); with why, it
   * was refused and the host takes no more of it.
   */
  remoteChanged?(why?: string): void;
  /** An Apps SDK widget saves its state (mcpdesk/widget-state, from window.openai.setWidgetState). */
  widgetState?(state: unknown): Promise<void>;
  /** Sets the display mode if it can and returns the one in effect. */
  requestDisplayMode(mode: DisplayMode): DisplayMode;
  resize(size: { width?: number; height?: number }): void;
  log(level: string, data: unknown, logger?: string): void;
  /** The view asks to be closed. */
  requestTeardown(): void;
  /** Every message, both ways, for the logger's view lane. */
  record(toView: boolean, message: unknown): void;
  /** Something refused, for the logger. */
  blocked(what: string, why: string): void;
}

export interface ViewHostOptions {
  /** The view's window (the sandbox page's): messages from anything else are ignored. */
  target: () => Window | null | undefined;
  hostInfo: { name: string; version: string };
  context: HostContext;
  handlers: ViewHandlers;
  /** Declared and granted sandbox settings, repeated to the view. */
  sandbox?: { csp?: Record<string, string[]>; permissions?: Record<string, object> };
  /** Whether ui/update-model-context is offered (default true). */
  modelContext?: boolean;
}

type Id = string | number;
interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

// JSON-RPC error codes.
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const NOT_INITIALIZED = -32002;
const REFUSED = -32000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is Id => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** isWebURL accepts http and https URLs only (no javascript:, file:, data:, custom schemes). */
export function isWebURL(raw: unknown): raw is string {
  if (typeof raw !== 'string' || raw.length > 8192) return false;
  try {
    const u = new URL(raw);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * admit returns the data of a message event when it comes from the view's
 * own window, is JSON and is at most MAX_VIEW_MESSAGE long; undefined
 * otherwise (a message too large or not JSON is reported as blocked).
 */
export function admit(ev: MessageEvent, o: ViewHostOptions, who: string): unknown {
  const target = o.target();
  if (!target || ev.source !== target) return undefined;
  let size = 0;
  try {
    size = JSON.stringify(ev.data)?.length ?? 0;
  } catch {
    o.handlers.blocked('message', `the ${who} sent a message that is not JSON`);
    return undefined;
  }
  if (size > MAX_VIEW_MESSAGE) {
    o.handlers.blocked('message', `the ${who} sent a message of ${size} bytes (the limit is ${MAX_VIEW_MESSAGE})`);
    return undefined;
  }
  return ev.data;
}

function contentOf(v: unknown): ContentBlock[] | null {
  if (!Array.isArray(v)) return null;
  return v.every((b) => isObject(b) && typeof b.type === 'string') ? (v as ContentBlock[]) : null;
}

/**
 * ViewHost talks to one view. Feed it every message event of the window
 * (onMessage ignores what is not from the view); tell it the tool's input,
 * result or cancellation and context changes as they happen — it queues
 * them until the view has initialized.
 */
export class ViewHost {
  readonly #o: ViewHostOptions;
  #context: HostContext;
  #initialized = false;
  #initializeAnswered = false;
  #queue: { method: string; params: unknown }[] = [];
  #nextId = 1;
  #pending = new Map<Id, Pending>();
  #closed = false;

  constructor(o: ViewHostOptions) {
    this.#o = o;
    this.#context = { ...o.context };
  }

  /** The view has sent ui/notifications/initialized. */
  get initialized(): boolean {
    return this.#initialized;
  }

  get context(): HostContext {
    return this.#context;
  }

  onMessage(ev: MessageEvent): void {
    if (this.#closed) return;
    const msg = admit(ev, this.#o, 'view');
    if (msg === undefined) return;
    if (!isObject(msg) || msg.jsonrpc !== '2.0') {
      this.#o.handlers.blocked('message', 'the view sent a message that is not JSON-RPC 2.0');
      return;
    }
    this.#o.handlers.record(false, msg);
    if (typeof msg.method === 'string') {
      if (msg.id !== undefined) {
        if (!isId(msg.id)) {
          this.#o.handlers.blocked(msg.method, 'the request has an id that is neither a string nor a number');
          return;
        }
        void this.#request(msg.id, msg.method, msg.params);
      } else {
        this.#notification(msg.method, msg.params);
      }
      return;
    }
    if (isId(msg.id)) {
      const p = this.#pending.get(msg.id);
      if (!p) return;
      this.#pending.delete(msg.id);
      if (isObject(msg.error)) p.reject(new Error(String(msg.error.message ?? 'error')));
      else p.resolve(msg.result);
    }
  }

  sendToolInput(args: Record<string, unknown>): void {
    this.#notify('ui/notifications/tool-input', { arguments: args });
  }

  sendToolInputPartial(args: Record<string, unknown>): void {
    // Only the latest partial input matters: a newer one replaces a queued one.
    if (!this.#initialized) {
      this.#queue = this.#queue.filter((q) => q.method !== 'ui/notifications/tool-input-partial');
    }
    this.#notify('ui/notifications/tool-input-partial', { arguments: args });
  }

  sendToolResult(result: CallToolResult): void {
    this.#notify('ui/notifications/tool-result', result);
  }

  sendToolCancelled(reason?: string): void {
    this.#notify('ui/notifications/tool-cancelled', reason ? { reason } : {});
  }

  /** setContext changes what the view knows and tells it what changed. */
  setContext(change: Partial<HostContext>): void {
    const diff: Partial<HostContext> = {};
    for (const [k, v] of Object.entries(change) as [keyof HostContext, unknown][]) {
      if (JSON.stringify(this.#context[k]) !== JSON.stringify(v)) (diff as Record<string, unknown>)[k] = v;
    }
    this.#context = { ...this.#context, ...change };
    if (Object.keys(diff).length === 0 || !this.#initializeAnswered) return;
    this.#notify('ui/notifications/host-context-changed', diff);
  }

  /**
   * teardown asks the view to save its state (ui/resource-teardown) and
   * waits for its answer, at most timeoutMs; then nothing more is sent or
   * read.
   */
  async teardown(timeoutMs = 1500): Promise<void> {
    if (this.#closed) return;
    if (this.#initializeAnswered) {
      await Promise.race([this.#call('ui/resource-teardown', {}).catch(() => undefined), new Promise((r) => setTimeout(r, timeoutMs))]);
    }
    this.close();
  }

  /** close stops talking to the view at once. */
  close(): void {
    this.#closed = true;
    for (const p of this.#pending.values()) p.reject(new Error('the view was closed'));
    this.#pending.clear();
  }

  #post(msg: Record<string, unknown>): void {
    if (this.#closed) return;
    const target = this.#o.target();
    if (!target) return;
    // Plain JSON: what the app holds may be reactive proxies, which
    // postMessage cannot clone, and a view gets data, never objects.
    const full = JSON.parse(JSON.stringify({ jsonrpc: '2.0', ...msg })) as Record<string, unknown>;
    this.#o.handlers.record(true, full);
    // The sandbox page has an opaque origin: no origin can be named; the
    // window is the check (only that frame receives it).
    target.postMessage(full, '*');
  }

  #notify(method: string, params: unknown): void {
    if (!this.#initialized) {
      this.#queue.push({ method, params });
      return;
    }
    this.#post({ method, params });
  }

  #call(method: string, params: unknown): Promise<unknown> {
    const id = `host-${this.#nextId++}`;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#post({ id, method, params });
    });
  }

  #answer(id: Id, result: unknown): void {
    this.#post({ id, result });
  }

  #fail(id: Id, code: number, message: string, method: string): void {
    this.#post({ id, error: { code, message } });
    if (code !== METHOD_NOT_FOUND) this.#o.handlers.blocked(method, message);
  }

  #notification(method: string, params: unknown): void {
    const h = this.#o.handlers;
    switch (method) {
      case 'ui/notifications/initialized': {
        if (!this.#initializeAnswered || this.#initialized) return;
        this.#initialized = true;
        const queued = this.#queue;
        this.#queue = [];
        for (const q of queued) this.#post(q);
        return;
      }
      case 'ui/notifications/size-changed': {
        if (!isObject(params)) return;
        const size: { width?: number; height?: number } = {};
        for (const k of ['width', 'height'] as const) {
          const v = params[k];
          if (typeof v === 'number' && Number.isFinite(v) && v >= 0) size[k] = Math.min(Math.round(v), 100_000);
        }
        h.resize(size);
        return;
      }
      case 'notifications/message': {
        if (!isObject(params)) return;
        const level = typeof params.level === 'string' ? params.level : 'info';
        h.log(level, params.data, typeof params.logger === 'string' ? params.logger : undefined);
        return;
      }
      case 'ui/notifications/request-teardown':
        h.requestTeardown();
        return;
      case 'mcpdesk/storage': {
        const items = isObject(params) ? params.items : undefined;
        if (!isObject(items) || !Object.values(items).every((v) => typeof v === 'string')) {
          h.blocked(method, 'the storage is not an object of strings');
          return;
        }
        h.storage?.(items as Record<string, string>);
        return;
      }
    }
  }

  async #request(id: Id, method: string, params: unknown): Promise<void> {
    const h = this.#o.handlers;
    if (method === 'ping') return this.#answer(id, {});
    if (method === 'ui/initialize') {
      this.#initializeAnswered = true;
      const sandbox = this.#o.sandbox ?? {};
      return this.#answer(id, {
        protocolVersion: APPS_PROTOCOL_VERSION,
        hostInfo: this.#o.hostInfo,
        hostCapabilities: {
          openLinks: {},
          serverTools: {},
          serverResources: {},
          logging: {},
          sandbox,
          ...(this.#o.modelContext === false ? {} : { updateModelContext: { text: {}, structuredContent: {} } }),
          message: { text: {} },
          ...(h.downloadFile ? { downloadFile: {} } : {}),
        },
        hostContext: this.#context,
      });
    }
    if (!this.#initializeAnswered) return this.#fail(id, NOT_INITIALIZED, `${method} before ui/initialize`, method);
    const p = isObject(params) ? params : {};
    try {
      switch (method) {
        case 'tools/call': {
          if (typeof p.name !== 'string' || p.name === '') return this.#fail(id, INVALID_PARAMS, 'tools/call needs a tool name', method);
          const args = p.arguments === undefined ? {} : p.arguments;
          if (!isObject(args)) return this.#fail(id, INVALID_PARAMS, 'tools/call arguments must be an object', method);
          return this.#answer(id, await h.callTool(p.name, args));
        }
        case 'resources/read': {
          if (typeof p.uri !== 'string' || p.uri === '') return this.#fail(id, INVALID_PARAMS, 'resources/read needs a uri', method);
          return this.#answer(id, await h.readResource(p.uri));
        }
        case 'ui/open-link': {
          if (!isWebURL(p.url)) {
            h.blocked(method, 'only http and https links are opened');
            return this.#answer(id, { isError: true });
          }
          return this.#answer(id, (await h.openLink(p.url)) ? {} : { isError: true });
        }
        case 'ui/message': {
          const content = contentOf(p.content);
          if (p.role !== 'user' || !content) return this.#fail(id, INVALID_PARAMS, 'ui/message needs role "user" and content blocks', method);
          return this.#answer(id, (await h.message(content)) ? {} : { isError: true });
        }
        case 'ui/update-model-context': {
          if (this.#o.modelContext === false) break; // not offered: method not found
          const content = p.content === undefined ? [] : contentOf(p.content);
          const structured = p.structuredContent;
          if (!content || (structured !== undefined && !isObject(structured))) {
            return this.#fail(id, INVALID_PARAMS, 'ui/update-model-context needs content blocks', method);
          }
          await h.updateModelContext(content, structured as Record<string, unknown> | undefined);
          return this.#answer(id, {});
        }
        case 'ui/download-file': {
          if (!h.downloadFile) break; // not offered: method not found
          if (!Array.isArray(p.contents)) return this.#fail(id, INVALID_PARAMS, 'ui/download-file needs contents', method);
          const files: { uri: string; mimeType?: string; text?: string; blob?: string }[] = [];
          for (const c of p.contents) {
            const r = isObject(c) && c.type === 'resource' && isObject(c.resource) ? c.resource : null;
            if (!r || typeof r.uri !== 'string' || (typeof r.text !== 'string' && typeof r.blob !== 'string')) continue;
            files.push({
              uri: r.uri,
              ...(typeof r.mimeType === 'string' ? { mimeType: r.mimeType } : {}),
              ...(typeof r.text === 'string' ? { text: r.text } : {}),
              ...(typeof r.blob === 'string' ? { blob: r.blob } : {}),
            });
          }
          if (files.length === 0) {
            h.blocked(method, 'only embedded files are saved; links are not fetched');
            return this.#answer(id, { isError: true });
          }
          return this.#answer(id, (await h.downloadFile(files)) ? {} : { isError: true });
        }
        case 'mcpdesk/widget-state': {
          if (!h.widgetState) break; // not a widget: method not found
          await h.widgetState(p.state === undefined ? null : p.state);
          return this.#answer(id, {});
        }
        case 'ui/request-display-mode': {
          if (typeof p.mode !== 'string' || !DISPLAY_MODES.includes(p.mode as DisplayMode)) {
            return this.#fail(id, INVALID_PARAMS, 'ui/request-display-mode needs inline, fullscreen or pip', method);
          }
          const mode = h.requestDisplayMode(p.mode as DisplayMode);
          this.setContext({ displayMode: mode });
          return this.#answer(id, { mode });
        }
      }
    } catch (e) {
      return this.#fail(id, REFUSED, e instanceof Error ? e.message : String(e), method);
    }
    return this.#fail(id, METHOD_NOT_FOUND, `MCP Desk does not offer ${method} to views`, method);
  }
}
