import { screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { RPCEntry } from '../../api';
import { rpcEntry } from '../../../test/fakes/fake';
import { renderApp } from '../../../test/app';

// What Go's logger holds for a tool call the user stopped (recorded from
// backend/mcppool TestLoggerShowsACallTheUserStopped): the request, the local
// note of its end, and our notifications/cancelled.
const stopped: RPCEntry[] = [
  rpcEntry({ seq: 1, server: 'slow', method: 'tools/call', id: '7', payload: '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":30000}}}' }),
  rpcEntry({ seq: 2, server: 'slow', direction: 'local', kind: 'cancelled', method: 'tools/call', id: '7', latencyMs: 1234.5, payload: '', note: 'cancelledByUser' }),
  rpcEntry({ seq: 3, server: 'slow', kind: 'notification', method: 'notifications/cancelled', payload: '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"The user stopped this request.","requestId":7}}' }),
];

async function openLogger(rpc: RPCEntry[]) {
  const app = renderApp({ rpc: structuredClone(rpc) });
  await app.user.click(screen.getByTestId('logger-toggle'));
  await screen.findByTestId('logger-panel');
  return app;
}

describe('Logger: a call the user stopped', () => {
  it('is shown as cancelled by you, with our notifications/cancelled sent, and no error received', async () => {
    const { user } = await openLogger(stopped);
    const rows = await screen.findAllByTestId('rpc-row');
    expect(rows).toHaveLength(3);
    // The request row carries its outcome.
    expect(within(rows[0]).getByTestId('rpc-outcome')).toHaveTextContent('Cancelled by you');
    // The note is ours, neither sent nor received.
    expect(within(rows[1]).getByTestId('rpc-note')).toHaveTextContent('Cancelled by you');
    expect(within(rows[1]).getByTitle('Noted by MCP Desk — not a message to or from the server')).toBeInTheDocument();
    // Our cancellation was sent to the server.
    expect(within(rows[2]).getByTitle('Sent to the server')).toBeInTheDocument();
    expect(rows.some((r) => r.dataset.kind === 'error')).toBe(false);
    expect(screen.getByTestId('logger-panel').innerHTML).not.toContain('Received from the server');

    await user.click(rows[1]);
    const detail = within(screen.getByTestId('rpc-detail'));
    expect(detail.getByTestId('rpc-explain')).toHaveTextContent('You stopped this tools/call after 1.23 sec');
    expect(detail.queryByTestId('rpc-payload')).toBeNull();

    await user.click(rows[0]);
    expect(within(screen.getByTestId('rpc-detail')).getByTestId('rpc-detail-outcome')).toHaveTextContent('Cancelled by you');
    const text = screen.getByTestId('logger-panel').textContent ?? '';
    expect(text).not.toContain('_transport');
    expect(text).not.toContain('context canceled');
  }, 15000); // several clicks through the whole app: slow on a busy machine

  it('words a failed connection without showing it as a message from the server', async () => {
    const failed = [
      stopped[0],
      rpcEntry({ seq: 2, server: 'slow', direction: 'local', kind: 'error', method: 'tools/call', id: '7', latencyMs: 3, payload: '{"reason":"transport closed"}', note: 'noAnswer' }),
    ];
    const { user } = await openLogger(failed);
    const rows = await screen.findAllByTestId('rpc-row');
    expect(within(rows[1]).getByTestId('rpc-note')).toHaveTextContent('No answer');
    await user.click(rows[1]);
    const detail = within(screen.getByTestId('rpc-detail'));
    expect(detail.getByTestId('rpc-explain')).toHaveTextContent('the connection to the server failed');
    expect(detail.getByTestId('rpc-explain')).toHaveTextContent('transport closed');
    expect(detail.queryByTestId('rpc-payload')).toBeNull();
  });

  it('ties a note to the latest request with its id, not to an older one a restart reused', async () => {
    const reused = [
      rpcEntry({ seq: 1, server: 'slow', method: 'tools/call', id: '7', payload: '{}' }),
      rpcEntry({ seq: 2, server: 'slow', direction: 'in', kind: 'response', method: 'tools/call', id: '7', latencyMs: 2, payload: '{}' }),
      ...stopped.map((e) => ({ ...e, seq: e.seq + 2 })),
    ];
    await openLogger(reused);
    const rows = await screen.findAllByTestId('rpc-row');
    expect(within(rows[0]).queryByTestId('rpc-outcome')).toBeNull();
    expect(within(rows[2]).getByTestId('rpc-outcome')).toHaveTextContent('Cancelled by you');
  });
});
