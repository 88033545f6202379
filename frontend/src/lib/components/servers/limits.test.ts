import { render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { rpcEntry, spec, status } from '../../../test/fakes/fake';
import { renderApp, serverRow } from '../../../test/app';
import RunProgress from '../tools/RunProgress.svelte';

// What the user sees of the protections against a server that exhausts
// memory or CPU (issue 11, point 4).

const tooLarge = {
  spec: spec({ id: 'huge', command: 'hostile' }),
  status: status({
    id: 'huge',
    state: 'failed',
    error: 'sent a message larger than 32 MB (limit: maxMessageBytes)',
    problem: { code: 'messageTooLarge', limit: 32 << 20 },
  }),
};

describe('message size limit', () => {
  it('says in words why a server was stopped, and keeps the English text to copy', async () => {
    renderApp({ servers: [tooLarge] });
    await screen.findByTestId('server-huge');
    const row = serverRow('huge');
    expect(row.getByTestId('server-state')).toHaveTextContent('Failed');
    const problem = row.getByTestId('server-error');
    expect(problem).toHaveTextContent('Sent a message larger than 32 MB and was stopped');
    expect(problem).toHaveTextContent('raise maxMessageBytes');
    expect(within(problem).getByText(/Sent a message larger/)).toHaveAttribute('title', 'sent a message larger than 32 MB (limit: maxMessageBytes)');
  });

  it('words it in Chinese too', async () => {
    renderApp({ servers: [tooLarge], prefs: { theme: 'system', language: 'zh-CN' } });
    await screen.findByTestId('server-huge');
    expect(serverRow('huge').getByTestId('server-error')).toHaveTextContent('发送了大于 32 MB 的消息，已被停止');
  });
});

describe('flood markers', () => {
  it('shows a logger marker for messages the flood limit did not log', async () => {
    const { user } = renderApp({
      rpc: [
        rpcEntry({ seq: 1, server: 'flood', direction: 'in', kind: 'notification', method: 'notifications/message', payload: '{}' }),
        rpcEntry({ seq: 2, server: 'flood', direction: 'in', kind: 'notification', method: 'notifications/message', dropped: 9797, payload: '{"dropped":9797}' }),
      ],
    });
    await user.click(screen.getByTestId('logger-toggle'));
    const marker = await screen.findByTestId('rpc-dropped');
    expect(marker).toHaveTextContent('9,797 messages of notifications/message not logged');
    expect(screen.getAllByTestId('rpc-row')).toHaveLength(2);
  });

  it('says how many progress updates were skipped', () => {
    render(RunProgress, { progress: { progress: 10000, total: 10000, dropped: 9994 } });
    expect(screen.getByTestId('progress-skipped')).toHaveTextContent('9,994 updates skipped');
  });

  it('shows no marker when nothing was skipped', () => {
    render(RunProgress, { progress: { progress: 3, total: 10 } });
    expect(screen.queryByTestId('progress-skipped')).not.toBeInTheDocument();
  });
});
