// Issue 11, points 1 and 2: the app's page runs only its own scripts (the
// CSP) and never leaves the app (lib/util/navguard.ts, in the desktop
// window also WebKit's navigation policy — build/scripts/window-check.sh).
// The navigation vectors come from the hostile test server's "navigation"
// mode (backend/mcppool/hostileserver/mode_navigation.go); all point at a
// local "phishing" server that counts the requests it gets. A fake
// xdg-open on PATH records the links Go hands to the system browser.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default function ({ test, expect, startApp, openPage, track, root, work, shots, fakeLLM }) {
  const hostile = join(work, 'hostileserver');
  const buildHostile = () => {
    if (!existsSync(hostile)) execFileSync('go', ['build', '-o', hostile, './backend/mcppool/hostileserver'], { cwd: root, stdio: 'inherit' });
  };

  // phishingServer is where every vector points: any request it gets is a
  // navigation (or a fetch) that should not have happened.
  async function phishingServer() {
    const hits = [];
    const srv = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Sign in</title><h1>Your session expired: re-enter your API key</h1><form><input name="key"></form>');
    });
    await new Promise((r) => srv.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${srv.address().port}/re-enter-key`, hits, close: () => srv.close() };
  }

  // fakeBrowser puts an xdg-open first on PATH that writes down its
  // argument: Wails' BrowserOpenURL runs it for settings.Service.OpenLink.
  function fakeBrowser(name) {
    const dir = join(work, `${name}-bin`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'opened.txt');
    writeFileSync(file, '');
    writeFileSync(join(dir, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${file}'\n`);
    chmodSync(join(dir, 'xdg-open'), 0o755);
    return { env: { PATH: `${dir}:${process.env.PATH}` }, opened: () => readFileSync(file, 'utf8').split('\n').filter(Boolean) };
  }

  // Every CSP violation of the page, from its first script on.
  const recordViolations = (page) => page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample || ''} ${e.sourceFile}:${e.lineNumber}`.trim()));
  });

  // stays checks the page is still the app, at its own address, and that
  // it still works: the screens switch and Go answers.
  async function stays(page, app, what) {
    const here = page.url();
    expect(here === app.url, `${what}: the page went to ${here}`);
    const href = await page.evaluate(() => location.href);
    expect(href === app.url, `${what}: location.href is ${href}`);
    await page.getByTestId('nav-settings').click({ timeout: 5000 });
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 5000 });
    const info = await page.evaluate(() => window.go.settings.Service.Info());
    expect(info && info.version, `${what}: Go did not answer: ${JSON.stringify(info)}`);
  }

  // runNavigationTool runs the hostile tool from the Tools tab, pointing
  // at target; the result shows as markdown.
  async function runNavigationTool(page, target) {
    await page.getByTestId('nav-tools').click();
    await page.getByTestId('tool-item-navigation_links').click({ timeout: 20000 });
    await page.getByTestId('schema-field-url').locator('input, textarea').first().fill(target);
    await page.getByTestId('tool-run').click();
    const md = page.getByTestId('result-markdown');
    await md.filter({ hasText: 'NAV:real-link' }).waitFor({ timeout: 10000 });
    return md;
  }

  // clickLabels clicks (left, then middle) every "NAV:" label shown in box
  // and checks after each that the app is still there.
  async function clickLabels(page, app, box, what) {
    const labels = await box.evaluate((el) => [...el.querySelectorAll('*')]
      .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.includes('NAV:')))
      .map((e) => e.textContent.match(/NAV:[\w-]+/)[0]));
    expect(labels.includes('NAV:real-link'), `${what}: the real link is not shown (${labels.join(', ')})`);
    for (const label of [...new Set(labels)]) {
      const el = box.getByText(label, { exact: true }).first();
      if (!(await el.isVisible().catch(() => false))) continue;
      await el.click({ timeout: 3000 });
      await el.click({ timeout: 3000, button: 'middle' }).catch(() => {});
      await el.press('Enter').catch(() => {});
      expect(page.url() === app.url, `${what}: clicking ${label} took the page to ${page.url()}`);
    }
    return labels;
  }

  test('navigation: the CSP is sent, refuses inline script and eval, and every screen works under it', async () => {
    buildHostile();
    const app = await startApp('nav-csp', { mcpServers: { hostile: { command: hostile, args: ['--mode', 'navigation'] } } });
    try {
      const res = await fetch(app.url);
      const csp = res.headers.get('content-security-policy') ?? '';
      const d = Object.fromEntries(csp.split(';').map((s) => s.trim().split(/\s+/)).map(([k, ...v]) => [k, v.join(' ')]));
      for (const [k, v] of Object.entries({ 'default-src': "'self'", 'script-src': "'self'", 'style-src': "'self'", 'object-src': "'none'",
        'base-uri': "'none'", 'form-action': "'none'", 'frame-ancestors': "'none'" })) {
        expect(d[k] === v, `CSP ${k} is ${JSON.stringify(d[k])}, want ${v}: ${csp}`);
      }
      // Frames: only the sandbox pages of MCP Apps views (issue 15), by path —
      // never 'self', a wildcard or a whole origin.
      const frames = (d['frame-src'] ?? '').split(' ');
      expect(frames.length > 0 && frames.every((f) => /^(wails|http):\/\/[^/*]+\/mcpdesk-view\/$/.test(f)), `CSP frame-src is ${JSON.stringify(d['frame-src'])}, want only the view path: ${csp}`);
      expect(frames.includes(`${new URL(app.url).origin}/mcpdesk-view/`), `frame-src does not name the view path of ${app.url}: ${d['frame-src']}`);
      expect(!/unsafe-(inline|eval|hashes)/.test(csp), `the CSP allows unsafe sources: ${csp}`);
      const asset = await fetch(new URL('/wails/ipc.js', app.url));
      expect(asset.ok, `ipc.js: ${asset.status}`);

      const { page, errors } = await openPage(app);
      await recordViolations(page);
      await page.reload();
      await page.getByTestId('nav-servers').waitFor({ timeout: 15000 });
      // Every screen of the app, with no violation.
      for (const n of ['chat', 'servers', 'tools', 'resources', 'prompts', 'usage', 'settings']) {
        await page.getByTestId(`nav-${n}`).click();
        await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 10000 });
      }
      // Argument forms validate without eval: a required field left empty
      // is reported and the call does not run.
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('tool-item-navigation_links').click({ timeout: 20000 });
      await page.getByTestId('tool-run').click();
      await page.getByTestId('tool-errors').waitFor({ timeout: 5000 });
      const field = await page.getByTestId('schema-field-url').getByRole('alert').innerText();
      expect(/required/i.test(field), `the empty url field says ${JSON.stringify(field)}`);
      const note = await page.getByText(/could not be compiled/).count();
      expect(note === 0, 'the schema form says the schema could not be compiled (validation is off)');
      expect(await page.getByTestId('tool-result').count() === 0, 'the tool ran with a missing argument');
      const clean = await page.evaluate(() => window.__violations);
      expect(clean.length === 0, `the app's own pages violate the CSP: ${clean.join(' | ')}`);

      // A sanitiser bypass cannot run script: an injected inline script, an
      // inline handler and eval (run from a task of the page: evaluation
      // from the test itself would be let through as devtools are).
      const r = await page.evaluate(() => new Promise((done) => {
        const s = document.createElement('script');
        s.textContent = 'window.__canary = "script"';
        document.body.append(s);
        const img = document.createElement('img');
        img.setAttribute('onerror', 'window.__canary = "handler"');
        img.src = 'data:,x';
        document.body.append(img);
        setTimeout(() => {
          const out = { canary: window.__canary ?? null };
          try { out.eval = String((0, eval)('"ran"')); } catch (e) { out.eval = `refused: ${e.name}`; }
          try { out.fn = String(new Function('return "ran"')()); } catch (e) { out.fn = `refused: ${e.name}`; }
          setTimeout(() => done({ ...out, violations: window.__violations }), 200);
        }, 300);
      }));
      expect(r.canary === null, `an injected script ran: ${r.canary}`);
      expect(r.eval.startsWith('refused') && r.fn.startsWith('refused'), `eval: ${r.eval}, new Function: ${r.fn}`);
      expect(r.violations.some((v) => v.startsWith('script-src') && v.includes('inline')), `no securitypolicyviolation event for the inline script: ${r.violations.join(' | ')}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
      await stays(page, app, 'after the injected script');
    } finally { await app.stop(); }
  });

  test('navigation: every vector put straight into the DOM (a sanitiser bypass) leaves the app in place', async () => {
    buildHostile();
    const phish = await phishingServer();
    const browser = fakeBrowser('nav-dom');
    const app = await startApp('nav-dom', { mcpServers: { hostile: { command: hostile, args: ['--mode', 'navigation'] } } }, { env: browser.env });
    try {
      const { page } = await openPage(app);
      // The vectors as the server sends them (raw view of its result).
      await runNavigationTool(page, phish.url);
      await page.getByTestId('result-view-raw').click();
      const raw = await page.getByTestId('result-text').innerText();
      const vectors = raw.split('\n\n').filter((b) => b.startsWith('<') && b.includes('NAV:'));
      expect(vectors.length >= 20, `only ${vectors.length} HTML vectors in the result`);
      const pages = page.context().pages().length;
      for (const html of vectors) {
        const name = html.match(/NAV:([\w-]+)/)[1];
        // Injected unsanitised into an element marked like rendered content.
        await page.evaluate((html) => {
          document.getElementById('nav-injected')?.remove();
          const box = document.createElement('div');
          box.id = 'nav-injected';
          box.setAttribute('data-external-links', '');
          box.style.cssText = 'position:fixed;inset:0 auto auto 0;z-index:99999;padding:24px;background:#fff;color:#000';
          box.innerHTML = html;
          document.body.append(box);
        }, html);
        const box = page.locator('#nav-injected');
        const target = name === 'area-href' ? box.locator('img')
          : name === 'input-formaction' ? box.locator('input[type=submit]')
            : box.getByText(`NAV:${name}`, { exact: true }).first();
        if (await target.isVisible().catch(() => false)) {
          const away = () => (page.url() !== app.url ? ` — the page went to ${page.url()}` : '');
          for (const [how, act] of [
            ['click', () => target.click({ timeout: 3000 })],
            ['middle click', () => target.click({ timeout: 3000, button: 'middle' })],
            ['Ctrl+click', () => target.click({ timeout: 3000, modifiers: ['Control'] })],
            ['Enter', async () => { await target.focus().catch(() => {}); await page.keyboard.press('Enter'); }],
          ]) {
            await act().catch((e) => { throw new Error(`${name}: ${how}: ${e.message.split('\n')[0]}${away()}`); });
            expect(!away(), `${name}: ${how}${away()}`);
            expect(page.context().pages().length === pages, `${name}: ${how} opened a window`);
          }
        }
        // The srcdoc frame, if it loaded at all: its link targets the top.
        if (name === 'iframe-srcdoc-top') {
          const inner = page.frameLocator('#nav-injected iframe').getByText('NAV:iframe-srcdoc-top');
          if (await inner.isVisible({ timeout: 1000 }).catch(() => false)) await inner.click({ timeout: 3000 });
        }
        await page.waitForTimeout(name === 'meta-refresh-late' ? 2500 : 300);
        expect(page.url() === app.url, `${name}: the page went to ${page.url()}`);
      }
      await page.evaluate(() => window.open(document.querySelector('#nav-injected a')?.href ?? 'http://127.0.0.1:9/'));
      await page.waitForTimeout(500);
      expect(page.context().pages().length === pages, 'a window was opened');
      const left = await page.evaluate(() => document.querySelectorAll('meta[http-equiv], base').length);
      expect(left === 0, `${left} <meta http-equiv> / <base> elements stayed in the page`);
      await page.evaluate(() => document.getElementById('nav-injected')?.remove());
      await stays(page, app, 'after every vector');
      expect(phish.hits.length === 0, `the phishing page was requested: ${phish.hits.join(', ')}`);
      // Only real http links reached the browser.
      const opened = browser.opened();
      expect(opened.every((u) => u === phish.url), `the browser was asked to open: ${opened.join(', ')}`);
      await page.screenshot({ path: join(shots, 'navigation-dom.png') });
    } finally { await app.stop(); phish.close(); }
  });

  test('navigation: the hostile server’s links in the Tools tab and in a model reply keep the app; a real link opens the browser', async () => {
    buildHostile();
    const phish = await phishingServer();
    const browser = fakeBrowser('nav-rendered');
    const app = await startApp('nav-rendered', { mcpServers: { hostile: { command: hostile, args: ['--mode', 'navigation'] } } }, { keychain: true, env: browser.env });
    let llm;
    try {
      const { page, errors } = await openPage(app);
      await recordViolations(page);
      await page.reload();
      await page.getByTestId('nav-servers').waitFor({ timeout: 15000 });

      // The Tools tab: the result rendered as markdown.
      const md = await runNavigationTool(page, phish.url);
      await page.screenshot({ path: join(shots, 'navigation-tool-result.png') });
      await clickLabels(page, app, md, 'tool result');
      await page.waitForTimeout(2500); // a late meta refresh, had one survived
      await stays(page, app, 'tool result');
      const fromTool = browser.opened();
      expect(fromTool.includes(phish.url), `clicking the real link in the tool result did not open the browser: ${fromTool.join(', ')}`);
      expect(fromTool.every((u) => u === phish.url), `the browser was asked to open: ${fromTool.join(', ')}`);

      // The same document as a model's reply in chat.
      await page.getByTestId('nav-tools').click();
      await page.getByTestId('result-view-raw').click();
      const reply = await page.getByTestId('result-text').innerText();
      const script = join(mkdtempSync(join(work, 'nav-llm-')), 'script.json');
      writeFileSync(script, JSON.stringify([{ text: [reply], delayMs: 1 }]));
      const proc = spawn(fakeLLM, ['--addr', '127.0.0.1:0', '--script', script, '--models', 'fake-1'], { stdio: ['ignore', 'pipe', 'pipe'] });
      llm = track(proc);
      const llmURL = await new Promise((res, rej) => {
        let buf = '';
        const t = setTimeout(() => rej(new Error('fakellm did not start')), 10000);
        proc.stdout.on('data', (d) => { buf += d; const m = buf.match(/listening (\S+)/); if (m) { clearTimeout(t); res(m[1]); } });
      });
      await page.evaluate(async (baseUrl) => {
        const pm = window.go.providers.ProviderManager;
        const p = await pm.Save({ id: '', name: 'Fake', type: 'openai', preset: 'custom', baseUrl, keyEnv: '', azure: false, azureApiVersion: '', headers: {}, enabled: true });
        await pm.SetDefaultModel({ provider: p.id, model: 'fake-1' });
      }, `${llmURL}/v1`);
      await page.reload();
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('composer-input').fill('Sign me in again.');
      await page.getByTestId('composer-send').click();
      const msg = page.getByTestId('message-markdown').filter({ hasText: 'NAV:real-link' });
      await msg.waitFor({ timeout: 20000 });
      await page.getByText('That is all.').waitFor({ timeout: 20000 });
      await page.screenshot({ path: join(shots, 'navigation-chat.png') });
      const before = browser.opened().length;
      await clickLabels(page, app, msg, 'model reply');
      await page.waitForTimeout(2500);
      await stays(page, app, 'model reply');
      const fromChat = browser.opened().slice(before);
      expect(fromChat.includes(phish.url), `clicking the real link in the reply did not open the browser: ${fromChat.join(', ')}`);
      expect(browser.opened().every((u) => u === phish.url), `the browser was asked to open: ${browser.opened().join(', ')}`);
      const said = app.log.join('');
      expect(/opening link outside the app.*host=127\.0\.0\.1/.test(said), 'Go did not log the opened link');
      expect(phish.hits.length === 0, `the phishing page was requested: ${phish.hits.join(', ')}`);

      // The usage screen's charts (uPlot) draw under the CSP too. (Before
      // this, parsing the hostile HTML may have been reported: the
      // sanitiser's parser meets its inline handlers, which the CSP refuses.)
      await page.evaluate(() => { window.__violations.length = 0; });
      await page.getByTestId('nav-usage').click();
      await page.locator('canvas').first().waitFor({ timeout: 10000 });
      await page.waitForTimeout(500);
      const usage = await page.evaluate(() => window.__violations);
      expect(usage.length === 0, `the Usage screen violates the CSP: ${usage.join(' | ')}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { llm?.(); await app.stop(); phish.close(); }
  });
}
