// Chat: a full turn with approvals, Stop keeps the partial reply, quick chat from a second launch.
// (Moved from run.mjs as they were; the harness is ../harness.mjs.)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export default function (h) {
  const { root, devBin, shots, testServer, everything, startApp, test, expect, openPage, waitConnected, startFakeLLM, addFakeProvider, MARKDOWN_ANSWER, chunked } = h;

  test('chat: a full turn with approvals (real UI)', async () => {
    const apiKey = 'sk-e2e-TYPED-in-the-UI-31337';
    const fake = await startFakeLLM([
      {
        toolCalls: [
          { name: 'everything__echo', arguments: { message: 'hello from the model' }, fragments: 4 },
          { name: 'everything__get-sum', arguments: { a: 2, b: 3 }, fragments: 3 },
        ],
        interleave: true,
      },
      { text: chunked(MARKDOWN_ANSWER), delayMs: 4 },
    ]);
    const app = await startApp('chat-turn', { mcpServers: { everything: { command: 'node', args: [everything, 'stdio'] } } }, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await waitConnected(page, app, 'everything');

      // Settings → Providers → Add → Custom (OpenAI-compatible), the key typed in.
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('settings-providers').waitFor({ timeout: 10000 });
      await page.locator('[data-testid="providers-empty-add"], [data-testid="provider-add"]').first().click();
      const form = page.getByTestId('provider-form');
      await form.getByTestId('preset-custom').click();
      await form.getByTestId('provider-name').fill('Fake');
      await form.getByTestId('provider-base-url').fill(fake.baseUrl);
      await form.getByTestId('provider-key-mode-keychain').click();
      await form.getByTestId('provider-api-key').fill(apiKey);
      await form.getByTestId('provider-save').click();
      await form.waitFor({ state: 'hidden', timeout: 10000 }).catch(async () => {
        throw new Error(`the provider form stayed open: ${(await form.innerText()).replace(/\s+/g, ' ').slice(0, 400)}`);
      });
      const row = page.locator('[data-testid^="provider-row-"]').first();
      await row.waitFor({ timeout: 10000 });
      // A provider added with a key is tested at once: "Not tested yet" until
      // the Test answers, then "Ready" because the fake accepted the key.
      await row.getByTestId('provider-status').and(page.locator('[data-state="ready"]')).waitFor({ timeout: 15000 }).catch(async () => {
        throw new Error(`the new provider's status: ${await row.getByTestId('provider-status').getAttribute('data-state')}`);
      });
      expect((await row.getByTestId('provider-key').getAttribute('data-source')) === 'keychain', 'the key is not reported as in the keychain');
      const providerId = (await row.getAttribute('data-testid')).slice('provider-row-'.length);

      // The default model, from the list the fake serves.
      const select = page.getByTestId('default-model-select');
      const want = `${providerId}\nfake-1`;
      await page.waitForFunction((want) => [...document.querySelectorAll('[data-testid="default-model-select"] option')].some((o) => o.value === want),
        want, { timeout: 15000 }).catch(async () => {
        throw new Error(`fake-1 is not offered as default model: ${await select.innerText().catch(() => '?')}`);
      });
      await select.selectOption(want);
      await page.waitForFunction(async () => {
        const d = await window.go.providers.ProviderManager.DefaultModel();
        return d && d.model === 'fake-1';
      }, null, { timeout: 5000 });

      // Chat → type → Send.
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('chat-screen').waitFor({ timeout: 10000 });
      const picked = await page.getByTestId('model-picker').inputValue();
      expect(picked === want, `the composer's model is ${JSON.stringify(picked)}, want the default ${JSON.stringify(want)}`);
      await page.getByTestId('composer-input').fill('Echo a greeting and add 2 and 3, then show me some Go.');
      await page.getByTestId('composer-send').click();

      // Two approval cards: run echo once, cancel get-sum.
      const cards = page.getByTestId('approval-card');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="approval-card"]').length === 2, null, { timeout: 20000 })
        .catch(async () => { throw new Error(`want 2 approval cards, got ${await cards.count()}; log: ${fake.log.join('').slice(-500)}`); });
      await page.screenshot({ path: join(shots, 'chat-approvals.png') });
      const echoCard = cards.filter({ hasText: /›\s*echo\b/ });
      const sumCard = cards.filter({ hasText: /›\s*get-sum\b/ });
      expect((await echoCard.count()) === 1 && (await sumCard.count()) === 1, 'the cards do not name echo and get-sum');
      expect((await echoCard.getByTestId('approval-policy').inputValue()) === 'once', 'the policy does not start at once');
      const shownArg = await echoCard.getByTestId('schema-field-message').locator('input, textarea').first().inputValue();
      expect(shownArg === 'hello from the model', `the echo card shows message=${JSON.stringify(shownArg)}`);
      await echoCard.getByTestId('approval-run').click();
      await sumCard.getByTestId('approval-cancel').click();

      // The reply streams and completes.
      const reply = page.getByTestId('message-assistant').last();
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'Anything else?' })
        .waitFor({ timeout: 30000 }).catch(async () => {
          throw new Error(`no complete reply; the last one says status=${await reply.getAttribute('data-status').catch(() => '?')}: ${(await reply.innerText().catch(() => '')).replace(/\s+/g, ' ').slice(0, 300)}`);
        });

      // Tool blocks: echo done (its result shown when unfolded), get-sum declined.
      const calls = page.getByTestId('tool-call');
      const echoCall = calls.filter({ hasText: /›\s*echo/ }).first();
      const sumCall = calls.filter({ hasText: /›\s*get-sum/ }).first();
      expect((await echoCall.getAttribute('data-status')) === 'done', `echo is ${await echoCall.getAttribute('data-status')}`);
      expect((await sumCall.getAttribute('data-status')) === 'declined', `get-sum is ${await sumCall.getAttribute('data-status')}`);
      await echoCall.getByTestId('tool-call-toggle').click();
      await echoCall.getByTestId('tool-call-result').filter({ hasText: 'hello from the model' }).waitFor({ timeout: 5000 });

      // The markdown rendered: heading, list items, highlighted Go with a copy button, a table.
      const md = reply.getByTestId('message-markdown');
      expect((await md.locator('h2').innerText()).includes('The results are in'), 'no h2 heading');
      expect((await md.locator('li').count()) >= 3, `list items: ${await md.locator('li').count()}`);
      const code = md.locator('pre code.language-go');
      await code.waitFor({ timeout: 5000 });
      // Highlighted in a worker, off the window's main thread (codeHighlight.ts); the spans come a moment after the block.
      await code.locator('span[class^="hljs-"]').nth(2).waitFor({ timeout: 5000 });
      expect(page.workers().some((w) => /highlight\.worker/.test(w.url())), `no highlight worker: ${page.workers().map((w) => w.url()).join(', ')}`);
      expect((await code.innerText()).includes('fmt.Println(2 + 3)'), 'the code block lost its text');
      expect((await md.getByTestId('code-copy').count()) === 1, 'no copy button on the code block');
      expect((await md.locator('table th').count()) === 3 && (await md.locator('table tbody tr').count()) === 2, 'the table is not rendered');
      // The screenshot shows the whole answer: echo folded again, scrolled to the end.
      await echoCall.getByTestId('tool-call-toggle').click();
      await page.getByTestId('chat-messages').evaluate((el) => { el.scrollTop = el.scrollHeight; });
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(shots, 'chat-finished.png') });

      // What the model was sent: the approved result and the declined note;
      // the typed key in the Authorization header.
      const reqs = await fake.requests();
      expect(reqs.length === 2, `the fake got ${reqs.length} chat requests`);
      const tools = (reqs[1].body.messages || []).filter((m) => m.role === 'tool');
      const content = (m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
      expect(tools.length === 2, `the second request carries ${tools.length} tool messages`);
      expect(tools.some((m) => content(m).includes('hello from the model')), `no tool message with the echo: ${JSON.stringify(tools)}`);
      expect(tools.some((m) => /declined/i.test(content(m))), `no tool message saying declined: ${JSON.stringify(tools)}`);
      for (const r of reqs) {
        expect((r.headers.Authorization || [])[0] === `Bearer ${apiKey}`, `Authorization: ${JSON.stringify(r.headers.Authorization)}`);
      }

      // The key is nowhere in the page: markup, text, or an input's value.
      const leaked = async () => page.evaluate((key) => document.documentElement.outerHTML.includes(key)
        || document.body.innerText.includes(key)
        || [...document.querySelectorAll('input, textarea')].some((e) => e.value.includes(key)), apiKey);
      expect(!(await page.content()).includes(apiKey) && !(await leaked()), 'the API key is in the page');
      const views = await page.evaluate(() => window.go.providers.ProviderManager.List());
      expect(!JSON.stringify(views).includes(apiKey), 'the API key reached the frontend in List');
      await page.getByTestId('nav-settings').click();
      await page.locator('[data-testid^="provider-row-"]').first().waitFor({ timeout: 5000 });
      expect(!(await page.content()).includes(apiKey) && !(await leaked()), 'the API key is in the Settings page');

      // Reload: the conversation comes back from SQLite.
      await page.reload();
      await page.getByTestId('nav-chat').click();
      const conv = page.locator('[data-testid^="chat-conversation-"]').first();
      await conv.waitFor({ timeout: 10000 });
      await conv.getByTestId('chat-conversation-open').click();
      const back = page.getByTestId('message-assistant').last();
      await back.filter({ hasText: 'Anything else?' }).waitFor({ timeout: 10000 });
      expect((await page.getByTestId('message-user').first().innerText()).includes('Echo a greeting'), 'the user message is gone');
      const statuses = await page.getByTestId('tool-call').evaluateAll((els) => els.map((e) => e.dataset.status).sort());
      expect(JSON.stringify(statuses) === '["declined","done"]', `tool calls after reload: ${statuses}`);
      const md2 = back.getByTestId('message-markdown');
      expect((await md2.locator('h2').count()) === 1 && (await md2.locator('table').count()) === 1 && (await md2.locator('pre code.language-go').count()) === 1,
        'the markdown did not come back');
      expect(!(await page.content()).includes(apiKey), 'the API key is in the page after the reload');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); fake.stop(); }
  });

  test('chat: stop keeps the partial reply', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i} `);
    const fake = await startFakeLLM([{ text: words, delayMs: 40 }]);
    const app = await startApp('chat-stop', null, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl);
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('composer-input').fill('Write a long story.');
      await page.getByTestId('composer-send').click();
      const reply = page.getByTestId('message-assistant').last();
      await reply.getByTestId('message-markdown').filter({ hasText: 'word20' }).waitFor({ timeout: 20000 });
      expect((await reply.getAttribute('data-status')) === 'streaming', `while streaming the reply says ${await reply.getAttribute('data-status')}`);
      await page.getByTestId('composer-stop').click();
      await page.locator('[data-testid="message-assistant"][data-status="interrupted"]').waitFor({ timeout: 10000 });
      await reply.getByTestId('message-status').waitFor({ timeout: 5000 });
      const text = await reply.getByTestId('message-markdown').innerText();
      expect(text.includes('word0') && text.includes('word20') && !text.includes('word399'), `partial text: ${text.slice(0, 80)}…${text.slice(-80)}`);
      await page.getByTestId('composer-send').waitFor({ timeout: 5000 });
      // The stream was cut, not finished: the same partial text after a while.
      await page.waitForTimeout(500);
      const later = await reply.getByTestId('message-markdown').innerText();
      expect(later === text, 'the reply kept growing after Stop');
      // And it is stored that way.
      await page.reload();
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('chat-conversation-open').first().click();
      const back = page.locator('[data-testid="message-assistant"][data-status="interrupted"]');
      await back.waitFor({ timeout: 10000 });
      const stored = await back.getByTestId('message-markdown').innerText();
      expect(stored.trim() === text.trim(), `stored partial text differs: ${stored.length} vs ${text.length} characters`);
      await page.screenshot({ path: join(shots, 'chat-stopped.png') });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); fake.stop(); }
  });

  test('quick chat: a second launch with --quick-chat opens it; a tool call is approved there and the conversation is in Chat', async () => {
    const fake = await startFakeLLM([
      { toolCalls: [{ name: 'demo__echo', arguments: { message: 'from quick chat' } }] },
      { text: ['The server said: ', 'Echo: from quick chat'] },
    ]);
    const app = await startApp('quick-chat', { mcpServers: { demo: { command: testServer, args: ['--name', 'demo'] } } }, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl);
      await waitConnected(page, app, 'demo');
      // What a key binding for `mcpdesk --quick-chat` does: a second launch
      // on the same data folder hands over to this one and exits.
      const second = spawnSync(devBin, ['--quick-chat'], {
        env: { ...process.env, MCPDESK_DATA_DIR: app.data }, cwd: root, encoding: 'utf8', timeout: 20000,
      });
      expect(second.status === 0 && /already running/.test(second.stderr), `second launch: ${second.status} ${second.stderr}`);
      const quick = page.getByTestId('quick-chat');
      await quick.waitFor({ timeout: 10000 });
      expect(await page.getByTestId('nav-chat').count() === 0, 'the full shell is still on screen');
      await quick.getByTestId('composer-input').fill('Echo something');
      await quick.getByTestId('composer-input').press('Enter');
      // The same approvals as the full window.
      const card = quick.getByTestId('approval-card');
      await card.waitFor({ timeout: 20000 });
      await card.getByTestId('approval-run').click();
      await quick.getByTestId('message-assistant').last().getByTestId('message-markdown')
        .filter({ hasText: 'Echo: from quick chat' }).waitFor({ timeout: 20000 });
      const reqs = await fake.requests();
      expect(reqs.length === 2 && reqs[0].body?.model === 'fake-1', `model requests: ${JSON.stringify(reqs.map((r) => r.body?.model))}`);
      // Open in MCP Desk: the full window, on the same conversation, kept in the history.
      await quick.getByTestId('quick-expand').click();
      await page.getByTestId('chat-screen').waitFor({ timeout: 5000 });
      await page.getByTestId('message-assistant').last().getByTestId('message-markdown').filter({ hasText: 'Echo: from quick chat' }).waitFor({ timeout: 5000 });
      expect(await page.getByTestId('chat-conversation-open').count() === 1, 'the quick conversation is not in the list');
      expect(errors.length === 0, `page errors: ${errors.join('; ')}`);
      await page.close();
    } finally { await app.stop(); fake.stop(); }
  });
}
