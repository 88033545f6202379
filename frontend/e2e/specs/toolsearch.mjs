// Tool search (issue 16) in Chromium against the dev build: with 52 tools
// enabled the tool picker says tool search is on and what each call costs;
// the model is offered search_tools alone, its search runs in MCP Desk
// without asking, and the tool it found is offered next and runs after the
// user approves it.
import { join } from 'node:path';

export default function ({ test, expect, startApp, openPage, waitConnected, testServer, shots, startFakeLLM, addFakeProvider }) {
  test('tool search: the model is offered search_tools, then the tool it found, which runs after approval', async () => {
    const fake = await startFakeLLM([
      { toolCalls: [{ name: 'search_tools', arguments: { query: 'generated tool 0007' } }] },
      { toolCalls: [{ name: 'big__tool_0007', arguments: { input: 'found it' } }] },
      { text: ['The seventh tool answered.'] },
    ]);
    const app = await startApp('toolsearch', { mcpServers: { big: { command: testServer, args: ['--tools', '40'] } } });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl);
      await waitConnected(page, app, 'big');
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('tools-picker').click();
      const cost = page.getByTestId('tools-picker-cost');
      await cost.waitFor({ timeout: 10000 });
      expect((await cost.getAttribute('data-searching')) === 'true', `tool search is not on: ${await cost.innerText()}`);
      expect(/52 tools: ≈[\d,]+ tokens/.test(await cost.innerText()), `the cost: ${await cost.innerText()}`);
      await page.keyboard.press('Escape');

      await page.getByTestId('composer-input').fill('Use the seventh generated tool');
      await page.getByTestId('composer-send').click();
      // The search needs no approval; the tool it found does.
      const card = page.getByTestId('approval-card');
      await card.waitFor({ timeout: 20000 });
      expect((await card.innerText()).includes('tool_0007'), `the approval: ${await card.innerText()}`);
      await card.getByTestId('approval-run').click();
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'The seventh tool answered.' }).waitFor({ timeout: 30000 });
      await page.screenshot({ path: join(shots, 'tool-search.png') });

      const reqs = await fake.requests();
      const names = (r) => (r.body.tools ?? []).map((t) => t.function?.name);
      expect(JSON.stringify(names(reqs[0])) === '["search_tools"]', `first offer: ${names(reqs[0])}`);
      expect(names(reqs[1]).includes('big__tool_0007'), `after the search: ${names(reqs[1])}`);
      const calls = page.getByTestId('tool-call');
      expect((await calls.first().getAttribute('data-status')) === 'done', 'the search did not run');
      expect((await calls.first().getByTestId('tool-call-toggle').innerText()).includes('MCP Desk'), 'the search is not shown as MCP Desk\'s');
      expect((await calls.nth(1).getAttribute('data-status')) === 'done', 'the found tool did not run');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); await fake.stop?.(); }
  });
}
