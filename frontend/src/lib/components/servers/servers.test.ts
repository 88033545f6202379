import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { spec, status } from '../../../test/fakes/fake';
import { renderApp, serverRow } from '../../../test/app';

const everything = {
  spec: spec({ id: 'everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }),
  status: status({ id: 'everything', serverName: 'mcp-servers/everything', serverVersion: '2026.8.31', tools: 12, resources: 7, prompts: 4 }),
};
const remote = {
  spec: spec({ id: 'remote', type: 'http', url: 'https://example.com/mcp' }),
  status: status({ id: 'remote', state: 'connecting', transport: 'http', protocolVersion: '' }),
};

describe('Servers screen', () => {
  it('lists configured servers with their status, transport, version and counts', async () => {
    renderApp({ servers: [everything, remote] });
    const row = await screen.findByTestId('server-everything');
    const r = within(row);
    expect(r.getByTestId('server-state')).toHaveTextContent('Connected');
    expect(r.getByTestId('server-state')).toHaveAttribute('data-state', 'connected');
    expect(r.getByTestId('server-transport')).toHaveTextContent('stdio');
    expect(r.getByText('2025-11-25')).toBeInTheDocument();
    expect(r.getByTestId('server-info')).toHaveTextContent('mcp-servers/everything 2026.8.31');
    expect(r.getByTestId('server-counts')).toHaveTextContent('12 tools 7 resources 4 prompts');
    expect(r.getByText('npx -y @modelcontextprotocol/server-everything')).toBeInTheDocument();

    const remoteRow = serverRow('remote');
    expect(remoteRow.getByTestId('server-state')).toHaveTextContent('Connecting…');
    expect(remoteRow.getByTestId('server-transport')).toHaveTextContent('Streamable HTTP');
    expect(screen.getByTestId('servers-summary')).toHaveTextContent('2 servers · 1 connected · 12 tools');
    expect(screen.getByTestId('config-file')).toHaveTextContent('/home/dev/.config/mcpdesk/mcp.config.json');
  });

  it('updates a row live from mcp:server-status events', async () => {
    const { fake } = renderApp({ servers: [remote] });
    await screen.findByTestId('server-remote');

    fake.setStatus('remote', { state: 'connected', transport: 'http', protocolVersion: '2026-07-28', tools: 3, resources: 0, prompts: 1 });
    await waitFor(() => expect(serverRow('remote').getByTestId('server-state')).toHaveTextContent('Connected'));
    expect(serverRow('remote').getByText('2026-07-28')).toBeInTheDocument();
    expect(serverRow('remote').getByTestId('server-counts')).toHaveTextContent('3 tools 0 resources 1 prompt');

    fake.setStatus('remote', {
      state: 'failed',
      error: 'connect: connection refused',
      stderr: '',
    });
    await waitFor(() => expect(serverRow('remote').getByTestId('server-state')).toHaveTextContent('Failed'));
    expect(serverRow('remote').getByTestId('server-error')).toHaveTextContent('connect: connection refused');
    expect(screen.getByTestId('nav-servers-alert')).toBeInTheDocument();
  });

  it('shows the error, a collapsible stderr block and the retry countdown while restarting', async () => {
    const { fake } = renderApp({ servers: [everything] });
    await screen.findByTestId('server-everything');
    fake.setStatus('everything', {
      state: 'restarting',
      error: 'server exited with status 1',
      stderr: 'Traceback (most recent call last):\nValueError: bad config',
      attempt: 2,
      nextRetryMs: 5000,
    });
    const row = await waitFor(() => {
      const r = serverRow('everything');
      expect(r.getByTestId('server-state')).toHaveTextContent('Restarting');
      return r;
    });
    expect(row.getByTestId('server-retry').textContent).toMatch(/^retry 2 in [45] sec$/);
    expect(row.getByTestId('server-error')).toHaveTextContent('server exited with status 1');
    const stderr = row.getByTestId('server-stderr');
    expect(stderr.tagName).toBe('DETAILS');
    expect(stderr).not.toHaveAttribute('open');
    expect(within(stderr).getByText('stderr (2 lines)')).toBeInTheDocument();
    expect(stderr.querySelector('pre')).toHaveTextContent('ValueError: bad config');
  });

  it('shows the config-error banner and clears it when servers change', async () => {
    const { fake } = renderApp({ servers: [everything] });
    await screen.findByTestId('server-everything');
    fake.emit('mcp:config-error', { file: '/cfg/mcp.config.json', message: 'line 3, column 5: invalid character' });
    const banner = await screen.findByTestId('config-error');
    expect(banner).toHaveTextContent('/cfg/mcp.config.json');
    expect(banner).toHaveTextContent('line 3, column 5: invalid character');
    expect(banner).toHaveTextContent('the last good configuration is still in use');

    const lists = fake.callsOf('ListServers').length;
    fake.emit('mcp:servers-changed', { ids: ['everything'] });
    await waitFor(() => expect(screen.queryByTestId('config-error')).not.toBeInTheDocument());
    await waitFor(() => expect(fake.callsOf('ListServers').length).toBeGreaterThan(lists));
  });

  it('reloads the list when servers change on disk', async () => {
    const { fake } = renderApp({ servers: [everything] });
    await screen.findByTestId('server-everything');
    fake.servers.set('added', { spec: spec({ id: 'added', command: 'uvx', args: ['mcp-server-time'] }), status: status({ id: 'added' }) });
    fake.emit('mcp:servers-changed', { ids: ['everything', 'added'] });
    expect(await screen.findByTestId('server-added')).toBeInTheDocument();
  });

  it('shows an empty state that explains MCP servers and offers add and import', async () => {
    const { user } = renderApp({});
    const empty = await screen.findByTestId('servers-empty');
    expect(empty).toHaveTextContent('Connect your first MCP server');
    expect(within(empty).getByTestId('empty-import')).toHaveTextContent('Import from Claude Desktop / Cursor / VS Code');
    await user.click(within(empty).getByTestId('empty-add-server'));
    expect(screen.getByTestId('server-form')).toBeInTheDocument();
  });

  it('restarts, disables and removes a server after confirmation', async () => {
    const { fake, user } = renderApp({ servers: [everything], connectDelayMs: -1 });
    await screen.findByTestId('server-everything');

    await user.click(serverRow('everything').getByTestId('server-restart'));
    expect(fake.callsOf('Restart')).toEqual([['everything']]);
    await waitFor(() => expect(serverRow('everything').getByTestId('server-state')).toHaveTextContent('Connecting…'));

    const toggle = serverRow('everything').getByTestId('server-enabled');
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await user.click(toggle);
    expect(fake.callsOf('SetEnabled')).toEqual([['everything', false]]);
    await waitFor(() => expect(serverRow('everything').getByTestId('server-state')).toHaveTextContent('Disabled'));
    expect(serverRow('everything').getByTestId('server-enabled')).toHaveAttribute('aria-checked', 'false');

    await user.click(serverRow('everything').getByTestId('server-remove'));
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('Remove “everything”?');
    await user.click(within(dialog).getByTestId('confirm-cancel'));
    expect(fake.callsOf('RemoveServer')).toEqual([]);

    await user.click(serverRow('everything').getByTestId('server-remove'));
    await user.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.queryByTestId('server-everything')).not.toBeInTheDocument());
    expect(fake.callsOf('RemoveServer')).toEqual([['everything']]);
    expect(await screen.findByText('Server “everything” removed')).toBeInTheDocument();
  });

  it('rolls the switch back and shows Go’s message when SetEnabled fails', async () => {
    const { fake, user } = renderApp({ servers: [everything] });
    await screen.findByTestId('server-everything');
    fake.failNext('SetEnabled', 'write config: permission denied');
    await user.click(serverRow('everything').getByTestId('server-enabled'));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Could not disable “everything”');
    expect(toast).toHaveTextContent('write config: permission denied');
    expect(serverRow('everything').getByTestId('server-enabled')).toHaveAttribute('aria-checked', 'true');
  });

  it('closes the confirmation dialog with Escape', async () => {
    const { fake, user } = renderApp({ servers: [everything] });
    await screen.findByTestId('server-everything');
    await user.click(serverRow('everything').getByTestId('server-remove'));
    expect(screen.getByTestId('confirm-dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('confirm-dialog')).not.toBeInTheDocument();
    expect(fake.callsOf('RemoveServer')).toEqual([]);
  });
});
