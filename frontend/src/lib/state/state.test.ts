import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setBackend } from '../api';
import { FakeBackend, rpcEntry, spec, status } from '../../test/fakes/fake';
import { RPCLogStore, prettyPayload } from './rpclog.svelte';
import { ServersStore } from './servers.svelte';

let fake: FakeBackend;
afterEach(() => fake?.dispose());

describe('RPCLogStore', () => {
  it('keeps at most 5,000 entries, newest last, without duplicates', () => {
    fake = new FakeBackend({});
    setBackend(fake);
    const log = new RPCLogStore();
    log.append(Array.from({ length: 3000 }, (_, i) => rpcEntry({ seq: i + 1 })));
    log.append(Array.from({ length: 3000 }, (_, i) => rpcEntry({ seq: i + 3001 })));
    log.append([rpcEntry({ seq: 6000 })]);
    expect(log.entries).toHaveLength(5000);
    expect(log.entries[0].seq).toBe(1001);
    expect(log.entries.at(-1)!.seq).toBe(6000);
  });

  it('orders entries that arrive out of sequence', () => {
    fake = new FakeBackend({});
    setBackend(fake);
    const log = new RPCLogStore(10);
    log.append([rpcEntry({ seq: 5 }), rpcEntry({ seq: 6 })]);
    log.append([rpcEntry({ seq: 2 }), rpcEntry({ seq: 1 })]);
    expect(log.entries.map((e) => e.seq)).toEqual([1, 2, 5, 6]);
  });

  it('filters by server, method and payload text, case-insensitively', () => {
    fake = new FakeBackend({});
    setBackend(fake);
    const log = new RPCLogStore();
    log.append([
      rpcEntry({ seq: 1, server: 'a', method: 'tools/list', payload: '{"x":"Hello"}' }),
      rpcEntry({ seq: 2, server: 'b', method: 'tools/call', payload: '{"x":"bye"}' }),
    ]);
    log.setFilter({ server: 'b' });
    expect(log.filtered.map((e) => e.seq)).toEqual([2]);
    log.setFilter({ server: '', method: 'LIST' });
    expect(log.filtered.map((e) => e.seq)).toEqual([1]);
    log.setFilter({ method: '', text: 'hello' });
    expect(log.filtered.map((e) => e.seq)).toEqual([1]);
    expect(log.servers).toEqual(['a', 'b']);
    expect(log.methods).toEqual(['tools/call', 'tools/list']);
  });

  it('holds no entry until the logger shows, then what the backend holds and every batch after', async () => {
    fake = new FakeBackend({});
    setBackend(fake);
    fake.log(rpcEntry({ seq: 1 }), rpcEntry({ seq: 2 }));
    const log = new RPCLogStore();
    const stop = log.start();
    fake.log(rpcEntry({ seq: 3 }));
    await Promise.resolve();
    expect(log.entries).toHaveLength(0);
    expect(fake.calls.filter((c) => c.method === 'RPCLog')).toHaveLength(0);

    log.hold();
    log.hold(); // the logger shown again: one fetch
    await vi.waitFor(() => expect(log.entries.map((e) => e.seq)).toEqual([1, 2, 3]));
    expect(fake.calls.filter((c) => c.method === 'RPCLog')).toHaveLength(1);
    fake.log(rpcEntry({ seq: 4 }));
    expect(log.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    stop();
  });

  it('pretty-prints JSON and leaves other text alone', () => {
    expect(prettyPayload('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyPayload('{oops')).toBe('{oops');
  });
});

describe('ServersStore', () => {
  it('keeps a status event that overtook a list fetch', async () => {
    fake = new FakeBackend({ servers: [{ spec: spec({ id: 'a', command: 'x' }), status: status({ id: 'a', state: 'connecting' }) }] });
    setBackend(fake);
    const store = new ServersStore();
    const stop = store.start();
    await store.refresh();
    // A fetch starts, then a newer status arrives before it returns.
    const slow = fake.mcp.ListServers;
    let release!: () => void;
    fake.mcp.ListServers = async () => {
      const views = await slow();
      await new Promise<void>((r) => (release = r));
      return views;
    };
    const pending = store.refresh();
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    fake.emit('mcp:server-status', status({ id: 'a', state: 'connected', tools: 9 }));
    release();
    await pending;
    flushSync();
    expect(store.get('a')!.status.state).toBe('connected');
    expect(store.get('a')!.status.tools).toBe(9);
    stop();
  });

  it('catches up with a status whose event was lost while a server settles', async () => {
    const saved = ServersStore.RECONCILE_MS;
    ServersStore.RECONCILE_MS = 20;
    try {
      fake = new FakeBackend({ servers: [{ spec: spec({ id: 'a', command: 'x' }), status: status({ id: 'a', state: 'connecting' }) }] });
      setBackend(fake);
      const store = new ServersStore();
      const stop = store.start();
      await store.refresh();
      expect(store.get('a')!.status.state).toBe('connecting');
      // Go connects, but its event never arrives.
      fake.servers.get('a')!.status = status({ id: 'a', state: 'connected', tools: 3 });
      await vi.waitFor(() => expect(store.get('a')!.status.state).toBe('connected'));
      // Once settled, nothing is fetched any more.
      const fetched = fake.callsOf('ListServers').length;
      await new Promise((r) => setTimeout(r, 80));
      expect(fake.callsOf('ListServers').length).toBe(fetched);
      stop();
    } finally {
      ServersStore.RECONCILE_MS = saved;
    }
  });

  it('coalesces refreshes and reports a load error', async () => {
    fake = new FakeBackend({});
    setBackend(fake);
    const store = new ServersStore();
    await Promise.all([store.refresh(), store.refresh(), store.refresh()]);
    expect(fake.callsOf('ListServers').length).toBeLessThanOrEqual(2);
    fake.failNext('ListServers', 'pool closed');
    await store.refresh();
    expect(store.loadError).toBe('pool closed');
  });
});
