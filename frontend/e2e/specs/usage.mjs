// Usage: two chats on a priced and an unpriced model in totals, charts, breakdowns and the CSV.
// (Moved from run.mjs as they were; the harness is ../harness.mjs.)
import { join } from 'node:path';

export default function (h) {
  const { shots, startApp, test, expect, openPage, startFakeLLM, addFakeProvider, sendInUI } = h;

  test('usage: two chats on a priced and an unpriced model show in totals, charts, breakdowns and the CSV', async () => {
    // Known token counts from the scripted streams: fake-1 1200 in / 300 out,
    // fake-2 2000 in (400 of them cached) / 500 out.
    const fake = await startFakeLLM([
      { text: ['The first ', 'answer.'], usage: { prompt: 1200, completion: 300 } },
      { text: ['The second ', 'answer.'], usage: { prompt: 2000, completion: 500, cached: 400 } },
    ], { models: ['fake-1', 'fake-2'] });
    const app = await startApp('usage-data', null, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl, 'fake-1');
      const providerId = await page.evaluate(async () => (await window.go.providers.ProviderManager.DefaultModel()).provider);

      // Two conversations through the chat UI: the default model, then fake-2.
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('chat-screen').waitFor({ timeout: 10000 });
      await sendInUI(page, 'First question on the priced model', 'The first answer.');
      await page.getByTestId('chat-new').click();
      const fake2 = `${providerId}\nfake-2`;
      await page.waitForFunction((want) => [...document.querySelectorAll('[data-testid="model-picker"] option')].some((o) => o.value === want),
        fake2, { timeout: 15000 });
      await page.getByTestId('model-picker').selectOption(fake2);
      await sendInUI(page, 'Second question on the unpriced model', 'The second answer.');

      // A price for fake-1 only, set from the Usage screen's "set price" link.
      await page.getByTestId('nav-usage').click();
      await page.getByTestId('usage-screen').waitFor({ timeout: 10000 });
      const byModel = page.getByTestId('usage-by-model');
      await byModel.getByTestId('usage-row').nth(1).waitFor({ timeout: 15000 });
      const fake1Row = byModel.getByTestId('usage-row').filter({ hasText: 'fake-1' });
      await fake1Row.getByTestId('usage-set-price').click();
      const form = page.getByTestId('price-form');
      await form.waitFor({ timeout: 5000 });
      expect((await form.getByTestId('price-model').inputValue()) === 'fake-1', 'the price form is not for fake-1');
      await form.getByTestId('price-input').fill('10');
      await form.getByTestId('price-output').fill('20');
      await form.getByTestId('price-save').click();
      await form.waitFor({ state: 'hidden', timeout: 10000 }).catch(async () => {
        throw new Error(`the price form stayed open: ${(await form.innerText()).replace(/\s+/g, ' ')}`);
      });
      await page.getByTestId('usage-tab-overview').click();

      // Totals: 3200 in, 800 out, 400 cached, 2 calls; $0.018 known (1200 × $10/M
      // + 300 × $20/M), partial because fake-2 has no price.
      const total = (id) => page.getByTestId(`usage-total-${id}`);
      await total('calls').filter({ hasText: /\b2\b/ }).waitFor({ timeout: 10000 });
      for (const [id, n] of [['input', '3,200'], ['output', '800'], ['cached', '400'], ['calls', '2']]) {
        const text = (await total(id).innerText()).replace(/\s+/g, ' ');
        expect(text.includes(n), `total ${id}: ${text}, want ${n}`);
      }
      const cost = page.getByTestId('usage-total-cost');
      await cost.getByTestId('cost-amount').filter({ hasText: '$0.018' }).waitFor({ timeout: 10000 }).catch(async () => {
        throw new Error(`total cost: ${(await cost.innerText()).replace(/\s+/g, ' ')}`);
      });
      expect(await cost.getByTestId('cost-partial').isVisible(), 'the total cost is not marked partial');

      // The charts: uPlot canvases with something drawn on them.
      for (const id of ['usage-chart-tokens', 'usage-chart-cost']) {
        const canvas = page.getByTestId(id).locator('.uplot canvas').first();
        await canvas.waitFor({ timeout: 10000 }).catch(() => { throw new Error(`${id} has no uPlot canvas`); });
        const drawn = await canvas.evaluate((c) => {
          if (!c.width || !c.height) return 0;
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
          return n;
        });
        expect(drawn > 100, `${id}: ${drawn} painted pixels`);
      }
      const legend = async () => (await page.getByTestId('usage-chart-tokens').locator('.legend').innerText()).replace(/\s+/g, ' ');
      expect((await legend()).includes('Fake'), `the token chart's legend by provider: ${await legend()}`);
      // Split by model: a series per model, and the cost chart names the unpriced one.
      await page.getByTestId('usage-split-model').click();
      await page.getByTestId('usage-chart-tokens').locator('.legend').filter({ hasText: 'fake-2' }).waitFor({ timeout: 5000 });
      expect((await legend()).includes('fake-1'), `the token chart's legend by model: ${await legend()}`);
      const note = await page.getByTestId('usage-chart-cost-note').innerText();
      expect(note.includes('fake-2') && !note.includes('fake-1'), `the cost chart's note on unpriced models: ${note}`);

      // Breakdowns: one provider, two models, two conversations.
      const rows = async (id) => (await page.getByTestId(id).getByTestId('usage-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
      const providers = await rows('usage-by-provider');
      expect(providers.length === 1 && providers[0].includes('Fake') && providers[0].includes('3,200') && providers[0].includes('$0.018'),
        `by provider: ${JSON.stringify(providers)}`);
      const models = await rows('usage-by-model');
      const m1 = models.find((r) => r.includes('fake-1'));
      const m2 = models.find((r) => r.includes('fake-2'));
      expect(models.length === 2 && m1 && m2, `by model: ${JSON.stringify(models)}`);
      expect(m1.includes('1,200') && m1.includes('300') && m1.includes('$0.018'), `fake-1 row: ${m1}`);
      expect(m2.includes('2,000') && m2.includes('500') && m2.includes('400') && m2.includes('no price set'), `fake-2 row: ${m2}`);
      const convs = await rows('usage-by-conversation');
      const c1 = convs.find((r) => r.includes('First question'));
      const c2 = convs.find((r) => r.includes('Second question'));
      expect(convs.length === 2 && c1 && c2, `by conversation: ${JSON.stringify(convs)}`);
      expect(c1.includes('$0.018') && c2.includes('no price set'), `conversation costs: ${JSON.stringify(convs)}`);
      await page.screenshot({ path: join(shots, 'usage-data.png') });

      // CSV: the menu offers every grouping; its "save" goes through a native
      // dialog, so the CSV is read from the same Go export with the screen's query.
      await page.getByTestId('usage-export').click();
      for (const by of ['day', 'provider', 'model', 'conversation', 'calls']) {
        await page.getByTestId(`usage-export-${by}`).waitFor({ timeout: 5000 });
      }
      await page.keyboard.press('Escape');
      const csv = await page.evaluate(async () => {
        const iso = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
        const now = new Date();
        const q = { from: iso(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 29)), to: iso(now),
          tzOffsetMinutes: -now.getTimezoneOffset() || 0, provider: '', model: '', conversationId: 0 };
        const u = window.go.usage.UsageStats;
        return { model: await u.ExportCSV(q, 'model'), conversation: await u.ExportCSV(q, 'conversation') };
      });
      const lines = csv.model.trim().split('\r\n');
      expect(lines[0] === 'provider,provider_name,model,calls,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,cost_usd,cost_note',
        `CSV header: ${lines[0]}`);
      expect(lines.length === 3, `CSV by model has ${lines.length} lines: ${JSON.stringify(lines)}`);
      expect(lines.includes(`${providerId},Fake,fake-1,1,1200,300,0,0,0.018,`), `CSV: no fake-1 line: ${JSON.stringify(lines)}`);
      expect(lines.includes(`${providerId},Fake,fake-2,1,2000,500,400,0,,no price set`), `CSV: no fake-2 line: ${JSON.stringify(lines)}`);
      const convLines = csv.conversation.trim().split('\r\n');
      expect(convLines[0].startsWith('conversation_id,title,calls,') && convLines.length === 3
        && convLines.some((l) => l.includes('First question') && l.endsWith(',0.018,'))
        && convLines.some((l) => l.includes('Second question') && l.endsWith(',,no price set')),
      `CSV by conversation: ${JSON.stringify(convLines)}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); fake.stop(); }
  });
}
