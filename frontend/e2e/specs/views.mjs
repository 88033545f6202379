// MCP Apps views (issue 15) in the Tools tab, in Chromium against the dev
// build: the test server's counter view renders in its sandbox page, gets
// the tool's input and result, calls a server tool from inside (the user
// is asked first), is refused a tool not offered to views, sends a
// message, asks for fullscreen, follows the app's theme, and every message
// is in the logger's view lane. A hostile view tries every way out of its
// sandbox: each attempt fails, and its report reaches the logger.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { axeViolations } from '../axe.mjs';

export default function ({ test, expect, startApp, openPage, colorScheme, waitConnected, fillField, testServer, shots, root, work, startFakeLLM, addFakeProvider }) {
  // The official MCP Apps example (ext-apps' basic-server-vanillajs, pinned in backend/mcppool/testdata/npm).
  const basic = join(root, 'backend/mcppool/testdata/npm/node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');
  const basicReact = join(root, 'backend/mcppool/testdata/npm/node_modules/@modelcontextprotocol/server-basic-react/dist/index.js');
  const budget = join(root, 'backend/mcppool/testdata/npm/node_modules/@modelcontextprotocol/server-budget-allocator/dist/index.js');
  /** The view's own document: two frames down (the sandbox page, then the srcdoc frame). */
  const viewDoc = (page) => page.getByTestId('view-frame').contentFrame().locator('iframe').contentFrame();
  const rpc = (page) => page.evaluate(() => window.go.mcppool.MCPPool.RPCLog());

  test('views: a counter view gets the input and result, calls a tool after asking, is refused a model-only tool, and follows the theme', async () => {
    const app = await startApp('views', { mcpServers: { apps: { command: testServer, args: ['--apps'] } } });
    try {
      const { page, errors } = await openPage(app, { colorScheme: 'light' });
      await waitConnected(page, app, 'apps');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('apps');
      // counter_add is for views only: marked, never offered to a model.
      const addRow = page.getByTestId('tool-item-counter_add').locator('xpath=..');
      await addRow.getByTestId('tool-badge-view-only').waitFor({ timeout: 5000 });
      expect(await page.getByTestId('tool-enabled-counter_add').isDisabled(), 'a view-only tool can be offered to models');
      expect((await page.getByTestId('tools-token-estimate').innerText()).includes('3 tools not offered to models'), `estimate: ${await page.getByTestId('tools-token-estimate').innerText()}`);
      await page.getByTestId('tool-item-show_counter').click();
      await fillField(page.getByTestId('tool-detail'), 'start', 5);
      await page.getByTestId('tool-run').click();

      const view = viewDoc(page);
      await view.locator('#count').filter({ hasText: 'count 5' }).waitFor({ timeout: 15000 });
      const body = view.locator('body');
      expect((await body.getAttribute('data-input')) === '{"start":5}', `tool input: ${await body.getAttribute('data-input')}`);
      expect((await body.getAttribute('data-host')) === 'MCP Desk', 'host info');
      expect((await body.getAttribute('data-protocol')) === '2026-01-26', 'protocol version');
      expect((await body.getAttribute('data-theme')) === 'light', `theme: ${await body.getAttribute('data-theme')}`);
      // The declared domain is shown to the user.
      expect((await page.getByTestId('view-domains').innerText()).includes('api.counter.example'), 'declared domain not shown');
      // The view grew to its content (size-changed).
      const h0 = (await page.getByTestId('view-frame').boundingBox()).height;

      // A tool for views: the user is asked, then it runs on the view's server.
      await view.locator('#add').click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor({ timeout: 5000 });
      expect((await dialog.innerText()).includes('counter_add'), `the approval does not name the tool: ${await dialog.innerText()}`);
      await page.getByTestId('confirm-ok').click();
      await view.locator('#count').filter({ hasText: 'count 6' }).waitFor({ timeout: 10000 });

      // A tool only for the model: refused by Go even after the user agreed.
      await view.locator('#secret').click();
      await page.getByTestId('confirm-ok').click();
      await view.locator('#status').filter({ hasText: /^refused: .*visibility lacks/ }).waitFor({ timeout: 10000 });

      // A link: the dialog names its host; declined, the view hears so.
      await view.locator('#link').click();
      await dialog.waitFor({ timeout: 5000 });
      expect((await dialog.innerText()).includes('example.com'), 'the link dialog does not name the host');
      await page.getByTestId('confirm-cancel').click();
      await view.locator('#status').filter({ hasText: 'link declined' }).waitFor({ timeout: 5000 });

      // A message and model context: kept for the developer in the Tools tab.
      await view.locator('#msg').click();
      await page.getByTestId('view-message').filter({ hasText: 'The counter is at 6' }).waitFor({ timeout: 5000 });
      await view.locator('#remember').click();
      await page.getByTestId('view-model-context').filter({ hasText: 'looked at the counter at 6' }).waitFor({ timeout: 5000 });

      // Size: the view asks for more room and gets it.
      await view.locator('#grow').click();
      await page.waitForFunction((h) => document.querySelector('[data-testid="view-frame"]').getBoundingClientRect().height > h + 200, h0, { timeout: 5000 });

      // The view's bar and emulator pass axe in both themes.
      for (const scheme of ['light', 'dark']) {
        await colorScheme(page, scheme);
        const found = await axeViolations(page, '[data-testid="view"]');
        expect(found.length === 0, `axe (${scheme}) on the view: ${found.join('; ')}`);
      }
      await colorScheme(page, 'light');
      await body.and(view.locator('[data-theme="light"]')).waitFor({ timeout: 5000 });

      // The app's theme reaches the view (host-context-changed).
      expect(['#fff', '#ffffff'].includes(await body.getAttribute('data-bg')), `light --color-background-primary: ${await body.getAttribute('data-bg')}`);
      await colorScheme(page, 'dark');
      await body.and(view.locator('[data-theme="dark"]')).waitFor({ timeout: 5000 });
      // The app's look reaches it as the standard CSS variables.
      await body.and(view.locator('[data-bg="#141417"]')).waitFor({ timeout: 5000 });
      await page.screenshot({ path: join(shots, 'view-counter-dark.png') });

      // Fullscreen on the view's request; the close button brings it back
      // inline (the keyboard is inside the view there, out of the app's reach;
      // Escape works once the focus is back in the app).
      await view.locator('#full').click();
      await page.locator('[data-testid="view"][data-mode="fullscreen"]').waitFor({ timeout: 5000 });
      await body.and(view.locator('[data-display-mode="fullscreen"]')).waitFor({ timeout: 5000 });
      await page.screenshot({ path: join(shots, 'view-counter-fullscreen.png') });
      await page.getByTestId('view-exit-mode').click();
      await page.locator('[data-testid="view"][data-mode="inline"]').waitFor({ timeout: 5000 });
      await body.and(view.locator('[data-display-mode="inline"]')).waitFor({ timeout: 5000 });

      // Every message both ways is in the logger's view lane; the policy is noted.
      const log = await rpc(page);
      const lane = log.filter((e) => e.server === 'apps' && (e.direction === 'view-in' || e.direction === 'view-out'));
      for (const [dir, method] of [['view-in', 'ui/initialize'], ['view-out', 'ui/notifications/tool-input'], ['view-out', 'ui/notifications/tool-result'], ['view-in', 'tools/call'], ['view-out', 'ui/notifications/host-context-changed']]) {
        expect(lane.some((e) => e.direction === dir && e.method === method), `no ${dir} ${method} in the logger: ${lane.map((e) => `${e.direction} ${e.method}`).join(', ')}`);
      }
      expect(log.some((e) => e.note === 'viewOpened' && e.payload.includes("connect-src https://api.counter.example")), 'the view\'s policy is not logged');
      expect(log.some((e) => e.note === 'blocked' && e.method === 'tools/call model_only'), 'the refusal is not logged');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('views: a hostile view reaches neither the app nor the network nor another tool, and each attempt is logged', async () => {
    const app = await startApp('views-hostile', { mcpServers: { apps: { command: testServer, args: ['--apps'] } } });
    try {
      const { page, errors } = await openPage(app);
      await waitConnected(page, app, 'apps');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('apps');
      await page.getByTestId('tool-item-show_hostile').click();
      await page.getByTestId('tool-run').click();
      // Its two tool calls ask the user: agree to both (Go must still refuse).
      for (let i = 0; i < 2; i++) {
        await page.getByTestId('confirm-ok').click({ timeout: 15000 });
      }
      let report;
      for (let i = 0; i < 50 && !report; i++) {
        const log = await rpc(page);
        const entry = log.find((e) => e.direction === 'view-in' && e.method === 'notifications/message' && e.payload.includes('"report"'));
        if (entry) report = JSON.parse(entry.payload).params.data.report;
        else await page.waitForTimeout(200);
      }
      expect(report, 'the hostile view never reported');
      const want = {
        origin: 'null',
        parentDocument: 'threw SecurityError',
        topDocument: 'threw SecurityError',
        goBindings: 'threw SecurityError',
        ownGo: 'undefined',
        // Its own in-memory storage (the app's is checked below).
        localStorage: 'written',
        popup: 'blocked',
        topNavigation: 'threw SecurityError',
        fetch: 'threw TypeError',
        modelOnlyTool: 'refused',
        otherServerTool: 'refused',
      };
      for (const [k, v] of Object.entries(want)) {
        expect(report[k] === v, `hostile view: ${k} = ${JSON.stringify(report[k])}, want ${v} (report ${JSON.stringify(report)})`);
      }
      expect(/connect-src/.test(report.violations), `no CSP violation for the fetch: ${report.violations}`);
      expect(await page.evaluate(() => localStorage.getItem('x')) === null, 'the hostile view wrote to the app\'s storage');
      // The app is untouched: same page, still the app.
      expect(new URL(page.url()).pathname === '/' || page.url().startsWith(app.url), `the window left: ${page.url()}`);
      await page.getByTestId('nav-servers').waitFor({ timeout: 2000 });
      const log = await rpc(page);
      for (const tool of ['model_only', 'read_file']) {
        expect(log.some((e) => e.note === 'blocked' && e.method === `tools/call ${tool}`), `the refused ${tool} is not in the logger`);
      }
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('views: the official example server\'s view (the ext-apps App class) initializes with MCP Desk, shows the result, calls its tool, sends a message and a log, follows the theme', async () => {
    const app = await startApp('views-basic', { mcpServers: { basic: { command: 'node', args: [basic, '--stdio'] } } });
    try {
      const { page, errors } = await openPage(app, { colorScheme: 'light' });
      await waitConnected(page, app, 'basic');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('basic');
      await page.getByTestId('tool-item-get-time').click();
      await page.getByTestId('tool-run').click();
      const view = viewDoc(page);
      // The SDK's App connected (ui/initialize, initialized) and got the tool result.
      const time = view.locator('#server-time');
      await time.filter({ hasText: /^\d{4}-\d{2}-\d{2}T/ }).waitFor({ timeout: 20000 });
      const html = view.locator('html');
      expect((await html.getAttribute('data-theme')) === 'light', `theme: ${await html.getAttribute('data-theme')}`);

      // Its button calls get-time through MCP Desk: asked, then run.
      const before = (await rpc(page)).filter((e) => e.direction === 'view-in' && e.method === 'tools/call').length;
      await view.locator('#get-time-btn').click();
      await page.getByTestId('confirm-ok').click({ timeout: 5000 });
      await page.waitForFunction(async (n) => (await window.go.mcppool.MCPPool.RPCLog()).filter((e) => e.direction === 'view-out' && e.kind === 'response' && e.payload.includes('structuredContent')).length >= 1 + n, before, { timeout: 10000 });
      await time.filter({ hasText: /^\d{4}-\d{2}-\d{2}T/ }).waitFor({ timeout: 5000 });

      // sendMessage and sendLog.
      await view.locator('#message-text').fill('hello from the example view');
      await view.locator('#send-message-btn').click();
      await page.getByTestId('view-message').filter({ hasText: 'hello from the example view' }).waitFor({ timeout: 5000 });
      await view.locator('#send-log-btn').click();
      await page.waitForFunction(async () => (await window.go.mcppool.MCPPool.RPCLog()).some((e) => e.direction === 'view-in' && e.method === 'notifications/message'), null, { timeout: 5000 });

      // openLink: the user sees the host first.
      await view.locator('#open-link-btn').click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor({ timeout: 5000 });
      const host = new URL(await view.locator('#link-url').inputValue()).host;
      expect((await dialog.innerText()).includes(host), `the link dialog does not name ${host}`);
      await page.getByTestId('confirm-cancel').click();

      // The app's theme reaches the SDK's applyDocumentTheme.
      await colorScheme(page, 'dark');
      await html.and(view.locator('[data-theme="dark"]')).waitFor({ timeout: 5000 });
      await page.screenshot({ path: join(shots, 'view-basic-vanillajs-dark.png') });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('views: the official React example (server-basic-react) renders, calls its tool after asking and sends a message', async () => {
    const app = await startApp('views-react', { mcpServers: { react: { command: 'node', args: [basicReact, '--stdio'] } } });
    try {
      const { page, errors } = await openPage(app, { colorScheme: 'light' });
      await waitConnected(page, app, 'react');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('react');
      await page.getByTestId('tool-item-get-time').click();
      await page.getByTestId('tool-run').click();
      const view = viewDoc(page);
      const time = view.locator('code').first();
      await time.filter({ hasText: /^\d{4}-\d{2}-\d{2}T/ }).waitFor({ timeout: 20000 });
      const first = await time.innerText();
      // Get Server Time calls get-time through MCP Desk: asked, then run.
      await view.getByRole('button', { name: 'Get Server Time' }).click();
      await page.getByTestId('confirm-ok').click({ timeout: 5000 });
      await page.waitForFunction(async () => (await window.go.mcppool.MCPPool.RPCLog()).some((e) => e.direction === 'view-in' && e.method === 'tools/call'), null, { timeout: 10000 });
      await expectChange(() => time.innerText(), first);
      await view.locator('textarea').fill('hello from the React view');
      await view.getByRole('button', { name: 'Send Message' }).click();
      await page.getByTestId('view-message').filter({ hasText: 'hello from the React view' }).waitFor({ timeout: 5000 });
      await page.screenshot({ path: join(shots, 'view-basic-react.png') });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('views: the official budget allocator (server-budget-allocator) renders its result and reacts to its controls', async () => {
    const app = await startApp('views-budget', { mcpServers: { budget: { command: 'node', args: [budget, '--stdio'] } } });
    try {
      const { page, errors } = await openPage(app, { colorScheme: 'light' });
      await waitConnected(page, app, 'budget');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('budget');
      await page.getByTestId('tool-item-get-budget-data').click();
      await page.getByTestId('tool-run').click();
      const view = viewDoc(page);
      const sliders = view.locator('#sliders-container');
      await sliders.filter({ hasText: 'Marketing' }).waitFor({ timeout: 20000 });
      for (const name of ['Engineering', 'Operations', 'Sales']) {
        expect((await sliders.innerText()).includes(name), `category ${name} is missing from the view`);
      }
      const stages = await view.locator('#stage-selector option').allInnerTexts();
      expect(stages.some((s) => s.includes('Series A')), `stages: ${stages.join(', ')}`);
      // Another budget: the amounts the view shows change.
      const before = await sliders.innerText();
      const options = await view.locator('#budget-selector option').evaluateAll((os) => os.map((o) => o.value));
      await view.locator('#budget-selector').selectOption(options.at(-1));
      await expectChange(() => sliders.innerText(), before);
      await page.screenshot({ path: join(shots, 'view-budget-allocator.png') });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  /** expectChange waits until read() returns something other than before. */
  async function expectChange(read, before, ms = 5000) {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if ((await read()) !== before) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the view did not change');
  }

  test('views: in chat, the view of a called tool shows inline with its input and result, its context reaches the next turn, and its message becomes the next turn after consent', async () => {
    const fake = await startFakeLLM([
      // The arguments arrive in pieces, slowly: the view shows them as they come.
      { toolCalls: [{ name: 'apps__show_counter', arguments: { start: 3 }, fragments: 6 }], delayMs: 300 },
      { text: ['The counter shows 3.'] },
      { text: ['Noted: the counter is at 3.'] },
      { text: Array.from({ length: 300 }, (_, i) => `Line ${i} of a long answer.\n\n`) },
    ]);
    const app = await startApp('views-chat', { mcpServers: { apps: { command: testServer, args: ['--apps'] } } });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl);
      await waitConnected(page, app, 'apps');
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('composer-input').fill('Show me the counter');
      await page.getByTestId('composer-send').click();
      await page.getByTestId('approval-card').getByTestId('approval-run').click({ timeout: 20000 });
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'The counter shows 3.' }).waitFor({ timeout: 30000 });

      const chatView = viewDoc(page);
      await chatView.locator('#count').filter({ hasText: 'count 3' }).waitFor({ timeout: 15000 });
      expect((await chatView.locator('body').getAttribute('data-input')) === '{"start":3}', 'the chat view did not get the input');
      // While the model wrote the arguments the view got them in part
      // (tool-input-partial), and then whole, once.
      expect(Number(await chatView.locator('body').getAttribute('data-partials')) >= 1, 'no tool-input-partial reached the view');
      const out = (await rpc(page)).filter((e) => e.server === 'apps' && e.direction === 'view-out').map((e) => e.method);
      const firstPartial = out.indexOf('ui/notifications/tool-input-partial');
      expect(firstPartial >= 0 && firstPartial < out.indexOf('ui/notifications/tool-input') && out.filter((m) => m === 'ui/notifications/tool-input').length === 1,
        `the view lane: ${out.join(', ')}`);

      // ui/update-model-context: kept with the call, sent on the next turn.
      await chatView.locator('#remember').click();
      await chatView.locator('#status').filter({ hasText: 'context updated' }).waitFor({ timeout: 5000 });

      // ui/message: asked first, then sent as the user's next message.
      await chatView.locator('#msg').click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor({ timeout: 5000 });
      expect((await dialog.innerText()).includes('The counter is at 3'), `the consent does not show the text: ${await dialog.innerText()}`);
      await page.getByTestId('confirm-ok').click();
      await page.locator('[data-testid="message-user"]').filter({ hasText: 'The counter is at 3' }).waitFor({ timeout: 10000 });
      // (It timed out once on CI: if it does again, say what the model was asked and what the chat shows.)
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'Noted: the counter is at 3.' }).waitFor({ timeout: 30000 })
        .catch(async (e) => {
          const asked = (await fake.requests()).length;
          const shown = await page.locator('[data-testid="message-assistant"], [role="alert"]').evaluateAll((els) =>
            els.map((el) => `${el.getAttribute('data-status') ?? el.getAttribute('role')}: ${el.textContent.trim().slice(0, 60)}`));
          throw new Error(`${e.message}\nthe model was asked ${asked} times; the chat shows:\n${shown.join('\n')}`);
        });
      await chatView.locator('#status').filter({ hasText: 'message sent' }).waitFor({ timeout: 5000 });
      // The next request carried the view's context, marked as the view's, before the message.
      const reqs = await fake.requests();
      const msgs = reqs[2]?.body?.messages ?? [];
      const ctx = msgs.at(-2);
      expect(msgs.at(-1)?.content === 'The counter is at 3' && ctx?.role === 'user' && String(ctx.content).includes('The user looked at the counter at 3')
        && String(ctx.content).includes('not by the user'), `the third request ends with ${JSON.stringify(msgs.slice(-2))}`);

      // It keeps something in its localStorage (its own, in memory, kept with the call).
      await chatView.locator('#note').click();
      await chatView.locator('#status').filter({ hasText: 'noted' }).waitFor({ timeout: 5000 });
      await page.waitForTimeout(600); // the storage goes to the app a moment after the change

      // After a reload the view is shown again from the stored call, and
      // finds what it kept.
      await page.reload();
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('chat-conversation-open').first().click();
      await viewDoc(page).locator('#count').filter({ hasText: 'count 3' }).waitFor({ timeout: 15000 });
      expect((await viewDoc(page).locator('body').getAttribute('data-note')) === 'count 3', `the view's storage after the reload: ${await viewDoc(page).locator('body').getAttribute('data-note')}`);
      await page.screenshot({ path: join(shots, 'view-in-chat.png') });

      // Scrolled far away, the view is torn down — asked first
      // (ui/resource-teardown, answered) — and comes back when scrolled to.
      await page.getByTestId('composer-input').fill('Write a long answer');
      await page.getByTestId('composer-send').click();
      const long = page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'Line 299 of a long answer.' });
      await long.waitFor({ timeout: 30000 });
      await long.getByText('Line 299 of a long answer.').scrollIntoViewIfNeeded();
      await page.locator('[data-testid="view-slot"][data-paused="true"]').waitFor({ timeout: 10000 });
      // Logged as it happened (the page is forgotten only after its last messages are).
      const answered = async () => {
        const lane = (await rpc(page)).filter((e) => e.server === 'apps');
        const teardown = lane.find((e) => e.direction === 'view-out' && e.method === 'ui/resource-teardown');
        return !!teardown && lane.some((e) => e.direction === 'view-in' && e.kind === 'response' && e.id === teardown.id);
      };
      for (let i = 0; i < 20 && !(await answered()); i++) await page.waitForTimeout(100);
      expect(await answered(), `no answered ui/resource-teardown: ${(await rpc(page)).filter((e) => e.server === 'apps').map((e) => `${e.direction} ${e.method || e.kind} ${e.id}`).join(', ')}`);
      await page.getByTestId('view-slot').scrollIntoViewIfNeeded();
      await page.locator('[data-testid="view-slot"][data-paused="false"]').waitFor({ timeout: 10000 });
      await viewDoc(page).locator('#count').filter({ hasText: 'count 3' }).waitFor({ timeout: 15000 });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); await fake.stop?.(); }
  });

  test('views: a view whose HTML changed behind the same URI says so', async () => {
    const rev = join(mkdtempSync(join(work, 'view-rev-')), 'rev');
    writeFileSync(rev, '1');
    const app = await startApp('views-changed', { mcpServers: { apps: { command: testServer, args: ['--apps', '--view-rev-file', rev] } } });
    try {
      const { page, errors } = await openPage(app);
      await waitConnected(page, app, 'apps');
      const run = async () => {
        await page.getByTestId('nav-tools').click();
        await page.getByTestId('tools-server-select').selectOption('apps');
        await page.getByTestId('tool-item-show_counter').click();
        await page.getByTestId('tool-run').click();
        await viewDoc(page).locator('#status').filter({ hasText: 'ready' }).waitFor({ timeout: 15000 });
      };
      await run();
      expect(!(await page.getByTestId('view-changed').isVisible()), 'a first view is marked changed');
      // The server is updated: other HTML behind ui://counter/view.html.
      writeFileSync(rev, '2');
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('server-apps').getByTestId('server-restart').click();
      await waitConnected(page, app, 'apps');
      await run();
      await page.getByTestId('view-changed').waitFor({ timeout: 10000 });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });
}
