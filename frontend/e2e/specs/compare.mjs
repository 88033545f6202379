// Models side by side (issue 16) in Chromium against the dev build: one
// message to three models of the scripted provider; each answers in its own
// conversation and column, asks for its own approval of a real tool call,
// and shows its tokens; the requests name the three models.
import { join } from 'node:path';

export default function ({ test, expect, startApp, openPage, waitConnected, testServer, shots, startFakeLLM, addFakeProvider }) {
  test('compare: three models answer one message side by side, each approving its own tool call', async () => {
    // Each model has its own two turns: the columns' requests come in
    // whatever order the three conversations reach them.
    const call = (forModel) => ({ forModel, toolCalls: [{ name: 'demo__echo', arguments: { message: 'side by side' } }] });
    const fake = await startFakeLLM(['one', 'two', 'three'].flatMap((n, i) => [call(`fake-${i + 1}`), { forModel: `fake-${i + 1}`, text: [`Answer ${n}.`] }]),
      { models: ['fake-1', 'fake-2', 'fake-3'] });
    const app = await startApp('compare', { mcpServers: { demo: { command: testServer } } });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl);
      await waitConnected(page, app, 'demo');
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('chat-compare').click();
      // The first row holds the chat's model, even when the picker opened
      // before the models were read (a CI run once caught it empty).
      await page.getByTestId('compare-model-0').locator('option:checked', { hasText: 'fake-1' }).waitFor({ state: 'attached', timeout: 5000 });
      const pick = async (i, model) => {
        const sel = page.getByTestId(`compare-model-${i}`);
        const value = await sel.locator('option', { hasText: model }).getAttribute('value');
        await sel.selectOption(value);
      };
      await pick(1, 'fake-2');
      await pick(2, 'fake-3');
      await page.getByTestId('compare-apply').click();
      await page.getByTestId('compare-ready').waitFor({ timeout: 5000 });
      await page.getByTestId('composer-input').fill('Echo something, each of you');
      await page.getByTestId('composer-send').click();

      const columns = page.getByTestId('compare-column');
      for (let i = 0; i < 3; i++) {
        const card = columns.nth(i).getByTestId('approval-card');
        await card.waitFor({ timeout: 20000 });
        await card.getByTestId('approval-run').click();
      }
      for (let i = 0; i < 3; i++) {
        await columns.nth(i).locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: `Answer ${['one', 'two', 'three'][i]}.` }).waitFor({ timeout: 30000 });
        await columns.nth(i).getByTestId('compare-time').filter({ hasNotText: 'answering' }).waitFor({ timeout: 10000 });
        expect(/\d+ tokens/.test(await columns.nth(i).getByTestId('compare-tokens').innerText()), 'a column has no tokens');
      }
      await page.screenshot({ path: join(shots, 'compare-three-models.png') });
      const reqs = await fake.requests();
      const models = new Set(reqs.map((r) => r.body.model));
      expect(models.size === 3 && ['fake-1', 'fake-2', 'fake-3'].every((m) => models.has(m)), `the models asked: ${[...models]}`);
      // Each conversation is in the list, stored like any other.
      await page.locator('[data-testid^="chat-conversation-"]').nth(2).waitFor({ timeout: 10000 });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); await fake.stop?.(); }
  });
}
