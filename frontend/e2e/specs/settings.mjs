// Settings: the real keychain, 简体中文 and back, the theme across a restart.
// (Moved from run.mjs as they were; the harness is ../harness.mjs.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export default function (h) {
  const { root, shots, startApp, test, expect, openPage } = h;

  test('settings: the real keychain is reported available, and 简体中文 changes the interface', async () => {
    const app = await startApp('lang', null, { keychain: true });
    try {
      const { page } = await openPage(app);
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('about-keychain').filter({ hasText: 'Available' }).waitFor({ timeout: 15000 });
      await page.getByTestId('settings-language-zh-CN').click();
      await page.getByText('服务器').first().waitFor({ timeout: 5000 });
      await page.screenshot({ path: join(shots, 'settings-zh.png') });
    } finally { await app.stop(); }
  });

  test('settings: switching to 简体中文 translates the navigation and the settings, and back to English', async () => {
    const read = (f) => JSON.parse(readFileSync(join(root, 'frontend/src/lib/i18n', f), 'utf8'));
    const en = read('en.json');
    const zh = read('zh-CN.json');
    // Settings probes the keychain: a session of its own, or D-Bus autolaunches one that outlives the test.
    const app = await startApp('lang-switch', null, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await page.getByTestId('nav-settings').click();
      const nav = ['chat', 'servers', 'tools', 'resources', 'prompts', 'usage', 'settings'];
      const labels = async () => Object.fromEntries(await Promise.all(nav.map(async (n) => [n, (await page.getByTestId(`nav-${n}`).locator('.label').innerText()).trim()])));
      const heading = () => page.getByRole('heading', { level: 1 });
      const check = async (dict, lang) => {
        await heading().filter({ hasText: dict.settings.title }).waitFor({ timeout: 5000 }).catch(async () => {
          throw new Error(`${lang}: the settings heading says ${JSON.stringify(await heading().innerText())}, want ${dict.settings.title}`);
        });
        const got = await labels();
        for (const n of nav) expect(got[n] === dict.nav[n], `${lang}: nav-${n} says ${JSON.stringify(got[n])}, want ${JSON.stringify(dict.nav[n])}`);
        const theme = await page.getByTestId('settings-theme-dark').innerText();
        expect(theme.trim() === dict.settings.theme.dark, `${lang}: the Dark theme button says ${theme}`);
        expect((await page.evaluate(() => document.documentElement.lang)) === lang, `${lang}: <html lang> is ${await page.evaluate(() => document.documentElement.lang)}`);
      };
      await check(en, 'en');
      await page.getByTestId('settings-language-zh-CN').click();
      await check(zh, 'zh-CN');
      expect(zh.nav.servers !== en.nav.servers && zh.settings.title !== en.settings.title, 'zh-CN.json is not translated');
      await page.screenshot({ path: join(shots, 'settings-language-zh.png') });
      // Stored: a reload starts in Chinese. The page shows the choice at
      // once and stores it in the background; the reload waits until Go has
      // it, as the page it loads carries what Go has then.
      await page.waitForFunction(async () => (await window.go.settings.Service.Prefs()).language === 'zh-CN', null, { timeout: 5000 });
      // What the interface says when it first appears: Chinese, never
      // English for a moment while the Chinese strings load.
      await page.addInitScript(() => {
        new MutationObserver((_, obs) => {
          const label = document.querySelector('[data-testid="nav-servers"] .label');
          if (!label) return;
          window.firstServersLabel = label.textContent.trim();
          obs.disconnect();
        }).observe(document, { childList: true, subtree: true });
      });
      await page.reload();
      await page.getByTestId('nav-settings').waitFor({ timeout: 15000 });
      const first = await page.evaluate(() => window.firstServersLabel);
      expect(first === zh.nav.servers, `after a reload in 简体中文 the navigation first said ${JSON.stringify(first)}, want ${zh.nav.servers}`);
      await page.getByTestId('nav-settings').click();
      await check(zh, 'zh-CN');
      await page.getByTestId('settings-language-en').click();
      await check(en, 'en');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('settings: the chosen theme survives a restart, whatever the system prefers', async () => {
    const name = 'theme-restart';
    // openThemed opens the app in a page whose system colour scheme is the
    // opposite of want, and returns the theme the document has once it is
    // mounted, and the one it had at DOMContentLoaded. The saved
    // preferences come with the page (settings.InlinePrefs), so both are
    // the saved theme: the page never shows the system's first. (Before,
    // the page applied the system's theme at once and the saved one when a
    // call to Go answered, after DOMContentLoaded.)
    const openThemed = async (app, system, want) => {
      const init = () => document.addEventListener('DOMContentLoaded', () => (window.themeAtLoad = document.documentElement.dataset.theme ?? 'none'));
      const { page } = await openPage(app, { colorScheme: system, init });
      await page.waitForFunction((want) => document.documentElement.dataset.theme === want, want, { timeout: 5000 }).catch(() => {});
      return { page, theme: await page.evaluate(() => document.documentElement.dataset.theme), atLoad: await page.evaluate(() => window.themeAtLoad) };
    };
    for (const [want, system] of [['dark', 'light'], ['light', 'dark']]) {
      let app = await startApp(name, null, { keychain: true });
      try {
        const { page } = await openThemed(app, system, system);
        await page.getByTestId('nav-settings').click();
        await page.getByTestId(`settings-theme-${want}`).click();
        await page.waitForFunction((want) => document.documentElement.dataset.theme === want, want, { timeout: 5000 });
        await page.waitForFunction(async (want) => (await window.go.settings.Service.Prefs()).theme === want, want, { timeout: 5000 });
        await page.close();
      } finally { await app.stop(); }

      app = await startApp(name, null, { keychain: true });
      try {
        const { page, theme, atLoad } = await openThemed(app, system, want);
        expect(theme === want, `after a restart with ${want} chosen (system ${system}) the document is ${theme}`);
        expect(atLoad === want, `after a restart with ${want} chosen (system ${system}) the document was ${atLoad} at DOMContentLoaded`);
        const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        const [r, g, b] = bg.match(/\d+/g).map(Number);
        const lum = (r + g + b) / 3;
        expect(want === 'dark' ? lum < 100 : lum > 155, `${want} theme, but the page background is ${bg}`);
        await page.getByTestId('nav-settings').click();
        expect((await page.getByTestId(`settings-theme-${want}`).getAttribute('aria-checked')) === 'true', `settings-theme-${want} is not checked`);
        await page.screenshot({ path: join(shots, `settings-theme-${want}.png`) });
        await page.close();
      } finally { await app.stop(); }
    }
  });
}
