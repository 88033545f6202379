// MCP-UI resources (issue 15) in Chromium against the dev build: the test
// server's show_card returns a raw-HTML ui:// resource in its result that
// uses every UI action; it renders in the same sandbox as MCP Apps views,
// gets the tool's input and output as render data, and each action maps to
// the host operation (a tool call after asking, checked by Go; prompt and
// intent → a message; link → the system browser after asking; notify →
// the logger); it reaches neither the app nor its storage. show_page
// returns an external page (text/uri-list), framed only after the user
// allows its host. show_remote_dom returns a remote-DOM script: it runs
// in the sandbox out of sight, and the app draws the tree it builds with
// its own components. In chat, a card's prompt becomes the next turn.
import { createServer } from 'node:http';
import { join } from 'node:path';

export default function ({ test, expect, startApp, openPage, colorScheme, waitConnected, fillField, testServer, shots, startFakeLLM, addFakeProvider }) {
  /** The UI's own document: two frames down (the sandbox page, then the srcdoc or external frame). */
  const uiDoc = (page, n = 0) => page.getByTestId('view-frame').nth(n).contentFrame().locator('iframe').contentFrame();
  const rpc = (page) => page.evaluate(() => window.go.mcppool.MCPPool.RPCLog());

  test('mcp-ui: a raw-HTML card gets its render data, and each UI action maps to the host after consent and Go\'s checks', async () => {
    const app = await startApp('mcpui', { mcpServers: { apps: { command: testServer, args: ['--apps'] } } });
    try {
      const { page, errors } = await openPage(app, { colorScheme: 'light' });
      await waitConnected(page, app, 'apps');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('apps');
      await page.getByTestId('tool-item-show_card').click();
      await fillField(page.getByTestId('tool-detail'), 'topic', 'launch');
      await page.getByTestId('tool-run').click();

      const card = uiDoc(page);
      await card.locator('#input').filter({ hasText: 'input {"topic":"launch"}' }).waitFor({ timeout: 15000 });
      await card.locator('#output').filter({ hasText: '"votes":0' }).waitFor({ timeout: 5000 });
      expect((await page.getByTestId('view').getAttribute('data-kind')) === 'mcp-ui', 'not shown as an MCP-UI resource');

      // tool: asked first, then run on the card's server.
      await card.locator('#vote').click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor({ timeout: 5000 });
      expect((await dialog.innerText()).includes('card_vote'), `the approval does not name the tool: ${await dialog.innerText()}`);
      await page.getByTestId('confirm-ok').click();
      await card.locator('#status').filter({ hasText: 'voted: 1' }).waitFor({ timeout: 10000 });
      // A tool not for views: refused by Go even after the user agreed.
      await card.locator('#secret').click();
      await page.getByTestId('confirm-ok').click();
      await card.locator('#status').filter({ hasText: /^secret refused: .*visibility lacks/ }).waitFor({ timeout: 10000 });

      // prompt and intent: kept for the developer in the Tools tab.
      await card.locator('#prompt').click();
      await page.getByTestId('view-message').filter({ hasText: 'What does the card say?' }).waitFor({ timeout: 5000 });
      await card.locator('#intent').click();
      await page.getByTestId('view-message').filter({ hasText: 'create-task {"title":"Review the card"}' }).waitFor({ timeout: 5000 });

      // link: the dialog names the host; declined, the card hears so.
      await card.locator('#link').click();
      await dialog.waitFor({ timeout: 5000 });
      expect((await dialog.innerText()).includes('example.com'), 'the link dialog does not name the host');
      await page.getByTestId('confirm-cancel').click();
      await card.locator('#status').filter({ hasText: 'link refused: declined' }).waitFor({ timeout: 5000 });

      // notify: into the logger's view lane.
      await card.locator('#notify').click();
      await card.locator('#status').filter({ hasText: 'notified' }).waitFor({ timeout: 5000 });

      // The card cannot reach the app's page or its bindings; its storage
      // is its own, and the app's is untouched.
      await card.locator('#escape').click();
      await card.locator('#status').filter({ hasText: 'parent:blocked go:blocked storage:own' }).waitFor({ timeout: 5000 });
      expect(await page.evaluate(() => localStorage.getItem('card-x')) === null, 'the card wrote to the app\'s storage');

      // The app's theme reaches it as new render data.
      await colorScheme(page, 'dark');
      await card.locator('body[data-theme="dark"]').waitFor({ timeout: 5000 });
      await page.screenshot({ path: join(shots, 'view-mcpui-card-dark.png') });

      const log = await rpc(page);
      const lane = log.filter((e) => e.server === 'apps' && e.direction === 'view-in').map((e) => e.method);
      for (const m of ['ui-lifecycle-iframe-ready', 'tool', 'prompt', 'intent', 'link', 'notify']) {
        expect(lane.includes(m), `no ${m} from the card in the logger: ${lane.join(', ')}`);
      }
      expect(log.some((e) => e.note === 'viewOpened' && e.payload.includes('"kind":"mcp-ui"') && e.payload.includes("connect-src 'none'")), 'the card\'s policy is not logged');
      expect(log.some((e) => e.note === 'blocked' && e.method === 'tools/call model_only'), 'the refusal is not logged');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('mcp-ui: an MCP Apps view embedded in a result (MCP-UI 6 and later) speaks MCP Apps', async () => {
    const app = await startApp('mcpui-app', { mcpServers: { apps: { command: testServer, args: ['--apps'] } } });
    try {
      const { page, errors } = await openPage(app);
      await waitConnected(page, app, 'apps');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('apps');
      await page.getByTestId('tool-item-show_inline_counter').click();
      await page.getByTestId('tool-run').click();
      const view = uiDoc(page);
      await view.locator('#count').filter({ hasText: 'count 7' }).waitFor({ timeout: 15000 });
      expect((await page.getByTestId('view').getAttribute('data-kind')) === 'mcp-app', 'not shown as an MCP Apps view');
      await view.locator('#add').click();
      await page.getByTestId('confirm-ok').click();
      await view.locator('#count').filter({ hasText: 'count 8' }).waitFor({ timeout: 10000 });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('mcp-ui: a remote-DOM script runs in the sandbox, and the app draws its tree with its own components', async () => {
    const app = await startApp('mcpui-dom', { mcpServers: { apps: { command: testServer, args: ['--apps'] } } });
    try {
      const { page, errors } = await openPage(app, { colorScheme: 'light' });
      await waitConnected(page, app, 'apps');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('apps');
      await page.getByTestId('tool-item-show_remote_dom').click();
      await page.getByTestId('tool-run').click();
      const ui = page.getByTestId('view-remote');
      await ui.getByTestId('remote-text').filter({ hasText: 'presses 0' }).waitFor({ timeout: 15000 });
      expect((await page.getByTestId('view').getAttribute('data-kind')) === 'mcp-ui-remote', 'not shown as a remote-DOM UI');
      // The script's markup is text in the app, and its frame is out of sight.
      expect((await ui.getByTestId('remote-text').first().innerText()).includes('<img src=x onerror=alert(1)>'), 'the title is not drawn as text');
      expect(await ui.locator('img').count() === 0, 'an image the UI does not carry was drawn');
      expect((await ui.getByTestId('remote-image-blocked').innerText()).includes('tracker.example'), 'the blocked image does not name its host');
      expect(!(await page.getByTestId('view-frame').isVisible()), 'the sandbox frame is visible');

      // A press runs the script's listener in the sandbox; its change comes back.
      const status = ui.getByTestId('remote-text').nth(2);
      await ui.getByTestId('remote-button').filter({ hasText: 'Press' }).click();
      await ui.getByTestId('remote-text').filter({ hasText: 'presses 1' }).waitFor({ timeout: 5000 });

      // tool: asked first, then run on the UI's server; the answer reaches the script.
      await ui.getByTestId('remote-button').filter({ hasText: 'Vote' }).click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor({ timeout: 5000 });
      expect((await dialog.innerText()).includes('card_vote'), `the approval does not name the tool: ${await dialog.innerText()}`);
      await page.getByTestId('confirm-ok').click();
      await status.filter({ hasText: 'voted: remote' }).waitFor({ timeout: 10000 });

      // prompt: kept for the developer in the Tools tab.
      await ui.getByTestId('remote-button').filter({ hasText: 'Ask' }).click();
      await page.getByTestId('view-message').filter({ hasText: 'What does the remote card say?' }).waitFor({ timeout: 5000 });

      // The script reaches neither the app's page, nor its bindings, nor the network.
      await ui.getByTestId('remote-button').filter({ hasText: 'Probe' }).click();
      await status.filter({ hasText: 'parent:blocked go:blocked fetch:blocked' }).waitFor({ timeout: 10000 });
      await page.getByTestId('view').screenshot({ path: join(shots, 'view-mcpui-remote-dom.png') });
      // The emulator's theme reaches the app's components that draw the tree.
      await page.getByTestId('view-emulator-theme').selectOption('dark');
      await page.locator('[data-testid="view-remote"][data-theme="dark"]').waitFor({ timeout: 5000 });
      const bg = await ui.evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(bg === 'rgb(20, 20, 23)', `the tree is not drawn in the dark theme: ${bg}`);

      const log = await rpc(page);
      const lane = log.filter((e) => e.server === 'apps' && e.direction === 'view-in').map((e) => e.method);
      for (const m of ['mcpdesk/remote-dom/mutate', 'tool', 'prompt']) expect(lane.includes(m), `no ${m} from the UI in the logger: ${lane.join(', ')}`);
      const out = log.filter((e) => e.server === 'apps' && e.direction === 'view-out').map((e) => e.method);
      expect(out.includes('mcpdesk/remote-dom/call'), `no press to the UI in the logger: ${out.join(', ')}`);
      expect(log.some((e) => e.note === 'viewOpened' && e.payload.includes('"kind":"mcp-ui-remote"') && e.payload.includes("connect-src 'none'")), 'the UI\'s policy is not logged');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('mcp-ui: an external page is framed only after the user allows its host', async () => {
    const site = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>outside</title><p id="hello">hello from outside</p><script>parent.postMessage({ type: "notify", payload: { message: "outside says hi" } }, "*")</script>');
    });
    await new Promise((r) => site.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${site.address().port}/page`;
    const app = await startApp('mcpui-url', { mcpServers: { apps: { command: testServer, args: ['--apps'] } } });
    try {
      const { page, errors } = await openPage(app);
      await waitConnected(page, app, 'apps');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('apps');
      await page.getByTestId('tool-item-show_page').click();
      await fillField(page.getByTestId('tool-detail'), 'url', url);
      await page.getByTestId('tool-run').click();
      const ask = page.getByTestId('view-ask-external');
      await ask.waitFor({ timeout: 15000 });
      expect((await ask.innerText()).includes(`127.0.0.1:${site.address().port}`), `the question does not name the host: ${await ask.innerText()}`);
      expect(await page.getByTestId('view-frame').count() === 0, 'the page was framed before the user allowed it');
      await page.getByTestId('view-allow-external').click();
      await uiDoc(page).locator('#hello').waitFor({ timeout: 15000 });
      await page.waitForFunction(async () => (await window.go.mcppool.MCPPool.RPCLog()).some((e) => e.direction === 'view-in' && e.method === 'notify'), null, { timeout: 5000 });
      const opened = (await rpc(page)).find((e) => e.note === 'viewOpened' && e.payload.includes('"kind":"mcp-ui-url"'));
      expect(opened && opened.payload.includes(`frame-src http://127.0.0.1:${site.address().port}`), `the page's policy: ${opened?.payload}`);
      // Allowed once, the host is not asked about again this session.
      await page.getByTestId('tool-run').click();
      await uiDoc(page).locator('#hello').waitFor({ timeout: 15000 });
      expect(await ask.count() === 0, 'asked again about an allowed host');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); site.close(); }
  });

  test('mcp-ui: in chat a card shows with the tool call, and its prompt becomes the next turn after consent', async () => {
    const fake = await startFakeLLM([
      { toolCalls: [{ name: 'apps__show_card', arguments: { topic: 'launch' } }] },
      { text: ['Here is the card.'] },
      { text: ['The card is about the launch.'] },
    ]);
    const app = await startApp('mcpui-chat', { mcpServers: { apps: { command: testServer, args: ['--apps'] } } });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl);
      await waitConnected(page, app, 'apps');
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('composer-input').fill('Show me the card');
      await page.getByTestId('composer-send').click();
      await page.getByTestId('approval-card').getByTestId('approval-run').click({ timeout: 20000 });
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'Here is the card.' }).waitFor({ timeout: 30000 });
      const card = uiDoc(page);
      await card.locator('#input').filter({ hasText: 'input {"topic":"launch"}' }).waitFor({ timeout: 15000 });
      await card.locator('#prompt').click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor({ timeout: 5000 });
      expect((await dialog.innerText()).includes('What does the card say?'), `the consent does not show the text: ${await dialog.innerText()}`);
      await page.getByTestId('confirm-ok').click();
      await page.locator('[data-testid="message-user"]').filter({ hasText: 'What does the card say?' }).waitFor({ timeout: 10000 });
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'The card is about the launch.' }).waitFor({ timeout: 30000 });
      await card.locator('#status').filter({ hasText: 'prompted' }).waitFor({ timeout: 5000 });
      await page.screenshot({ path: join(shots, 'view-mcpui-in-chat.png') });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); await fake.stop?.(); }
  });

  test('mcp-ui: in chat a remote-DOM UI is drawn with the tool call, and its prompt becomes the next turn after consent', async () => {
    const fake = await startFakeLLM([
      { toolCalls: [{ name: 'apps__show_remote_dom', arguments: {} }] },
      { text: ['Here is the remote card.'] },
      { text: ['It counts presses.'] },
    ]);
    const app = await startApp('mcpui-dom-chat', { mcpServers: { apps: { command: testServer, args: ['--apps'] } } });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl);
      await waitConnected(page, app, 'apps');
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('composer-input').fill('Show me the remote card');
      await page.getByTestId('composer-send').click();
      await page.getByTestId('approval-card').getByTestId('approval-run').click({ timeout: 20000 });
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'Here is the remote card.' }).waitFor({ timeout: 30000 });
      const ui = page.getByTestId('view-remote');
      await ui.getByTestId('remote-button').filter({ hasText: 'Press' }).click({ timeout: 15000 });
      await ui.getByTestId('remote-text').filter({ hasText: 'presses 1' }).waitFor({ timeout: 5000 });
      await ui.getByTestId('remote-button').filter({ hasText: 'Ask' }).click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor({ timeout: 5000 });
      expect((await dialog.innerText()).includes('What does the remote card say?'), `the consent does not show the text: ${await dialog.innerText()}`);
      await page.getByTestId('confirm-ok').click();
      await page.locator('[data-testid="message-user"]').filter({ hasText: 'What does the remote card say?' }).waitFor({ timeout: 10000 });
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'It counts presses.' }).waitFor({ timeout: 30000 });
      await page.screenshot({ path: join(shots, 'view-mcpui-remote-dom-in-chat.png') });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); await fake.stop?.(); }
  });
}
