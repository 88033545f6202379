import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { renderApp, go } from '../../../test/app';
import { setSystemDark, installMatchMedia } from '../../../test/media';

describe('Settings', () => {
  it('switches the language live to Chinese and saves it', async () => {
    const { fake, user } = renderApp({});
    await go(user, 'settings');
    expect(screen.getByTestId('nav-servers')).toHaveTextContent('Servers');
    await user.click(screen.getByTestId('settings-language-zh-CN'));
    expect(screen.getByTestId('nav-servers')).toHaveTextContent('服务器');
    expect(screen.getByTestId('nav-settings')).toHaveTextContent('设置');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('设置');
    expect(document.documentElement.lang).toBe('zh-CN');
    await waitFor(() => expect(fake.callsOf('SavePrefs')).toEqual([[{ theme: 'system', language: 'zh-CN', quitOnClose: false, notifyOff: null }]]));

    await user.click(screen.getByTestId('settings-language-en'));
    expect(screen.getByTestId('nav-servers')).toHaveTextContent('Servers');
  });

  it('leads to usage, prices and the audit log', async () => {
    const { user } = renderApp({});
    await go(user, 'settings');
    await user.click(screen.getByTestId('settings-open-audit'));
    expect(screen.getByTestId('nav-audit')).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByTestId('audit-log', {}, { timeout: 5000 })).toBeInTheDocument();
    await go(user, 'settings');
    await user.click(screen.getByTestId('settings-open-prices'));
    await waitFor(() => expect(screen.getByTestId('usage-tab-prices')).toHaveAttribute('aria-selected', 'true'));
  });

  it('starts in the saved language', async () => {
    renderApp({ prefs: { theme: 'system', language: 'zh-CN' } });
    await waitFor(() => expect(screen.getByTestId('nav-chat')).toHaveTextContent('聊天'));
    expect(await screen.findByTestId('servers-empty')).toHaveTextContent('连接你的第一个 MCP 服务器');
  });

  it('follows the system language when set to System', async () => {
    const spy = vi.spyOn(navigator, 'language', 'get').mockReturnValue('zh-TW');
    renderApp({ prefs: { theme: 'system', language: '' } });
    await waitFor(() => expect(screen.getByTestId('nav-servers')).toHaveTextContent('服务器'));
    spy.mockReturnValue('de-DE');
    window.dispatchEvent(new Event('languagechange'));
    await waitFor(() => expect(screen.getByTestId('nav-servers')).toHaveTextContent('Servers'));
  });

  it('applies the theme at once and follows the system when set to System', async () => {
    installMatchMedia(true);
    const { fake, user } = renderApp({});
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    setSystemDark(false);
    expect(document.documentElement.dataset.theme).toBe('light');

    await go(user, 'settings');
    await user.click(screen.getByTestId('settings-theme-dark'));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(screen.getByTestId('settings-theme-dark')).toHaveAttribute('aria-checked', 'true');
    setSystemDark(false);
    expect(document.documentElement.dataset.theme).toBe('dark');
    await waitFor(() => expect(fake.callsOf('SavePrefs').at(-1)).toEqual([{ theme: 'dark', language: '', quitOnClose: false, notifyOff: null }]));

    await user.click(screen.getByTestId('settings-theme-light'));
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('rolls back and explains when saving a preference fails', async () => {
    const { fake, user } = renderApp({});
    await go(user, 'settings');
    fake.failNext('SavePrefs', 'open database: disk I/O error');
    await user.click(screen.getByTestId('settings-theme-dark'));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('open database: disk I/O error');
    expect(screen.getByTestId('settings-theme-system')).toHaveAttribute('aria-checked', 'true');
  });

  it('shows version, data folder, config file and database file', async () => {
    const { user } = renderApp({
      info: { version: '1.2.3', dataDir: '/data', configFile: '/data/mcp.config.json', databaseFile: '/data/mcpdesk.db' },
    });
    await go(user, 'settings');
    expect(await screen.findByTestId('about-version')).toHaveTextContent('1.2.3');
    expect(screen.getByTestId('about-data-dir')).toHaveTextContent('/data');
    expect(screen.getByTestId('about-config-file')).toHaveTextContent('/data/mcp.config.json');
    expect(screen.getByTestId('about-database-file')).toHaveTextContent('/data/mcpdesk.db');
  });

  it('says whether the OS keychain is available, and why not', async () => {
    const { user } = renderApp({ keychain: { available: false, reason: 'keychain unavailable: no Secret Service on D-Bus' } });
    await go(user, 'settings');
    const row = await screen.findByTestId('about-keychain');
    await waitFor(() => expect(row).toHaveTextContent('Unavailable: keychain unavailable: no Secret Service on D-Bus'));
    expect(row).toHaveTextContent('environment variables');
  });

  it('reports an available keychain', async () => {
    const { user } = renderApp({});
    await go(user, 'settings');
    await waitFor(() => expect(screen.getByTestId('about-keychain')).toHaveTextContent('Available'));
  });
  describe('Chat card', () => {
    it('loads and saves the step limit and the tool timeout', async () => {
      const { fake, user } = renderApp({});
      await go(user, 'settings');
      const steps = await screen.findByTestId('settings-max-steps');
      await waitFor(() => expect(steps).toHaveValue(10));
      const timeout = screen.getByTestId('settings-tool-timeout');
      expect(timeout).toHaveValue(60);

      await user.clear(steps);
      await user.type(steps, '25{Enter}');
      await waitFor(() => expect(fake.callsOf('chat.SaveSettings')).toEqual([[{ maxSteps: 25, toolTimeoutMs: 60000, approvalDefault: 'ask', toolSearch: 'auto' }]]));
      expect(await screen.findByText('Saved')).toBeInTheDocument();

      await user.clear(timeout);
      await user.type(timeout, '120');
      await user.tab();
      await waitFor(() => expect(fake.callsOf('chat.SaveSettings').at(-1)).toEqual([{ maxSteps: 25, toolTimeoutMs: 120000, approvalDefault: 'ask', toolSearch: 'auto' }]));
      expect(fake.chat.settings).toEqual({ maxSteps: 25, toolTimeoutMs: 120000, approvalDefault: 'ask', toolSearch: 'auto' });
    });

    it("shows Go's error when saving fails", async () => {
      const { fake, user } = renderApp({});
      await go(user, 'settings');
      const steps = await screen.findByTestId('settings-max-steps');
      await waitFor(() => expect(steps).toHaveValue(10));
      fake.failNext('chat.SaveSettings', 'chat settings: disk full');
      await user.clear(steps);
      await user.type(steps, '7{Enter}');
      expect(await screen.findByTestId('settings-max-steps-error')).toHaveTextContent('chat settings: disk full');
    });

    it('revokes an always-allowed tool', async () => {
      const { fake, user } = renderApp({
        chat: { policies: { alwaysAllow: [{ server: 'fs', tool: 'read_file' }], autoServers: ['git'], never: [] } },
      });
      await go(user, 'settings');
      const row = await screen.findByTestId('settings-policy-always-fs-read_file');
      expect(screen.getByTestId('settings-policy-server-git-')).toBeInTheDocument();
      await user.click(within(row).getByTestId('settings-policy-revoke'));
      await waitFor(() => expect(fake.callsOf('chat.RevokePolicy')).toEqual([['always', 'fs', 'read_file']]));
      await waitFor(() => expect(screen.queryByTestId('settings-policy-always-fs-read_file')).not.toBeInTheDocument());
      expect(screen.getByTestId('settings-policy-server-git-')).toBeInTheDocument();
    });

    it('says when no policy is remembered; the default model is not set here but in Default models', async () => {
      const { user } = renderApp({
        providers: { providers: [{ id: 'oa', name: 'OpenAI', preset: 'openai', keyInKeychain: true }], defaultModel: { provider: 'oa', model: 'gpt-4o' } },
      });
      await go(user, 'settings');
      expect(await screen.findByTestId('settings-policies-empty')).toHaveTextContent('No tool is allowed without asking.');
      await waitFor(() => expect(screen.getByTestId('default-model-select')).toHaveDisplayValue('gpt-4o'));
      expect(within(screen.getByTestId('settings-chat')).queryByTestId('settings-default-model')).toBeNull();
      expect(screen.queryByTestId('settings-default-model-change')).toBeNull();
    });

    it('speaks Chinese', async () => {
      const { user } = renderApp({ prefs: { theme: 'system', language: 'zh-CN' } });
      await waitFor(() => expect(screen.getByTestId('nav-settings')).toHaveTextContent('设置'));
      await go(user, 'settings');
      const card = await screen.findByTestId('settings-chat');
      expect(card).toHaveTextContent('智能体步数上限');
      expect(card).toHaveTextContent('工具调用超时');
      expect(await screen.findByTestId('settings-policies-empty')).toHaveTextContent('没有无需询问即可使用的工具');
    });
  });
  describe('Tool approval default', () => {
    it('starts at ask and saves "run read-only tools without asking"', async () => {
      const { fake, user } = renderApp({});
      await go(user, 'settings');
      const ask = await screen.findByTestId('settings-approval-ask');
      expect(ask).toHaveAttribute('aria-checked', 'true');
      expect(ask).toHaveTextContent('Ask before every tool call');
      const row = screen.getByTestId('settings-approval-default');
      expect(row).toHaveTextContent('destructive tools and tools without that hint always ask');

      await user.click(screen.getByTestId('settings-approval-read-only'));
      await waitFor(() =>
        expect(fake.callsOf('chat.SaveSettings')).toEqual([[{ maxSteps: 10, toolTimeoutMs: 60000, approvalDefault: 'readOnly', toolSearch: 'auto' }]]),
      );
      expect(fake.chat.settings.approvalDefault).toBe('readOnly');
      expect(screen.getByTestId('settings-approval-read-only')).toHaveAttribute('aria-checked', 'true');
      expect(within(row).getByRole('status')).toHaveTextContent('Saved');

      // Saving the step limit keeps the choice.
      const steps = screen.getByTestId('settings-max-steps');
      await user.clear(steps);
      await user.type(steps, '12{Enter}');
      await waitFor(() => expect(fake.chat.settings).toEqual({ maxSteps: 12, toolTimeoutMs: 60000, approvalDefault: 'readOnly', toolSearch: 'auto' }));

      // Tool search: auto by default, turned off here and kept with the rest.
      expect(screen.getByTestId('settings-tool-search-auto')).toHaveAttribute('aria-checked', 'true');
      await user.click(screen.getByTestId('settings-tool-search-off'));
      await waitFor(() => expect(fake.chat.settings).toEqual({ maxSteps: 12, toolTimeoutMs: 60000, approvalDefault: 'readOnly', toolSearch: 'off' }));
      expect(within(screen.getByTestId('settings-tool-search')).getByRole('status')).toHaveTextContent('Saved');
    });

    it('shows a stored read-only default, and Go\'s error when a save fails', async () => {
      const { fake, user } = renderApp({});
      fake.chat.settings = { maxSteps: 10, toolTimeoutMs: 60000, approvalDefault: 'readOnly', toolSearch: 'auto' };
      await go(user, 'settings');
      await waitFor(() => expect(screen.getByTestId('settings-approval-read-only')).toHaveAttribute('aria-checked', 'true'));
      fake.failNext('chat.SaveSettings', 'save chat settings: database is locked');
      await user.click(screen.getByTestId('settings-approval-ask'));
      expect(await screen.findByTestId('settings-approval-default-error')).toHaveTextContent('database is locked');
      expect(screen.getByTestId('settings-approval-read-only')).toHaveAttribute('aria-checked', 'true');
    });

    it('speaks Chinese', async () => {
      const { user } = renderApp({ prefs: { theme: 'system', language: 'zh-CN' } });
      await waitFor(() => expect(screen.getByTestId('nav-settings')).toHaveTextContent('设置'));
      await go(user, 'settings');
      expect(await screen.findByTestId('settings-approval-ask')).toHaveTextContent('每次调用工具前都询问');
      expect(screen.getByTestId('settings-approval-read-only')).toHaveTextContent('只读工具无需询问直接运行');
      expect(screen.getByTestId('settings-servers')).toHaveTextContent('默认服务器超时');
    });
  });

  describe('Server defaults', () => {
    it('loads the default server timeout and saves a new one', async () => {
      const { fake, user } = renderApp({});
      await go(user, 'settings');
      const input = await screen.findByTestId('settings-server-timeout');
      await waitFor(() => expect(input).toHaveValue(60));
      await user.clear(input);
      await user.type(input, '90{Enter}');
      await waitFor(() => expect(fake.callsOf('SaveDefaults')).toEqual([[{ timeoutMs: 90000 }]]));
      expect(fake.poolDefaults).toEqual({ timeoutMs: 90000 });
      expect(within(screen.getByTestId('settings-servers')).getByRole('status')).toHaveTextContent('Saved');
      // Leaving the field unchanged saves nothing.
      await user.click(input);
      await user.tab();
      expect(fake.callsOf('SaveDefaults')).toHaveLength(1);
    });

    it('refuses a value out of range before asking Go, and shows Go\'s error', async () => {
      const { fake, user } = renderApp({});
      await go(user, 'settings');
      const input = await screen.findByTestId('settings-server-timeout');
      await waitFor(() => expect(input).toHaveValue(60));
      await user.clear(input);
      await user.type(input, '90000{Enter}');
      expect(await screen.findByTestId('settings-server-timeout-error')).toHaveTextContent('from 1 to 86400');
      expect(fake.callsOf('SaveDefaults')).toHaveLength(0);

      fake.failNext('SaveDefaults', 'save server defaults: database is locked');
      await user.clear(input);
      await user.type(input, '30{Enter}');
      await waitFor(() => expect(screen.getByTestId('settings-server-timeout-error')).toHaveTextContent('database is locked'));
    });

    it('shows the default as the placeholder of a new server\'s timeout', async () => {
      const { fake, user } = renderApp({});
      fake.poolDefaults = { timeoutMs: 45000 };
      await user.click(await screen.findByTestId('add-server'));
      await user.click(screen.getByTestId('server-advanced'));
      await waitFor(() => expect(screen.getByTestId('server-timeout')).toHaveAttribute('placeholder', '45000'));
      expect(screen.getByTestId('server-form')).toHaveTextContent('Default 45 sec (set in Settings)');
    });
  });

  describe('About', () => {
    it('shows the version plainly and opens the data folder', async () => {
      const { fake, user } = renderApp({
        info: { version: '1.4.0', dataDir: '/data', configFile: '/data/mcp.config.json', databaseFile: '/data/mcpdesk.db' },
      });
      await go(user, 'settings');
      expect(await screen.findByTestId('about-app-version')).toHaveTextContent('MCP Desk 1.4.0');
      await user.click(screen.getByTestId('about-open-data-dir'));
      await waitFor(() => expect(fake.callsOf('OpenDataFolder')).toEqual([[]]));
    });

    it('says why the data folder could not be opened', async () => {
      const { fake, user } = renderApp({});
      fake.openFolderError = 'open the data folder: no file manager could be started: xdg-open was not found';
      await go(user, 'settings');
      await user.click(await screen.findByTestId('about-open-data-dir'));
      const toast = await screen.findByTestId('toast');
      expect(toast).toHaveTextContent('Could not open the data folder');
      expect(toast).toHaveTextContent('xdg-open was not found');
    });
  });
});
