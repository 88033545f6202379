// The end-to-end harness: Debian's Chromium driven by playwright-core, the
// development binary (-tags dev) serving the built frontend and the real Go
// bindings over a websocket, a fresh data folder per app, our MCP test
// server, server-everything, the scripted fake LLM, and the helpers the
// specs share. run.mjs registers every spec's tests with it and runs them.
import { chromium } from 'playwright-core';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, existsSync, readFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// E2E_BIN runs another build of the dev binary (helpers working side by side).
const devBin = process.env.E2E_BIN || join(root, 'build', 'bin', 'mcpdesk-dev');
const shots = join(root, 'build', 'bin', 'e2e');
mkdirSync(shots, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'mcpdesk-e2e-'));
// Our MCP test server and the fake LLM are built once per run (setup.mjs
// builds them for every Playwright worker); built here when run alone.
function goBuild(name, pkg) {
  const out = join(work, name);
  execFileSync('go', ['build', '-o', out, pkg], { cwd: root, stdio: 'inherit' });
  return out;
}
const testServer = process.env.E2E_TESTSERVER || goBuild('testserver', './backend/mcppool/testserver');
// The reference server, @modelcontextprotocol/server-everything (installed by `make deps`).
const everything = join(root, 'backend/mcppool/testdata/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js');

// The scripted fake LLM provider (byte-accurate OpenAI SSE, see backend/llm/llmtest).
const fakeLLM = process.env.E2E_FAKELLM || goBuild('fakellm', './backend/llm/llmtest/fakellm');
// A desktop notification daemon that records what it shows and clicks on request.
const fakeNotifyd = process.env.E2E_FAKENOTIFYD || goBuild('fakenotifyd', './backend/notify/notifytest/fakenotifyd');

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

