// End-to-end tests of MCP Desk in a real browser: Debian's Chromium, driven
// by playwright-core, against the development binary (-tags dev), which
// serves the built frontend and the real Go bindings over a websocket.
// Every test gets a fresh data folder. Prints `e2e: N passed, M failed`.
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const devBin = join(root, 'build', 'bin', 'mcpdesk-dev');
const shots = join(root, 'build', 'bin', 'e2e');
mkdirSync(shots, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'mcpdesk-e2e-'));
const testServer = join(work, 'testserver');
execFileSync('go', ['build', '-o', testServer, './backend/mcp/testserver'], { cwd: root, stdio: 'inherit' });

function freePort() {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
    s.on('error', rej);
  });
}

async function waitHTTP(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try { const r = await fetch(url); if (r.ok) return; } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

// startApp runs the dev binary under Xvfb with its own data folder.
// With keychain set, the app runs in a D-Bus session of its own with an
// unlocked gnome-keyring: the real Secret Service.
async function startApp(name, config, { keychain = false } = {}) {
  const data = join(work, name);
  mkdirSync(data, { recursive: true });
  if (config) writeFileSync(join(data, 'mcp.config.json'), JSON.stringify(config, null, 2));
  const port = await freePort();
  const log = [];
  const run = ['xvfb-run', '-a', devBin, '-devserver', `127.0.0.1:${port}`];
  const [cmd, ...args] = keychain
    ? ['dbus-run-session', '--', 'bash', '-c',
        'echo -n e2e | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "$@"', 'keychain', ...run]
    : run;
  const proc = spawn(cmd, args, {
    env: { ...process.env, MCPDESK_DATA_DIR: data, XDG_DATA_HOME: join(data, 'xdg'), XDG_CACHE_HOME: join(data, 'xdg-cache') },
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  proc.stdout.on('data', (d) => log.push(String(d)));
  proc.stderr.on('data', (d) => log.push(String(d)));
  await waitHTTP(`http://127.0.0.1:${port}/`, 20000);
  return {
    url: `http://127.0.0.1:${port}/`, data, log,
    async stop() {
      try { process.kill(-proc.pid, 'SIGTERM'); } catch {}
      await new Promise((r) => { proc.on('exit', r); setTimeout(r, 5000); });
    },
  };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

const tests = [];
const test = (name, fn) => tests.push({ name, fn });
const expect = (cond, msg) => { if (!cond) throw new Error(msg); };

async function openPage(app) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  const errors = [];
  page.on('pageerror', (e) => { if (!String(e).includes('nodes')) errors.push(String(e)); });
  await page.goto(app.url);
  await page.getByTestId('nav-servers').waitFor({ timeout: 15000 });
  return { page, errors };
}

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

test('settings: the real keychain is reported available, and 简体中文 changes the interface', async () => {
  const app = await startApp('lang', null, { keychain: true });
  try {
    const { page } = await openPage(app);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('about-keychain').filter({ hasText: 'Available' }).waitFor({ timeout: 15000 });
    await page.getByTestId('settings-language-zh-CN').click();
    await page.getByText('服务器').first().waitFor({ timeout: 5000 });
    await page.screenshot({ path: join(shots, 'settings-zh.png') });
  } finally { await app.stop(); }
});

// startHTTPServer runs our test server over Streamable HTTP and returns its URL.
async function startHTTPServer() {
  const proc = spawn(testServer, ['--transport', 'http', '--addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((res, rej) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/LISTENING (\S+)/);
      if (m) res(m[1]);
    });
    proc.on('exit', () => rej(new Error('test server exited')));
  });
  return { url, stop: () => proc.kill() };
}

test('a Streamable HTTP server with a secret header: connected, and the secret never reaches the page', async () => {
  const secret = 'hdr-SECRET-e2e-5550123';
  const envSecret = 'env-SECRET-e2e-7770456';
  const remote = await startHTTPServer();
  const app = await startApp('http');
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
    const rpc = await page.evaluate(() => window.go.mcp.MCPPool.RPCLog());
    const views = await page.evaluate(() => window.go.mcp.MCPPool.ListServers());
    for (const s of [secret, envSecret]) {
      expect(!html.includes(s), `secret ${s} is in the page`);
      expect(!JSON.stringify(rpc).includes(s), `secret ${s} is in the JSON-RPC log`);
      expect(!JSON.stringify(views).includes(s), `secret ${s} reached the frontend in ListServers`);
    }
    // The values are on disk, where the servers need them.
    const cfg = JSON.parse(execFileSync('cat', [join(app.data, 'mcp.config.json')]).toString());
    expect(cfg.mcpServers.remote.headers.Authorization === `Bearer ${secret}`, 'header stored');
    expect(cfg.mcpServers.local.env.API_TOKEN === envSecret, 'env stored');
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

test('inspector: run a tool from its form, see progress, stop a long call; read a resource; get a prompt', async () => {
  const app = await startApp('inspector', { mcpServers: { demo: { command: testServer } } });
  try {
    const { page, errors } = await openPage(app);
    await page.getByTestId('nav-servers').click();
    await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });

    await page.getByTestId('nav-tools').click();
    await page.getByTestId('tool-item-echo').click();
    await page.getByTestId('schema-field-message').locator('input, textarea').first().fill('hello from the form');
    await page.getByTestId('tool-run').click();
    const result = page.getByTestId('tool-result');
    await result.filter({ hasText: 'Echo: hello from the form' }).waitFor({ timeout: 10000 });
    await page.screenshot({ path: join(shots, 'tools-echo.png') });

    // A long call shows progress and stops on request; the server is told.
    await page.getByTestId('tool-item-sleep').click();
    await page.getByTestId('schema-field-ms').locator('input').first().fill('20000');
    await page.getByTestId('tool-run').click();
    await page.getByTestId('tool-progress').waitFor({ timeout: 5000 });
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(shots, 'tools-progress.png') });
    await page.getByTestId('tool-stop').click();
    await page.getByTestId('tool-call-cancelled').waitFor({ timeout: 5000 });
    const rpc = await page.evaluate(() => window.go.mcp.MCPPool.RPCLog());
    expect(rpc.some((e) => e.method === 'notifications/cancelled' && e.direction === 'out'), 'no notifications/cancelled was sent');
    expect(rpc.some((e) => e.method === 'notifications/progress' && e.direction === 'in'), 'no progress notification arrived');

    await page.getByTestId('nav-resources').click();
    await page.getByTestId('resource-item-test://hello').click();
    await page.getByTestId('resource-preview').filter({ hasText: 'Hello, MCP Desk' }).waitFor({ timeout: 10000 });
    await page.screenshot({ path: join(shots, 'resources.png') });

    await page.getByTestId('nav-prompts').click();
    await page.getByTestId('prompt-item-greet').click();
    await page.getByTestId('prompt-arg-name').fill('Ada');
    await page.getByTestId('prompt-get').click();
    await page.getByTestId('prompt-messages').filter({ hasText: 'Ada' }).waitFor({ timeout: 10000 });
    await page.screenshot({ path: join(shots, 'prompts.png') });
    expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
  } finally { await app.stop(); }
});

