// Inspector: a tool from its form with progress and Stop, a resource, a prompt, elicitation, saved requests, completions, every server-everything tool on stdio and Streamable HTTP, resource subscriptions.
// (Moved from run.mjs as they were; the harness is ../harness.mjs.)
import { join } from 'node:path';

export default function (h) {
  const { shots, testServer, everything, startApp, test, expect, openPage, waitConnected, fillField, everythingAllTools } = h;

  test('inspector: run a tool from its form, see progress, stop a long call; read a resource; get a prompt', async () => {
    const app = await startApp('inspector', { mcpServers: { demo: { command: testServer } } });
    try {
      const { page, errors } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });

      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tool-item-echo').click();
      await page.getByTestId('schema-field-message').locator('input, textarea').first().fill('hello from the form');
      await page.getByTestId('tool-run').click();
      const result = page.getByTestId('tool-result');
      await result.filter({ hasText: 'Echo: hello from the form' }).waitFor({ timeout: 10000 });
      await page.screenshot({ path: join(shots, 'tools-echo.png') });

      // A long call shows progress and stops on request; the server is told.
      await page.getByTestId('tool-item-sleep').click();
      await page.getByTestId('schema-field-ms').locator('input').first().fill('20000');
      await page.getByTestId('tool-run').click();
      await page.getByTestId('tool-progress').waitFor({ timeout: 5000 });
      await page.waitForTimeout(600);
      await page.screenshot({ path: join(shots, 'tools-progress.png') });
      await page.getByTestId('tool-stop').click();
      await page.getByTestId('tool-call-cancelled').waitFor({ timeout: 5000 });
      const rpc = await page.evaluate(() => window.go.mcppool.MCPPool.RPCLog());
      expect(rpc.some((e) => e.method === 'notifications/cancelled' && e.direction === 'out'), 'no notifications/cancelled was sent');
      expect(rpc.some((e) => e.method === 'notifications/progress' && e.direction === 'in'), 'no progress notification arrived');

      await page.getByTestId('nav-resources').click();
      await page.getByTestId('resource-item-test://hello').click();
      await page.getByTestId('resource-preview').filter({ hasText: 'Hello, MCP Desk' }).waitFor({ timeout: 10000 });
      await page.screenshot({ path: join(shots, 'resources.png') });

      await page.getByTestId('nav-prompts').click();
      await page.getByTestId('prompt-item-greet').click();
      await page.getByTestId('prompt-arg-name').fill('Ada');
      await page.getByTestId('prompt-get').click();
      await page.getByTestId('prompt-messages').filter({ hasText: 'Ada' }).waitFor({ timeout: 10000 });
      await page.screenshot({ path: join(shots, 'prompts.png') });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('elicitation: a tool asks two questions in sequence, answered in the dialog (2026-07-28 and 2025-11-25)', async () => {
    const app = await startApp('elicit', { mcpServers: {
      modern: { command: testServer },
      legacy: { command: testServer, protocolVersion: '2025-11-25' },
    } });
    try {
      const { page } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      for (const id of ['modern', 'legacy']) {
        await page.getByTestId(`server-${id}`).getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      }
      await page.getByTestId('nav-tools').click();
      for (const id of ['modern', 'legacy']) {
        await page.getByTestId('tools-server-select').selectOption(id);
        await page.getByTestId('tool-item-confirm').click();
        await page.getByTestId('schema-field-action').locator('input').first().fill(`ship-${id}`);
        await page.getByTestId('tool-run').click();
        const dlg = page.getByTestId('elicitation-dialog');
        await dlg.filter({ hasText: 'Who is asking?' }).waitFor({ timeout: 10000 });
        const team = await dlg.getByTestId('schema-field-team').locator('input').first().inputValue();
        expect(team === 'core', `default not filled in: ${team}`);
        await dlg.getByTestId('schema-field-name').locator('input').first().fill('Ada');
        if (id === 'modern') await page.screenshot({ path: join(shots, 'elicitation.png') });
        await dlg.getByTestId('elicitation-accept').click();
        await dlg.filter({ hasText: 'Are you sure?' }).waitFor({ timeout: 10000 });
        await dlg.getByTestId('elicitation-decline').click();
        await page.getByTestId('tool-result').filter({ hasText: `confirming ship-${id}: who=accept{"name":"Ada","team":"core"} sure=decline` })
          .waitFor({ timeout: 10000 });
      }
    } finally { await app.stop(); }
  });

  test('saved requests: save a tool request, reload the app, load it back from SQLite', async () => {
    const app = await startApp('saved', { mcpServers: { demo: { command: testServer } } });
    try {
      const { page } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tool-item-echo').click();
      const message = () => page.getByTestId('schema-field-message').locator('input, textarea').first();
      await message().fill('kept for later');
      await page.getByTestId('tool-save').click();
      await page.getByTestId('save-request-name').fill('greeting');
      await page.getByTestId('save-request-description').fill('the usual hello');
      await page.getByTestId('save-request-confirm').click();
      await page.getByTestId('saved-request-item').filter({ hasText: 'greeting' }).waitFor({ timeout: 10000 });

      await page.reload();
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tool-item-echo').click();
      await message().fill('');
      await page.getByTestId('tool-tab-saved').click();
      const item = page.getByTestId('saved-request-item').filter({ hasText: 'greeting' });
      await item.waitFor({ timeout: 10000 });
      await item.getByTestId('saved-request-load').click();
      const v = await message().inputValue();
      expect(v === 'kept for later', `loaded arguments: ${v}`);
    } finally { await app.stop(); }
  });

  test('completions from server-everything: completable-prompt suggests departments, then leads for the chosen one', async () => {
    const app = await startApp('complete', { mcpServers: { everything: { command: 'node', args: [everything, 'stdio'] } } });
    try {
      const { page } = await openPage(app);
      await waitConnected(page, app, 'everything');
      await page.getByTestId('nav-prompts').click();
      await page.getByTestId('prompt-item-completable-prompt').click();
      const options = (arg) => page.getByTestId(`prompt-complete-${arg}`).locator('option').evaluateAll((os) => os.map((o) => o.value));
      await page.getByTestId('prompt-arg-department').fill('S');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="prompt-complete-department"] option').length === 2, null, { timeout: 5000 });
      const deps = await options('department');
      expect(JSON.stringify(deps) === '["Sales","Support"]', `departments: ${deps}`);
      await page.getByTestId('prompt-arg-department').fill('Engineering');
      await page.getByTestId('prompt-arg-name').focus();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="prompt-complete-name"] option').length === 3, null, { timeout: 5000 });
      const leads = await options('name');
      expect(JSON.stringify(leads) === '["Alice","Bob","Charlie"]', `leads: ${leads}`);
      await page.getByTestId('prompt-arg-name').fill('Alice');
      await page.getByTestId('prompt-get').click();
      await page.getByTestId('prompt-messages').filter({ hasText: 'Alice' }).waitFor({ timeout: 10000 });
    } finally { await app.stop(); }
  });

  test('every server-everything tool runs from the form (stdio)', () => everythingAllTools('stdio'));

  test('every server-everything tool runs from the form (Streamable HTTP)', () => everythingAllTools('http'));

  test('resource subscription shows live updates', async () => {
    const app = await startApp('subscribe', { mcpServers: { demo: { command: testServer } } });
    try {
      const { page, errors } = await openPage(app);
      await waitConnected(page, app, 'demo', 20000);
      await page.getByTestId('nav-resources').click();
      await page.getByTestId('resource-item-test://hello').click();
      await page.getByTestId('resource-preview').filter({ hasText: 'Hello, MCP Desk' }).waitFor({ timeout: 10000 });
      const button = page.getByTestId('resource-subscribe');
      await button.waitFor({ timeout: 5000 }).catch(() => {
        throw new Error('[data-testid=resource-subscribe] is not on the Resources screen (is the subscription UI there yet?)');
      });
      expect((await button.getAttribute('data-subscribed')) === 'false', `before subscribing: data-subscribed=${await button.getAttribute('data-subscribed')}`);
      // subscribed waits for the button to say on or off, else says why not.
      const subscribed = async (on) => {
        await page.locator(`[data-testid="resource-subscribe"][data-subscribed="${on}"]`).waitFor({ timeout: 10000 }).catch(async () => {
          const err = page.getByTestId('resource-subscribe-error');
          const why = (await err.count()) ? `resource-subscribe-error: ${await err.innerText()}` : 'no resource-subscribe-error shown';
          throw new Error(`resource-subscribe did not turn data-subscribed="${on}" (it says ${await button.getAttribute('data-subscribed')}, disabled=${await button.isDisabled()}); ${why}`);
        });
      };
      await button.click();
      await subscribed(true);

      // The server says test://hello changed.
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tool-item-update_resource').click();
      await fillField(page.getByTestId('tool-detail'), 'uri', 'test://hello');
      await page.getByTestId('tool-run').click();
      await page.getByTestId('tool-result').filter({ hasText: 'updated test://hello' }).waitFor({ timeout: 10000 });

      await page.getByTestId('nav-resources').click();
      if (!(await page.locator('[data-testid="resource-item-test://hello"][aria-current="true"]').count())) {
        await page.getByTestId('resource-item-test://hello').click();
      }
      const live = page.getByTestId('resource-live');
      await live.waitFor({ timeout: 10000 }).catch(() => {
        throw new Error('[data-testid=resource-live] did not show on the subscribed resource');
      });
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="resource-live"]')?.getAttribute('data-count')) >= 1, null, { timeout: 10000 })
        .catch(async () => {
          // Say what went over the wire, to tell a UI problem from a missing notification.
          const rpc = await page.evaluate(() => window.go.mcppool.MCPPool.RPCLog()).catch(() => []);
          const seen = rpc.filter((e) => /resources\/|subscri/.test(e.method)).map((e) => `${e.direction} ${e.method}`);
          throw new Error(`resource-live data-count stayed ${await live.getAttribute('data-count')}; resource traffic: ${seen.join(', ') || 'none'}`);
        });
      await page.screenshot({ path: join(shots, 'resource-live.png') });

      await button.click();
      await subscribed(false);
      await live.waitFor({ state: 'hidden', timeout: 5000 });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });
}