// startApp runs the dev binary under Xvfb with its own data folder, in a
// D-Bus session of its own, as on a desktop: without one, GTK has D-Bus
// autolaunch a session bus, and that bus (with the gnome-keyring-daemon it
// activates when the app reads the keychain) outlived the test: a whole
// e2e run left about 50 buses and 25 keyrings behind.
// With keychain set, the session has an unlocked gnome-keyring: the real
// Secret Service. An app with LLM providers reads the keychain: run it
// with keychain.
// With notify set, a fake notification daemon runs in that session too
// (backend/notify/notifytest/fakenotifyd): notifications() lists what it
// showed, click(id) clicks one.
async function startApp(name, config, { keychain = false, notify = false, env = {} } = {}) {
  const data = join(work, name);
  mkdirSync(data, { recursive: true });
  if (config) writeFileSync(join(data, 'mcp.config.json'), JSON.stringify(config, null, 2));
  const port = await freePort();
  const log = [];
  const run = ['xvfb-run', '-a', devBin, '-devserver', `127.0.0.1:${port}`];
  const notifyDir = join(data, 'notify');
  mkdirSync(notifyDir, { recursive: true });
  const keyring = keychain || notify ? [join(root, 'build/scripts/with-keyring.sh')] : [];
  const notifyd = notify ? [join(root, 'build/scripts/with-notifyd.sh'), fakeNotifyd, notifyDir] : [];
  const [cmd, ...args] = ['dbus-run-session', '--', ...notifyd, ...keyring, ...run];
  const proc = spawn(cmd, args, {
    env: { ...process.env, MCPDESK_DATA_DIR: data, XDG_DATA_HOME: join(data, 'xdg'), XDG_CACHE_HOME: join(data, 'xdg-cache'), ...env },
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  proc.stdout.on('data', (d) => log.push(String(d)));
  proc.stderr.on('data', (d) => log.push(String(d)));
  await waitHTTP(`http://127.0.0.1:${port}/`, 20000).catch((e) => {
    try { process.kill(-proc.pid, 'SIGTERM'); } catch {}
    throw new Error(`${e.message}; the app said: ${log.join('').split('\n').slice(-15).join(' | ') || 'nothing'}`);
  });
  return {
    url: `http://127.0.0.1:${port}/`, data, log,
    notifications() {
      const f = join(notifyDir, 'shown.jsonl');
      return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
    },
    click(id) { appendFileSync(join(notifyDir, 'clicks'), `${id}\n`); },
    async stop() {
      try { process.kill(-proc.pid, 'SIGTERM'); } catch {}
      const exited = await new Promise((r) => { proc.on('exit', () => r(true)); setTimeout(() => r(proc.exitCode !== null), 5000); });
      // An app that did not quit within 5 s (seen once: a window whose page
      // never loaded) is killed with its children, so no test leaves it behind.
      if (!exited) { try { process.kill(-proc.pid, 'SIGKILL'); } catch {} }
    },
  };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// Helper processes (fake LLMs, HTTP servers) still running when a test ends,
// e.g. because the app failed to start before its try block: the runner
// stops them after each test.
const leftovers = new Set();
function track(proc) {
  const stop = () => { leftovers.delete(stop); proc.kill(); };
  leftovers.add(stop);
  proc.on('exit', () => leftovers.delete(stop));
  return stop;
}

const tests = [];
const test = (name, fn) => tests.push({ name, fn });
const expect = (cond, msg) => { if (!cond) throw new Error(msg); };

// welcomeSeen is the UI-state key that marks the first-run welcome as
// dismissed, read from the frontend's source so that the two cannot drift.
const welcomeSeen = (() => {
  const src = readFileSync(join(root, 'frontend/src/lib/state/welcome.svelte.ts'), 'utf8');
  const m = src.match(/WELCOME_SEEN\s*=\s*['"]([^'"]+)['"]/);
  if (!m) throw new Error('frontend/src/lib/state/welcome.svelte.ts: no WELCOME_SEEN key');
  return m[1];
})();

// contexts are the browser contexts of the running test. Under Playwright
// Test each records a trace, kept when the test fails (register.mjs).
const contexts = new Set();
// E2E_TRACES: "full" records DOM snapshots and screenshots too (slow: the
// layout sweep takes three times as long), "light" the actions, console and
// network, "" or "0" nothing.
const tracing = ['light', 'full'].includes(process.env.E2E_TRACES ?? '') ? process.env.E2E_TRACES : '';

// newPage opens a page in a context of its own.
async function newPage(options) {
  const context = await browser.newContext(options);
  contexts.add(context);
  if (tracing) await context.tracing.start({ screenshots: tracing === 'full', snapshots: tracing === 'full' });
  return context.newPage();
}

// openPage opens the app in a new page. A fresh data folder opens the
// first-run welcome (SPEC F6) over everything; unless welcome is set it is
// marked seen, as its Skip button does, and the page reloaded without it.
async function openPage(app, { welcome = false, colorScheme, init } = {}) {
  const page = await newPage({ viewport: { width: 1280, height: 820 }, ...(colorScheme ? { colorScheme } : {}) });
  // init runs in the page before any of its scripts (page.addInitScript).
  if (init) await page.addInitScript(init);
  const errors = [];
  // Wails' dev-server IPC script (ipc_websocket.js) can deliver an event
  // over its websocket before its runtime script has defined window.wails
  // ("reading 'EventsNotify'"), seen once on a loaded machine right after a
  // reload. It is the dev harness's race, not the app's: the desktop build
  // has no websocket.
  page.on('pageerror', (e) => {
    const text = String(e);
    if (!text.includes('nodes') && !text.includes("reading 'EventsNotify'")) errors.push(text);
  });
  await page.goto(app.url);
  await page.getByTestId('nav-servers').waitFor({ timeout: 15000 });
  if (!welcome && (await page.evaluate((key) => window.go.settings.Service.UIState(key), welcomeSeen)) === '') {
    await page.evaluate((key) => window.go.settings.Service.SaveUIState(key, '1'), welcomeSeen);
    await page.reload();
    await page.getByTestId('nav-servers').waitFor({ timeout: 15000 });
  }
  return { page, errors };
}

// colorScheme switches the system colour scheme and waits until the app has
// followed it. The app's "system" theme hears the change through a
// matchMedia listener that runs a frame or more later; axe or a screenshot
// taken before that measures the old theme, or one half-way through the
// swap (seen in a clean Debian root under load: contrast failures on small
// buttons no user ever sees).
async function colorScheme(page, scheme) {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme, { timeout: 5000 })
    .catch(async () => { throw new Error(`the app did not switch to the ${scheme} theme: data-theme is ${await page.evaluate(() => document.documentElement.dataset.theme)}`); });
}

// waitConnected opens the Servers screen and waits for the server's row to
// say connected. Seen once in CI: server-everything did not come up within
// 30 s; then say what the row showed, restart it once, and carry on.
async function waitConnected(page, app, id, ms = 30000) {
  await page.getByTestId('nav-servers').click();
  const row = page.getByTestId(`server-${id}`);
  try {
    await row.getByTestId('server-state').filter({ hasText: /^connected$/i }).waitFor({ timeout: ms });
  } catch {
    console.log(`     note: ${id} not connected after ${ms / 1000} s; the row said: ${(await row.innerText().catch(() => '(no row)')).replace(/\s+/g, ' ')}`);
    console.log(`     note: app log tail: ${app.log.join('').split('\n').slice(-15).join(' | ')}`);
    await row.getByTestId('server-restart').click();
    await row.getByTestId('server-state').filter({ hasText: /^connected$/i }).waitFor({ timeout: ms });
  }
}

// startHTTPServer runs our test server over Streamable HTTP (with extra
// flags: --oauth puts it behind the test authorization server) and returns its URL.
async function startHTTPServer(...extra) {
  const proc = spawn(testServer, ['--transport', 'http', '--addr', '127.0.0.1:0', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((res, rej) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/LISTENING (\S+)/);
      if (m) res(m[1]);
    });
    proc.on('exit', () => rej(new Error('test server exited')));
  });
  return { url, stop: track(proc) };
}

