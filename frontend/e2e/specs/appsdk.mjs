// OpenAI Apps SDK widgets (issue 15) in Chromium against the dev build: the
// test server's board widget (text/html+skybridge, driven only through
// window.openai) renders in the same sandbox as MCP Apps views, gets the
// tool's input, output and metadata, saves its state, calls a
// widget-accessible tool after the user agrees, is refused a tool not for
// widgets, asks for fullscreen and follows the theme. In chat its state is
// kept with the call, comes back after a reload and reaches the model on
// the next turn; its follow-up message becomes the next turn after consent.
import { join } from 'node:path';

export default function ({ test, expect, startApp, openPage, colorScheme, waitConnected, fillField, testServer, shots, startFakeLLM, addFakeProvider }) {
  /** The widget's own document: two frames down (the sandbox page, then the srcdoc frame). */
  const widgetDoc = (page) => page.getByTestId('view-frame').contentFrame().locator('iframe').contentFrame();

  test('apps sdk: the board widget gets its input, output and metadata through window.openai, saves state, calls its tool after asking, and follows the theme', async () => {
    const app = await startApp('appsdk', { mcpServers: { apps: { command: testServer, args: ['--apps'] } } });
    try {
      const { page, errors } = await openPage(app, { colorScheme: 'light' });
      await waitConnected(page, app, 'apps');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('apps');
      // board_add is widget-accessible and private: only for views.
      const addRow = page.getByTestId('tool-item-board_add').locator('xpath=..');
      await addRow.getByTestId('tool-badge-view-only').waitFor({ timeout: 5000 });
      // board_reset is private: marked so, not "views only".
      const resetRow = page.getByTestId('tool-item-board_reset').locator('xpath=..');
      await resetRow.getByTestId('tool-badge-private').waitFor({ timeout: 5000 });
      expect(await resetRow.getByTestId('tool-badge-view-only').count() === 0, 'a private tool is marked as for views');
      await page.getByTestId('tool-item-show_board').click();
      await fillField(page.getByTestId('tool-detail'), 'title', 'sprint');
      await page.getByTestId('tool-run').click();

      const w = widgetDoc(page);
      await w.locator('#items').filter({ hasText: 'items alpha, beta, gamma' }).waitFor({ timeout: 15000 });
      await w.locator('#title').filter({ hasText: 'board sprint' }).waitFor({ timeout: 5000 });
      expect((await page.getByTestId('view').getAttribute('data-kind')) === 'apps-sdk', 'the widget is not shown as an Apps SDK widget');
      const body = w.locator('body');
      expect(JSON.parse(await body.getAttribute('data-meta'))?.['board/id'] === 'b-1', `toolResponseMetadata: ${await body.getAttribute('data-meta')}`);
      expect((await body.getAttribute('data-theme')) === 'light', `theme: ${await body.getAttribute('data-theme')}`);

      // setWidgetState: the Tools tab shows it to the developer.
      await w.locator('#pick').click();
      await w.locator('#picked').filter({ hasText: 'picked alpha' }).waitFor({ timeout: 5000 });
      await page.getByTestId('view-widget-state').filter({ hasText: '{"picked":"alpha"}' }).waitFor({ timeout: 5000 });

      // callTool of a widget-accessible tool: asked first, then run on the widget's server.
      await w.locator('#add').click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor({ timeout: 5000 });
      expect((await dialog.innerText()).includes('board_add'), `the approval does not name the tool: ${await dialog.innerText()}`);
      await page.getByTestId('confirm-ok').click();
      await w.locator('#status').filter({ hasText: 'added: alpha, beta, gamma, new card' }).waitFor({ timeout: 10000 });
      // A tool not for widgets is refused by Go even after the user agreed.
      await w.locator('#secret').click();
      await page.getByTestId('confirm-ok').click();
      await w.locator('#status').filter({ hasText: /^refused: .*visibility lacks/ }).waitFor({ timeout: 10000 });

      // requestDisplayMode and openai:set_globals.
      await w.locator('#full').click();
      await page.locator('[data-testid="view"][data-mode="fullscreen"]').waitFor({ timeout: 5000 });
      await w.locator('#status').filter({ hasText: 'mode fullscreen' }).waitFor({ timeout: 5000 });
      await body.and(w.locator('[data-display-mode="fullscreen"]')).waitFor({ timeout: 5000 });
      await page.getByTestId('view-exit-mode').click();
      await body.and(w.locator('[data-display-mode="inline"]')).waitFor({ timeout: 5000 });
      await colorScheme(page, 'dark');
      await body.and(w.locator('[data-theme="dark"]')).waitFor({ timeout: 5000 });
      await page.screenshot({ path: join(shots, 'view-appsdk-board-dark.png') });

      // Every message is in the logger's view lane, the widget state among them.
      const log = await page.evaluate(() => window.go.mcppool.MCPPool.RPCLog());
      const lane = log.filter((e) => e.server === 'apps' && e.direction === 'view-in').map((e) => e.method);
      for (const m of ['ui/initialize', 'mcpdesk/widget-state', 'tools/call', 'ui/request-display-mode']) {
        expect(lane.includes(m), `no ${m} from the widget in the logger: ${lane.join(', ')}`);
      }
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('apps sdk: in chat the widget state is kept with the call, comes back after a reload and reaches the model; a follow-up becomes the next turn', async () => {
    const fake = await startFakeLLM([
      { toolCalls: [{ name: 'apps__show_board', arguments: { title: 'sprint' } }] },
      { text: ['Here is the board.'] },
      { text: ['You picked beta.'] },
    ]);
    const app = await startApp('appsdk-chat', { mcpServers: { apps: { command: testServer, args: ['--apps'] } } });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl);
      await waitConnected(page, app, 'apps');
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('composer-input').fill('Show me the board');
      await page.getByTestId('composer-send').click();
      await page.getByTestId('approval-card').getByTestId('approval-run').click({ timeout: 20000 });
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'Here is the board.' }).waitFor({ timeout: 30000 });
      // The widget-only tool was never offered to the model.
      const first = (await fake.requests())[0]?.body?.tools?.map((t) => t.function?.name) ?? [];
      expect(first.includes('apps__show_board') && !first.includes('apps__board_add'), `tools offered: ${first.join(', ')}`);

      let w = widgetDoc(page);
      await w.locator('#items').filter({ hasText: 'items alpha, beta, gamma' }).waitFor({ timeout: 15000 });
      await w.locator('#pick').click();
      await w.locator('#picked').filter({ hasText: 'picked alpha' }).waitFor({ timeout: 5000 });
      await w.locator('#pick').click();
      await w.locator('#status').filter({ hasText: 'state saved' }).waitFor({ timeout: 5000 });
      await w.locator('#picked').filter({ hasText: 'picked beta' }).waitFor({ timeout: 5000 });

      // Reload: the widget is shown again with the state it saved.
      await page.reload();
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('chat-conversation-open').first().click();
      w = widgetDoc(page);
      await w.locator('#picked').filter({ hasText: 'picked beta' }).waitFor({ timeout: 15000 });

      // sendFollowUpMessage: consent, then the user's next message; the
      // request carries the widget state, marked as the widget's.
      await w.locator('#follow').click();
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor({ timeout: 5000 });
      expect((await dialog.innerText()).includes('Tell me about the board'), `the consent does not show the text: ${await dialog.innerText()}`);
      await page.getByTestId('confirm-ok').click();
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'You picked beta.' }).waitFor({ timeout: 30000 });
      const msgs = (await fake.requests())[2]?.body?.messages ?? [];
      const ctx = msgs.at(-2);
      expect(msgs.at(-1)?.content === 'Tell me about the board' && ctx?.role === 'user' && String(ctx.content).includes('[Widget state of apps › show_board')
        && String(ctx.content).includes('{"picked":"beta"}'), `the third request ends with ${JSON.stringify(msgs.slice(-2))}`);

      // A widget's tool call in chat goes through the conversation's
      // approval policies: asked first (with "don't ask again"), then not.
      await w.locator('#add').click();
      await dialog.waitFor({ timeout: 5000 });
      await page.getByTestId('confirm-option').check();
      await page.getByTestId('confirm-ok').click();
      await w.locator('#status').filter({ hasText: 'added: alpha, beta, gamma, new card' }).waitFor({ timeout: 10000 });
      await w.locator('#pick').click();
      await w.locator('#status').filter({ hasText: 'state saved' }).waitFor({ timeout: 5000 });
      await w.locator('#add').click();
      await w.locator('#status').filter({ hasText: 'added: alpha, beta, gamma, new card' }).waitFor({ timeout: 10000 });
      expect(!(await dialog.isVisible()), 'asked again after "don\'t ask again"');
      const audit = await page.evaluate(() => window.go.usage.UsageStats.Audit({ source: 'view', limit: 10 }));
      const approvals = (audit.entries ?? []).filter((e) => e.tool === 'board_add').map((e) => e.approval).sort();
      expect(JSON.stringify(approvals) === '["conversation","conversation"]', `audited approvals of board_add: ${JSON.stringify(approvals)}`);
      await page.screenshot({ path: join(shots, 'view-appsdk-in-chat.png') });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); await fake.stop?.(); }
  });
}
