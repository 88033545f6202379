import { afterEach, describe, expect, it } from 'vitest';
import { setBackend } from '../api';
import { FakeBackend, spec, status } from '../../test/fakes/fake';
import { InspectorServer } from './inspectorServer.svelte';
import { PromptsStore } from './prompts.svelte';
import { ResourcesStore } from './resources.svelte';
import { ServersStore } from './servers.svelte';

let fake: FakeBackend;
afterEach(() => fake?.dispose());

function use(o: ConstructorParameters<typeof FakeBackend>[0]) {
  fake = new FakeBackend(o);
  setBackend(fake);
  return fake;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('InspectorServer', () => {
  type State = 'connected' | 'connecting' | 'restarting' | 'failed' | 'disabled';

  // setup configures servers in the given states and follows their status events.
  async function setup(states: Record<string, State>) {
    use({ servers: Object.entries(states).map(([id, state]) => ({ spec: spec({ id, command: 'x' }), status: status({ id, state }) })) });
    const servers = new ServersStore();
    servers.start();
    await servers.refresh();
    return { servers, choice: new InspectorServer(servers) };
  }

  it('shows the first connected server until one is picked', async () => {
    const { choice } = await setup({ a: 'failed', b: 'connected', c: 'connected' });
    expect(choice.id).toBe('b');
    choice.pick('c');
    expect(choice.id).toBe('c');
    expect(fake.uiStore.get('inspector.server')).toBe('c');
  });

  it('keeps a picked server while it reconnects, not when it failed', async () => {
    const { choice } = await setup({ a: 'connected', b: 'connected' });
    choice.pick('b');
    fake.setStatus('b', { state: 'restarting' });
    expect(choice.id).toBe('b');
    fake.setStatus('b', { state: 'failed' });
    expect(choice.id).toBe('a');
    fake.setStatus('b', { state: 'connected' });
    expect(choice.id).toBe('b');
  });

  it('falls back to a connecting server, then to nothing', async () => {
    const { choice } = await setup({ a: 'disabled', b: 'connecting' });
    expect(choice.id).toBe('b');
    fake.setStatus('b', { state: 'failed' });
    expect(choice.id).toBe('');
  });

  it('restores the remembered server; a pick made before it arrives wins', async () => {
    const first = await setup({ a: 'connected', b: 'connected' });
    fake.uiStore.set('inspector.server', 'b');
    await first.choice.load();
    expect(first.choice.id).toBe('b');

    const second = await setup({ a: 'connected', b: 'connected' });
    fake.uiStore.set('inspector.server', 'b');
    const loading = second.choice.load();
    second.choice.pick('a');
    await loading;
    expect(second.choice.id).toBe('a');
  });

  it('hold keeps an unpicked server shown while it restarts', async () => {
    const { choice } = await setup({ a: 'connected', b: 'connected' });
    choice.hold('b');
    fake.setStatus('b', { state: 'restarting' });
    expect(choice.id).toBe('b');
    expect(fake.uiStore.has('inspector.server')).toBe(false);
  });
});

describe('ResourcesStore', () => {
  it('drops the answers for a server that is no longer shown', async () => {
    use({
      servers: [spec({ id: 'a', command: 'x' }), spec({ id: 'b', command: 'y' })],
      resources: { a: [{ uri: 'a://1', name: 'a1' }], b: [{ uri: 'b://1', name: 'b1' }] },
    });
    const store = new ResourcesStore();
    store.show('a', true);
    store.show('b', true);
    await tick();
    expect(store.server).toBe('b');
    expect(store.resources.items.map((r) => r.uri)).toEqual(['b://1']);
  });

  it('waits for a disconnected server and loads it once connected', async () => {
    use({ servers: [spec({ id: 'a', command: 'x' })], resources: { a: [{ uri: 'a://1', name: 'a1' }] } });
    const store = new ResourcesStore();
    store.show('a', false);
    await tick();
    expect(fake.callsOf('ListResources')).toEqual([]);
    store.show('a', true);
    await tick();
    expect(store.resources.items).toHaveLength(1);
    store.show('a', true);
    await tick();
    expect(fake.callsOf('ListResources')).toHaveLength(1);
  });

  it('expands a template with empty values left out', async () => {
    use({ servers: [spec({ id: 'a', command: 'x' })] });
    const store = new ResourcesStore();
    store.show('a', true);
    const t = { name: 't', uriTemplate: 'x://{id}{?q}' };
    store.selectTemplate(t);
    expect(store.templateArgs(t)).toEqual({ id: '', q: '' });
    expect(store.expandedURI(t)).toBe('x://');
    store.setTemplateArg(t, 'id', '7');
    store.setTemplateArg(t, 'q', '');
    expect(store.expandedURI(t)).toBe('x://7');
    await store.readTemplate(t);
    expect(fake.callsOf('ReadResource')).toEqual([['a', 'x://7']]);
    expect(store.read?.result?.contents[0]).toMatchObject({ text: 'contents of x://7' });
  });

  it('tolerates Go sending null lists', async () => {
    use({ servers: [spec({ id: 'a', command: 'x' })] });
    fake.mcp.ListResources = async () => ({ resources: null as never });
    fake.mcp.ReadResource = async () => ({ contents: null as never });
    const store = new ResourcesStore();
    store.show('a', true);
    await tick();
    expect(store.resources.items).toEqual([]);
    await store.readURI('a://x');
    expect(store.read?.result?.contents).toEqual([]);
  });
});

describe('PromptsStore', () => {
  it('does not call the server while a required argument is empty', async () => {
    use({
      servers: [spec({ id: 'a', command: 'x' })],
      prompts: { a: [{ name: 'p', arguments: [{ name: 'x', required: true }, { name: 'y' }] }] },
    });
    const store = new PromptsStore();
    store.show('a', true);
    await tick();
    store.select('p');
    expect(await store.get()).toBe(false);
    expect(store.missing).toEqual(['x']);
    store.setArg('p', 'x', '1');
    expect(store.missing).toEqual([]);
    expect(await store.get()).toBe(true);
    expect(fake.callsOf('GetPrompt')).toEqual([['a', 'p', { x: '1' }]]);
  });
});
