import { describe, expect, it, vi } from 'vitest';
import { APPS_PROTOCOL_VERSION, MAX_VIEW_MESSAGE, ViewHost, isWebURL, type ViewHandlers } from './host';

/** A view's window as the host sees it: what the host posts to it. */
function fakeView() {
  const sent: Record<string, unknown>[] = [];
  const win = { postMessage: (m: Record<string, unknown>) => sent.push(m) } as unknown as Window;
  return { win, sent };
}

function setup(over: Partial<ViewHandlers> = {}) {
  const view = fakeView();
  const blocked: [string, string][] = [];
  const recorded: [boolean, unknown][] = [];
  const handlers: ViewHandlers = {
    callTool: vi.fn(async (name: string) => ({ content: [{ type: 'text' as const, text: `ran ${name}` }] })),
    readResource: vi.fn(async (uri: string) => ({ contents: [{ uri, text: 'x' }] })),
    openLink: vi.fn(async () => true),
    message: vi.fn(async () => true),
    updateModelContext: vi.fn(async () => {}),
    requestDisplayMode: vi.fn((m) => m),
    resize: vi.fn(),
    log: vi.fn(),
    requestTeardown: vi.fn(),
    record: (toView, m) => recorded.push([toView, m]),
    blocked: (what, why) => blocked.push([what, why]),
    ...over,
  };
  const host = new ViewHost({
    target: () => view.win,
    hostInfo: { name: 'MCP Desk', version: 'test' },
    context: { theme: 'light', locale: 'en', displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen', 'pip'], platform: 'desktop' },
    handlers,
  });
  const from = (data: unknown, source: unknown = view.win) => host.onMessage({ source, data } as MessageEvent);
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const answer = (id: number) => view.sent.find((m) => m.id === id);
  return { host, view, handlers, blocked, recorded, from, settle, answer };
}

async function initialized(s: ReturnType<typeof setup>) {
  s.from({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { protocolVersion: APPS_PROTOCOL_VERSION, appInfo: { name: 'v', version: '1' }, appCapabilities: {} } });
  await s.settle();
  s.from({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
}

describe('ViewHost', () => {
  it('reads only its own view, and only JSON-RPC 2.0', async () => {
    const s = setup();
    s.from({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} }, {} /* another window */);
    s.from({ id: 2, method: 'ui/initialize' });
    s.from('hello');
    await s.settle();
    expect(s.view.sent).toEqual([]);
    expect(s.blocked.map((b) => b[1])).toEqual(['the view sent a message that is not JSON-RPC 2.0', 'the view sent a message that is not JSON-RPC 2.0']);
  });

  it('offers ui/download-file only when it can save, and saves embedded files only', async () => {
    const none = setup();
    await initialized(none);
    expect(Object.keys((none.answer(1)!.result as Record<string, any>).hostCapabilities)).not.toContain('downloadFile');
    const downloadFile = vi.fn(async () => true);
    const s = setup({ downloadFile });
    await initialized(s);
    expect((s.answer(1)!.result as Record<string, any>).hostCapabilities.downloadFile).toEqual({});
    s.from({ jsonrpc: '2.0', id: 4, method: 'ui/download-file', params: { contents: [
      { type: 'resource', resource: { uri: 'ui://r/a.csv', mimeType: 'text/csv', text: 'a,b' } },
      { type: 'resource_link', uri: 'https://evil.example/x', name: 'x' },
    ] } });
    await s.settle();
    expect(downloadFile).toHaveBeenCalledWith([{ uri: 'ui://r/a.csv', mimeType: 'text/csv', text: 'a,b' }]);
    expect(s.answer(4)).toMatchObject({ result: {} });
    s.from({ jsonrpc: '2.0', id: 5, method: 'ui/download-file', params: { contents: [{ type: 'resource_link', uri: 'https://evil.example/x', name: 'x' }] } });
    await s.settle();
    expect(s.answer(5)).toMatchObject({ result: { isError: true } });
    expect(s.blocked.at(-1)?.[1]).toMatch(/links are not fetched/);
  });

  it('passes the view\'s storage on, only as an object of strings', () => {
    const storage = vi.fn();
    const s = setup({ storage });
    s.from({ jsonrpc: '2.0', method: 'mcpdesk/storage', params: { items: { note: 'count 3' } } });
    s.from({ jsonrpc: '2.0', method: 'mcpdesk/storage', params: { items: { note: 3 } } });
    expect(storage.mock.calls).toEqual([[{ note: 'count 3' }]]);
    expect(s.blocked.at(-1)).toEqual(['mcpdesk/storage', 'the storage is not an object of strings']);
  });

  it('takes widget state only where the app keeps it (Apps SDK widgets)', async () => {
    const none = setup();
    await initialized(none);
    none.from({ jsonrpc: '2.0', id: 5, method: 'mcpdesk/widget-state', params: { state: { a: 1 } } });
    await none.settle();
    expect(none.answer(5)).toMatchObject({ error: { code: -32601 } });

    const widgetState = vi.fn(async () => {});
    const s = setup({ widgetState });
    await initialized(s);
    s.from({ jsonrpc: '2.0', id: 5, method: 'mcpdesk/widget-state', params: { state: { picked: 'beta' } } });
    await s.settle();
    expect(widgetState).toHaveBeenCalledWith({ picked: 'beta' });
    expect(s.answer(5)).toMatchObject({ result: {} });
    s.from({ jsonrpc: '2.0', id: 6, method: 'mcpdesk/widget-state', params: {} });
    await s.settle();
    expect(widgetState).toHaveBeenLastCalledWith(null);
  });

  it('refuses a message larger than the limit', () => {
    const s = setup();
    s.from({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(MAX_VIEW_MESSAGE) } });
    expect(s.handlers.log).not.toHaveBeenCalled();
    expect(s.blocked[0][1]).toMatch(/limit/);
  });

  it('answers ui/initialize with the host, its capabilities and context, and refuses requests before it', async () => {
    const s = setup();
    s.from({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x' } });
    await s.settle();
    expect(s.answer(7)).toMatchObject({ error: { code: -32002 } });
    expect(s.handlers.callTool).not.toHaveBeenCalled();
    await initialized(s);
    const r = s.answer(1)!.result as Record<string, any>;
    expect(r.protocolVersion).toBe('2026-01-26');
    expect(r.hostInfo).toEqual({ name: 'MCP Desk', version: 'test' });
    expect(Object.keys(r.hostCapabilities)).toEqual(expect.arrayContaining(['openLinks', 'serverTools', 'serverResources', 'logging', 'message', 'updateModelContext']));
    expect(r.hostContext).toMatchObject({ theme: 'light', locale: 'en', displayMode: 'inline', platform: 'desktop' });
    expect(s.host.initialized).toBe(true);
  });

  it('holds the tool input and result until the view is initialized, then sends them in order', async () => {
    const s = setup();
    s.host.sendToolInputPartial({ a: 1 });
    s.host.sendToolInputPartial({ a: 12 });
    s.host.sendToolInput({ a: 123 });
    s.host.sendToolResult({ content: [{ type: 'text', text: 'done' }] });
    expect(s.view.sent).toEqual([]);
    await initialized(s);
    const methods = s.view.sent.filter((m) => m.method).map((m) => [m.method, m.params]);
    expect(methods).toEqual([
      ['ui/notifications/tool-input-partial', { arguments: { a: 12 } }],
      ['ui/notifications/tool-input', { arguments: { a: 123 } }],
      ['ui/notifications/tool-result', { content: [{ type: 'text', text: 'done' }] }],
    ]);
    s.host.sendToolCancelled('stopped by the user');
    expect(s.view.sent.at(-1)).toMatchObject({ method: 'ui/notifications/tool-cancelled', params: { reason: 'stopped by the user' } });
  });

  it('passes tools/call and resources/read to the app, checks their params, and turns a refusal into an error', async () => {
    const s = setup({ callTool: vi.fn(async (name: string) => (name === 'model_only' ? Promise.reject(new Error('not for views')) : { content: [] })) });
    await initialized(s);
    s.from({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'counter_add', arguments: { count: 1 } } });
    s.from({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'model_only' } });
    s.from({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x', arguments: [1] } });
    s.from({ jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: 'ui://counter/view.html' } });
    s.from({ jsonrpc: '2.0', id: 6, method: 'sampling/createMessage', params: {} });
    await s.settle();
    expect(s.handlers.callTool).toHaveBeenCalledWith('counter_add', { count: 1 });
    expect(s.answer(2)).toMatchObject({ result: { content: [] } });
    expect(s.answer(3)).toMatchObject({ error: { code: -32000, message: 'not for views' } });
    expect(s.answer(4)).toMatchObject({ error: { code: -32602 } });
    expect(s.answer(5)).toMatchObject({ result: { contents: [{ uri: 'ui://counter/view.html' }] } });
    expect(s.answer(6)).toMatchObject({ error: { code: -32601 } });
    expect(s.blocked.map((b) => b[0])).toEqual(['tools/call', 'tools/call']);
  });

  it('opens only http(s) links, and says so when the user declines', async () => {
    const s = setup({ openLink: vi.fn(async (url: string) => url.includes('yes')) });
    await initialized(s);
    s.from({ jsonrpc: '2.0', id: 2, method: 'ui/open-link', params: { url: 'javascript:alert(1)' } });
    s.from({ jsonrpc: '2.0', id: 3, method: 'ui/open-link', params: { url: 'https://example.com/yes' } });
    s.from({ jsonrpc: '2.0', id: 4, method: 'ui/open-link', params: { url: 'https://example.com/no' } });
    s.from({ jsonrpc: '2.0', id: 5, method: 'ui/open-link', params: { url: 'file:///etc/passwd' } });
    await s.settle();
    expect(s.handlers.openLink).toHaveBeenCalledTimes(2);
    expect([2, 3, 4, 5].map((id) => s.answer(id)?.result)).toEqual([{ isError: true }, {}, { isError: true }, { isError: true }]);
  });

  it('takes a user message, model context, display mode, size and logs', async () => {
    const s = setup({ message: vi.fn(async () => false), requestDisplayMode: vi.fn(() => 'fullscreen' as const) });
    await initialized(s);
    s.from({ jsonrpc: '2.0', id: 2, method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'hi' }] } });
    s.from({ jsonrpc: '2.0', id: 3, method: 'ui/message', params: { role: 'assistant', content: [] } });
    s.from({ jsonrpc: '2.0', id: 4, method: 'ui/update-model-context', params: { content: [{ type: 'text', text: 'ctx' }] } });
    s.from({ jsonrpc: '2.0', id: 5, method: 'ui/request-display-mode', params: { mode: 'pip' } });
    s.from({ jsonrpc: '2.0', id: 6, method: 'ui/request-display-mode', params: { mode: 'maximized' } });
    s.from({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: 300.4, height: 1e9 } });
    s.from({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', logger: 'v', data: { a: 1 } } });
    s.from({ jsonrpc: '2.0', method: 'ui/notifications/request-teardown', params: {} });
    await s.settle();
    expect(s.answer(2)?.result).toEqual({ isError: true }); // the user declined
    expect(s.answer(3)).toMatchObject({ error: { code: -32602 } });
    expect(s.handlers.updateModelContext).toHaveBeenCalledWith([{ type: 'text', text: 'ctx' }], undefined);
    expect(s.answer(5)?.result).toEqual({ mode: 'fullscreen' });
    expect(s.answer(6)).toMatchObject({ error: { code: -32602 } });
    expect(s.handlers.resize).toHaveBeenCalledWith({ width: 300, height: 100000 });
    expect(s.handlers.log).toHaveBeenCalledWith('warning', { a: 1 }, 'v');
    expect(s.handlers.requestTeardown).toHaveBeenCalled();
    // The mode set is part of the context from now on.
    expect(s.host.context.displayMode).toBe('fullscreen');
    expect(s.view.sent.some((m) => m.method === 'ui/notifications/host-context-changed' && (m.params as any).displayMode === 'fullscreen')).toBe(true);
  });

  it('does not offer model context when the app keeps none', async () => {
    const view = fakeView();
    const update = vi.fn(async () => {});
    const host = new ViewHost({
      target: () => view.win,
      hostInfo: { name: 'MCP Desk', version: 'test' },
      context: {},
      modelContext: false,
      handlers: { ...setup().handlers, updateModelContext: update, record: () => {}, blocked: () => {} },
    });
    host.onMessage({ source: view.win, data: { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} } } as MessageEvent);
    host.onMessage({ source: view.win, data: { jsonrpc: '2.0', id: 2, method: 'ui/update-model-context', params: { content: [] } } } as MessageEvent);
    await new Promise((r) => setTimeout(r, 0));
    const init = view.sent.find((m) => m.id === 1)!.result as Record<string, any>;
    expect(init.hostCapabilities.updateModelContext).toBeUndefined();
    expect(view.sent.find((m) => m.id === 2)).toMatchObject({ error: { code: -32601 } });
    expect(update).not.toHaveBeenCalled();
  });

  it('tells the view only what changed in its context', async () => {
    const s = setup();
    await initialized(s);
    s.host.setContext({ theme: 'light', locale: 'zh-CN' });
    s.host.setContext({ theme: 'light' });
    const changes = s.view.sent.filter((m) => m.method === 'ui/notifications/host-context-changed');
    expect(changes.map((m) => m.params)).toEqual([{ locale: 'zh-CN' }]);
  });

  it('waits for the view to answer ui/resource-teardown, or not longer than the limit', async () => {
    const s = setup();
    await initialized(s);
    const done = s.host.teardown(5000);
    const req = s.view.sent.find((m) => m.method === 'ui/resource-teardown')!;
    let finished = false;
    void done.then(() => (finished = true));
    await s.settle();
    expect(finished).toBe(false);
    s.from({ jsonrpc: '2.0', id: req.id, result: {} });
    await done;
    // Closed: nothing more goes out.
    s.host.sendToolResult({ content: [] });
    expect(s.view.sent.at(-1)).toBe(req);

    const slow = setup();
    await initialized(slow);
    vi.useFakeTimers();
    const t = slow.host.teardown(100);
    vi.advanceTimersByTime(150);
    vi.useRealTimers();
    await t;
  });

  it('records every message both ways for the logger', async () => {
    const s = setup();
    await initialized(s);
    expect(s.recorded.map(([toView, m]) => [toView, (m as any).method ?? 'answer'])).toEqual([
      [false, 'ui/initialize'],
      [true, 'answer'],
      [false, 'ui/notifications/initialized'],
    ]);
  });
});

describe('isWebURL', () => {
  it('accepts http and https only', () => {
    for (const ok of ['https://a.example/x?y', 'http://127.0.0.1:8080/']) expect(isWebURL(ok)).toBe(true);
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'mcpdesk://x', '//evil.example', 'https://', 42, null]) {
      expect(isWebURL(bad)).toBe(false);
    }
  });
});
