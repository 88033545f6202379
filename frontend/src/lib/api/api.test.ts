import { afterEach, describe, expect, it, vi } from 'vitest';
import { on, uiState, saveUIState, listServers, ApiError, setBackend } from './index';
import { FakeBackend } from '../../test/fakes/fake';
import { listConversations, send } from './chat';
import { wailsBackend } from './wails';

// The types of every event and bound method are generated from Go
// (backend/contract; TestGeneratedIsCurrent fails on a stale copy), so a
// field that drifted is a compile error, not a test here.

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

  it('wails backend calls the generated ChatService bindings', async () => {
    const ListConversations = vi.fn(async () => []);
    const userMessage = { id: 3, role: 'user', content: 'hi', toolCalls: [], attachments: [] };
    const Send = vi.fn(async () => ({ turnId: 't1', userMessage }));
    (window as { go?: unknown }).go = { chat: { ChatService: { ListConversations, Send } } };
    expect(await listConversations(20, 40)).toEqual([]);
    expect(ListConversations).toHaveBeenCalledWith(20, 40);
    const started = await send(7, 'hi');
    expect(Send).toHaveBeenCalledWith({ conversationId: 7, text: 'hi', attachments: [] });
    expect(started).toEqual({ turnId: 't1', userMessage });
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
