// The import preview (issue 11, point 5): before servers from another
// client's file are added, the dialog shows everything they will run or
// send — program, every argument, env with secrets masked, ${VAR}
// references, loader variables, the host and headers of a remote server,
// what a replacement changes — and what is imported is what was shown,
// even when the file changes on disk in between.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SECRET = 'sk-proj-E2Esecret0123456789abcdefghijklmnopqrstuv';
const HEADER_SECRET = 'e2e-header-secret-9876543210';

// previewed is the file as the preview reads it; swapped is what it says
// by the time the user presses Import.
function files(testServer) {
  const previewed = {
    mcpServers: {
      notes: {
        command: testServer,
        args: ['--name', 'previewed', '--root', '${HOME}/notes'],
        env: { NODE_OPTIONS: '--require /tmp/mcpdesk-e2e-x.js', LD_PRELOAD: '/tmp/mcpdesk-e2e-x.so', OPENAI_API_KEY: SECRET, GITHUB_TOKEN: '${GITHUB_TOKEN}' },
        disabled: true,
      },
      remote: { url: 'http://mcp.example.com/mcp', headers: { Authorization: `Bearer ${HEADER_SECRET}` }, disabled: true },
    },
  };
  const swapped = {
    mcpServers: {
      notes: { command: '/bin/sh', args: ['-c', 'echo swapped'], env: { LD_PRELOAD: '/tmp/other.so' }, disabled: true },
      evil: { command: '/bin/sh', args: ['-c', 'echo evil'], disabled: true },
    },
  };
  // What MCP Desk's config must hold for each previewed server.
  const want = {
    notes: { command: testServer, args: previewed.mcpServers.notes.args, env: previewed.mcpServers.notes.env, enabled: false },
    remote: { url: 'http://mcp.example.com/mcp', headers: previewed.mcpServers.remote.headers, enabled: false },
  };
  return { previewed, swapped, want };
}

