// Issue 12, point 9: a model is named as the composer names it, by the
// provider's name in Settings and the model ("Fake LLM · fake-1"), never by
// the provider's internal id ("fake-llm-7entat/fake-1"): in the transcript,
// in the sampling dialog and in the Markdown export. The JSON export keeps
// the ids and adds the names.
import { join } from 'node:path';

export default function ({ test, expect, startApp, openPage, waitConnected, shots, startFakeLLM, everything }) {

  // shownIds lists the visible texts and tooltips of the page that hold id.
  const shownIds = (page, id) => page.evaluate((id) => {
    const found = [];
    if (document.body.innerText.includes(id)) found.push(`text: ${document.body.innerText.split('\n').find((l) => l.includes(id))}`);
    for (const el of document.querySelectorAll('[title], [aria-label]')) {
      for (const a of ['title', 'aria-label']) {
        const v = el.getAttribute(a);
        if (v && v.includes(id)) found.push(`${a} of ${el.dataset.testid ?? el.tagName}: ${v}`);
      }
    }
    return found;
  }, id);

  test('model names: the transcript, the sampling dialog and the Markdown export say "Fake LLM · fake-1", not the provider id', async () => {
    const llm = await startFakeLLM([{ text: ['Hello ', 'from the fake model.'] }]);
    const app = await startApp('model-names', { mcpServers: { everything: { command: 'node', args: [everything, 'stdio'] } } }, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await waitConnected(page, app, 'everything');
      const providerId = await page.evaluate(async (baseUrl) => {
        const pm = window.go.providers.ProviderManager;
        const p = await pm.Save({ id: '', name: 'Fake LLM', type: 'openai', preset: 'custom', baseUrl, keyEnv: '', azure: false, azureApiVersion: '', headers: {}, enabled: true });
        await pm.SetDefaultModel({ provider: p.id, model: 'fake-1' });
        return p.id;
      }, `${llm.url}/v1`);
      expect(providerId && providerId !== 'Fake LLM', `the provider id is ${JSON.stringify(providerId)}`);
      await page.reload();
      await page.getByTestId('nav-chat').click();

      // A chat turn: the answer names its model by the provider's name.
      await page.getByTestId('composer-input').fill('Say hello.');
      await page.getByTestId('composer-send').click();
      const reply = page.getByTestId('message-assistant').last();
      await reply.getByTestId('message-markdown').filter({ hasText: 'from the fake model.' }).waitFor({ timeout: 20000 });
      await page.getByTestId('composer-send').waitFor({ timeout: 20000 });
      const model = (await reply.getByTestId('message-model').innerText()).trim();
      expect(model === 'Fake LLM · fake-1', `the answer names its model "${model}", want "Fake LLM · fake-1"`);
      const ids = await shownIds(page, providerId);
      expect(ids.length === 0, `the chat shows the provider's internal id ${providerId}: ${ids.join('; ')}`);
      await page.screenshot({ path: join(shots, 'model-names-chat.png') });

      // The exports: Markdown for people names the provider; JSON keeps the
      // ids and adds the names.
      const convId = await page.evaluate(async () => (await window.go.chat.ChatService.ListConversations(10, 0))[0].id);
      const md = await page.evaluate((id) => window.go.chat.ChatService.Export(id, 'md'), convId);
      expect(md.includes('- **Model:** Fake LLM · fake-1\n'), `the Markdown export does not name the model "Fake LLM · fake-1":\n${md.slice(0, 300)}`);
      expect(!md.includes(providerId), `the Markdown export shows the provider's internal id ${providerId}:\n${md.slice(0, 300)}`);
      const json = JSON.parse(await page.evaluate((id) => window.go.chat.ChatService.Export(id, 'json'), convId));
      expect(json.conversation.settings.provider === providerId, `the JSON export lost the provider id: ${JSON.stringify(json.conversation.settings)}`);
      expect(json.providers?.[providerId] === 'Fake LLM', `the JSON export does not name the provider: ${JSON.stringify(json.providers)}`);

      // A server's sampling request: the dialog says which model answers, by
      // name, also on a screen that has not read the providers (a reload
      // straight to Tools).
      await page.getByTestId('nav-tools').click();
      await page.reload();
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tool-item-trigger-sampling-request').click({ timeout: 15000 });
      const detail = page.getByTestId('tool-detail');
      await detail.getByTestId('schema-field-prompt').locator('input, textarea').first().fill('Say hello');
      await page.getByTestId('tool-run').click();
      const dialog = page.getByTestId('sampling-dialog');
      await dialog.waitFor({ timeout: 10000 });
      // The dialog names the model as soon as it has read the providers.
      await dialog.getByText('Answered by Fake LLM · fake-1').waitFor({ timeout: 10000 }).catch(() => {});
      const said = (await dialog.innerText()).replace(/\s+/g, ' ');
      expect(said.includes('Answered by Fake LLM · fake-1'), `the sampling dialog does not say "Answered by Fake LLM · fake-1": ${said.slice(0, 300)}`);
      const inDialog = await shownIds(page, providerId);
      expect(inDialog.length === 0, `the sampling dialog shows the provider's internal id ${providerId}: ${inDialog.join('; ')}`);
      await page.screenshot({ path: join(shots, 'model-names-sampling.png') });
      await dialog.getByTestId('sampling-reject').click();
      await dialog.waitFor({ state: 'hidden', timeout: 5000 });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); llm.stop(); }
  });
}
