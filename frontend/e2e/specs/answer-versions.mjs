// Issue 12, point 6: Regenerate keeps every version of an answer. The
// answer shows ‹ 1 / 2 › to switch; Stop during a regeneration keeps what
// the new version had streamed and the old versions stay; the choice, the
// versions, search and the exports survive a reload.
import { join } from 'node:path';
import { axeViolations } from '../axe.mjs';

export default function ({ test, expect, startApp, openPage, colorScheme, root, shots, startFakeLLM }) {
  test('answer versions: regenerate keeps the old answer (‹ 1 / 2 ›), Stop keeps a partial version, all survive a reload', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i} `);
    const llm = await startFakeLLM([
      { text: ['First answer ', 'alpha.'] },
      { text: ['Second answer ', 'beta.'] },
      { text: words, delayMs: 40 },
      { text: ['Built on the first answer.'] },
    ]);
    const app = await startApp('answer-versions', null, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await page.evaluate(async (baseUrl) => {
        const pm = window.go.providers.ProviderManager;
        const p = await pm.Save({ id: '', name: 'Fake', type: 'openai', preset: 'custom', baseUrl, keyEnv: '', azure: false, azureApiVersion: '', headers: {}, enabled: true });
        await pm.SetDefaultModel({ provider: p.id, model: 'fake-1' });
      }, `${llm.url}/v1`);
      await page.reload();
      await page.getByTestId('nav-chat').click();

      const reply = page.getByTestId('message-assistant').last();
      const markdown = reply.getByTestId('message-markdown');
      const position = reply.getByTestId('answer-version-position');
      const idle = () => page.getByTestId('composer-send').waitFor({ timeout: 20000 });
      // shows waits for the answer shown to hold text and say n / total.
      const shows = async (text, where) => {
        await markdown.filter({ hasText: text }).waitFor({ timeout: 20000 }).catch(() => {
          throw new Error(`the answer does not show "${text}" (${where})`);
        });
        if (!where) return;
        await position.filter({ hasText: where }).waitFor({ timeout: 10000 }).catch(async () => {
          const now = (await position.count()) ? await position.innerText() : 'no ‹ n / m › switcher at all';
          throw new Error(`the answer should say ${where}, it says: ${now}`);
        });
      };

      await page.getByTestId('composer-input').fill('Tell me something.');
      await page.getByTestId('composer-send').click();
      await shows('First answer alpha.');
      await idle();

      // Regenerate: the new answer is version 2 of 2, the first is kept.
      await reply.getByTestId('message-regenerate').click();
      await shows('Second answer beta.', '2 / 2');
      await idle();
      await reply.getByTestId('answer-version-previous').click();
      await shows('First answer alpha.', '1 / 2');
      expect(await page.getByTestId('message-assistant').count() === 1, 'both versions are shown at once');

      // Regenerate again and Stop mid-stream: the partial text is version 3.
      await reply.getByTestId('message-regenerate').click();
      await markdown.filter({ hasText: 'word20' }).waitFor({ timeout: 20000 });
      await page.getByTestId('composer-stop').click();
      await page.locator('[data-testid="message-assistant"][data-status="interrupted"]').waitFor({ timeout: 10000 });
      await idle();
      await shows('word20', '3 / 3');
      const partial = (await markdown.innerText()).trim();
      expect(!partial.includes('word399'), 'the stopped version holds the whole stream');

      // The switcher passes axe in light and dark.
      for (const scheme of ['light', 'dark']) {
        await colorScheme(page, scheme);
        const found = await axeViolations(page, '[data-testid="answer-versions"]');
        expect(found.length === 0, `axe (${scheme}) on the switcher: ${found.join('; ')}`);
      }
      await colorScheme(page, 'light');

      // ‹ from the keyboard alone: the older versions are still there, and
      // focus stays on the switcher of the version shown.
      await reply.getByTestId('answer-version-previous').focus();
      await page.keyboard.press('Enter');
      await shows('Second answer beta.', '2 / 3');
      await page.keyboard.press('Enter');
      await shows('First answer alpha.', '1 / 3');
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
      expect(focused === 'answer-version-next', `after reaching version 1 the focus is on ${focused}, not on ›`);
      await page.screenshot({ path: join(shots, 'answer-versions.png') });

      // A reload keeps the versions and the one chosen.
      await page.reload();
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('chat-conversation-open').first().click();
      await shows('First answer alpha.', '1 / 3');
      await reply.getByTestId('answer-version-next').click();
      await shows('Second answer beta.', '2 / 3');
      await reply.getByTestId('answer-version-next').click();
      await shows('word20', '3 / 3');
      expect((await markdown.innerText()).trim() === partial, 'the stopped version changed after the reload');
      expect(await reply.getAttribute('data-status') === 'interrupted', 'the stopped version is not marked as stopped');

      // Search finds text in a version not shown, and opening the hit shows it.
      await page.getByTestId('chat-search').fill('alpha');
      const hitVersion = await page.getByTestId('chat-search-hit').first().getByTestId('chat-search-hit-version').innerText();
      expect(hitVersion.trim() === 'Answer version 1 of 3', `the hit says "${hitVersion}", not which version it is in`);
      await page.getByTestId('chat-search-hit').first().click();
      await shows('First answer alpha.', '1 / 3');
      await page.getByTestId('chat-search').fill('');

      // Exports carry every version, the selected one named.
      const convId = await page.evaluate(async () => (await window.go.chat.ChatService.ListConversations(10, 0))[0].id);
      const md = await page.evaluate((id) => window.go.chat.ChatService.Export(id, 'md'), convId);
      for (const want of ['**Answer version 1 of 3** (selected)', 'First answer alpha.', '**Answer version 2 of 3**', 'Second answer beta.', '**Answer version 3 of 3** (stopped)', 'word20']) {
        expect(md.includes(want), `the Markdown export lacks "${want}"`);
      }
      const json = JSON.parse(await page.evaluate((id) => window.go.chat.ChatService.Export(id, 'json'), convId));
      const versions = json.messages.filter((m) => m.role === 'assistant').map((m) => m.version).sort();
      expect(JSON.stringify(versions) === '[1,2,3]', `the JSON export has assistant versions ${JSON.stringify(versions)}`);

      // The version chosen is the one the next turn is built on.
      await page.getByTestId('composer-input').fill('Go on.');
      await page.getByTestId('composer-send').click();
      await shows('Built on the first answer.');
      await idle();
      const last = (await llm.requests()).at(-1);
      const sent = JSON.stringify(last?.body?.messages ?? last);
      expect(sent.includes('First answer alpha.') && !sent.includes('Second answer beta.') && !sent.includes('word20'),
        `the follow-up was not built on version 1: ${sent.slice(0, 400)}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); llm.stop(); }
  });
}