test('elicitation: a tool asks two questions in sequence, answered in the dialog (2026-07-28 and 2025-11-25)', async () => {
  const app = await startApp('elicit', { mcpServers: {
    modern: { command: testServer },
    legacy: { command: testServer, protocolVersion: '2025-11-25' },
  } });
  try {
    const { page } = await openPage(app);
    await page.getByTestId('nav-servers').click();
    for (const id of ['modern', 'legacy']) {
      await page.getByTestId(`server-${id}`).getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
    }
    await page.getByTestId('nav-tools').click();
    for (const id of ['modern', 'legacy']) {
      await page.getByTestId('tools-server-select').selectOption(id);
      await page.getByTestId('tool-item-confirm').click();
      await page.getByTestId('schema-field-action').locator('input').first().fill(`ship-${id}`);
      await page.getByTestId('tool-run').click();
      const dlg = page.getByTestId('elicitation-dialog');
      await dlg.filter({ hasText: 'Who is asking?' }).waitFor({ timeout: 10000 });
      const team = await dlg.getByTestId('schema-field-team').locator('input').first().inputValue();
      expect(team === 'core', `default not filled in: ${team}`);
      await dlg.getByTestId('schema-field-name').locator('input').first().fill('Ada');
      if (id === 'modern') await page.screenshot({ path: join(shots, 'elicitation.png') });
      await dlg.getByTestId('elicitation-accept').click();
      await dlg.filter({ hasText: 'Are you sure?' }).waitFor({ timeout: 10000 });
      await dlg.getByTestId('elicitation-decline').click();
      await page.getByTestId('tool-result').filter({ hasText: `confirming ship-${id}: who=accept{"name":"Ada","team":"core"} sure=decline` })
        .waitFor({ timeout: 10000 });
    }
  } finally { await app.stop(); }
});