export default function ({ test, expect, startApp, openPage, colorScheme, work, shots, testServer }) {
  const existing = { mcpServers: { notes: { command: testServer, args: ['--name', 'old'], enabled: false } } };

  // checkDialog checks what the dialog shows of the file (English).
  async function checkDialog(page, dialog) {
    const notes = dialog.getByTestId('import-item-notes');
    await notes.getByTestId('import-replaces').waitFor({ timeout: 10000 });
    const warnings = await notes.getByTestId('import-warning').allInnerTexts();
    expect(warnings.some((w) => w.startsWith('NODE_OPTIONS adds options to every Node.js program')), `NODE_OPTIONS warning: ${warnings.join(' | ')}`);
    expect(warnings.some((w) => w.startsWith('LD_PRELOAD loads a library into every program')), `LD_PRELOAD warning: ${warnings.join(' | ')}`);
    expect((await notes.getByTestId('import-warn-count').innerText()).includes(`${warnings.length} warnings`), 'warning count');
    // Every argument on its own line.
    const args = await notes.getByTestId('import-arg').evaluateAll((els) => els.map((e) => e.querySelector('code')?.textContent));
    expect(JSON.stringify(args) === JSON.stringify(['--name', 'previewed', '--root', '${HOME}/notes']), `args: ${JSON.stringify(args)}`);
    expect((await notes.getByTestId('import-command').innerText()) === testServer, 'command');
    // Env: the secret present but masked, a reference marked.
    const key = await notes.locator('[data-testid="import-env-row"][data-name="OPENAI_API_KEY"]').innerText();
    expect(/sk-…stuv \(49 characters\)/.test(key), `OPENAI_API_KEY row: ${key}`);
    const gh = await notes.locator('[data-testid="import-env-row"][data-name="GITHUB_TOKEN"]').innerText();
    expect(gh.includes('${GITHUB_TOKEN}') && gh.includes('reads GITHUB_TOKEN from your environment'), `GITHUB_TOKEN row: ${gh}`);
    const home = await notes.getByTestId('import-arg').nth(3).innerText();
    expect(home.includes('reads HOME from your environment'), `arg 4: ${home}`);
    // The replacement says what changes.
    const changes = await notes.getByTestId('import-change').evaluateAll((rows) => rows.map((r) => r.dataset.field + ':' + r.dataset.name));
    for (const c of ['args:', 'env:OPENAI_API_KEY', 'env:NODE_OPTIONS', 'env:LD_PRELOAD']) expect(changes.includes(c), `changes lack ${c}: ${changes}`);
    // The remote server: its host, its masked header, plain http.
    const remote = dialog.getByTestId('import-item-remote');
    expect((await remote.getByTestId('import-host').innerText()) === 'mcp.example.com', 'host');
    const auth = await remote.getByTestId('import-header-row').innerText();
    expect(/Bearer …3210 \(35 characters\)/.test(auth), `Authorization row: ${auth}`);
    expect((await remote.getByTestId('import-warning').innerText()).startsWith('Connects to mcp.example.com over plain http://'), 'plain http warning');
    // No secret anywhere in the page.
    const html = await page.content();
    expect(!html.includes(SECRET) && !html.includes(HEADER_SECRET) && !html.includes('E2Esecret'), 'a secret value is in the page HTML');
  }

  // canonical writes JSON with object keys sorted, to compare values.
  const canonical = (v) => JSON.stringify(v, (_, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));

  function checkImported(app, want) {
    const cfg = JSON.parse(readFileSync(join(app.data, 'mcp.config.json'), 'utf8'));
    expect(!cfg.mcpServers.evil, `a server only in the changed file was imported: ${JSON.stringify(cfg)}`);
    for (const [id, w] of Object.entries(want)) {
      const got = cfg.mcpServers[id];
      expect(canonical(got) === canonical(w), `${id} imported as ${JSON.stringify(got)}, previewed as ${JSON.stringify(w)}`);
    }
  }

  test('import preview: a found config shows everything it runs, secrets masked, and what is imported is what was previewed though the file changed', async () => {
    const { previewed, swapped, want } = files(testServer);
    const homeDir = join(work, 'import-preview-home');
    const claude = join(homeDir, '.config/Claude/claude_desktop_config.json');
    mkdirSync(join(homeDir, '.config/Claude'), { recursive: true });
    writeFileSync(claude, JSON.stringify(previewed, null, 2));
    const app = await startApp('import-preview', existing, { env: { HOME: homeDir, XDG_CONFIG_HOME: join(homeDir, '.config') } });
    try {
      const { page, errors } = await openPage(app);
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('settings-show-welcome').click();
      const row = page.getByTestId('welcome').locator('[data-testid="welcome-config"][data-client="claude"]');
      await row.getByTestId('welcome-import').click();
      const dialog = page.getByTestId('import-dialog');
      await dialog.waitFor({ timeout: 10000 });
      await checkDialog(page, dialog);
      await page.screenshot({ path: join(shots, 'import-preview-1920-light.png') });
      await page.setViewportSize({ width: 900, height: 600 });
      await page.screenshot({ path: join(shots, 'import-preview-900-light.png') });
      await colorScheme(page, 'dark');
      await page.screenshot({ path: join(shots, 'import-preview-900-dark.png') });
      // The dialog fits the small window: no part of it is cut off sideways.
      const box = await dialog.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 900, `dialog at 900×600: ${JSON.stringify(box)}`);

      // The file changes on disk; Import adds what the preview showed.
      writeFileSync(claude, JSON.stringify(swapped, null, 2));
      await dialog.getByTestId('import-confirm').click();
      await dialog.waitFor({ state: 'hidden', timeout: 10000 });
      checkImported(app, want);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('import preview: a dropped config reads in 简体中文 and dark, hides its secrets, and imports what was shown', async () => {
    const { previewed, want } = files(testServer);
    const app = await startApp('import-preview-drop', existing);
    try {
      const { page, errors } = await openPage(app, { colorScheme: 'dark' });
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('settings-language-zh-CN').click();
      await page.getByText('服务器').first().waitFor({ timeout: 5000 });
      const content = JSON.stringify(previewed);
      for (const type of ['dragenter', 'drop']) {
        await page.evaluate(([text, type]) => {
          const dt = new DataTransfer();
          dt.items.add(new File([text], 'claude_desktop_config.json', { type: 'application/json' }));
          window.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
        }, [content, type]);
      }
      const dialog = page.getByTestId('import-dialog');
      await dialog.waitFor({ timeout: 10000 });
      const notes = dialog.getByTestId('import-item-notes');
      const warnings = await notes.getByTestId('import-warning').allInnerTexts();
      expect(warnings.some((w) => w.startsWith('NODE_OPTIONS 会给每个 Node.js 程序添加选项')), `zh warnings: ${warnings.join(' | ')}`);
      const key = await notes.locator('[data-testid="import-env-row"][data-name="OPENAI_API_KEY"]').innerText();
      expect(key.includes('sk-…stuv（49 个字符）'), `zh secret: ${key}`);
      const html = await page.content();
      expect(!html.includes(SECRET) && !html.includes(HEADER_SECRET), 'a secret value is in the page HTML');
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.screenshot({ path: join(shots, 'import-preview-1920-dark-zh.png') });
      await page.setViewportSize({ width: 900, height: 600 });
      await page.screenshot({ path: join(shots, 'import-preview-900-dark-zh.png') });
      await dialog.getByTestId('import-confirm').click();
      await dialog.waitFor({ state: 'hidden', timeout: 10000 });
      checkImported(app, want);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });
}
