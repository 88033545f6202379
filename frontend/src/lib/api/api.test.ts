import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENT_NAMES, on, uiState, saveUIState, listServers, ApiError, setBackend } from './index';
import { FakeBackend, rpcEntry, status } from './fake';
import type { ResourceUpdated, RPCEntry, ServerStatus } from './types';
import { wailsBackend } from './wails';

const GO_EVENTS = readFileSync(join(import.meta.dirname, '../../../../backend/events/events.go'), 'utf8');

/** goJSONFields returns the json field names of a Go struct in events.go. */
function goJSONFields(struct: string): string[] {
  const body = new RegExp(`type ${struct} struct \\{([\\s\\S]*?)\\n\\}`).exec(GO_EVENTS)?.[1] ?? '';
  return [...body.matchAll(/json:"([^",]+)/g)].map((m) => m[1]).sort();
}

describe('event contract with backend/events/events.go', () => {
  it('names the same events', () => {
    const goNames = [...GO_EVENTS.matchAll(/Name = "([^"]+)"/g)].map((m) => m[1]).sort();
    expect([...EVENT_NAMES].sort()).toEqual(goNames);
  });

  it('has the same ServerStatus and RPCEntry fields', () => {
    const s: Required<ServerStatus> = {
      ...status({ id: 'x' }),
      error: '',
      stderr: '',
      attempt: 0,
      nextRetryMs: 0,
      canSubscribe: false,
    };
    expect(Object.keys(s).sort()).toEqual(goJSONFields('ServerStatusPayload'));
    const e: Required<RPCEntry> = { ...rpcEntry({ seq: 1 }), id: '', latencyMs: 0, truncated: false };
    expect(Object.keys(e).sort()).toEqual(goJSONFields('RPCEntry'));
    expect(goJSONFields('ServersChangedPayload')).toEqual(['ids']);
    expect(goJSONFields('RPCLogBatch')).toEqual(['entries']);
    expect(goJSONFields('ConfigErrorPayload')).toEqual(['file', 'message']);
    const u: Required<ResourceUpdated> = { server: '', uri: '', at: 0 };
    expect(Object.keys(u).sort()).toEqual(goJSONFields('ResourceUpdatedPayload'));
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
    (window as { go?: unknown }).go = { settings: { Service: { UIState, SaveUIState } }, mcp: { MCPPool: { ListServers } } };
    expect(await uiState('loggerHeight')).toBe('v:loggerHeight');
    await saveUIState('loggerOpen', 'true');
    expect(SaveUIState).toHaveBeenCalledWith('loggerOpen', 'true');
    expect(await listServers()).toEqual([]);
    expect(ListServers).toHaveBeenCalled();
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