// startFakeLLM runs the scripted fake provider (backend/llm/llmtest/fakellm)
// with the given turns (see llmtest.ScriptTurn); with repeat the last turn is
// served again and again. requests() returns the chat requests it received,
// headers and bodies.
async function startFakeLLM(turns, { repeat = false, models = ['fake-1'] } = {}) {
  const script = join(mkdtempSync(join(work, 'fakellm-')), 'script.json');
  writeFileSync(script, JSON.stringify(turns));
  const args = ['--addr', '127.0.0.1:0', '--script', script, '--models', models.join(',')];
  if (repeat) args.push('--repeat');
  const proc = spawn(fakeLLM, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = track(proc);
  const log = [];
  proc.stderr.on('data', (d) => { if (log.length < 5000) log.push(String(d)); });
  const url = await new Promise((res, rej) => {
    let buf = '';
    const t = setTimeout(() => rej(new Error(`fakellm did not listen within 10 s: ${log.join('')}`)), 10000);
    proc.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/listening (\S+)/);
      if (m) { clearTimeout(t); res(m[1]); }
    });
    proc.on('exit', (code) => { clearTimeout(t); rej(new Error(`fakellm exited with ${code}: ${log.join('')}`)); });
  });
  return {
    url, baseUrl: `${url}/v1`, log,
    async requests() { return (await fetch(`${url}/_requests`)).json(); },
    stop,
  };
}

// addFakeProvider adds a keyless OpenAI-compatible provider at baseUrl and
// makes its model the default, through the Go bindings (the Settings UI for
// both is exercised by the chat test), then reloads the page so the UI reads
// them from Go.
async function addFakeProvider(page, baseUrl, model = 'fake-1') {
  await page.evaluate(async ({ baseUrl, model }) => {
    const pm = window.go.providers.ProviderManager;
    const p = await pm.Save({ id: '', name: 'Fake', type: 'openai', preset: 'custom', baseUrl, keyEnv: '',
      azure: false, azureApiVersion: '', headers: {}, enabled: true });
    await pm.SetDefaultModel({ provider: p.id, model });
  }, { baseUrl, model });
  await page.reload();
  await page.getByTestId('nav-servers').waitFor({ timeout: 15000 });
}

// A markdown answer with a heading, a list, a Go code block and a table,
// cut into small chunks (every 3 to 9 characters, cutting through words,
// fences and table rows, as real streams do).
const MARKDOWN_ANSWER = [
  '## The results are in',
  '',
  'I ran the tools you allowed:',
  '',
  '- **echo** said *hello from the model*',
  '- **get-sum** was declined, so I did not add 2 and 3',
  '- nothing else ran',
  '',
  'Here is how you would add them in Go:',
  '',
  '```go',
  'package main',
  '',
  'import "fmt"',
  '',
  'func main() {',
  '\tfmt.Println(2 + 3) // 5',
  '}',
  '```',
  '',
  '| tool | status | result |',
  '| --- | --- | --- |',
  '| echo | done | hello from the model |',
  '| get-sum | declined | — |',
  '',
  'Anything else?',
].join('\n');

