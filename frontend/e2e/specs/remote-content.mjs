// Remote images (issue 11, point 3): a model reply or a tool result that
// points at a remote image makes no request — neither from the page nor
// from Go — until "Load images from HOST" is pressed; then Go fetches it
// (the page never does) and it shows; revoked in Settings, it is a
// placeholder again after a reload. A local HTTP server counts every
// request; the page's own network log is watched too.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export default function ({ test, expect, startApp, openPage, waitConnected, track, root, work, shots, fakeLLM }) {
  // countingServer answers every request with a PNG and keeps what it got.
  async function countingServer() {
    const hits = [];
    const srv = createServer((req, res) => {
      hits.push({ url: req.url, headers: req.headers });
      res.writeHead(200, { 'Content-Type': 'image/png', 'Set-Cookie': 'session=s3cret; Path=/' });
      res.end(PNG);
    });
    await new Promise((r) => srv.listen(0, '127.0.0.1', r));
    const port = srv.address().port;
    return { hits, port, base: `http://127.0.0.1:${port}`, close: () => new Promise((r) => srv.close(r)) };
  }

  // watchPage records every request the page makes to port.
  function watchPage(page, port) {
    const seen = [];
    page.on('request', (r) => { if (r.url().includes(`:${port}`)) seen.push(r.url()); });
    return seen;
  }

  let hostile = '';
  function hostileServer() {
    if (!hostile) {
      hostile = join(work, 'hostileserver');
      execFileSync('go', ['build', '-o', hostile, './backend/mcppool/hostileserver'], { cwd: root, stdio: 'inherit' });
    }
    return hostile;
  }

  async function startFake(turns) {
    const script = join(mkdtempSync(join(work, 'remote-llm-')), 'script.json');
    writeFileSync(script, JSON.stringify(turns));
    const proc = spawn(fakeLLM, ['--addr', '127.0.0.1:0', '--script', script, '--models', 'fake-1', '--repeat'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = track(proc);
    const url = await new Promise((res, rej) => {
      let buf = '';
      const t = setTimeout(() => rej(new Error('fakellm did not listen within 10 s')), 10000);
      proc.stdout.on('data', (d) => {
        buf += d;
        const m = buf.match(/listening (\S+)/);
        if (m) { clearTimeout(t); res(m[1]); }
      });
    });
    return { baseUrl: `${url}/v1`, stop };
  }

  // Revoke every grant of host in Settings → Remote images.
  async function revokeInSettings(page, host) {
    await page.getByTestId('nav-settings').click();
    const card = page.getByTestId('settings-remote-images');
    const row = card.locator(`[data-testid="remote-grant"][data-host="${host}"]`).first();
    await row.waitFor({ timeout: 10000 });
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(shots, 'remote-images-settings.png') });
    while (await card.locator(`[data-testid="remote-grant"][data-host="${host}"]`).count()) {
      await card.locator(`[data-testid="remote-grant"][data-host="${host}"]`).first().getByTestId('remote-grant-revoke').click();
      await page.waitForTimeout(200);
    }
    await card.getByTestId('remote-images-empty').waitFor({ timeout: 10000 });
  }

  test('remote images: a model reply loads nothing until "Load images from 127.0.0.1"; Go fetches it; revoked, it is a placeholder again', async () => {
    const counter = await countingServer();
    const leak = `${counter.base}/leak?d=secret`;
    const fake = await startFake([{ text: ['Here is the chart:\n\n', `![Sales chart](${leak})`, '\n\nDone.'] }]);
    const app = await startApp('remote-chat', null, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      const pageHits = watchPage(page, counter.port);
      await page.evaluate(async (baseUrl) => {
        const pm = window.go.providers.ProviderManager;
        const p = await pm.Save({ id: '', name: 'Fake', type: 'openai', preset: 'custom', baseUrl, keyEnv: '', azure: false, azureApiVersion: '', headers: {}, enabled: true });
        await pm.SetDefaultModel({ provider: p.id, model: 'fake-1' });
      }, fake.baseUrl);
      await page.reload();
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('composer-input').fill('Show me the sales chart.');
      await page.getByTestId('composer-send').click();
      const reply = page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'Done.' });
      await reply.waitFor({ timeout: 30000 });
      const md = reply.getByTestId('message-markdown');
      const load = md.getByTestId('remote-image-load');
      await page.waitForFunction(() => {
        const b = document.querySelector('[data-testid="message-markdown"] [data-testid="remote-image-load"]');
        return b && !b.disabled;
      }, null, { timeout: 10000 });
      expect((await load.innerText()).includes('Load images from 127.0.0.1'), `the button says ${await load.innerText()}`);
      expect((await md.locator('span.remote-image').innerText()).includes('Sales chart'), 'the placeholder does not show the alt text');
      await page.screenshot({ path: join(shots, 'remote-image-placeholder.png') });
      expect(counter.hits.length === 0, `the image server got ${counter.hits.length} requests before Load: ${JSON.stringify(counter.hits.map((h) => h.url))}`);
      expect(pageHits.length === 0, `the page requested ${pageHits.join(', ')}`);

      await load.click();
      const img = md.getByTestId('remote-image');
      await img.waitFor({ timeout: 15000 });
      const src = await img.getAttribute('src');
      expect(src.startsWith('data:image/png;base64,'), `the image's src is ${src.slice(0, 60)}`);
      expect(counter.hits.length === 1 && counter.hits[0].url === '/leak?d=secret', `requests after Load: ${JSON.stringify(counter.hits.map((h) => h.url))}`);
      const h = counter.hits[0].headers;
      expect(!h.cookie && !h.authorization && !h.referer, `Go sent credentials: ${JSON.stringify(h)}`);
      expect(pageHits.length === 0, `the page itself requested ${pageHits.join(', ')}`);
      await page.screenshot({ path: join(shots, 'remote-image-loaded.png') });

      await revokeInSettings(page, '127.0.0.1');
      await page.reload();
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('chat-conversation-open').first().click();
      const again = page.locator('[data-testid="message-assistant"]').filter({ hasText: 'Done.' }).getByTestId('message-markdown');
      await again.getByTestId('remote-image-load').waitFor({ timeout: 15000 });
      expect((await again.getByTestId('remote-image').count()) === 0, 'the image still shows after revoking');
      expect(counter.hits.length === 1, `requests after revoking: ${counter.hits.length}`);
      expect(pageHits.length === 0, `the page itself requested ${pageHits.join(', ')}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); fake.stop(); await counter.close(); }
  });

  test('remote images: a hostile tool result in the Tools tab loads nothing until "Load images from 127.0.0.1"; icons follow the same rule', async () => {
    const counter = await countingServer();
    const base = `${counter.base}/leak?d=secret`;
    const bin = hostileServer();
    const app = await startApp('remote-tools', { mcpServers: { hostile: { command: bin, args: ['--mode', 'remote'], env: { HOSTILE_REMOTE_URL: base } } } });
    try {
      const { page, errors } = await openPage(app);
      const pageHits = watchPage(page, counter.port);
      await waitConnected(page, app, 'hostile');
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tool-item-remote_icon').waitFor({ timeout: 15000 });
      await page.getByTestId('tool-item-remote_icon').getByTestId('tool-icon-blocked').waitFor({ timeout: 10000 });

      const run = async () => {
        await page.getByTestId('tool-item-remote_markdown').click();
        await page.getByTestId('schema-field-url').locator('input, textarea').first().fill(base);
        await page.getByTestId('tool-run').click();
        await page.getByTestId('result-markdown').first().waitFor({ timeout: 15000 });
        return page.getByTestId('tool-result');
      };
      let result = await run();
      await page.waitForFunction(() => {
        const b = document.querySelector('[data-testid="result-markdown"] [data-testid="remote-image-load"]');
        return b && !b.disabled;
      }, null, { timeout: 10000 });
      const placeholders = await result.locator('span.remote-image').count();
      expect(placeholders >= 7, `only ${placeholders} placeholders in the hostile result`);
      expect((await result.getByTestId('remote-image-load').first().innerText()).includes('Load images from 127.0.0.1'), 'button text');
      // Every other vector is gone: nothing in the result may fetch.
      const fetching = await result.evaluate((el) => [...el.querySelectorAll('*')].flatMap((e) =>
        ['src', 'srcset', 'poster', 'data', 'background', 'style', 'action', 'formaction', 'href'].filter((a) => {
          const v = e.getAttribute(a);
          return v && v.includes('127.0.0.1') && !(a === 'href' && e.localName === 'a');
        }).map((a) => `<${e.localName} ${a}>`)));
      expect(fetching.length === 0, `attributes that fetch: ${fetching.join(', ')}`);
      await page.screenshot({ path: join(shots, 'remote-tool-placeholders.png') });
      expect(counter.hits.length === 0, `the image server got ${counter.hits.length} requests before Load: ${JSON.stringify(counter.hits.map((h) => h.url))}`);
      expect(pageHits.length === 0, `the page requested ${pageHits.join(', ')}`);

      await result.getByTestId('remote-image-load').first().click();
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="tool-result"] [data-testid="remote-image"]').length >= n, placeholders, { timeout: 20000 });
      const srcs = await result.getByTestId('remote-image').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src')));
      expect(srcs.every((s) => s.startsWith('data:image/png;base64,')), `image sources: ${srcs.map((s) => s.slice(0, 40)).join(', ')}`);
      // The tool icon of the same server and host now loads too, through Go.
      const icon = page.getByTestId('tool-item-remote_icon').getByTestId('tool-icon');
      await icon.waitFor({ timeout: 10000 });
      expect((await icon.getAttribute('src')).startsWith('data:image/png'), 'the tool icon is not a data: URL');
      expect(counter.hits.every((h) => !h.headers.cookie && !h.headers.authorization), 'Go sent a cookie or authorization');
      expect(counter.hits.some((h) => h.url.includes('v=tool-icon')), 'the icon was not fetched by Go');
      expect(pageHits.length === 0, `the page itself requested ${pageHits.join(', ')}`);
      await page.screenshot({ path: join(shots, 'remote-tool-loaded.png') });

      // Fetches started before the revoke may still land (seen once on a
      // loaded machine): count from when the image server has been quiet
      // for a second.
      for (let n = -1, i = 0; n !== counter.hits.length && i < 20; i++) {
        n = counter.hits.length;
        await page.waitForTimeout(1000);
      }
      const before = counter.hits.length;
      await revokeInSettings(page, '127.0.0.1');
      await page.reload();
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tool-item-remote_icon').getByTestId('tool-icon-blocked').waitFor({ timeout: 15000 });
      result = await run();
      await result.getByTestId('remote-image-load').first().waitFor({ timeout: 10000 });
      expect((await result.getByTestId('remote-image').count()) === 0, 'images still show after revoking');
      expect(counter.hits.length === before, `requests after revoking: ${JSON.stringify(counter.hits.slice(before).map((h) => h.url))}`);

      // Dark theme, 简体中文: the placeholder and the Settings card.
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('settings-theme-dark').click();
      await page.getByTestId('settings-language-zh-CN').click();
      const card = page.getByTestId('settings-remote-images');
      await card.getByTestId('remote-images-empty').waitFor({ timeout: 10000 });
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: join(shots, 'remote-images-settings-dark-zh.png') });
      await page.getByTestId('nav-tools').click();
      result = await run();
      const zh = result.getByTestId('remote-image-load').first();
      await zh.waitFor({ timeout: 10000 });
      expect((await zh.innerText()).includes('加载来自 127.0.0.1 的图片'), `the button says ${await zh.innerText()}`);
      await page.screenshot({ path: join(shots, 'remote-tool-placeholders-dark-zh.png') });
      expect(counter.hits.length === before, `requests in the end: ${counter.hits.length - before}`);
      expect(pageHits.length === 0, `the page itself requested ${pageHits.join(', ')}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); await counter.close(); }
  });
}