test('drag-and-drop import: dropping a Claude Desktop config previews its servers and adds them', async () => {
  const app = await startApp('drop');
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

test('saved requests: save a tool request, reload the app, load it back from SQLite', async () => {
  const app = await startApp('saved', { mcpServers: { demo: { command: testServer } } });
  try {
    const { page } = await openPage(app);
    await page.getByTestId('nav-servers').click();
    await page.getByTestId('server-demo').getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });
    await page.getByTestId('nav-tools').click();
    await page.getByTestId('tool-item-echo').click();
    const message = () => page.getByTestId('schema-field-message').locator('input, textarea').first();
    await message().fill('kept for later');
    await page.getByTestId('tool-save').click();
    await page.getByTestId('save-request-name').fill('greeting');
    await page.getByTestId('save-request-description').fill('the usual hello');
    await page.getByTestId('save-request-confirm').click();
    await page.getByTestId('saved-request-item').filter({ hasText: 'greeting' }).waitFor({ timeout: 10000 });

    await page.reload();
    await page.getByTestId('nav-tools').click();
    await page.getByTestId('tool-item-echo').click();
    await message().fill('');
    await page.getByTestId('tool-tab-saved').click();
    const item = page.getByTestId('saved-request-item').filter({ hasText: 'greeting' });
    await item.waitFor({ timeout: 10000 });
    await item.getByTestId('saved-request-load').click();
    const v = await message().inputValue();
    expect(v === 'kept for later', `loaded arguments: ${v}`);
  } finally { await app.stop(); }
});

test('completions from server-everything: completable-prompt suggests departments, then leads for the chosen one', async () => {
  const everything = join(root, 'backend/mcp/testdata/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  const app = await startApp('complete', { mcpServers: { everything: { command: 'node', args: [everything, 'stdio'] } } });
  try {
    const { page } = await openPage(app);
    await page.getByTestId('nav-servers').click();
    const row = page.getByTestId('server-everything');
    try {
      await row.getByTestId('server-state').filter({ hasText: /^connected$/i }).waitFor({ timeout: 30000 });
    } catch {
      // Seen once in CI: server-everything did not come up within 30 s.
      // Say what the row showed, restart it once, and carry on.
      console.log(`     note: server-everything not connected after 30 s; the row said: ${(await row.innerText()).replace(/\s+/g, ' ')}`);
      console.log(`     note: app log tail: ${app.log.join('').split('\n').slice(-15).join(' | ')}`);
      await row.getByTestId('server-restart').click();
      await row.getByTestId('server-state').filter({ hasText: /^connected$/i }).waitFor({ timeout: 30000 });
    }
    await page.getByTestId('nav-prompts').click();
    await page.getByTestId('prompt-item-completable-prompt').click();
    const options = (arg) => page.getByTestId(`prompt-complete-${arg}`).locator('option').evaluateAll((os) => os.map((o) => o.value));
    await page.getByTestId('prompt-arg-department').fill('S');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="prompt-complete-department"] option').length === 2, null, { timeout: 5000 });
    const deps = await options('department');
    expect(JSON.stringify(deps) === '["Sales","Support"]', `departments: ${deps}`);
    await page.getByTestId('prompt-arg-department').fill('Engineering');
    await page.getByTestId('prompt-arg-name').focus();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="prompt-complete-name"] option').length === 3, null, { timeout: 5000 });
    const leads = await options('name');
    expect(JSON.stringify(leads) === '["Alice","Bob","Charlie"]', `leads: ${leads}`);
    await page.getByTestId('prompt-arg-name').fill('Alice');
    await page.getByTestId('prompt-get').click();
    await page.getByTestId('prompt-messages').filter({ hasText: 'Alice' }).waitFor({ timeout: 10000 });
  } finally { await app.stop(); }
});

let passed = 0, failed = 0;
for (const t of tests) {
  const start = Date.now();
  try {
    await t.fn();
    passed++;
    console.log(`ok   ${t.name} (${Date.now() - start} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${t.name}\n     ${String(e?.stack || e).split('\n').join('\n     ')}`);
  }
}
await browser.close();
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