function chunked(text, min = 3, max = 9) {
  const out = [];
  let seed = 7;
  for (let i = 0; i < text.length;) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const n = min + (seed % (max - min + 1));
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

// ---------------------------------------------------------------------------
// server-everything: every tool it lists, run from the form, over stdio and
// over Streamable HTTP.

// startEverythingHTTP runs server-everything over Streamable HTTP on a free
// port and returns its endpoint.
async function startEverythingHTTP() {
  const port = await freePort();
  const log = [];
  const proc = spawn('node', [everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen = () => log.join('');
  await new Promise((res, rej) => {
    const t = setTimeout(() => { proc.kill(); rej(new Error(`server-everything (streamableHttp) did not listen within 20 s: ${seen().slice(-500)}`)); }, 20000);
    const onData = (d) => {
      if (log.length < 2000) log.push(String(d));
      if (/listening on port/i.test(seen())) { clearTimeout(t); res(); }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => { clearTimeout(t); rej(new Error(`server-everything (streamableHttp) exited with ${code}: ${seen().slice(-500)}`)); });
  });
  return { url: `http://127.0.0.1:${port}/mcp`, log, stop: track(proc) };
}

// Arguments typed into the form, by tool and field: the required fields
// without a default, and defaults that would be slow or need the network.
const CONSENT_URL = 'https://auth.example.com/mcpdesk/consent?client=e2e&scope=read%20write&state=xyz-42';
const GZIP_DATA = `data:text/plain;base64,${Buffer.from('Hello from the MCP Desk e2e test\n').toString('base64')}`;
const EVERYTHING_ARGS = {
  echo: { message: 'hello everything' },
  'get-sum': { a: 2, b: 40 },
  'get-annotated-message': { messageType: 'success' },
  'get-structured-content': { location: 'Chicago' },
  'get-resource-reference': { resourceType: 'Text', resourceId: 2 },
  'gzip-file-as-resource': { name: 'hello.txt.gz', data: GZIP_DATA },
  // Small: 8 steps of 1 s; it is stopped after the first one.
  'trigger-long-running-operation': { duration: 8, steps: 8 },
  'trigger-url-elicitation': { url: CONSENT_URL },
  'trigger-sampling-request': { prompt: 'Say hello', maxTokens: 20 },
  'trigger-sampling-request-async': { prompt: 'Say hello', maxTokens: 20 },
  'simulate-research-query': { topic: 'MCP Desk' },
};

// The tools server-everything lists only when the client advertises a
// capability (dist/tools/index.js, registerConditionalTools).
const CONDITIONAL_TOOLS = {
  'get-roots-list': 'roots',
  'trigger-elicitation-request': 'elicitation',
  'trigger-url-elicitation': 'elicitation.url',
  'trigger-sampling-request': 'sampling',
  'trigger-sampling-request-async': 'sampling + tasks.requests.sampling.createMessage',
  'trigger-elicitation-request-async': 'elicitation + tasks.requests.elicitation.create',
};

// fillField sets one field of a schema form (scope holds the form).
async function fillField(scope, name, value) {
  const field = scope.getByTestId(`schema-field-${name}`);
  await field.waitFor({ timeout: 5000 });
  const kind = await field.getAttribute('data-kind');
  if (kind === 'enum') {
    await field.locator('select').first().selectOption({ label: String(value) });
  } else if (kind === 'boolean') {
    const sw = field.getByRole('switch');
    if (((await sw.getAttribute('aria-checked')) === 'true') !== !!value) await sw.click();
  } else {
    await field.locator('input, textarea').first().fill(String(value));
  }
}

// What the fake model answers server-everything's sampling requests.
const SAMPLED_TEXT = 'Hello from the fake model, sampled for server-everything.';

const TERMINAL = '[data-testid="tool-result"], [data-testid="tool-call-error"], [data-testid="tool-call-cancelled"]';

// settleTools leaves the Tools screen idle after a tool that went wrong: no
// question open, nothing running.
async function settleTools(page) {
  const dlg = page.getByTestId('elicitation-dialog');
  if (await dlg.isVisible().catch(() => false)) await dlg.getByTestId('elicitation-cancel').click().catch(() => {});
  const sdlg = page.getByTestId('sampling-dialog');
  if (await sdlg.isVisible().catch(() => false)) await sdlg.getByTestId('sampling-reject').click().catch(() => {});
  const stop = page.getByTestId('tool-stop');
  if (await stop.isVisible().catch(() => false)) {
    await stop.click().catch(() => {});
    await page.getByTestId('tool-run').waitFor({ timeout: 5000 }).catch(() => {});
  }
}

// openLogger opens the JSON-RPC logger with Ctrl+J (the shortcut) if closed.
async function openLogger(page) {
  if (await page.getByTestId('rpc-filter-text').isVisible()) return;
  await page.keyboard.press('Control+j');
  await page.getByTestId('rpc-filter-method').waitFor({ timeout: 5000 });
}

async function closeLogger(page) {
  if (!(await page.getByTestId('rpc-filter-text').isVisible())) return;
  await page.getByTestId('rpc-filter-method').fill('');
  await page.keyboard.press('Control+j');
  await page.getByTestId('rpc-filter-method').waitFor({ state: 'hidden', timeout: 5000 });
}

async function everythingAllTools(transport) {
  const remote = transport === 'http' ? await startEverythingHTTP() : null;
  const rootDir = join(work, `roots-${transport}`, 'mcpdesk-e2e-root');
  mkdirSync(rootDir, { recursive: true });
  const spec = remote
    ? { type: 'http', url: remote.url, roots: [rootDir] }
    : { command: 'node', args: [everything, 'stdio'], roots: [rootDir] };
  // Sampling needs a model: the fake provider, its model the default.
  const fake = await startFakeLLM([{ text: chunked(SAMPLED_TEXT), delayMs: 2 }], { repeat: true });
  const app = await startApp(`everything-${transport}`, { mcpServers: { everything: spec } }, { keychain: true });
  const outcomes = [];
  try {
    const { page, errors } = await openPage(app);
    await waitConnected(page, app, 'everything');
    // After the server is up: a reload while it connects can leave its row
    // at "Connecting…" (the status event is lost; Go says connected).
    await addFakeProvider(page, fake.baseUrl);
    await waitConnected(page, app, 'everything', 10000);
    await page.getByTestId('nav-tools').click();
    await page.getByTestId('tools-summary').waitFor({ timeout: 15000 });

    // The list, read from the UI once it stops changing: the server adds
    // the tools that depend on our capabilities after the handshake.
    const listed = () => page.locator('[data-testid^="tool-item-"]').evaluateAll((els) => els.map((e) => e.dataset.testid.slice('tool-item-'.length)));
    let names = [], stable = 0;
    for (const end = Date.now() + 10000; Date.now() < end && stable < 4;) {
      const now = await listed();
      stable = now.length >= 15 && now.join() === names.join() ? stable + 1 : 0;
      names = now;
      await page.waitForTimeout(250);
    }
    expect(names.length >= 15, `server-everything lists ${names.length} tools (want >= 15): ${names.join(', ')}`);
    const summary = await page.getByTestId('tools-summary').innerText();
    expect(summary.includes(String(names.length)), `tools-summary "${summary}" vs ${names.length} tools in the list`);
    await page.screenshot({ path: join(shots, `everything-${transport}-tools.png`) });

    // The form is in tool-detail; the output may be docked in the bottom
    // panel (outside tool-detail), so results are looked for on the page.
    const detail = page.getByTestId('tool-detail');
    const out = page;
    const result = out.getByTestId('tool-result');
    const dlg = page.getByTestId('elicitation-dialog');
    const sdlg = page.getByTestId('sampling-dialog');

    for (const name of names) {
      const started = Date.now();
      let note = '';
      try {
        await page.getByTestId(`tool-item-${name}`).click();
        await page.locator(`[data-testid="tool-item-${name}"][aria-current="true"]`).waitFor({ timeout: 5000 });
        await detail.waitFor({ timeout: 5000 });
        for (const [field, value] of Object.entries(EVERYTHING_ARGS[name] ?? {})) {
          if (await detail.getByTestId(`schema-field-${field}`).count()) await fillField(detail, field, value);
        }
        await page.getByTestId('tool-run').click();
        // The run starts (or ends at once), or Run refuses an invalid form and says why.
        await out.locator(`[data-testid="tool-stop"], [data-testid="tool-waiting"], [data-testid="tool-errors"], ${TERMINAL}`).first().waitFor({ timeout: 5000 });
        if (await detail.getByTestId('tool-errors').isVisible()) {
          throw new Error(`the form did not validate: ${(await detail.getByTestId('tool-errors').innerText()).replace(/\s+/g, ' ')}`);
        }

        if (name === 'trigger-long-running-operation') {
          // Progress shows, Stop cancels, the server is told.
          await out.locator('[data-testid="tool-progress"][data-mode="determinate"]').waitFor({ timeout: 10000 });
          const now = await out.getByTestId('tool-progress').getAttribute('aria-valuenow');
          const max = await out.getByTestId('tool-progress').getAttribute('aria-valuemax');
          await page.screenshot({ path: join(shots, `everything-${transport}-long-running.png`) });
          await page.getByTestId('tool-stop').click();
          await out.getByTestId('tool-call-cancelled').waitFor({ timeout: 10000 });
          await openLogger(page);
          await page.getByTestId('rpc-filter-method').fill('notifications/cancelled');
          await page.getByTestId('rpc-row').filter({ hasText: 'notifications/cancelled' }).first().waitFor({ timeout: 5000 });
          await page.screenshot({ path: join(shots, `everything-${transport}-cancelled-logger.png`) });
          await closeLogger(page);
          note = `progress ${now}/${max}, stopped; notifications/cancelled in the logger`;
        } else if (name === 'trigger-elicitation-request') {
          await dlg.waitFor({ timeout: 10000 });
          const msg = await dlg.getByTestId('elicitation-message').innerText();
          expect(/provide inputs/i.test(msg), `elicitation message: ${msg}`);
          await fillField(dlg, 'name', 'Ada Lovelace');
          await page.screenshot({ path: join(shots, `everything-${transport}-elicitation.png`) });
          await dlg.getByTestId('elicitation-accept').click();
          try {
            await dlg.waitFor({ state: 'hidden', timeout: 5000 });
          } catch {
            throw new Error(`the elicitation dialog stayed open after Accept: ${(await dlg.innerText()).replace(/\s+/g, ' ').slice(0, 400)}`);
          }
          await result.waitFor({ timeout: 10000 });
          const text = await result.innerText();
          expect(text.includes('Name: Ada Lovelace') && /"action":\s*"accept"/.test(text), `result after accepting: ${text.slice(0, 400)}`);
          note = 'dialog filled and accepted; the result shows the answer';
        } else if (name === 'trigger-sampling-request') {
          // The request shows in the global sampling dialog (no conversation
          // on screen). Over stdio it is rejected: the tool fails and says
          // so. Over HTTP it is approved: the fake model answers for real.
          await sdlg.waitFor({ timeout: 10000 });
          const asked = await sdlg.getByTestId('sampling-message').first().inputValue();
          expect(asked.includes('Say hello'), `the sampling dialog shows the message ${JSON.stringify(asked)}`);
          await page.screenshot({ path: join(shots, `everything-${transport}-sampling.png`) });
          const approve = transport === 'http';
          await sdlg.getByTestId(approve ? 'sampling-approve' : 'sampling-reject').click();
          await sdlg.waitFor({ state: 'hidden', timeout: 5000 });
          await out.locator(TERMINAL).first().waitFor({ timeout: 15000 });
          const text = (await out.locator(TERMINAL).first().innerText()).replace(/\s+/g, ' ');
          const isErr = (await out.getByTestId('tool-call-error').count()) > 0 || (await result.getAttribute('data-error')) === 'true';
          if (approve) {
            expect(!isErr && text.includes(SAMPLED_TEXT), `after approving, the result lacks the fake model's text: ${text.slice(0, 400)}`);
            note = `approved; the fake model answered: ${SAMPLED_TEXT}`;
          } else {
            expect(isErr && /reject/i.test(text), `after rejecting, the result is not an error saying rejected (error=${isErr}): ${text.slice(0, 400)}`);
            note = `rejected; the tool failed: ${text.match(/MCP error.*?rejected[^.]*/i)?.[0] ?? text.slice(0, 120)}`;
          }
        } else if (name === 'trigger-url-elicitation') {
          await dlg.waitFor({ timeout: 10000 });
          const consent = dlg.getByTestId('elicitation-url');
          await consent.waitFor({ timeout: 5000 });
          const shown = await consent.innerText();
          expect(shown.includes(CONSENT_URL), `the consent screen does not show the full URL ${CONSENT_URL}: ${shown}`);
          await page.screenshot({ path: join(shots, `everything-${transport}-url-consent.png`) });
          await dlg.getByTestId('elicitation-decline').click();
          await dlg.waitFor({ state: 'hidden', timeout: 5000 });
          await result.waitFor({ timeout: 10000 });
          const text = await result.innerText();
          expect(/declined/i.test(text), `result after declining: ${text.slice(0, 400)}`);
          note = 'consent screen showed the full URL; declined';
        } else {
          // Anything else ends within the timeout: a result or an error.
          // A question nobody expected is answered, so the tool can end.
          const end = Date.now() + (name.startsWith('trigger-sampling') ? 20000 : 15000);
          while (!(await out.locator(TERMINAL).count())) {
            if (Date.now() > end) throw new Error(`no result after ${Math.round((Date.now() - started) / 1000)} s (still ${await out.getByTestId('tool-waiting').isVisible() ? 'waiting' : 'not shown'})`);
            if (await dlg.isVisible()) {
              if (await dlg.getByTestId('schema-field-name').count()) await fillField(dlg, 'name', 'Ada Lovelace');
              await dlg.getByTestId('elicitation-accept').click();
              note += 'answered a question; ';
            }
            if (await sdlg.isVisible()) {
              await sdlg.getByTestId('sampling-approve').click();
              await sdlg.waitFor({ state: 'hidden', timeout: 5000 });
              note += 'approved a sampling request; ';
            }
            await page.waitForTimeout(100);
          }
          expect(!(await out.getByTestId('tool-waiting').isVisible()), 'the spinner is still shown next to the result');
          const error = out.getByTestId('tool-call-error');
          const isErr = (await error.count()) > 0 || (await result.getAttribute('data-error')) === 'true';
          const text = (await out.locator(TERMINAL).first().innerText()).replace(/\s+/g, ' ').trim();
          // For the table: the message itself, without the header's buttons.
          let gist = text;
          for (const sel of ['[data-testid="tool-call-error"] pre', '[data-testid="result-markdown"], [data-testid="result-text"]', '[data-testid="result-content"]']) {
            const l = out.locator(sel).first();
            if (await l.count()) { gist = (await l.innerText()).replace(/\s+/g, ' ').trim(); break; }
          }
          if (name.endsWith('-async')) {
            expect(text.length > 10, `no readable result or error: "${text}"`);
            note += `${isErr ? 'error' : 'result'}: ${gist.slice(0, 160)}`;
          } else {
            expect(!isErr, `failed: ${text.slice(0, 400)}`);
            const items = await result.getByTestId('result-content').count();
            expect(items >= 1, `the result shows no content: ${text.slice(0, 200)}`);
            if (name === 'echo') {
              expect(text.includes('hello everything'), `echo: ${text.slice(0, 200)}`);
            } else if (name === 'simulate-research-query') {
              // Runs as a task (tools/call with "task", tasks/get, tasks/result).
              expect(text.includes('Research Report'), `simulate-research-query: ${text.slice(0, 200)}`);
            } else if (name === 'get-sum') {
              expect(/\b42\b/.test(text), `get-sum 2 + 40 does not show 42: ${text.slice(0, 200)}`);
            } else if (name === 'get-tiny-image') {
              const img = result.locator('[data-testid="result-content"][data-type="image"] img');
              await img.waitFor({ timeout: 5000 });
              await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle(), { timeout: 5000 });
              await page.screenshot({ path: join(shots, `everything-${transport}-image.png`) });
            } else if (name === 'get-structured-content') {
              const tree = result.getByTestId('structured-tree');
              await tree.waitFor({ timeout: 5000 });
              const t = await tree.innerText();
              expect(/temperature/.test(t) && /humidity/.test(t), `structured tree: ${t.slice(0, 200)}`);
              const v = await result.getByTestId('output-validation').getAttribute('data-state');
              expect(v === 'valid', `output-schema validation says ${v}`);
              await page.screenshot({ path: join(shots, `everything-${transport}-structured.png`) });
            } else if (name === 'get-resource-links') {
              const n = await result.getByTestId('result-resource-link').count();
              expect(n >= 1, `no resource link cards (content: ${text.slice(0, 200)})`);
              await page.screenshot({ path: join(shots, `everything-${transport}-resource-links.png`) });
            } else if (name === 'get-resource-reference') {
              const n = await result.locator('[data-testid="result-content"][data-type="resource"]').count();
              expect(n >= 1, `no embedded resource (content: ${text.slice(0, 200)})`);
              expect(text.includes('text/2') || text.includes('Resource 2'), `embedded resource is not text resource 2: ${text.slice(0, 300)}`);
            } else if (name === 'gzip-file-as-resource') {
              const n = await result.locator('[data-testid="result-resource-link"], [data-testid="result-content"][data-type="resource"]').count();
              expect(n >= 1 && text.includes('hello.txt.gz'), `no resource for hello.txt.gz: ${text.slice(0, 200)}`);
            } else if (name === 'get-roots-list') {
              expect(text.includes('mcpdesk-e2e-root'), `the roots list does not show the configured root: ${text.slice(0, 300)}`);
            }
            note = gist.slice(0, 90);
          }
        }
        outcomes.push({ name, ok: true, ms: Date.now() - started, note });
      } catch (e) {
        outcomes.push({ name, ok: false, ms: Date.now() - started, note: String(e?.message || e).split('\n')[0].slice(0, 300) });
        await page.screenshot({ path: join(shots, `everything-${transport}-FAIL-${name}.png`) }).catch(() => {});
        await settleTools(page);
      }
    }

    for (const o of outcomes) {
      console.log(`     ${transport.padEnd(5)} ${o.ok ? 'ok  ' : 'FAIL'} ${o.name.padEnd(34)} ${String(o.ms).padStart(6)} ms  ${o.note.replace(/\s+/g, ' ')}`);
    }
    // server-everything registers some tools only for clients that advertise
    // a capability; say which of those this client was not offered.
    for (const [tool, needs] of Object.entries(CONDITIONAL_TOOLS)) {
      if (!names.includes(tool)) console.log(`     ${transport.padEnd(5)} --   ${tool.padEnd(34)}           not offered: the client does not advertise ${needs}`);
    }
    const bad = outcomes.filter((o) => !o.ok);
    expect(bad.length === 0, `${bad.length} of ${outcomes.length} tools failed over ${transport}:\n${bad.map((o) => `  ${o.name}: ${o.note}`).join('\n')}`);
    expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
  } finally {
    await app.stop();
    remote?.stop();
    fake.stop();
  }
}

// ---------------------------------------------------------------------------
// Chat against the scripted fake LLM (SPEC C3, D2–D7): a provider added in
// Settings, a full turn with two tool calls of server-everything, one
// approved and one declined, streamed markdown, and the conversation back
// from SQLite after a reload.

// ---- Usage, language and theme (SPEC E1, F1) --------------------------------

// sendInUI types a message in the composer, sends it and waits for the reply
// holding text to complete.
async function sendInUI(page, message, text) {
  await page.getByTestId('composer-input').fill(message);
  await page.getByTestId('composer-send').click();
  await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: text })
    .waitFor({ timeout: 30000 }).catch(async () => {
      const last = page.getByTestId('message-assistant').last();
      throw new Error(`no complete reply with ${JSON.stringify(text)}; the last one says ${await last.getAttribute('data-status').catch(() => '?')}: ${(await last.innerText().catch(() => '')).slice(0, 200)}`);
    });
}

// harness is what every spec file's default function receives.
export const harness = { newPage, colorScheme, devBin, root, shots, work, testServer, everything, fakeLLM, freePort, waitHTTP, startApp, browser, track, test, expect, openPage, waitConnected, startHTTPServer, startFakeLLM, addFakeProvider, MARKDOWN_ANSWER, chunked, startEverythingHTTP, CONSENT_URL, GZIP_DATA, EVERYTHING_ARGS, CONDITIONAL_TOOLS, fillField, SAMPLED_TEXT, TERMINAL, settleTools, openLogger, closeLogger, everythingAllTools, sendInUI };
export { tests, leftovers, browser, contexts };
