import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { go, renderApp } from '../../../test/app';
import { previewItem, shown, spec, type FakeOptions, type FakePreview } from '../../../test/fakes/fake';
import { WELCOME_SEEN } from '../../state/welcome.svelte';

const CLAUDE = '/home/dev/.config/Claude/claude_desktop_config.json';
const CURSOR = '/home/dev/.cursor/mcp.json';
const VSCODE = '/home/dev/.config/Code/User/mcp.json';

const DETECTED: FakeOptions['detected'] = [
  { client: 'claude', path: CLAUDE, servers: ['filesystem', 'memory'], error: '' },
  { client: 'cursor', path: CURSOR, servers: [], error: `${CURSOR}:3:18: unexpected end of JSON input` },
  { client: 'vscode', path: VSCODE, servers: [], error: '' },
];

const PREVIEW: FakePreview = {
  file: CLAUDE,
  format: 'claude',
  items: [
    previewItem({ id: 'filesystem', command: shown('npx'), args: [shown('-y'), shown('@modelcontextprotocol/server-filesystem'), shown('/home/dev')] }),
    previewItem({ id: 'memory', command: shown('npx'), args: [shown('-y'), shown('@modelcontextprotocol/server-memory')] }),
  ],
};

const OLLAMA: FakeOptions['providers'] = { ollama: { running: true, version: '0.12.3', url: 'http://localhost:11434' } };

/** firstRun renders the app as on first run and waits for the welcome. */
async function firstRun(o: FakeOptions = {}) {
  const r = renderApp({ firstRun: true, detected: DETECTED, preview: PREVIEW, ...o });
  const dialog = await screen.findByTestId('welcome');
  return { ...r, dialog, w: within(dialog) };
}

const configRow = (client: string) => screen.getAllByTestId('welcome-config').find((el) => el.dataset.client === client)!;

