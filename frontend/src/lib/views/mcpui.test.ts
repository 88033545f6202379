import { describe, expect, it, vi } from 'vitest';
import type { CallToolResult } from '../api';
import type { ViewHandlers } from './host';
import { McpUiHost, firstURL, speaksMcpApps, uiResourcesOf } from './mcpui';

function setup(over: Partial<ViewHandlers> = {}, remote = false) {
  const sent: Record<string, unknown>[] = [];
  const win = { postMessage: (m: Record<string, unknown>) => sent.push(m) } as unknown as Window;
  const blocked: [string, string][] = [];
  const handlers: ViewHandlers = {
    callTool: vi.fn(async (name: string) => ({ content: [{ type: 'text' as const, text: `ran ${name}` }], structuredContent: { ok: true } })),
    readResource: vi.fn(),
    openLink: vi.fn(async () => true),
    message: vi.fn(async () => true),
    updateModelContext: vi.fn(async () => {}),
    requestDisplayMode: vi.fn((m) => m),
    resize: vi.fn(),
    log: vi.fn(),
    requestTeardown: vi.fn(),
    record: () => {},
    blocked: (what, why) => blocked.push([what, why]),
    ...over,
  };
  const host = new McpUiHost({ target: () => win, hostInfo: { name: 'MCP Desk', version: 't' }, context: { theme: 'light', locale: 'en' }, handlers }, remote);
  const from = (data: unknown, source: unknown = win) => host.onMessage({ source, data } as MessageEvent);
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const response = (id: string) => sent.find((m) => m.type === 'ui-message-response' && m.messageId === id)?.payload as Record<string, unknown> | undefined;
  return { host, sent, handlers, blocked, from, settle, response };
}

