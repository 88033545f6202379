// Servers and the logger tell the truth (issue 12, points 4 and 5):
// adding a server whose program does not exist says, in one warning, that it
// was added but failed to start and why — never a green "added" beside a
// red failure; a tool call the user stopped is shown in the logger as
// cancelled by the user, with our notifications/cancelled, never as an
// error received from the server, an internal field or Go's error text; a
// server row opens a detail view whose tools count opens the Tools tab on
// that server.

// goTexts are Go's error strings and internal fields the logger must never show.
const goTexts = ['context canceled', 'context deadline exceeded', '_transport'];

import { join } from 'node:path';

export default function ({ test, expect, startApp, openPage, testServer, shots }) {
  // toasts returns the toasts on screen as {kind, text}.
  const toasts = (page) =>
    page.getByTestId('toast').evaluateAll((els) => els.map((e) => ({ kind: e.dataset.kind, text: e.textContent.replace(/\s+/g, ' ').trim() })));

  test('servers-truth: adding a server whose program is missing warns it was added but failed to start, and says why', async () => {
    const app = await startApp('truth-add');
    try {
      const { page, errors } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('add-server').first().click();
      await page.getByTestId('server-id').fill('broken');
      await page.getByTestId('server-command').fill('mcpdesk-no-such-program');
      await page.getByTestId('save-server').click();
      await page.getByTestId('server-broken').getByTestId('server-state').filter({ hasText: /failed/i }).waitFor({ timeout: 20000 });
      // The answer to the add comes once the start has failed: its toast is
      // the warning, and it is the only toast.
      await page.getByTestId('toast').first().waitFor({ timeout: 20000 });
      const shown = await toasts(page);
      expect(shown.length === 1, `want one toast, got ${JSON.stringify(shown)}`);
      expect(shown[0].kind === 'warning', `want a warning, got ${JSON.stringify(shown)}`);
      expect(
        shown[0].text.includes('Server “broken” added, but it failed to start: The program “mcpdesk-no-such-program” was not found on your PATH.'),
        `toast: ${shown[0].text}`,
      );
      expect(!shown.some((t) => t.kind === 'success'), `a green toast beside the failure: ${JSON.stringify(shown)}`);
      await page.screenshot({ path: join(shots, 'servers-truth-add-failed.png') });
      const row = await page.getByTestId('server-broken').getByTestId('server-error').innerText();
      expect(row.includes('The program “mcpdesk-no-such-program” was not found on your PATH.'), `the row's reason: ${row}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('servers-truth: a tool call the user stopped shows in the logger as cancelled by you, with no Go error text', async () => {
    const app = await startApp('truth-cancel', { mcpServers: { demo: { command: testServer } } });
    try {
      const { page, errors } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tool-item-sleep').click();
      await page.getByTestId('schema-field-ms').locator('input').first().fill('30000');
      await page.getByTestId('tool-run').click();
      await page.getByTestId('tool-progress').waitFor({ timeout: 10000 });
      await page.getByTestId('tool-stop').click();
      await page.getByTestId('tool-call-cancelled').waitFor({ timeout: 10000 });

      if (!(await page.getByTestId('rpc-filter-method').isVisible())) await page.getByTestId('logger-toggle').click();
      await page.getByTestId('rpc-filter-method').fill('tools/call');
      const panel = page.getByTestId('logger-panel');
      // Our note of the call's end, and the outcome on its request row.
      const note = panel.getByTestId('rpc-note').filter({ hasText: 'Cancelled by you' });
      await note.first().waitFor({ timeout: 10000 });
      await panel.getByTestId('rpc-outcome').filter({ hasText: 'Cancelled by you' }).first().waitFor({ timeout: 5000 });
      const rows = await panel.getByTestId('rpc-row').evaluateAll((els) => els.map((e) => ({ kind: e.dataset.kind, text: e.textContent })));
      expect(!rows.some((r) => r.kind === 'error'), `a stopped call is listed as an error: ${JSON.stringify(rows)}`);
      await note.first().click();
      await page.screenshot({ path: join(shots, 'servers-truth-logger-cancelled.png') });
      const explain = await page.getByTestId('rpc-explain').innerText();
      expect(explain.includes('You stopped this tools/call'), `detail: ${explain}`);
      expect((await page.getByTestId('rpc-payload').count()) === 0, 'the note is shown as a message payload');

      // Our notifications/cancelled was sent, in words.
      await page.getByTestId('rpc-filter-method').fill('notifications/cancelled');
      const sent = panel.getByTestId('rpc-row').first();
      await sent.waitFor({ timeout: 10000 });
      expect((await sent.locator('.dir').getAttribute('title')) === 'Sent to the server', 'notifications/cancelled is not shown as sent');
      await sent.click();
      const payload = await page.getByTestId('rpc-payload').innerText();
      expect(payload.includes('The user stopped this request.'), `notifications/cancelled: ${payload}`);

      const text = await panel.innerText();
      for (const bad of goTexts) expect(!text.includes(bad), `the logger shows "${bad}"`);
      const rpc = await page.evaluate(() => window.go.mcppool.MCPPool.RPCLog());
      const bad = rpc.filter((e) => (e.method === 'tools/call' && e.direction === 'in' && e.kind === 'error') || goTexts.some((g) => e.payload.includes(g)));
      expect(bad.length === 0, `logger entries that lie: ${JSON.stringify(bad)}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('servers-truth: a server row opens its detail, and its tools count opens the Tools tab on that server', async () => {
    const app = await startApp('truth-detail', {
      mcpServers: {
        first: { command: testServer, args: ['--name', 'first'] },
        demo: { command: testServer, args: ['--name', 'demo-server', '--instructions', 'Use **echo** first.', '--stderr', 'hello from demo stderr'] },
      },
    });
    try {
      const { page, errors } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      for (const id of ['first', 'demo']) {
        await page.getByTestId(`server-${id}`).getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      }
      // Keyboard: the row's title is a button.
      await page.getByTestId('server-demo').getByTestId('server-open').focus();
      await page.keyboard.press('Enter');
      const dlg = page.getByTestId('server-detail');
      await dlg.waitFor({ timeout: 5000 });
      await dlg.getByTestId('detail-capabilities').waitFor({ timeout: 5000 });
      const protocol = await dlg.getByTestId('detail-protocol').innerText();
      expect(/2025-11-25|2026-07-28/.test(protocol), `protocol: ${protocol}`);
      expect((await dlg.getByTestId('detail-info').innerText()).includes('demo-server'), 'server info');
      expect((await dlg.getByTestId('detail-capabilities').innerText()).includes('Tools'), 'capabilities');
      expect((await dlg.getByTestId('detail-instructions').locator('strong').innerText()) === 'echo', 'instructions as markdown');
      await dlg.getByTestId('detail-stderr').filter({ hasText: 'hello from demo stderr' }).waitFor({ timeout: 5000 });
      expect((await dlg.getByTestId('detail-starts').innerText()).includes('Started'), 'starts');
      await page.screenshot({ path: join(shots, 'servers-truth-detail.png') });
      const count = await dlg.getByTestId('detail-open-tools').innerText();
      expect(/\d+ tools/.test(count), `tools count: ${count}`);
      await dlg.getByTestId('detail-open-tools').click();
      await page.getByTestId('tool-item-echo').waitFor({ timeout: 10000 });
      expect((await page.getByTestId('nav-tools').getAttribute('aria-current')) === 'page', 'not on the Tools tab');
      expect((await page.getByTestId('tools-server-select').inputValue()) === 'demo', 'the Tools tab shows another server');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });
}
