// Words a user understands (issue 12, point 10): in 简体中文, a failure
// from Go is worded in Chinese from its code and params — a server whose
// program is missing, an entry of a file to import with a mistake, a call
// to a server that is turned off — and no English message from Go shows;
// durations are all written by one helper through Intl, so the Logger's
// latencies and a tool result's duration never mix "3 ms", "3 毫秒" and
// "9.5秒".

import { join } from 'node:path';

// English text from Go that a Chinese screen must never show.
const goTexts = [
  'executable file not found',
  'not found on PATH',
  'must be a string',
  'is disabled',
  'turned off',
  'not connected',
  'no server with id',
  'did not answer',
];

// hasChinese reports whether a text holds Chinese characters.
const hasChinese = (t) => /[\u4e00-\u9fff]/.test(t);

// zhDuration is a duration as Intl writes it in Chinese: "3毫秒", "1.2秒", "2分钟5秒".
const zhDuration = /^\d+(\.\d+)?(毫秒|秒)$|^\d+分钟(\d+秒)?$|^\d+小时(\d+分钟)?$/;

export default function ({ test, expect, startApp, openPage, testServer, shots }) {
  // visibleTexts returns every text node on the page, trimmed.
  const visibleTexts = (page) =>
    page.evaluate(() => {
      const out = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const t = n.textContent.trim();
        if (t) out.push(t);
      }
      return out;
    });
  const noEnglishFromGo = async (page, where) => {
    const texts = await visibleTexts(page);
    const bad = texts.filter((t) => goTexts.some((g) => t.includes(g)));
    expect(bad.length === 0, `${where}: English from Go on a Chinese screen: ${JSON.stringify(bad)}`);
  };

  test('words: in 简体中文, failures from Go read in Chinese and durations are written one way', async () => {
    const app = await startApp('words', { mcpServers: { demo: { command: testServer } } });
    try {
      const { page, errors } = await openPage(app);
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('settings-language-zh-CN').click();
      await page.getByText('服务器').first().waitFor({ timeout: 5000 });

      // A server whose program does not exist.
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: '已连接' }).waitFor({ timeout: 20000 });
      await page.getByTestId('add-server').first().click();
      await page.getByTestId('server-id').fill('broken');
      await page.getByTestId('server-command').fill('mcpdesk-no-such-program');
      await page.getByTestId('save-server').click();
      const reason = page.getByTestId('server-broken').getByTestId('server-error');
      await reason.waitFor({ timeout: 20000 });
      const row = await reason.innerText();
      expect(hasChinese(row) && row.includes('mcpdesk-no-such-program'), `the failed start reads: ${row}`);
      await page.getByTestId('toast').first().waitFor({ timeout: 20000 });
      const toast = await page.getByTestId('toast').first().innerText();
      expect(hasChinese(toast), `the toast reads: ${toast}`);
      await noEnglishFromGo(page, 'Servers');

      // A file to import with a mistake in one entry: its row says it in Chinese.
      const content = JSON.stringify({ mcpServers: { good: { command: testServer }, bad: { command: 42 } } }, null, 2);
      for (const type of ['dragenter', 'drop']) {
        await page.evaluate(([text, type]) => {
          const dt = new DataTransfer();
          dt.items.add(new File([text], 'claude_desktop_config.json', { type: 'application/json' }));
          window.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
        }, [content, type]);
      }
      const dialog = page.getByTestId('import-dialog');
      await dialog.waitFor({ timeout: 10000 });
      const problem = dialog.getByTestId('import-item-bad').getByTestId('import-problem');
      await problem.first().waitFor({ timeout: 5000 });
      const problems = await problem.allInnerTexts();
      expect(problems.length === 1, `problems: ${JSON.stringify(problems)}`);
      expect(problems[0].includes('claude_desktop_config.json:'), `the problem lost its place in the file: ${problems[0]}`);
      expect(problems[0].includes('必须是字符串，而不是数字'), `the problem reads: ${problems[0]}`);
      await page.screenshot({ path: join(shots, 'words-import-zh.png') });
      await noEnglishFromGo(page, 'import preview');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden', timeout: 5000 });

      // A tool call that works: its duration is Intl's Chinese.
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tools-server-select').selectOption('demo');
      await page.getByTestId('tool-item-echo').click();
      await page.getByTestId('schema-field-message').locator('input, textarea').first().fill('hi');
      await page.getByTestId('tool-run').click();
      const took = (await page.getByTestId('tool-duration').innerText({ timeout: 10000 })).trim();
      expect(zhDuration.test(took), `the tool result's duration reads "${took}"`);

      // The Logger's latencies: every one written the same way.
      if (!(await page.getByTestId('logger-panel').isVisible())) await page.getByTestId('logger-toggle').click();
      const panel = page.getByTestId('logger-panel');
      await panel.getByTestId('rpc-row').first().waitFor({ timeout: 10000 });
      const lats = (await panel.locator('.lat').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
      expect(lats.length > 0, 'no latencies in the Logger');
      const odd = lats.filter((t) => !zhDuration.test(t));
      expect(odd.length === 0, `latencies not written by Intl: ${JSON.stringify(odd)} (all: ${JSON.stringify(lats)})`);

      await page.screenshot({ path: join(shots, 'words-durations-zh.png') });
      await noEnglishFromGo(page, 'Tools');

      // A call to a server that was turned off meanwhile: the Tools tab no
      // longer offers Run, so call through the bindings and check what
      // reaches the page — a code and params the UI words, beside Go's
      // English for the logs.
      const refused = await page.evaluate(async () => {
        await window.go.mcppool.MCPPool.SetEnabled('demo', false);
        return window.go.mcppool.MCPPool.CallTool({ callId: 'words-1', server: 'demo', tool: 'echo', arguments: { message: 'x' } }).then(
          () => null,
          // Wails rejects with new Error(text): Go's usererr.Format sends JSON text.
          (e) => {
            try {
              return JSON.parse(e.message);
            } catch {
              return { raw: e.message };
            }
          },
        );
      });
      expect(refused?.code === 'call.serverDisabled', `the refusal: ${JSON.stringify(refused)}`);
      expect(/turned off/.test(refused.message), `its English for the logs: ${JSON.stringify(refused)}`);
      expect(refused.params?.server === 'demo', `its params: ${JSON.stringify(refused)}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });
}