describe('Welcome (SPEC F6)', () => {
  it('lists the configs found, broken ones with their error, and shows a spinner while it looks', async () => {
    const { w, fake } = await firstRun({ detectDelayMs: 40 });
    expect(w.getByTestId('welcome-detecting')).toHaveTextContent('Looking for the MCP configs of Claude Desktop, Cursor, VS Code and Windsurf');
    await waitFor(() => expect(w.getAllByTestId('welcome-config')).toHaveLength(3));
    expect(w.queryByTestId('welcome-detecting')).toBeNull();
    expect(fake.callsOf('DetectConfigs')).toHaveLength(1);

    const claude = within(configRow('claude'));
    expect(claude.getByTestId('welcome-config-client')).toHaveTextContent('Claude Desktop');
    expect(claude.getByTestId('welcome-config-path')).toHaveTextContent(CLAUDE);
    expect(claude.getByTestId('welcome-config-servers')).toHaveTextContent('2 servers:');
    expect(claude.getByTestId('welcome-config-servers')).toHaveTextContent('filesystem');
    expect(claude.getByTestId('welcome-config-servers')).toHaveTextContent('memory');
    expect(claude.getByTestId('welcome-import')).toBeEnabled();

    const cursor = within(configRow('cursor'));
    expect(cursor.getByTestId('welcome-config-client')).toHaveTextContent('Cursor');
    expect(cursor.getByTestId('welcome-config-error')).toHaveTextContent('This file cannot be imported until it is fixed');
    expect(cursor.getByTestId('welcome-config-error')).toHaveTextContent(`${CURSOR}:3:18: unexpected end of JSON input`);
    expect(cursor.queryByTestId('welcome-import')).toBeNull();

    const vscode = within(configRow('vscode'));
    expect(vscode.getByTestId('welcome-config-empty')).toHaveTextContent('No MCP servers in this file yet.');
    expect(vscode.queryByTestId('welcome-import')).toBeNull();
  });

  it('imports a found file through the import preview, then Done leads on', async () => {
    const { w, fake, user } = await firstRun();
    await user.click(await within(await waitFor(() => configRow('claude'))).findByTestId('welcome-import'));

    const dialog = within(await screen.findByTestId('import-dialog'));
    expect(fake.callsOf('PreviewImport')).toEqual([[CLAUDE]]);
    expect(dialog.getByTestId('import-format')).toHaveTextContent('Claude Desktop');
    // The first-run import shows what each server runs, like any import.
    expect(within(dialog.getByTestId('import-item-filesystem')).getAllByTestId('import-arg').map((a) => a.textContent?.trim())).toEqual([
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '/home/dev',
    ]);
    await user.click(dialog.getByTestId('import-check-memory'));
    await user.click(dialog.getByTestId('import-confirm'));

    // The preview's token, not the path: the file is not read again.
    await waitFor(() => expect(fake.callsOf('Import')).toEqual([['fake-preview-1', ['filesystem']]]));
    await waitFor(() => expect(screen.queryByTestId('import-dialog')).toBeNull());
    expect(await screen.findByText('Imported: 1 added, 0 replaced')).toBeInTheDocument();
    // The welcome stays, marks the file, and knows which servers are now configured.
    expect(await within(configRow('claude')).findByTestId('welcome-config-imported')).toHaveTextContent('1 imported');
    await waitFor(() => expect(fake.callsOf('DetectConfigs')).toHaveLength(2));
    expect(w.queryByTestId('welcome-skip')).toBeNull();

    await user.click(w.getByTestId('welcome-done'));
    await waitFor(() => expect(screen.queryByTestId('welcome')).toBeNull());
    expect(fake.uiStore.get(WELCOME_SEEN)).toBe('1');
    // No model yet: to the servers just imported.
    expect(screen.getByTestId('nav-servers')).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByTestId('server-filesystem')).toBeInTheDocument();
  });

  it('says why a found file cannot be previewed', async () => {
    const { fake, user } = await firstRun();
    fake.failNext('PreviewImport', `read ${CLAUDE}: permission denied`);
    await user.click(await within(await waitFor(() => configRow('claude'))).findByTestId('welcome-import'));
    // Kept on screen until dismissed, in the welcome itself (issue 12).
    const report = await within(screen.getByTestId('welcome')).findByTestId('import-report');
    expect(report).toHaveTextContent(`Could not import ${CLAUDE}`);
    expect(report).toHaveTextContent('permission denied');
    expect(screen.queryByTestId('toast')).toBeNull();
    expect(screen.queryByTestId('import-dialog')).toBeNull();
    expect(screen.getByTestId('welcome')).toBeInTheDocument();
  });

  it('offers a running Ollama in one click, then Done goes to the chat', async () => {
    const { w, fake, user } = await firstRun({ providers: OLLAMA });
    const use = await w.findByTestId('welcome-use-ollama');
    expect(use).toHaveTextContent('Use Ollama at http://localhost:11434 (version 0.12.3)');
    await user.click(use);
    await waitFor(() => expect(fake.callsOf('providers.Save')).toHaveLength(1));
    expect(fake.callsOf('providers.Save')[0][0]).toMatchObject({ type: 'ollama', baseUrl: 'http://localhost:11434', name: 'Ollama' });
    expect(await w.findByTestId('welcome-providers')).toHaveTextContent('Set up: Ollama.');
    expect(w.queryByTestId('welcome-use-ollama')).toBeNull();

    await user.click(w.getByTestId('welcome-done'));
    await waitFor(() => expect(screen.queryByTestId('welcome')).toBeNull());
    expect(screen.getByTestId('nav-chat')).toHaveAttribute('aria-current', 'page');
    expect(fake.uiStore.get(WELCOME_SEEN)).toBe('1');
  });

  it('says Ollama is not running, and "Add a provider" opens Settings → Providers', async () => {
    const { w, fake, user } = await firstRun();
    expect(await w.findByTestId('welcome-no-ollama')).toHaveTextContent('Ollama is not running on this computer');
    expect(w.getByTestId('welcome-model')).toHaveTextContent('You do not need a provider to inspect servers');
    await user.click(w.getByTestId('welcome-add-provider'));
    await waitFor(() => expect(screen.queryByTestId('welcome')).toBeNull());
    expect(screen.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByTestId('providers-empty')).toBeInTheDocument();
    expect(fake.uiStore.get(WELCOME_SEEN)).toBe('1');
  });

  it('with nothing found, says what to do next', async () => {
    const { w, user } = await firstRun({ detected: [] });
    const none = await w.findByTestId('welcome-no-configs');
    expect(none).toHaveTextContent('No MCP config of Claude Desktop, Cursor, VS Code or Windsurf was found on this computer');
    expect(none).toHaveTextContent('drop a config file on this window');
    await user.click(w.getByTestId('welcome-open-servers'));
    await waitFor(() => expect(screen.queryByTestId('welcome')).toBeNull());
    expect(await screen.findByTestId('servers-empty')).toBeInTheDocument();
  });

  it('shows a failed search with Retry', async () => {
    const fake = renderApp({ firstRun: true, detected: DETECTED }).fake;
    fake.failNext('DetectConfigs', 'find home folder: $HOME is not defined');
    const w = within(await screen.findByTestId('welcome'));
    expect(await w.findByTestId('welcome-detect-error')).toHaveTextContent('find home folder: $HOME is not defined');
    await w.findByTestId('welcome-detect-retry').then((b) => b.click());
    await waitFor(() => expect(w.getAllByTestId('welcome-config')).toHaveLength(3));
    expect(w.queryByTestId('welcome-detect-error')).toBeNull();
  });

  it('Skip and Esc close it for good', async () => {
    const a = await firstRun();
    await a.user.click(a.w.getByTestId('welcome-skip'));
    await waitFor(() => expect(screen.queryByTestId('welcome')).toBeNull());
    expect(a.fake.callsOf('SaveUIState')).toContainEqual([WELCOME_SEEN, '1']);
    expect(screen.getByTestId('nav-servers')).toHaveAttribute('aria-current', 'page');
    a.unmount();

    const b = await firstRun();
    await waitFor(() => expect(document.activeElement?.closest('[data-testid="welcome"]')).not.toBeNull());
    await b.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('welcome')).toBeNull());
    expect(b.fake.uiStore.get(WELCOME_SEEN)).toBe('1');
  });

  it('does not open once seen, nor when servers are configured (and then counts as seen)', async () => {
    const seen = renderApp({ detected: DETECTED });
    await screen.findByTestId('servers-empty');
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('welcome')).toBeNull();
    expect(seen.fake.callsOf('DetectConfigs')).toEqual([]);
    seen.unmount();

    const withServers = renderApp({ firstRun: true, detected: DETECTED, servers: [spec({ id: 'everything', command: 'npx' })] });
    await screen.findByTestId('server-everything');
    await waitFor(() => expect(withServers.fake.uiStore.get(WELCOME_SEEN)).toBe('1'));
    expect(screen.queryByTestId('welcome')).toBeNull();
  });

  it('opens again from Settings and searches again', async () => {
    const { fake, user } = renderApp({ detected: DETECTED, servers: [spec({ id: 'memory', command: 'npx' })] });
    await go(user, 'settings');
    await user.click(await screen.findByTestId('settings-show-welcome'));
    const w = within(await screen.findByTestId('welcome'));
    await waitFor(() => expect(w.getAllByTestId('welcome-config')).toHaveLength(3));
    expect(fake.callsOf('DetectConfigs')).toHaveLength(1);
    // A server already configured is marked.
    const chip = within(configRow('claude')).getByText('memory');
    expect(chip).toHaveAttribute('title', 'Already in MCP Desk: importing it again replaces it');
  });

  it('speaks Chinese', async () => {
    const { w } = await firstRun({ prefs: { theme: 'system', language: 'zh-CN' } });
    await waitFor(() => expect(screen.getByTestId('welcome')).toHaveTextContent('欢迎使用 MCP Desk'));
    await waitFor(() => expect(within(configRow('claude')).getByTestId('welcome-config-servers')).toHaveTextContent('2 个服务器：'));
    expect(w.getByTestId('welcome-skip')).toHaveTextContent('跳过');
  });
});
