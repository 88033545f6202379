// Servers: adding through the form, a missing program, a broken config edit, a Streamable HTTP server with a secret header, disable/enable/restart/remove, drag-and-drop import, the first-run welcome.
// (Moved from run.mjs as they were; the harness is ../harness.mjs.)
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export default function (h) {
  const { shots, work, testServer, everything, startApp, test, expect, openPage, startHTTPServer } = h;

  test('add a server through the form, see it connect and its traffic in the logger', async () => {
    const app = await startApp('add');
    try {
      const { page, errors } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      await page.screenshot({ path: join(shots, 'servers-empty.png') });
      await page.getByTestId('add-server').first().click();
      await page.getByTestId('server-id').fill('demo');
      await page.getByTestId('server-command').fill(testServer);
      await page.getByTestId('save-server').click();
      const row = page.getByTestId('server-demo');
      await row.getByTestId('server-state').filter({ hasText: /connected|已连接/i }).waitFor({ timeout: 20000 });
      const text = await row.innerText();
      expect(/2025-11-25|2026-07-28/.test(text), `protocol version not shown: ${text}`);
      // The logger shows the handshake and the listing, and filters by text.
      if (!(await page.getByTestId('rpc-filter-text').isVisible())) await page.getByTestId('logger-toggle').click();
      await page.getByTestId('rpc-row').filter({ hasText: 'tools/list' }).first().waitFor({ timeout: 10000 });
      const all = await page.getByTestId('rpc-row').count();
      await page.getByTestId('rpc-filter-text').fill('tools/list');
      await page.waitForTimeout(300);
      const rows = await page.getByTestId('rpc-row').allInnerTexts();
      expect(rows.length >= 2 && rows.length < all && rows.every((r) => r.includes('tools/list')),
        `filter by text (${all} rows before): ${rows.join(' | ')}`);
      // A request and its response: the response carries a latency.
      expect(rows.some((r) => /\d+(\.\d+)?\s*ms/.test(r)), `no latency on the response: ${rows.join(' | ')}`);
      await page.getByTestId('rpc-row').last().click();
      const detail = await page.getByTestId('rpc-payload').innerText();
      expect(detail.includes('"echo"'), `the tools/list response payload lacks the echo tool: ${detail.slice(0, 300)}`);
      await page.screenshot({ path: join(shots, 'servers-connected.png') });
      // The config on disk holds the new server.
      const cfg = JSON.parse(execFileSync('cat', [join(app.data, 'mcp.config.json')]).toString());
      expect(cfg.mcpServers?.demo?.command === testServer, `config on disk: ${JSON.stringify(cfg)}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('a missing program fails with its name and the PATH searched', async () => {
    const app = await startApp('missing', { mcpServers: { ghost: { command: 'mcpdesk-no-such-program' } } });
    try {
      const { page } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      const row = page.getByTestId('server-ghost');
      await row.getByTestId('server-state').filter({ hasText: /failed|失败/i }).waitFor({ timeout: 15000 });
      const text = await row.innerText();
      expect(text.includes('mcpdesk-no-such-program') && text.includes('PATH'), `error text: ${text}`);
    } finally { await app.stop(); }
  });

  test('a broken edit of the config file is reported and the good servers stay', async () => {
    const app = await startApp('broken', { mcpServers: { demo: { command: testServer } } });
    try {
      const { page } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: /connected|已连接/i }).waitFor({ timeout: 20000 });
      writeFileSync(join(app.data, 'mcp.config.json'), '{\n  "mcpServers": {\n    "demo": {"command": }\n  }\n}\n');
      const banner = page.getByTestId('config-error');
      await banner.waitFor({ timeout: 10000 });
      const text = await banner.innerText();
      expect(text.includes('mcp.config.json') && /3:\d+/.test(text), `banner: ${text}`);
      const state = await page.getByTestId('server-demo').getByTestId('server-state').innerText();
      expect(/connected|已连接/i.test(state), `server state after broken edit: ${state}`);
      await page.screenshot({ path: join(shots, 'config-error.png') });
    } finally { await app.stop(); }
  });

  test('a Streamable HTTP server with a secret header: connected, and the secret never reaches the page', async () => {
    const secret = 'hdr-SECRET-e2e-5550123';
    const envSecret = 'env-SECRET-e2e-7770456';
    const remote = await startHTTPServer();
    // The secrets go to the OS keychain (issue 12 point 8): a real one.
    const app = await startApp('http', undefined, { keychain: true });
    try {
      const { page } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('add-server').first().click();
      await page.getByTestId('server-id').fill('remote');
      await page.getByTestId('server-type-http').click();
      await page.getByTestId('server-url').fill(remote.url);
      await page.getByTestId('server-header-add').click();
      await page.getByTestId('server-header-key').last().fill('Authorization');
      await page.getByTestId('server-header-value').last().fill(`Bearer ${secret}`);
      await page.getByTestId('save-server').click();
      const row = page.getByTestId('server-remote');
      await row.getByTestId('server-state').filter({ hasText: /connected|已连接/i }).waitFor({ timeout: 20000 });
      expect((await row.getByTestId('server-transport').innerText()).toLowerCase().includes('http'), 'transport badge');

      // A stdio server whose env holds a secret, added the same way.
      await page.getByTestId('add-server').first().click();
      await page.getByTestId('server-id').fill('local');
      await page.getByTestId('server-command').fill(testServer);
      await page.getByTestId('server-env-add').click();
      await page.getByTestId('server-env-key').last().fill('API_TOKEN');
      await page.getByTestId('server-env-value').last().fill(envSecret);
      await page.getByTestId('save-server').click();
      await page.getByTestId('server-local').getByTestId('server-state').filter({ hasText: /connected|已连接/i }).waitFor({ timeout: 20000 });

      // Editing shows the stored values as stored, never their text.
      await page.getByTestId('server-remote').getByTestId('server-edit').click();
      await page.getByTestId('server-header-stored').first().waitFor({ timeout: 5000 });
      await page.getByTestId('cancel-server').click();

      // Reload the page so that everything the UI holds came from Go again.
      await page.reload();
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('server-remote').waitFor({ timeout: 10000 });
      if (!(await page.getByTestId('rpc-filter-text').isVisible())) await page.getByTestId('logger-toggle').click();
      await page.getByTestId('rpc-row').first().waitFor({ timeout: 10000 });
      const html = await page.content();
      const rpc = await page.evaluate(() => window.go.mcppool.MCPPool.RPCLog());
      const views = await page.evaluate(() => window.go.mcppool.MCPPool.ListServers());
      for (const s of [secret, envSecret]) {
        expect(!html.includes(s), `secret ${s} is in the page`);
        expect(!JSON.stringify(rpc).includes(s), `secret ${s} is in the JSON-RPC log`);
        expect(!JSON.stringify(views).includes(s), `secret ${s} reached the frontend in ListServers`);
      }
      // On disk only references: the values are in the keychain, and the
      // servers connected with them.
      const raw = execFileSync('cat', [join(app.data, 'mcp.config.json')]).toString();
      const cfg = JSON.parse(raw);
      for (const s of [secret, envSecret]) expect(!raw.includes(s), `secret ${s} is written in mcp.config.json`);
      expect(cfg.mcpServers.remote.headers.Authorization === '${keychain:remote/header/Authorization}', `header reference: ${raw}`);
      expect(cfg.mcpServers.local.env.API_TOKEN === '${keychain:local/env/API_TOKEN}', `env reference: ${raw}`);
    } finally { await app.stop(); remote.stop(); }
  });

  test('disable, enable, restart and remove a server', async () => {
    const app = await startApp('lifecycle', { mcpServers: { demo: { command: testServer } } });
    try {
      const { page } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      const row = page.getByTestId('server-demo');
      const state = row.getByTestId('server-state');
      await state.filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      await row.getByTestId('server-enabled').click();
      await state.filter({ hasText: /disabled/i }).waitFor({ timeout: 10000 });
      let cfg = JSON.parse(execFileSync('cat', [join(app.data, 'mcp.config.json')]).toString());
      expect(cfg.mcpServers.demo.enabled === false, `disabled on disk: ${JSON.stringify(cfg)}`);
      await row.getByTestId('server-enabled').click();
      await state.filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      await row.getByTestId('server-restart').click();
      await state.filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      await row.getByTestId('server-remove').click();
      await page.getByTestId('confirm-ok').click();
      await page.getByTestId('servers-empty').waitFor({ timeout: 10000 });
      cfg = JSON.parse(execFileSync('cat', [join(app.data, 'mcp.config.json')]).toString());
      expect(Object.keys(cfg.mcpServers || {}).length === 0, `removed on disk: ${JSON.stringify(cfg)}`);
    } finally { await app.stop(); }
  });

  test('drag-and-drop import: dropping a Claude Desktop config previews its servers and adds them', async () => {
    // Importing reads the keychain (secrets of imported servers): with a
    // session bus of its own, nothing autolaunched outlives the test.
    const app = await startApp('drop', null, { keychain: true });
    try {
      const { page } = await openPage(app);
      await page.getByTestId('nav-settings').click();
      const content = JSON.stringify({ mcpServers: { dropped: { command: testServer, args: ['--name', 'dropped'] } } });
      await page.evaluate((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'claude_desktop_config.json', { type: 'application/json' }));
        window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, content);
      await page.getByTestId('drop-overlay').waitFor({ timeout: 5000 });
      await page.evaluate((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'claude_desktop_config.json', { type: 'application/json' }));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, content);
      const dialog = page.getByTestId('import-dialog');
      await dialog.waitFor({ timeout: 10000 });
      const format = await dialog.getByTestId('import-format').innerText();
      expect(/claude/i.test(format), `format: ${format}`);
      await page.screenshot({ path: join(shots, 'drop-import.png') });
      await dialog.getByTestId('import-confirm').click();
      await page.getByTestId('server-dropped').getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
      const cfg = JSON.parse(execFileSync('cat', [join(app.data, 'mcp.config.json')]).toString());
      expect(cfg.mcpServers?.dropped?.command === testServer, `config on disk: ${JSON.stringify(cfg)}`);
    } finally { await app.stop(); }
  });

  test('first run: the welcome finds Claude Desktop and VS Code configs on this computer, imports one, and says what is broken', async () => {
    // A home folder like a user's: Claude Desktop with two servers, VS Code
    // settings (JSONC) with one, and a Cursor file cut short.
    const home = join(work, 'first-run-home');
    mkdirSync(join(home, '.config/Claude'), { recursive: true });
    mkdirSync(join(home, '.config/Code/User'), { recursive: true });
    mkdirSync(join(home, '.cursor'), { recursive: true });
    writeFileSync(join(home, '.config/Claude/claude_desktop_config.json'), JSON.stringify({
      mcpServers: { demo: { command: testServer, args: ['--name', 'demo'] }, second: { command: testServer, args: ['--name', 'second'] } },
    }));
    writeFileSync(join(home, '.config/Code/User/settings.json'), '{\n  // editor\n  "editor.fontSize": 13,\n  "mcp": {"servers": {"vs": {"command": "node", "args": ["x.js"]},}},\n}\n');
    writeFileSync(join(home, '.cursor/mcp.json'), '{"mcpServers": {"cut": {"command": "x"}');
    const app = await startApp('first-run', null, { env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } });
    try {
      const { page, errors } = await openPage(app, { welcome: true });
      const welcome = page.getByTestId('welcome');
      await welcome.waitFor({ timeout: 10000 });
      const rows = welcome.getByTestId('welcome-config');
      await rows.first().waitFor({ timeout: 10000 });
      const byClient = {};
      for (const row of await rows.all()) byClient[await row.getAttribute('data-client')] = row;
      expect(byClient.claude && byClient.vscode && byClient.cursor, `found: ${Object.keys(byClient)}`);
      const claudeServers = await byClient.claude.getByTestId('welcome-config-servers').innerText();
      expect(/demo/.test(claudeServers) && /second/.test(claudeServers), `Claude servers: ${claudeServers}`);
      expect(/vs/.test(await byClient.vscode.getByTestId('welcome-config-servers').innerText()), 'VS Code server not listed');
      const problem = await byClient.cursor.getByTestId('welcome-config-error').innerText();
      expect(/mcp\.json:1:\d+/.test(problem), `the broken Cursor file's error: ${problem}`);
      expect(await byClient.cursor.getByTestId('welcome-import').count() === 0, 'a broken file offers Import');

      // Import… opens the import preview on that file; both servers are added.
      await byClient.claude.getByTestId('welcome-import').click();
      const dialog = page.getByTestId('import-dialog');
      await dialog.waitFor({ timeout: 10000 });
      expect(/claude/i.test(await dialog.getByTestId('import-format').innerText()), 'not read as a Claude Desktop config');
      await dialog.getByTestId('import-confirm').click();
      await byClient.claude.getByTestId('welcome-config-imported').waitFor({ timeout: 10000 });
      const cfg = JSON.parse(readFileSync(join(app.data, 'mcp.config.json'), 'utf8'));
      expect(cfg.mcpServers?.demo?.command === testServer && cfg.mcpServers?.second, `config on disk: ${JSON.stringify(cfg)}`);

      // Done: the welcome is gone for good, and the imported servers connect.
      await welcome.getByTestId('welcome-done').click();
      await welcome.waitFor({ state: 'hidden', timeout: 5000 });
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: /^connected$/i }).waitFor({ timeout: 20000 });
      await page.reload();
      await page.getByTestId('nav-servers').waitFor({ timeout: 15000 });
      await page.waitForTimeout(1000);
      expect(await page.getByTestId('welcome').count() === 0, 'the welcome came back after a reload');
      expect(errors.length === 0, `page errors: ${errors.join('; ')}`);
      await page.close();
    } finally {
      await app.stop();
    }
  });
}
