// Issue 12, points 11 and 12a–e, in the real app: a refused form takes the
// user to its first problem; the dock toggle's label says where the results
// go and they go there; the Prompts tab opens on a server that has prompts;
// a relative link inside a markdown resource opens the linked resource; the
// default model is set in one place; the audit log is in the navigation,
// reached from a chat tool call, and its rows open by a click or Enter.
//
// Servers: our testserver (tools, resources, the greet prompt, the confirm
// tool that elicits) and the hostile server's "forms" mode (markdown
// resources linking to each other, no prompts).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default function ({ test, expect, startApp, openPage, waitConnected, track, root, work, shots, testServer, fakeLLM }) {
  const hostile = join(work, 'hostileserver');
  const buildHostile = () => {
    if (!existsSync(hostile)) execFileSync('go', ['build', '-o', hostile, './backend/mcppool/hostileserver'], { cwd: root, stdio: 'inherit' });
  };
  const servers = () => ({
    mcpServers: {
      docs: { command: hostile, args: ['--mode', 'forms', '--name', 'docs'] },
      demo: { command: testServer, args: ['--name', 'demo'] },
    },
  });

  // inView reports whether el's box lies inside the viewport and inside
  // every scrolling ancestor (what the user can see without scrolling).
  const inView = (locator) => locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (!/(auto|scroll|hidden)/.test(s.overflowY + s.overflowX)) continue;
      const b = p.getBoundingClientRect();
      if (r.top < b.top - 1 || r.bottom > b.bottom + 1) return false;
    }
    return true;
  });
  const focused = (page) => page.evaluate(() => {
    const a = document.activeElement;
    return a ? `${a.tagName.toLowerCase()}#${a.id}[${a.getAttribute('data-testid') ?? ''}]` : '';
  });

  // startFake runs the scripted fake LLM (backend/llm/llmtest/fakellm).
  async function startFake(turns, models = ['fake-1']) {
    const script = join(mkdtempSync(join(work, 'fn-fakellm-')), 'script.json');
    writeFileSync(script, JSON.stringify(turns));
    const proc = spawn(fakeLLM, ['--addr', '127.0.0.1:0', '--script', script, '--models', models.join(',')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = track(proc);
    const url = await new Promise((res, rej) => {
      let buf = '';
      const t = setTimeout(() => rej(new Error('fakellm did not listen within 10 s')), 10000);
      proc.stdout.on('data', (d) => {
        buf += d;
        const m = buf.match(/listening (\S+)/);
        if (m) { clearTimeout(t); res(m[1]); }
      });
      proc.on('exit', (code) => { clearTimeout(t); rej(new Error(`fakellm exited with ${code}`)); });
    });
    return { baseUrl: `${url}/v1`, stop };
  }
  async function addProvider(page, baseUrl) {
    await page.evaluate(async (baseUrl) => {
      const pm = window.go.providers.ProviderManager;
      const p = await pm.Save({ id: '', name: 'Fake', type: 'openai', preset: 'custom', baseUrl, keyEnv: '', azure: false, azureApiVersion: '', headers: {}, enabled: true });
      await pm.SetDefaultModel({ provider: p.id, model: 'fake-1' });
    }, baseUrl);
    await page.reload();
    await page.getByTestId('nav-servers').waitFor({ timeout: 15000 });
  }

  test('forms: a refused elicitation and a refused template form take the user to the empty required field (point 11)', async () => {
    buildHostile();
    const app = await startApp('fn-forms', servers());
    try {
      const { page, errors } = await openPage(app);
      await page.setViewportSize({ width: 900, height: 600 });
      await waitConnected(page, app, 'demo');
      // The confirm tool asks "Who is asking?" with a required name.
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('demo');
      await page.getByTestId('tool-item-confirm').click({ timeout: 20000 });
      await page.getByTestId('tool-run').click();
      const dlg = page.getByTestId('elicitation-dialog');
      await dlg.waitFor({ timeout: 15000 });
      await dlg.getByTestId('elicitation-accept').click();
      const name = dlg.getByTestId('schema-field-name').locator('input');
      await page.waitForFunction(() => document.activeElement?.closest('[data-testid="schema-field-name"]'), null, { timeout: 5000 })
        .catch(async () => { throw new Error(`after Accept with name empty the focus is on ${await focused(page)}, not the name field`); });
      expect((await name.getAttribute('aria-invalid')) === 'true', 'the name field is not marked invalid');
      const msg = dlg.getByTestId('schema-field-name').getByRole('alert');
      expect(/required/i.test(await msg.innerText()), `the message beside the field: ${await msg.innerText()}`);
      expect(await inView(msg), 'the message beside the name field is not in view');
      await page.screenshot({ path: join(shots, 'forms-elicitation-invalid.png') });
      // The tool asks a second question after the first: cancel both.
      for (let i = 0; i < 3 && (await dlg.count()) > 0; i++) {
        await dlg.getByTestId('elicitation-cancel').click().catch(() => {});
        await page.waitForTimeout(300);
      }
      await dlg.waitFor({ state: 'hidden', timeout: 5000 });

      // The resource template test://items/{id}: Read with id empty.
      await page.getByTestId('nav-resources').click();
      await page.getByTestId('inspector-server-select').selectOption('demo');
      await page.getByTestId('template-item-item').click({ timeout: 15000 });
      await page.getByTestId('template-read').click();
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'template-arg-id', null, { timeout: 5000 })
        .catch(async () => { throw new Error(`after Read with id empty the focus is on ${await focused(page)}`); });
      const err = page.getByTestId('template-arg-id-error');
      await err.waitFor({ timeout: 5000 });
      expect(await inView(err), 'the template field\'s message is not in view');
      expect(await page.getByTestId('resource-read-error').count() === 0, 'the template was read with its id empty');
      expect(errors.length === 0, `page errors: ${errors.join('; ')}`);
    } finally { await app.stop(); }
  });

  test('forms: the dock toggle says where the results go, and they go there (12a)', async () => {
    const app = await startApp('fn-dock', { mcpServers: { demo: { command: testServer, args: ['--name', 'demo'] } } });
    try {
      const { page } = await openPage(app);
      await waitConnected(page, app, 'demo');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tool-item-echo').click({ timeout: 20000 });
      const toggle = page.getByTestId('tool-dock-toggle');
      await toggle.waitFor({ timeout: 5000 });
      for (const [width, where] of [[1280, 'beside'], [900, 'below']]) {
        await page.setViewportSize({ width, height: 820 });
        if ((await toggle.getAttribute('aria-pressed')) === 'false') await toggle.click(); // docked again
        await page.waitForTimeout(200);
        const label = (await toggle.getAttribute('aria-label')) ?? '';
        await toggle.click();
        await page.getByTestId('tool-detail').getByTestId('tool-output').waitFor({ timeout: 5000 });
        const form = await page.locator('.input-col').boundingBox();
        const out = await page.getByTestId('tool-output').boundingBox();
        const beside = out.x >= form.x + form.width - 2 && out.y < form.y + form.height;
        const below = out.y >= form.y + form.height - 2;
        const labelSays = /beside/i.test(label) && !/below the form/i.test(label) ? 'beside' : /below the form/i.test(label) ? 'below' : `neither (${label})`;
        expect(labelSays === (beside ? 'beside' : below ? 'below' : 'elsewhere'),
          `at ${width} px the toggle said ${JSON.stringify(label)} but the results went ${beside ? 'beside' : below ? 'below' : 'elsewhere'} the form (form ${JSON.stringify(form)}, results ${JSON.stringify(out)})`);
        if (width === 1280) expect(beside, `at 1280 px the results are not beside the form: ${JSON.stringify({ form, out })}`);
        await page.screenshot({ path: join(shots, `forms-dock-${width}.png`) });
      }
    } finally { await app.stop(); }
  });

  test('forms: the Prompts tab opens on a server that has prompts, and says what to do on one without (12b)', async () => {
    buildHostile();
    const app = await startApp('fn-prompts', servers());
    try {
      const { page, errors } = await openPage(app);
      await waitConnected(page, app, 'docs');
      await waitConnected(page, app, 'demo');
      // The inspector's remembered server is the one without prompts.
      await page.evaluate(() => window.go.settings.Service.SaveUIState('inspector.server', 'docs'));
      await page.reload();
      await page.getByTestId('nav-prompts').waitFor({ timeout: 15000 });
      await page.getByTestId('nav-prompts').click();
      await page.getByTestId('prompt-item-greet').waitFor({ timeout: 15000 }).catch(async () => {
        throw new Error(`the Prompts tab opened on ${await page.getByTestId('inspector-server-select').inputValue()} and shows: ${(await page.locator('main, body').first().innerText()).slice(0, 400)}`);
      });
      expect((await page.getByTestId('inspector-server-select').inputValue()) === 'demo', 'the Prompts tab does not show demo');
      // Picking the server without prompts on purpose: it stays, and says what to do.
      await page.getByTestId('inspector-server-select').selectOption('docs');
      const none = page.getByTestId('prompts-none-offered');
      await none.waitFor({ timeout: 10000 });
      expect(await page.getByTestId('prompts-pick').count() === 0, '"Pick a prompt" is shown beside "offers no prompts"');
      await none.getByTestId('none-offered-pick').filter({ hasText: 'demo' }).click();
      await page.getByTestId('prompt-item-greet').waitFor({ timeout: 10000 });
      expect(errors.length === 0, `page errors: ${errors.join('; ')}`);
    } finally { await app.stop(); }
  });

  test('forms: a relative link in a markdown resource opens the linked resource (12c)', async () => {
    buildHostile();
    const app = await startApp('fn-links', servers());
    try {
      const { page, errors } = await openPage(app);
      await waitConnected(page, app, 'docs');
      await page.getByTestId('nav-resources').click();
      await page.getByTestId('inspector-server-select').selectOption('docs');
      await page.getByTestId('resource-item-docs://guide/README.md').click({ timeout: 15000 });
      const md = page.getByTestId('resource-markdown');
      await md.waitFor({ timeout: 10000 });
      await md.getByText('the structure').click();
      await page.getByTestId('resource-uri').filter({ hasText: 'docs://guide/structure.md' }).waitFor({ timeout: 10000 }).catch(async () => {
        throw new Error(`clicking "the structure" did not open structure.md; the URI shown is ${await page.getByTestId('resource-uri').innerText()}`);
      });
      await page.getByTestId('resource-markdown').filter({ hasText: 'Structure of the guide' }).waitFor({ timeout: 10000 });
      // Back by the keyboard: Tab to the link, Enter.
      const back = page.getByTestId('resource-markdown').getByText('README');
      await back.focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('resource-uri').filter({ hasText: 'docs://guide/README.md' }).waitFor({ timeout: 10000 });
      expect(page.url() === app.url, `the page left the app: ${page.url()}`);
      expect(errors.length === 0, `page errors: ${errors.join('; ')}`);
    } finally { await app.stop(); }
  });

  test('forms: the default model is set in one place, always visible and reachable by keyboard (12d)', async () => {
    const fake = await startFake([{ text: ['hi'] }], ['fake-1', 'fake-2']);
    const app = await startApp('fn-default', null, { keychain: true });
    try {
      const { page } = await openPage(app);
      await addProvider(page, fake.baseUrl);
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('provider-models-toggle').first().click({ timeout: 15000 });
      // fake-1 is the default; fake-2 is the one a second place would offer to make default.
      await page.getByTestId('provider-model-fake-2').waitFor({ timeout: 15000 });
      await page.getByTestId('provider-model-fake-2').hover();
      const setters = await page.getByTestId('provider-model-make-default').count();
      expect(setters === 0, `the model list still offers ${setters} "Make default" button(s): a second place to set the default`);
      expect(await page.getByTestId('settings-default-model-change').count() === 0, 'the Chat card still has its own default-model control');
      const select = page.getByTestId('default-model-select');
      expect(await select.isVisible(), 'the default model select is not visible');
      const opacity = await select.evaluate((el) => getComputedStyle(el).opacity);
      expect(opacity === '1', `the default model select has opacity ${opacity}`);
      // Keyboard: Tab reaches it.
      await page.getByTestId('picker-refresh').focus();
      let reached = false;
      for (let i = 0; i < 6 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'default-model-select');
      }
      expect(reached, 'Tab from the Default models card did not reach the default model select');
    } finally { await app.stop(); fake.stop(); }
  });

  test('forms: the audit log is in the navigation, a chat tool call links to its entry, rows open by click and Enter (12e)', async () => {
    const fake = await startFake([
      { toolCalls: [{ name: 'demo__echo', arguments: { message: 'audited' } }] },
      { text: ['Done: Echo: audited'] },
    ]);
    const app = await startApp('fn-audit', { mcpServers: { demo: { command: testServer, args: ['--name', 'demo'] } } }, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await addProvider(page, fake.baseUrl);
      await waitConnected(page, app, 'demo');
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('composer-input').fill('Echo something');
      await page.getByTestId('composer-input').press('Enter');
      const card = page.getByTestId('approval-card');
      await card.waitFor({ timeout: 20000 });
      await card.getByTestId('approval-run').click();
      await page.getByTestId('message-assistant').last().getByTestId('message-markdown').filter({ hasText: 'Done: Echo: audited' }).waitFor({ timeout: 20000 });
      const call = page.getByTestId('tool-call').first();
      await call.getByTestId('tool-call-toggle').click();
      await call.getByTestId('tool-call-audit').click({ timeout: 5000 });
      await page.getByTestId('audit-log').waitFor({ timeout: 10000 });
      expect((await page.getByTestId('nav-audit').getAttribute('aria-current')) === 'page', 'the navigation does not show the audit log as current');
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'audit-toggle' && !!document.activeElement.closest('[data-testid="audit-row"]'), null, { timeout: 10000 })
        .catch(async () => { throw new Error(`the call's audit row is not focused (focus: ${await focused(page)})`); });
      const row = page.getByTestId('audit-row').first();
      expect((await row.getByTestId('audit-toggle').getAttribute('aria-expanded')) === 'true', 'the call\'s audit row is not open');
      expect((await page.getByTestId('audit-arguments').first().innerText()).includes('audited'), 'the open row does not show the call\'s arguments');
      // Enter closes and opens it; a click on the row (not the chevron) too.
      await page.keyboard.press('Enter');
      await page.getByTestId('audit-detail').waitFor({ state: 'detached', timeout: 5000 });
      await row.getByTestId('audit-call').click();
      await page.getByTestId('audit-detail').waitFor({ timeout: 5000 });
      await page.screenshot({ path: join(shots, 'forms-audit.png') });
      // From elsewhere, the navigation item opens it.
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('nav-audit').click();
      await page.getByTestId('audit-log').waitFor({ timeout: 10000 });
      expect(errors.length === 0, `page errors: ${errors.join('; ')}`);
    } finally { await app.stop(); fake.stop(); }
  });
}
