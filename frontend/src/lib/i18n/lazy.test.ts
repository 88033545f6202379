// Chinese is not in the first bundle: it loads when chosen, and the window
// keeps its language until the strings are there (never a mix).

import { describe, expect, it, vi } from 'vitest';

describe('lazy locale tables', () => {
  it('switches to Chinese once its strings have loaded', async () => {
    vi.resetModules(); // a fresh i18n, as at start-up: English only
    const i18n = await import('./index');
    i18n.setLocale('en');
    expect(i18n.t('nav.servers')).toBe('Servers');
    i18n.setLocale('zh-CN');
    // Not loaded yet: still English, and the page says so.
    expect(i18n.t('nav.servers')).toBe('Servers');
    expect(document.documentElement.lang).toBe('en');
    await vi.waitFor(() => expect(i18n.t('nav.servers')).toBe('服务器'));
    expect(document.documentElement.lang).toBe('zh-CN');
  });

  it('says when the language chosen last is shown', async () => {
    vi.resetModules();
    const i18n = await import('./index');
    await i18n.localeSettled(); // English: nothing to wait for
    i18n.setLocale('zh-CN');
    expect(i18n.t('nav.servers')).toBe('Servers');
    await i18n.localeSettled();
    expect(i18n.t('nav.servers')).toBe('服务器');
    expect(document.documentElement.lang).toBe('zh-CN');
    i18n.setLocale('en');
    await i18n.localeSettled();
    expect(i18n.t('nav.servers')).toBe('Servers');
  });

  it('stays on the language chosen last when a table arrives late', async () => {
    vi.resetModules();
    const i18n = await import('./index');
    i18n.setLocale('zh-CN');
    i18n.setLocale('en'); // changed before Chinese arrived
    await i18n.loadLocale('zh-CN');
    await Promise.resolve();
    expect(i18n.t('nav.servers')).toBe('Servers');
  });

  it('formats compiled messages in the language they were found in', async () => {
    vi.resetModules();
    const i18n = await import('./index');
    i18n.setLocale('zh-CN');
    await vi.waitFor(() => expect(i18n.t('nav.servers')).toBe('服务器'));
    // A plural from the Chinese table, by Chinese rules ("other" only).
    expect(i18n.t('tools.summary', { count: 1 })).toBe('1 个工具');
    i18n.setLocale('en');
    expect(i18n.t('tools.summary', { count: 1 })).toBe('1 tool');
  });
});