describe('MCP-UI', () => {
  it('finds the ui:// resources MCP-UI renders in a result', () => {
    const result = {
      content: [
        { type: 'text', text: 'x' },
        { type: 'resource', resource: { uri: 'ui://card/1', mimeType: 'text/html', text: '<p>' } },
        { type: 'resource', resource: { uri: 'ui://page/1', mimeType: 'text/uri-list', blob: btoa('https://a.example/') } },
        { type: 'resource', resource: { uri: 'ui://dom/1', mimeType: 'application/vnd.mcp-ui.remote-dom+javascript; framework=react', text: 'x' } },
        { type: 'resource', resource: { uri: 'file:///etc/passwd', mimeType: 'text/html', text: '<p>' } },
        { type: 'resource', resource: { uri: 'ui://img/1', mimeType: 'image/png', blob: 'AA==' } },
      ],
    } as unknown as CallToolResult;
    expect(uiResourcesOf(result).map((r) => r.uri)).toEqual(['ui://card/1', 'ui://page/1', 'ui://dom/1']);
    expect(firstURL(uiResourcesOf(result)[1])?.host).toBe('a.example');
    expect(firstURL({ uri: 'ui://p', mimeType: 'text/uri-list', text: '# c\njavascript:alert(1)\nhttps://b.example/' })).toBeNull();
    expect(uiResourcesOf(undefined)).toEqual([]);
    expect(firstURL({ uri: 'ui://p', mimeType: 'text/uri-list', text: 'https://good.example/', blob: btoa('https://evil.example/') })).toBeNull();
    expect(speaksMcpApps({ uri: 'ui://a', mimeType: 'text/html;profile=mcp-app' })).toBe(true);
    expect(speaksMcpApps({ uri: 'ui://a', mimeType: 'text/html; profile="mcp-app"' })).toBe(true);
    expect(speaksMcpApps({ uri: 'ui://a', mimeType: 'text/html' })).toBe(false);
  });

  it('sends render data once the frame is ready, and again when the theme changes', async () => {
    const s = setup();
    s.host.sendToolInput({ topic: 'x' });
    s.host.sendToolResult({ content: [], structuredContent: { votes: 0 } } as unknown as CallToolResult);
    expect(s.sent).toEqual([]);
    s.from({ type: 'ui-lifecycle-iframe-ready' });
    await s.settle();
    expect(s.sent.at(-1)).toEqual({
      type: 'ui-lifecycle-iframe-render-data',
      payload: { renderData: { toolInput: { topic: 'x' }, toolOutput: { votes: 0 }, theme: 'light', locale: 'en' } },
    });
    s.host.setContext({ theme: 'dark' });
    expect((s.sent.at(-1)?.payload as { renderData: { theme: string } }).renderData.theme).toBe('dark');
  });

  it('maps each action to the host operation, and answers with received then response', async () => {
    const s = setup();
    s.from({ type: 'tool', messageId: 't1', payload: { toolName: 'card_vote', params: { choice: 'yes' } } });
    s.from({ type: 'prompt', messageId: 'p1', payload: { prompt: 'hello' } });
    s.from({ type: 'intent', messageId: 'i1', payload: { intent: 'create-task', params: { title: 'T' } } });
    s.from({ type: 'link', messageId: 'l1', payload: { url: 'https://example.com/' } });
    s.from({ type: 'notify', messageId: 'n1', payload: { message: 'read' } });
    s.from({ type: 'ui-size-change', payload: { height: 300.4 } });
    await s.settle();
    expect(s.handlers.callTool).toHaveBeenCalledWith('card_vote', { choice: 'yes' });
    expect(s.response('t1')).toMatchObject({ response: { structuredContent: { ok: true } } });
    expect(s.handlers.message).toHaveBeenCalledWith([{ type: 'text', text: 'hello' }]);
    expect(s.handlers.message).toHaveBeenCalledWith([{ type: 'text', text: 'create-task {"title":"T"}' }]);
    expect(s.handlers.openLink).toHaveBeenCalledWith('https://example.com/');
    expect(s.handlers.log).toHaveBeenCalledWith('info', 'read');
    expect(s.handlers.resize).toHaveBeenCalledWith({ height: 300 });
    const t1 = s.sent.filter((m) => m.messageId === 't1').map((m) => m.type);
    expect(t1).toEqual(['ui-message-received', 'ui-message-response']);
  });

  it('refuses what is not allowed, and what does not come from its frame', async () => {
    const s = setup({ callTool: vi.fn(async () => Promise.reject(new Error('the tool is not for views'))), message: vi.fn(async () => false) });
    s.from({ type: 'link', messageId: 'l1', payload: { url: 'javascript:alert(1)' } });
    s.from({ type: 'tool', messageId: 't1', payload: { toolName: 'model_only' } });
    s.from({ type: 'prompt', messageId: 'p1', payload: { prompt: 'hi' } });
    s.from({ type: 'eval', messageId: 'e1', payload: {} });
    s.from({ type: 'tool', messageId: 'x1', payload: { toolName: 'card_vote' } }, {} /* another window */);
    s.from('garbage');
    await s.settle();
    expect(s.handlers.openLink).not.toHaveBeenCalled();
    expect(s.response('l1')).toEqual({ error: 'only http and https links are opened' });
    expect(s.response('t1')).toEqual({ error: 'the tool is not for views' });
    expect(s.response('p1')).toEqual({ error: 'declined' });
    expect(s.response('e1')?.error).toMatch(/does not take eval/);
    expect(s.sent.some((m) => m.messageId === 'x1')).toBe(false);
    expect(s.blocked.map((b) => b[0]).sort()).toEqual(['eval', 'link', 'message', 'tool']);
  });

  it('takes a remote-DOM tree only from a remote-DOM UI, and no more of it once a batch was refused', () => {
    const changed: (string | undefined)[] = [];
    const mutate = (records: unknown) => ({ jsonrpc: '2.0', method: 'mcpdesk/remote-dom/mutate', params: { records } });
    const text = { id: '1', type: 1, element: 'ui-text', attributes: { content: 'hi' }, children: [] };

    const html = setup({ remoteChanged: (why) => changed.push(why) });
    html.from(mutate([[0, '~', text, 0]]));
    expect(html.host.remote).toBeNull();
    expect(html.blocked).toEqual([['mcpdesk/remote-dom/mutate', 'the UI is not a remote-DOM UI']]);

    const s = setup({ remoteChanged: (why) => changed.push(why) }, true);
    s.from(mutate([[0, '~', text, 0]]));
    expect(s.host.remote?.size).toBe(1);
    s.from(mutate([[0, '~', { ...text, id: '2', element: 'x y' }, 1]]));
    s.from(mutate([[0, '~', { ...text, id: '3' }, 1]]));
    expect(s.host.remote?.size).toBe(1);
    expect(changed).toEqual([undefined, 'an element needs a tag name']);
    expect(s.blocked).toEqual([['mcpdesk/remote-dom/mutate', 'an element needs a tag name']]);
  });
});
