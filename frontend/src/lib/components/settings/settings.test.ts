import { screen, waitFor } from '@testing-library/svelte';
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
    await waitFor(() => expect(fake.callsOf('SavePrefs')).toEqual([[{ theme: 'system', language: 'zh-CN' }]]));

    await user.click(screen.getByTestId('settings-language-en'));
    expect(screen.getByTestId('nav-servers')).toHaveTextContent('Servers');
  });

  it('leads to usage, prices and the audit log', async () => {
    const { user } = renderApp({});
    await go(user, 'settings');
    await user.click(screen.getByTestId('settings-open-audit'));
    expect(screen.getByTestId('nav-usage')).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByTestId('audit-log')).toBeInTheDocument();
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
    await waitFor(() => expect(fake.callsOf('SavePrefs').at(-1)).toEqual([{ theme: 'dark', language: '' }]));

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
});
