import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { spec, status } from '../../../test/fakes/fake';
import { renderApp, serverRow } from '../../../test/app';
import { problemText } from './startOutcome';

/** toastsOf returns the toasts on screen with their kind and text. */
function toastsOf() {
  return screen.queryAllByTestId('toast').map((t) => ({ kind: t.dataset.kind, text: t.textContent ?? '' }));
}

describe('Servers tell the truth about a start', () => {
  it('adding a server whose program does not exist says it failed to start, in one warning', async () => {
    const { user } = renderApp({ connectDelayMs: 5 });
    await user.click(await screen.findByTestId('add-server'));
    await user.type(screen.getByTestId('server-id'), 'broken');
    await user.type(screen.getByTestId('server-command'), 'missing-tool');
    await user.click(screen.getByTestId('save-server'));

    await waitFor(() => expect(toastsOf()).toHaveLength(1));
    const [toast] = toastsOf();
    expect(toast.kind).toBe('warning');
    expect(toast.text).toContain('Server “broken” added, but it failed to start: The program “missing-tool” was not found on your PATH.');
    // Never the green "added" at the same time.
    expect(toastsOf().some((t) => t.kind === 'success')).toBe(false);
    expect(serverRow('broken').getByTestId('server-state')).toHaveTextContent('Failed');
    // The row words the reason too, not Go's text.
    expect(serverRow('broken').getByTestId('server-error')).toHaveTextContent('The program “missing-tool” was not found on your PATH.');
  }, 15000);

  it('turning on a server that cannot start says so, and a good one says it connected', async () => {
    const { user } = renderApp({
      connectDelayMs: 5,
      servers: [spec({ id: 'broken', command: 'missing-tool', enabled: false }), spec({ id: 'good', command: 'uvx', enabled: false })],
    });
    await screen.findByTestId('server-broken');
    await user.click(serverRow('broken').getByTestId('server-enabled'));
    await waitFor(() => expect(toastsOf().map((t) => t.kind)).toEqual(['warning']));
    expect(toastsOf()[0].text).toContain('Server “broken” turned on, but it failed to start: The program “missing-tool” was not found on your PATH.');

    await user.click(serverRow('good').getByTestId('server-enabled'));
    await waitFor(() => expect(toastsOf().map((t) => t.kind)).toEqual(['warning', 'success']));
    expect(toastsOf()[1].text).toContain('Server “good” turned on and connected');
  });

  it('says a server is still starting when Go answered before its start ended', async () => {
    const { user } = renderApp({ connectDelayMs: -1 });
    await user.click(await screen.findByTestId('add-server'));
    await user.type(screen.getByTestId('server-id'), 'slow');
    await user.type(screen.getByTestId('server-command'), 'npx');
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(toastsOf().map((t) => t.kind)).toEqual(['info']));
    expect(toastsOf()[0].text).toContain('Server “slow” added; it is still starting');
  });
});

