import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { RPCEntry } from '../../api';
import { FakeBackend, rpcEntry, spec } from '../../../test/fakes/fake';
import { renderApp } from '../../../test/app';

const entries: RPCEntry[] = [
  rpcEntry({ seq: 1, server: 'everything', method: 'initialize', id: '0', payload: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}' }),
  rpcEntry({ seq: 2, server: 'everything', direction: 'in', kind: 'response', method: 'initialize', id: '0', latencyMs: 42, payload: '{"jsonrpc":"2.0","id":0,"result":{"serverInfo":{"name":"everything"}}}' }),
  rpcEntry({ seq: 3, server: 'github', method: 'tools/list', id: '1', payload: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }),
  rpcEntry({ seq: 4, server: 'github', direction: 'in', kind: 'error', method: 'tools/list', id: '1', latencyMs: 7.5, payload: '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}' }),
  rpcEntry({ seq: 5, server: 'everything', direction: 'in', kind: 'notification', method: 'notifications/message', payload: '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"needle in a haystack"}}' }),
  rpcEntry({ seq: 6, server: 'everything', method: 'tools/call', id: '2', payload: 'not json at all' }),
];

async function openLogger(options: ConstructorParameters<typeof FakeBackend>[0] = {}) {
  const app = renderApp({ rpc: structuredClone(entries), ...options });
  await app.user.click(screen.getByTestId('logger-toggle'));
  await screen.findByTestId('logger-panel');
  return app;
}

describe('JSON-RPC logger', () => {
  it('opens with the rail button and Ctrl+J, and remembers the open state', async () => {
    const { fake, user } = renderApp({});
    expect(screen.queryByTestId('logger-panel')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('logger-toggle'));
    expect(screen.getByTestId('logger-panel')).toBeInTheDocument();
    expect(screen.getByTestId('logger-toggle')).toHaveAttribute('aria-pressed', 'true');
    expect(fake.uiStore.get('loggerOpen')).toBe('true');
    await user.keyboard('{Control>}j{/Control}');
    expect(screen.queryByTestId('logger-panel')).not.toBeInTheDocument();
    expect(fake.uiStore.get('loggerOpen')).toBe('false');
    await user.keyboard('{Meta>}j{/Meta}');
    expect(screen.getByTestId('logger-panel')).toBeInTheDocument();
  });

  it('restores the remembered open state and height', async () => {
    const fake = new FakeBackend({});
    fake.uiStore.set('loggerOpen', 'true');
    fake.uiStore.set('loggerHeight', '333');
    renderApp(fake);
    const panel = await screen.findByTestId('bottom-dock');
    expect(panel.style.height).toBe('333px');
  });

  it('lists entries with time, server, direction, kind, method, id and latency', async () => {
    await openLogger();
    const rows = await screen.findAllByTestId('rpc-row');
    expect(rows).toHaveLength(6);
    expect(screen.getByTestId('rpc-count')).toHaveTextContent('6 of 6');
    const r2 = within(rows[1]);
    expect(r2.getByText('everything')).toBeInTheDocument();
    expect(r2.getByText('←')).toBeInTheDocument();
    expect(r2.getByText('response')).toBeInTheDocument();
    expect(r2.getByText('initialize')).toBeInTheDocument();
    expect(r2.getByText('42 ms')).toBeInTheDocument();
    expect(within(rows[0]).getByText('→')).toBeInTheDocument();
    expect(rows[3]).toHaveAttribute('data-kind', 'error');
    expect(rows[0].textContent).toMatch(/\d\d:\d\d:\d\d\.\d{3}/);
  });

  it('appends entries from mcp:rpc-log events, skipping duplicates', async () => {
    const { fake } = await openLogger();
    await screen.findAllByTestId('rpc-row');
    fake.log({ server: 'memory', time: Date.now(), direction: 'out', kind: 'request', method: 'ping', id: '9', payload: '{}' });
    fake.emit('mcp:rpc-log', { entries: [entries[0]] });
    await waitFor(() => expect(screen.getByTestId('rpc-count')).toHaveTextContent('7 of 7'));
    expect(screen.getAllByTestId('rpc-row').at(-1)).toHaveTextContent('ping');
  });

  it('filters by server, method and payload text and shows N of M', async () => {
    const { user } = await openLogger();
    await screen.findAllByTestId('rpc-row');

    await user.selectOptions(screen.getByTestId('rpc-filter-server'), 'github');
    expect(screen.getAllByTestId('rpc-row')).toHaveLength(2);
    expect(screen.getByTestId('rpc-count')).toHaveTextContent('2 of 6');

    await user.selectOptions(screen.getByTestId('rpc-filter-server'), '');
    await user.type(screen.getByTestId('rpc-filter-method'), 'INITIAL');
    expect(screen.getByTestId('rpc-count')).toHaveTextContent('2 of 6');
    expect(screen.getAllByTestId('rpc-row').every((r) => r.textContent!.includes('initialize'))).toBe(true);

    await user.clear(screen.getByTestId('rpc-filter-method'));
    await user.type(screen.getByTestId('rpc-filter-text'), 'needle');
    expect(screen.getByTestId('rpc-count')).toHaveTextContent('1 of 6');
    expect(screen.getByTestId('rpc-row')).toHaveTextContent('notifications/message');

    await user.type(screen.getByTestId('rpc-filter-text'), 'zzz');
    expect(screen.queryAllByTestId('rpc-row')).toHaveLength(0);
    expect(screen.getByTestId('rpc-empty')).toHaveTextContent('No messages match the filters.');
    await user.click(within(screen.getByTestId('rpc-empty')).getByRole('button'));
    expect(screen.getByTestId('rpc-count')).toHaveTextContent('6 of 6');
  });

  it('shows the selected payload pretty-printed, with a raw fallback, and copies it', async () => {
    const { fake, user } = await openLogger();
    const rows = await screen.findAllByTestId('rpc-row');
    await user.click(rows[3]);
    const detail = screen.getByTestId('rpc-detail');
    const pretty = JSON.stringify(JSON.parse(entries[3].payload), null, 2);
    expect(within(detail).getByTestId('rpc-payload').textContent).toBe(pretty);
    expect(detail).toHaveTextContent('7.5 ms');
    await user.click(within(detail).getByTestId('rpc-copy'));
    expect(fake.copied).toEqual([pretty]);

    await user.click(screen.getAllByTestId('rpc-row')[5]);
    expect(screen.getByTestId('rpc-payload').textContent).toBe('not json at all');

    // Arrow keys move the selection; Escape closes the details.
    await user.keyboard('{ArrowUp}');
    expect(screen.getByTestId('rpc-payload')).toHaveTextContent('needle in a haystack');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('rpc-detail')).not.toBeInTheDocument();
  });

  it('copies every shown entry as JSON', async () => {
    const { fake, user } = await openLogger();
    await screen.findAllByTestId('rpc-row');
    await user.selectOptions(screen.getByTestId('rpc-filter-server'), 'github');
    await user.click(screen.getByTestId('rpc-copy-all'));
    const copied = JSON.parse(fake.copied[0]);
    expect(copied).toHaveLength(2);
    expect(copied[1]).toMatchObject({ seq: 4, server: 'github', kind: 'error', latencyMs: 7.5, payload: { error: { code: -32601 } } });
  });

  it('clears the log in Go and here after confirmation', async () => {
    const { fake, user } = await openLogger();
    await screen.findAllByTestId('rpc-row');
    await user.click(screen.getByTestId('rpc-clear'));
    expect(screen.getByTestId('confirm-dialog')).toHaveTextContent('6 messages are removed from the log.');
    await user.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.getByTestId('rpc-count')).toHaveTextContent('0 of 0'));
    expect(fake.callsOf('ClearRPCLog')).toHaveLength(1);
    expect(screen.getByTestId('rpc-empty')).toHaveTextContent('No messages yet.');
  });

  it('renders only the visible rows of 5,000 entries', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ ...entries[i % entries.length], seq: i + 1 }));
    await openLogger({ rpc: many });
    await waitFor(() => expect(screen.getByTestId('rpc-count')).toHaveTextContent('5000 of 5000'));
    expect(screen.getAllByTestId('rpc-row').length).toBeLessThan(100);
  });

  it('resizes from the keyboard and remembers the height', async () => {
    const { fake, user } = await openLogger();
    const handle = screen.getByTestId('logger-resize');
    handle.focus();
    const before = parseInt(screen.getByTestId('bottom-dock').style.height, 10);
    Object.defineProperty(screen.getByTestId('bottom-dock').parentElement!, 'clientHeight', { value: 800, configurable: true });
    await user.keyboard('{ArrowUp}');
    expect(parseInt(screen.getByTestId('bottom-dock').style.height, 10)).toBe(before + 16);
    expect(fake.uiStore.get('loggerHeight')).toBe(String(before + 16));
  });

  it('resizes by dragging the top edge', async () => {
    const { fake } = await openLogger();
    const panel = screen.getByTestId('bottom-dock');
    Object.defineProperty(panel.parentElement!, 'clientHeight', { value: 800, configurable: true });
    const handle = screen.getByTestId('logger-resize');
    const before = parseInt(panel.style.height, 10);
    await fireEvent.pointerDown(handle, { button: 0, clientY: 500, pointerId: 1 });
    await fireEvent.pointerMove(handle, { clientY: 400, pointerId: 1 });
    await fireEvent.pointerUp(handle, { clientY: 400, pointerId: 1 });
    expect(parseInt(panel.style.height, 10)).toBe(before + 100);
    expect(fake.uiStore.get('loggerHeight')).toBe(String(before + 100));
  });
});

describe('Logger log level', () => {
  it('sets the log level of the filtered server', async () => {
    const { fake, user } = renderApp({ servers: [spec({ id: 'alpha', command: 'a' })] });
    fake.log({ server: 'alpha', time: 1, direction: 'in', kind: 'notification', method: 'notifications/message', payload: '{}' });
    const s = screen;
    if (!s.queryByTestId('rpc-filter-server')) await user.click(s.getByTestId('logger-toggle'));
    expect(s.queryByTestId('rpc-log-level')).toBeNull();
    await user.selectOptions(await s.findByTestId('rpc-filter-server'), 'alpha');
    await user.selectOptions(s.getByTestId('rpc-log-level'), 'warning');
    expect(fake.callsOf('SetLogLevel')).toEqual([['alpha', 'warning']]);
    expect(await s.findByTestId('toast')).toHaveTextContent('alpha now sends log messages from warning up');
  });
});
