// The host side of MCP-UI (issue 15): ui:// resources embedded in a tool's
// result (raw HTML, or an external page), shown in the same sandbox page as
// MCP Apps views, speaking MCP-UI's messages — {type, payload, messageId}
// over postMessage — rather than JSON-RPC. Each UI action maps to the host
// operation an MCP Apps view would use, through the same handlers (so the
// same consent, Go checks and audit): tool → tools/call, prompt and intent
// → a follow-up message after consent, link → open a link after consent,
// notify → the logger. Everything from the frame is hostile and checked.
//
// A remote-DOM UI (application/vnd.mcp-ui.remote-dom) runs its script in
// the sandbox, out of sight; the tree it builds comes here as mutations
// (remote/sandbox.ts) and is drawn by the app's own components
// (remote/RemoteNode.svelte). Its actions arrive as any MCP-UI frame's do.

import type { CallToolResult } from '../api';
import { admit, isWebURL, type ContentBlock, type HostContext, type ViewHostOptions } from './host';
import { CALL, MUTATE } from './remote/elements';
import { RemoteTree } from './remote/tree';

/** A ui:// resource in a tool's result that MCP-UI renders. */
export interface UIResource {
  uri: string;
  mimeType: string;
  text?: string;
  blob?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** uiResourcesOf lists the MCP-UI resources embedded in a result (ui:// URIs of a type MCP-UI renders). */
export function uiResourcesOf(result: CallToolResult | undefined | null): UIResource[] {
  const out: UIResource[] = [];
  for (const c of (result?.content ?? []) as unknown[]) {
    if (!isObject(c) || c.type !== 'resource' || !isObject(c.resource)) continue;
    const r = c.resource;
    if (typeof r.uri !== 'string' || !r.uri.startsWith('ui://') || typeof r.mimeType !== 'string') continue;
    const mt = r.mimeType.split(';')[0].trim().toLowerCase();
    if (mt !== 'text/html' && mt !== 'text/uri-list' && !mt.startsWith('application/vnd.mcp-ui.remote-dom')) continue;
    out.push({
      uri: r.uri,
      mimeType: r.mimeType,
      ...(typeof r.text === 'string' ? { text: r.text } : {}),
      ...(typeof r.blob === 'string' ? { blob: r.blob } : {}),
    });
  }
  return out;
}

/** speaksMcpApps: an embedded text/html;profile=mcp-app view (MCP-UI 6 and later) speaks MCP Apps, not MCP-UI's messages. */
export function speaksMcpApps(r: UIResource): boolean {
  const [type, ...params] = r.mimeType.toLowerCase().split(';').map((x) => x.trim());
  return type === 'text/html' && params.some((p) => p.replace(/\s+/g, '').replace(/"/g, '') === 'profile=mcp-app');
}

/** isRemoteDOM: a remote-DOM script (MCP-UI 5), whose tree the app draws. */
export function isRemoteDOM(r: UIResource): boolean {
  return r.mimeType.split(';')[0].trim().toLowerCase().startsWith('application/vnd.mcp-ui.remote-dom');
}

/** firstURL is the first address of a text/uri-list resource when it is http(s) (as Go checks it again). */
export function firstURL(r: UIResource): URL | null {
  // Both a text and a blob: Go refuses it (which one counts would be a guess).
  if (r.text && r.blob) return null;
  let body = r.text ?? '';
  if (!body && r.blob) {
    try {
      body = atob(r.blob);
    } catch {
      return null;
    }
  }
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    return isWebURL(line) ? new URL(line) : null;
  }
  return null;
}

/** MCP-UI's host → frame message types. */
const RECEIVED = 'ui-message-received';
const RESPONSE = 'ui-message-response';
const RENDER_DATA = 'ui-lifecycle-iframe-render-data';

/**
 * McpUiHost talks to one MCP-UI frame, with the handlers and options a
 * ViewHost takes. Tool input and result, and the theme and locale, reach
 * the frame as render data once it says it is ready, and again when they
 * change.
 */
export class McpUiHost {
  readonly #o: ViewHostOptions;
  #context: HostContext;
  #input: Record<string, unknown> | undefined;
  #result: CallToolResult | undefined;
  #ready = false;
  #closed = false;
  /** A remote-DOM UI's tree (null for other UIs); once refused, it takes no more. */
  readonly remote: RemoteTree | null;
  #remoteStopped = false;

  /** remote: the frame runs a remote-DOM script, whose tree comes as mutations. */
  constructor(o: ViewHostOptions, remote = false) {
    this.#o = o;
    this.#context = { ...o.context };
    this.remote = remote ? new RemoteTree((fn, args) => this.#post({ jsonrpc: '2.0', method: CALL, params: { fn, args } })) : null;
  }

  get initialized(): boolean {
    return this.#ready;
  }

  onMessage(ev: MessageEvent): void {
    if (this.#closed) return;
    const h = this.#o.handlers;
    const msg = admit(ev, this.#o, 'UI');
    if (msg === undefined) return;
    // MCP Desk's own storage script speaks JSON-RPC in every frame.
    if (isObject(msg) && msg.jsonrpc === '2.0' && msg.method === 'mcpdesk/storage') {
      const items = isObject(msg.params) ? msg.params.items : undefined;
      if (isObject(items) && Object.values(items).every((v) => typeof v === 'string')) h.storage?.(items as Record<string, string>);
      return;
    }
    if (isObject(msg) && msg.jsonrpc === '2.0' && msg.method === MUTATE) {
      h.record(false, msg);
      if (!this.remote) return h.blocked(MUTATE, 'the UI is not a remote-DOM UI');
      if (this.#remoteStopped) return;
      const why = this.remote.apply(isObject(msg.params) ? msg.params.records : undefined);
      if (why) {
        this.#remoteStopped = true;
        h.blocked(MUTATE, why);
      }
      h.remoteChanged?.(why || undefined);
      return;
    }
    if (!isObject(msg) || typeof msg.type !== 'string') {
      h.blocked('message', 'the UI sent a message that is not an MCP-UI action');
      return;
    }
    h.record(false, msg);
    const id = typeof msg.messageId === 'string' || typeof msg.messageId === 'number' ? msg.messageId : undefined;
    void this.#handle(msg.type, isObject(msg.payload) ? msg.payload : {}, id);
  }

  sendToolInput(args: Record<string, unknown>): void {
    this.#input = args;
    this.#render();
  }

  sendToolInputPartial(): void {
    // MCP-UI has no partial input.
  }

  sendToolResult(result: CallToolResult): void {
    this.#result = result;
    this.#render();
  }

  sendToolCancelled(): void {
    // MCP-UI has no cancellation message; its result never comes.
  }

  setContext(change: Partial<HostContext>): void {
    const before = JSON.stringify([this.#context.theme, this.#context.locale, this.#context.displayMode]);
    this.#context = { ...this.#context, ...change };
    if (JSON.stringify([this.#context.theme, this.#context.locale, this.#context.displayMode]) !== before) this.#render();
  }

  async teardown(): Promise<void> {
    this.close();
  }

  close(): void {
    this.#closed = true;
  }

  #post(msg: Record<string, unknown>): void {
    if (this.#closed) return;
    const target = this.#o.target();
    if (!target) return;
    const full = JSON.parse(JSON.stringify(msg)) as Record<string, unknown>;
    this.#o.handlers.record(true, full);
    target.postMessage(full, '*');
  }

  #render(): void {
    if (!this.#ready) return;
    const c = this.#context;
    this.#post({
      type: RENDER_DATA,
      payload: {
        renderData: {
          toolInput: this.#input ?? {},
          toolOutput: this.#result?.structuredContent ?? null,
          theme: c.theme,
          locale: c.locale,
          displayMode: c.displayMode,
        },
      },
    });
  }

  async #handle(type: string, p: Record<string, unknown>, id: string | number | undefined): Promise<void> {
    const h = this.#o.handlers;
    const reply = (result: { response?: unknown; error?: unknown }) => {
      if (id !== undefined) this.#post({ type: RESPONSE, messageId: id, payload: result });
    };
    const refuse = (why: string) => {
      h.blocked(type, why);
      reply({ error: why });
    };
    if (id !== undefined) this.#post({ type: RECEIVED, messageId: id });
    try {
      switch (type) {
        case 'ui-lifecycle-iframe-ready':
          this.#ready = true;
          this.#render();
          return;
        case 'ui-size-change': {
          const size: { width?: number; height?: number } = {};
          for (const k of ['width', 'height'] as const) {
            const v = p[k];
            if (typeof v === 'number' && Number.isFinite(v) && v >= 0) size[k] = Math.min(Math.round(v), 100_000);
          }
          h.resize(size);
          return;
        }
        case 'tool': {
          const args = p.params === undefined ? {} : p.params;
          if (typeof p.toolName !== 'string' || p.toolName === '' || !isObject(args)) return refuse('a tool action needs a toolName and params object');
          return reply({ response: await h.callTool(p.toolName, args) });
        }
        case 'prompt': {
          if (typeof p.prompt !== 'string' || p.prompt.trim() === '') return refuse('a prompt action needs a prompt');
          return reply((await h.message([{ type: 'text', text: p.prompt }])) ? { response: {} } : { error: 'declined' });
        }
        case 'intent': {
          if (typeof p.intent !== 'string' || p.intent.trim() === '') return refuse('an intent action needs an intent');
          const params = p.params === undefined ? '' : ` ${JSON.stringify(p.params)}`;
          const content: ContentBlock[] = [{ type: 'text', text: `${p.intent}${params}` }];
          return reply((await h.message(content)) ? { response: {} } : { error: 'declined' });
        }
        case 'link': {
          if (!isWebURL(p.url)) return refuse('only http and https links are opened');
          return reply((await h.openLink(p.url)) ? { response: {} } : { error: 'declined' });
        }
        case 'notify': {
          if (typeof p.message !== 'string') return refuse('a notify action needs a message');
          h.log('info', p.message);
          return reply({ response: {} });
        }
      }
    } catch (e) {
      return refuse(e instanceof Error ? e.message : String(e));
    }
    refuse(`MCP Desk does not take ${type} from UIs`);
  }
}