describe('Server detail', () => {
  const connected = {
    spec: spec({ id: 'everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }),
    status: status({
      id: 'everything',
      state: 'connected',
      protocolVersion: '2025-11-25',
      serverName: 'example-servers/everything',
      serverVersion: '1.0.0',
      tools: 11,
      resources: 100,
      prompts: 3,
    }),
  };

  it('opens from the row by click or keyboard, with state, protocol, server, capabilities, sanitised instructions and starts', async () => {
    const { fake, user } = renderApp({ servers: [connected] });
    fake.instructions.set('everything', 'Use **echo** first. <img src=x onerror="alert(1)"><script>alert(2)</script>');
    fake.starts.set('everything', [
      { time: Date.UTC(2026, 0, 2, 3, 4, 5), cause: 'connectionLost', detail: 'server process exited: exit status 1' },
      { time: Date.UTC(2026, 0, 2, 3, 0, 0), cause: 'start' },
    ]);
    await screen.findByTestId('server-everything');

    // Keyboard: the row's title is a button.
    serverRow('everything').getByTestId('server-open').focus();
    await user.keyboard('{Enter}');
    const dlg = within(await screen.findByTestId('server-detail'));
    expect(dlg.getByTestId('detail-state')).toHaveTextContent('Connected');
    expect(dlg.getByTestId('detail-protocol')).toHaveTextContent('2025-11-25');
    expect(dlg.getByTestId('detail-info')).toHaveTextContent('example-servers/everything 1.0.0');
    await waitFor(() => expect(dlg.getByTestId('detail-capabilities')).toHaveTextContent('Tools'));
    expect(dlg.getByTestId('detail-capabilities')).toHaveTextContent('announces list changes');
    const instr = dlg.getByTestId('detail-instructions');
    expect(instr.querySelector('strong')).toHaveTextContent('echo');
    expect(instr.querySelector('script')).toBeNull();
    expect(instr.innerHTML).not.toContain('onerror');
    const starts = dlg.getByTestId('detail-starts');
    expect(starts).toHaveTextContent('Automatic restart: the connection was lost');
    expect(starts).toHaveTextContent('server process exited: exit status 1');
    expect(starts).toHaveTextContent('Started');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('server-detail')).not.toBeInTheDocument());

    // A click on the row's free space opens it too; its buttons keep their meaning.
    await user.click(serverRow('everything').getByTestId('server-transport'));
    expect(await screen.findByTestId('server-detail')).toBeInTheDocument();
  }, 15000);

  it('follows the tools count to the Tools tab with that server chosen', async () => {
    const other = { spec: spec({ id: 'aaa', command: 'uvx' }), status: status({ id: 'aaa', state: 'connected', tools: 1 }) };
    const { stores, user } = renderApp({ servers: [other, connected] });
    await screen.findByTestId('server-everything');
    await user.click(serverRow('everything').getByTestId('server-open'));
    const dlg = within(await screen.findByTestId('server-detail'));
    expect(dlg.getByTestId('detail-open-tools')).toHaveTextContent('11 tools');
    await user.click(dlg.getByTestId('detail-open-tools'));
    await waitFor(() => expect(screen.getByTestId('nav-tools')).toHaveAttribute('aria-current', 'page'));
    expect(stores.inspectorServer.id).toBe('everything');
    expect(screen.queryByTestId('server-detail')).not.toBeInTheDocument();
  });

  it('explains what to do when a failed server has nothing to show', async () => {
    const failed = {
      spec: spec({ id: 'broken', command: 'missing-tool' }),
      status: status({ id: 'broken', state: 'failed', error: 'program "missing-tool" not found on PATH', problem: { code: 'programNotFound', program: 'missing-tool' } }),
    };
    const { user } = renderApp({ servers: [failed], connectDelayMs: -1 });
    await screen.findByTestId('server-broken');
    await user.click(serverRow('broken').getByTestId('server-open'));
    const dlg = within(await screen.findByTestId('server-detail'));
    expect(dlg.getByTestId('detail-error')).toHaveTextContent('The program “missing-tool” was not found on your PATH.');
    expect(dlg.getByTestId('detail-capabilities-empty')).toHaveTextContent('Turn it on, or press Restart.');
    expect(dlg.getByText('It has not been started since MCP Desk started. Turn it on, or press Restart.')).toBeInTheDocument();
  });
});

describe('problemText', () => {
  it('words each start failure Go names, and leaves others to Go’s text', () => {
    expect(problemText({ problem: { code: 'programNotFound', program: 'uvx' } })).toContain('The program “uvx” was not found on your PATH.');
    expect(problemText({ problem: { code: 'programNotFound', program: '/opt/srv/bin/server' } })).toContain('There is no program at “/opt/srv/bin/server”.');
    expect(problemText({ problem: { code: 'programNotExecutable', program: '/tmp/x' } })).toContain('“/tmp/x” exists but cannot be run');
    expect(problemText({ problem: { code: 'exitedAtStart' } })).toContain('exited before it finished starting');
    expect(problemText({})).toBeUndefined();
  });
});

describe('Server row counts', () => {
  it('open the Resources tab on that server', async () => {
    const a = { spec: spec({ id: 'aaa', command: 'uvx' }), status: status({ id: 'aaa', state: 'connected', tools: 1, resources: 1 }) };
    const b = { spec: spec({ id: 'bbb', command: 'uvx' }), status: status({ id: 'bbb', state: 'connected', tools: 2, resources: 5 }) };
    const { stores, user } = renderApp({ servers: [a, b] });
    await screen.findByTestId('server-bbb');
    await user.click(serverRow('bbb').getByTestId('server-show-resources'));
    await waitFor(() => expect(screen.getByTestId('nav-resources')).toHaveAttribute('aria-current', 'page'));
    expect(stores.inspectorServer.id).toBe('bbb');
  });
});
