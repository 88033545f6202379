// Issue 12, point 15 (second half): every flow of the issue can be done with
// the keyboard alone, with the focus always visible. The flows under test
// are driven only by page.keyboard (Tab, Shift+Tab, Enter, Space, arrows,
// Escape and the app's shortcuts); page.evaluate is used only to set up
// what a flow needs (a provider, an audit entry) and to read where the
// focus is. At every Tab stop the focus must be visible (its look changes
// when it blurs, as in a11y-layout's focusProblems), and after every action
// the focus must be somewhere, never dropped on <body>.
import { join } from 'node:path';

const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';

export default function ({ test, expect, startApp, openPage, shots, testServer, startFakeLLM }) {

  // Set-up only: a keyless provider at the fake LLM, its model the default.
  async function addProvider(page, url) {
    await page.evaluate(async (baseUrl) => {
      const pm = window.go.providers.ProviderManager;
      const p = await pm.Save({ id: '', name: 'Fake', type: 'openai', preset: 'custom', baseUrl, keyEnv: '', azure: false, azureApiVersion: '', headers: {}, enabled: true });
      await pm.SetDefaultModel({ provider: p.id, model: 'fake-1' });
    }, `${url}/v1`);
    await page.reload();
    await page.getByTestId('nav-servers').waitFor({ timeout: 15000 });
  }

  // focusNow describes the focused element and whether its focus shows:
  // its look (outline, shadow, border, background, colour, ::before/::after,
  // or a :focus-within box around it) differs from its look once blurred.
  // The blur and focus happen in one task, so nothing reacts to them.
  const focusNow = (page, check = true) => page.evaluate((check) => {
    const el = document.activeElement;
    if (!(el instanceof HTMLElement) || el === document.body) return null;
    const id = el.getAttribute('data-testid');
    const labelled = el.getAttribute('aria-labelledby');
    const accName = (el.getAttribute('aria-label') ||
      (labelled ? labelled.split(/\s+/).map((i) => document.getElementById(i)?.textContent || '').join(' ') : '') ||
      (el.labels?.[0]?.textContent) || el.getAttribute('placeholder') || el.getAttribute('title') ||
      (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? '' : el.textContent) || '').trim().replace(/\s+/g, ' ');
    const info = { testid: id, name: accName.slice(0, 60), tag: el.tagName.toLowerCase(), role: el.getAttribute('role'),
      desc: `${el.tagName.toLowerCase()}${id ? `[${id}]` : ''} "${accName.slice(0, 40)}"`, shows: true };
    if (!check) return info;
    const settle = () => document.getAnimations().forEach((a) => { try { a.finish(); } catch { /* endless */ } });
    const look = () => {
      settle();
      const cs = getComputedStyle(el);
      const pseudo = ['::before', '::after'].map((p) => { const ps = getComputedStyle(el, p); return `${ps.content}|${ps.backgroundColor}|${ps.outlineStyle}|${ps.boxShadow}|${ps.borderColor}`; });
      const around = [el.parentElement, el.parentElement?.parentElement].filter(Boolean).map((a) => {
        const as = getComputedStyle(a);
        return `${as.outlineStyle}|${as.outlineColor}|${as.boxShadow}|${as.borderColor}|${as.backgroundColor}`;
      });
      return [cs.outlineStyle, cs.outlineWidth, cs.outlineColor, cs.boxShadow, cs.borderColor, cs.backgroundColor, cs.color, cs.textDecorationLine, ...pseudo, ...around].join(';');
    };
    const focused = look();
    el.blur();
    const blurred = look();
    el.focus({ preventScroll: true });
    info.shows = focused !== blurred;
    return info;
  }, check);

  // keyboard returns the helpers of one page; problems collects the stops
  // whose focus did not show, reported at the end of the test.
  function keyboard(page) {
    const problems = [];
    const matches = async (info, want) => {
      if (!info) return false;
      if (typeof want === 'string') return info.testid === want;
      if (want instanceof RegExp) return want.test(info.name);
      return !!(await want(info));
    };
    const seen = (info) => { if (info && !info.shows) problems.push(`focus not visible on ${info.desc}`); };
    return {
      problems,
      // tabTo presses Tab (Shift+Tab with back) until the focus is on what
      // want names (a data-testid, a RegExp of the accessible name, or a
      // predicate of focusNow's description); within, if set, is a selector
      // the focused element must be inside.
      async tabTo(want, { back = false, max = 60, within } = {}) {
        const ok = async (info) => (await matches(info, want)) &&
          (!within || await page.evaluate((sel) => !!document.activeElement?.closest(sel), within));
        let info = await focusNow(page, false);
        if (await ok(info)) return info;
        const stops = [];
        for (let i = 0; i < max; i++) {
          await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
          info = await focusNow(page);
          seen(info);
          stops.push(info ? info.desc : '<body>');
          if (await ok(info)) return info;
        }
        throw new Error(`${back ? 'Shift+Tab' : 'Tab'} did not reach ${want}${within ? ` in ${within}` : ''} in ${max} stops: ${stops.join(' → ')}`);
      },
      // focusIs checks where the focus is after an action, and that it shows.
      async focusIs(want, what) {
        const info = await focusNow(page);
        expect(info !== null, `${what}: the focus was dropped on <body>`);
        seen(info);
        if (want) expect(await matches(info, want), `${what}: the focus is on ${info.desc}, want ${want}`);
        return info;
      },
      // waitFocus waits until the focus is on want (an action that moves it
      // when something has loaded).
      async waitFocus(want, what, ms = 10000) {
        const end = Date.now() + ms;
        let info = null;
        while (Date.now() < end) {
          info = await focusNow(page, false);
          if (await matches(info, want)) return this.focusIs(want, what);
          await page.waitForTimeout(100);
        }
        throw new Error(`${what}: the focus is on ${info ? info.desc : '<body>'}, want ${want}`);
      },
    };
  }

  test('keyboard: add a server (Save focuses the empty required field), open its detail and close it with Escape', async () => {
    const app = await startApp('keys-servers');
    try {
      const { page, errors } = await openPage(app);
      const k = keyboard(page);
      await k.tabTo('nav-servers');
      await page.keyboard.press('Enter');
      await k.tabTo('add-server');
      await page.keyboard.press('Enter');
      const dlg = page.getByRole('dialog');
      await dlg.waitFor({ timeout: 5000 });
      await k.focusIs('server-id', 'the server form opened');
      // The id is left empty: Save must bring the focus back to it.
      await k.tabTo('server-command');
      await page.keyboard.type(testServer);
      await k.tabTo('save-server');
      await page.keyboard.press('Enter');
      await k.waitFocus('server-id', 'Save with the id empty', 5000);
      expect((await page.getByTestId('server-id').getAttribute('aria-invalid')) === 'true', 'the empty id is not marked invalid');
      await page.keyboard.type('kbd');
      await k.tabTo('save-server');
      await page.keyboard.press('Enter');
      await dlg.waitFor({ state: 'hidden', timeout: 20000 });
      await k.focusIs(null, 'the server form closed');
      await page.getByTestId('server-kbd').getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });

      // The row opens its detail from the keyboard; Escape closes it and
      // the focus is back on the row's opener.
      await k.tabTo('server-open', { within: '[data-testid="server-kbd"]' });
      await page.keyboard.press('Enter');
      const detail = page.getByTestId('server-detail');
      await detail.waitFor({ timeout: 5000 });
      await detail.getByTestId('detail-capabilities').waitFor({ timeout: 5000 });
      await k.focusIs((i) => true, 'the detail opened');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="server-detail"]')), 'the focus is not in the detail view');
      await page.screenshot({ path: join(shots, 'keyboard-server-detail.png') });
      await page.keyboard.press('Escape');
      await detail.waitFor({ state: 'hidden', timeout: 5000 });
      await k.focusIs('server-open', 'the detail closed with Escape');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="server-kbd"]')), 'the focus went back to another row');
      expect(k.problems.length === 0, k.problems.join('\n'));
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('keyboard: pick a tool from the list, fill its argument, run it, reach the result; walk the logger', async () => {
    const app = await startApp('keys-tools', { mcpServers: { demo: { command: testServer } } });
    try {
      const { page, errors } = await openPage(app);
      const k = keyboard(page);
      await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      await k.tabTo('nav-tools');
      await page.keyboard.press('Enter');
      await page.getByTestId('tool-item-echo').waitFor({ timeout: 10000 });
      // Into the list, then down the rows with the arrow keys.
      await k.tabTo((i) => /^tool-item-/.test(i.testid ?? ''));
      for (let i = 0; i < 30 && (await focusNow(page, false))?.testid !== 'tool-item-echo'; i++) await page.keyboard.press('ArrowDown');
      await k.focusIs('tool-item-echo', 'ArrowDown through the tools');
      await page.keyboard.press('Enter');
      await page.getByTestId('tool-item-echo').and(page.locator('[aria-current="true"]')).waitFor({ timeout: 5000 });
      const field = (i) => i.tag === 'input' || i.tag === 'textarea';
      await k.tabTo((i) => field(i) && /message/i.test(i.name + ' ' + (i.testid ?? '')), { max: 30 }).catch(async () =>
        k.tabTo(async () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="schema-field-message"]'))));
      await page.keyboard.type('typed with keys');
      await k.tabTo('tool-run');
      await page.keyboard.press('Enter');
      const result = page.getByTestId('tool-result');
      await result.filter({ hasText: 'typed with keys' }).waitFor({ timeout: 10000 });
      await k.focusIs(null, 'the tool ran');
      // The result is reachable: Tab gets into it.
      await k.tabTo(async () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="tool-result"]')), { max: 30 });
      await page.screenshot({ path: join(shots, 'keyboard-tool-result.png') });

      // The logger: its shortcut opens it, Tab reaches its list, the arrows
      // move between entries and the detail follows.
      await page.keyboard.press(`${MOD}+j`);
      const panel = page.getByTestId('logger-panel');
      await panel.waitFor({ timeout: 5000 });
      await k.tabTo((i) => i.role === 'listbox', { max: 40 });
      await page.keyboard.press('Home');
      const selected = () => panel.locator('[data-testid="rpc-row"][aria-selected="true"]').getAttribute('data-seq');
      const first = await selected();
      expect(first !== null, 'Home selects no entry');
      await page.keyboard.press('ArrowDown');
      const second = await selected();
      expect(second !== null && second !== first, `ArrowDown stays on entry ${first}`);
      await page.getByTestId('rpc-explain').or(page.getByTestId('rpc-payload')).first().waitFor({ timeout: 5000 });
      await page.keyboard.press('ArrowUp');
      expect((await selected()) === first, 'ArrowUp does not go back');
      await k.focusIs((i) => i.role === 'listbox', 'moving between entries');
      const active = await page.evaluate(() => document.activeElement?.getAttribute('aria-activedescendant'));
      expect(active === `rpc-${first}`, `the list's aria-activedescendant is ${active}, the selected entry is rpc-${first}`);
      await page.screenshot({ path: join(shots, 'keyboard-logger.png') });
      expect(k.problems.length === 0, k.problems.join('\n'));
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('keyboard: Resources and Prompts tabs — pick an item from the list, read it, get a prompt', async () => {
    const app = await startApp('keys-inspector', { mcpServers: { demo: { command: testServer } } });
    try {
      const { page, errors } = await openPage(app);
      const k = keyboard(page);
      await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      await k.tabTo('nav-resources');
      await page.keyboard.press('Enter');
      await page.getByTestId('resource-item-test://hello').waitFor({ timeout: 10000 });
      await k.tabTo((i) => /^resource-item-/.test(i.testid ?? ''));
      for (let i = 0; i < 10 && (await focusNow(page, false))?.testid !== 'resource-item-test://hello'; i++) await page.keyboard.press('ArrowDown');
      await k.focusIs('resource-item-test://hello', 'ArrowDown through the resources');
      await page.keyboard.press('Enter');
      await page.getByTestId('resource-content').waitFor({ timeout: 10000 });
      await k.focusIs(null, 'the resource was read');

      await k.tabTo('nav-prompts', { back: true });
      await page.keyboard.press('Enter');
      await page.getByTestId('prompt-item-greet').waitFor({ timeout: 10000 });
      await k.tabTo('prompt-item-greet');
      await page.keyboard.press('Enter');
      await k.tabTo((i) => /^prompt-arg-/.test(i.testid ?? ''));
      await page.keyboard.type('Ada');
      await k.tabTo('prompt-get');
      await page.keyboard.press('Enter');
      await page.getByTestId('prompt-messages').filter({ hasText: 'Ada' }).waitFor({ timeout: 10000 });
      await k.focusIs(null, 'the prompt was got');
      expect(k.problems.length === 0, k.problems.join('\n'));
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('keyboard: chat — send, approve the tool call, regenerate, switch versions ‹ ›, stop a stream', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i} `);
    const llm = await startFakeLLM([
      { toolCalls: [{ name: 'demo__echo', arguments: { message: 'from the model' } }] },
      { text: ['First answer ', 'alpha.'] },
      { text: ['Second answer ', 'beta.'] },
      { text: words, delayMs: 40 },
    ]);
    const app = await startApp('keys-chat', { mcpServers: { demo: { command: testServer } } }, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await addProvider(page, llm.url);
      const k = keyboard(page);
      await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      // A new chat from its shortcut puts the focus in the composer.
      await page.keyboard.press(`${MOD}+n`);
      await page.getByTestId('chat-screen').waitFor({ timeout: 10000 });
      await k.waitFocus('composer-input', 'Ctrl+N');
      await page.keyboard.type('Echo something.');
      await page.keyboard.press('Enter');

      // The approval card: its Run button is reached and pressed.
      const card = page.getByTestId('approval-card');
      await card.waitFor({ timeout: 20000 });
      await k.tabTo('approval-run', { back: true, max: 30 });
      await page.keyboard.press('Enter');
      const reply = page.getByTestId('message-assistant').last();
      const markdown = reply.getByTestId('message-markdown');
      const position = reply.getByTestId('answer-version-position');
      await markdown.filter({ hasText: 'First answer alpha.' }).waitFor({ timeout: 20000 });
      await page.getByTestId('composer-send').waitFor({ timeout: 20000 });
      await k.focusIs(null, 'the tool call was approved and the answer came');
      expect((await page.getByTestId('tool-call').first().getAttribute('data-status')) === 'done', 'the approved call did not run');

      // Regenerate, from the composer backwards.
      await k.tabTo('composer-input');
      await k.tabTo('message-regenerate', { back: true, max: 30 });
      await page.keyboard.press('Enter');
      await markdown.filter({ hasText: 'Second answer beta.' }).waitFor({ timeout: 20000 });
      await position.filter({ hasText: '2 / 2' }).waitFor({ timeout: 10000 });
      await page.getByTestId('composer-send').waitFor({ timeout: 20000 });
      await k.focusIs(null, 'the answer was regenerated');

      // ‹ and › switch the versions; the focus stays on the switcher.
      await k.tabTo('answer-version-previous', { back: true, max: 30 }).catch(() => k.tabTo('answer-version-previous', { max: 30 }));
      await page.keyboard.press('Enter');
      await markdown.filter({ hasText: 'First answer alpha.' }).waitFor({ timeout: 10000 });
      await position.filter({ hasText: '1 / 2' }).waitFor({ timeout: 10000 });
      await k.focusIs('answer-version-next', '‹ reached the first version');
      await page.keyboard.press('Enter');
      await position.filter({ hasText: '2 / 2' }).waitFor({ timeout: 10000 });
      await k.focusIs('answer-version-previous', '› reached the last version');

      // Regenerate again and stop the stream with its shortcut.
      await k.tabTo('message-regenerate', { max: 30 }).catch(() => k.tabTo('message-regenerate', { back: true, max: 30 }));
      await page.keyboard.press('Enter');
      await markdown.filter({ hasText: 'word20' }).waitFor({ timeout: 20000 });
      await k.focusIs(null, 'the regeneration streams');
      await page.keyboard.press('Escape');
      await page.locator('[data-testid="message-assistant"][data-status="interrupted"]').waitFor({ timeout: 10000 });
      await position.filter({ hasText: '3 / 3' }).waitFor({ timeout: 10000 });
      expect(!(await markdown.innerText()).includes('word399'), 'Escape did not stop the stream');
      await k.focusIs(null, 'the stream was stopped');
      await page.screenshot({ path: join(shots, 'keyboard-chat.png') });
      expect(k.problems.length === 0, k.problems.join('\n'));
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); llm.stop(); }
  });

  test('keyboard: Settings → Providers, Test a provider and reach its verdict; open an audit log row with Enter', async () => {
    const llm = await startFakeLLM([{ text: ['ok'] }]);
    const app = await startApp('keys-settings', { mcpServers: { demo: { command: testServer } } }, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await addProvider(page, llm.url);
      const k = keyboard(page);
      await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      // Set-up: one tool call, for the audit log.
      await page.evaluate(() => window.go.mcppool.MCPPool.CallTool({ callId: 'keys-1', server: 'demo', tool: 'echo', arguments: { message: 'for the audit' } }));

      await page.keyboard.press(`${MOD}+,`);
      await page.getByTestId('settings-providers').waitFor({ timeout: 10000 });
      await k.tabTo('provider-test', { max: 40 });
      await page.keyboard.press('Enter');
      const verdict = page.getByTestId('provider-test-result');
      await verdict.and(page.locator('[data-state="ok"], [data-state="error"]')).waitFor({ timeout: 20000 });
      await k.focusIs(null, 'the provider test finished');
      // The verdict is reached: Tab goes into it (its dismiss button).
      await k.tabTo(async () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="provider-test-result"]')), { max: 10 });
      await page.screenshot({ path: join(shots, 'keyboard-provider-test.png') });

      // The audit log from the navigation; a row opens with Enter.
      await k.tabTo('nav-audit', { back: true, max: 60 });
      await page.keyboard.press('Enter');
      await page.getByTestId('audit-log').waitFor({ timeout: 10000 });
      await k.tabTo('audit-toggle', { max: 40 });
      await page.keyboard.press('Enter');
      await page.getByTestId('audit-detail').filter({ hasText: 'for the audit' }).waitFor({ timeout: 5000 });
      await k.focusIs('audit-toggle', 'the audit row opened');
      expect((await page.getByTestId('audit-row').first().getByTestId('audit-toggle').getAttribute('aria-expanded')) === 'true', 'the open row\'s button does not say aria-expanded');
      await page.keyboard.press('Enter');
      await page.getByTestId('audit-detail').waitFor({ state: 'hidden', timeout: 5000 });
      await page.screenshot({ path: join(shots, 'keyboard-audit.png') });
      expect(k.problems.length === 0, k.problems.join('\n'));
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); llm.stop(); }
  });
}
