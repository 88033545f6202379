// Inspector figures in a real browser against the dev binary (run by
// `make bench`): time from clicking Run to the rendered result for `echo`
// and for a 1 MB text result, and for servers with 1,000 and 10,000 tools
// the time until the tool list is usable, to a search result, back to the
// whole list and to the last row scrolled to. Prints figures; asserts
// nothing about speed.
//
// Chat: frame times while a 10,000-token reply streams into the chat from
// the scripted fake LLM (backend/llm/llmtest/fakellm), as fast as it can and
// paced over a few seconds: p50 / p95 / max of the requestAnimationFrame
// deltas from the first streamed text until the message is complete, and
// the stream's total time. Target p95 < 16.7 ms; reported, not asserted.
//
// MCPDESK_BIN runs another dev binary than build/bin/mcpdesk-dev;
// BENCH_TOOLS_ONLY=1 prints only the tool-list figures;
// BENCH_CHAT_ONLY=1 prints only the chat figures; BENCH_TRACE=file writes a
// Chromium trace of the whole-reply run and prints what its long tasks hold;
// BENCH_CPU_SLOWDOWN=N throttles the page's CPU N times for the chat runs;
// BENCH_LANGS=java,php names the reply's code languages in turn (default go).
// Each chat frame over 50 ms is printed with what the browser's
// long-animation-frame entry says it held.
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { RUNS, REPLY_END, describeFrames, fakeScript, longReply, probeSource, prompt, replyLangs } from './frames/reply.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'mcpdesk-bench-'));
const testServer = join(work, 'testserver');
execFileSync('go', ['build', '-o', testServer, './backend/mcppool/testserver'], { cwd: root, stdio: 'inherit' });
const fakeLLM = join(work, 'fakellm');
execFileSync('go', ['build', '-o', fakeLLM, './backend/llm/llmtest/fakellm'], { cwd: root, stdio: 'inherit' });
const toolsOnly = process.env.BENCH_TOOLS_ONLY === '1';

// listedTools asks the test server (over stdio, as the app does) for its
// tool names: the "huge" server gets as many generated tools as make 10,000
// in all (the pool keeps at most 10,000 of a server's tools), and the last
// row is the last of them by name.
async function listedTools(args = []) {
  const proc = spawn(testServer, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const send = (m) => proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
  const names = await new Promise((res, rej) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += d;
      for (let nl; (nl = buf.indexOf('\n')) >= 0; buf = buf.slice(nl + 1)) {
        const m = JSON.parse(buf.slice(0, nl));
        if (m.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list', params: {} });
        } else if (m.id === 2) {
          if (m.result.nextCursor) rej(new Error('the test server paged its tools'));
          res(m.result.tools.map((t) => t.name));
        }
      }
    });
    proc.on('exit', (c) => rej(new Error(`the test server exited with ${c}`)));
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } });
  });
  proc.kill();
  return names;
}
const FIXED_TOOLS = (await listedTools()).length;
const HUGE = 10000 - FIXED_TOOLS;
const chatOnly = process.env.BENCH_CHAT_ONLY === '1';

const REPLY = longReply(replyLangs());
const fake = toolsOnly ? null : await (async () => {
  const script = join(work, 'chat-script.json');
  writeFileSync(script, JSON.stringify(fakeScript(REPLY)));
  const proc = spawn(fakeLLM, ['--quiet', '--script', script, '--models', 'fake-1', '--repeat'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((res, rej) => {
    let buf = '';
    proc.stdout.on('data', (d) => { buf += d; const m = buf.match(/listening (\S+)/); if (m) res(m[1]); });
    proc.on('exit', (c) => rej(new Error(`fakellm exited with ${c}`)));
  });
  return { url, proc };
})();

const port = await new Promise((res) => {
  const s = net.createServer();
  s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
});
const data = join(work, 'data');
mkdirSync(data, { recursive: true });
const serverIds = chatOnly ? ['demo'] : ['demo', 'many', 'huge'];
writeFileSync(join(data, 'mcp.config.json'), JSON.stringify({ mcpServers: {
  demo: { command: testServer },
  ...(chatOnly ? {} : {
    many: { command: testServer, args: ['--tools', '1000'] },
    huge: { command: testServer, args: ['--tools', String(HUGE)] },
  }),
} }));
const bin = process.env.MCPDESK_BIN ? resolve(process.env.MCPDESK_BIN) : join(root, 'build/bin/mcpdesk-dev');
// With an LLM provider the app reads the keychain: give it a D-Bus session
// with an unlocked gnome-keyring, or D-Bus autolaunches daemons that outlive
// the run.
const run = ['xvfb-run', '-a', bin, '-devserver', `127.0.0.1:${port}`];
const [cmd, ...args] = fake
  ? ['dbus-run-session', '--', join(root, 'build/scripts/with-keyring.sh'), ...run]
  : run;
const app = spawn(cmd, args, {
  cwd: root, detached: true, stdio: 'ignore',
  env: { ...process.env, MCPDESK_DATA_DIR: data, XDG_DATA_HOME: join(work, 'x'), XDG_CACHE_HOME: join(work, 'c') },
});
// Whatever happens, the app and the fake do not outlive the run.
process.on('exit', () => {
  try { process.kill(-app.pid, 'SIGTERM'); } catch {}
  fake?.proc.kill();
});
const url = `http://127.0.0.1:${port}/`;
for (let i = 0; i < 200; i++) {
  try { if ((await fetch(url)).ok) break; } catch {}
  await new Promise((r) => setTimeout(r, 100));
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
await page.goto(url);
await page.getByTestId('nav-servers').click();
for (const id of serverIds) {
  await page.getByTestId(`server-${id}`).getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 60000 });
}
if (fake) {
  // The fake provider, its model the default (through the Go bindings),
  // then a reload so the UI reads them from Go.
  await page.evaluate(async (baseUrl) => {
    const pm = window.go.providers.ProviderManager;
    const p = await pm.Save({ id: '', name: 'Fake', type: 'openai', preset: 'custom', baseUrl, keyEnv: '',
      azure: false, azureApiVersion: '', headers: {}, enabled: true });
    await pm.SetDefaultModel({ provider: p.id, model: 'fake-1' });
  }, `${fake.url}/v1`);
  await page.reload();
  await page.getByTestId('nav-servers').waitFor({ timeout: 15000 });
}
if (chatOnly) {
  await chatFrames();
  await finish();
  process.exit(0);
}
await page.getByTestId('nav-tools').click();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Run → rendered result: measured in the page, from the click to the frame
// after the result's text is in the DOM.
async function runToRender(tool, fill, expectText, runs) {
  await page.getByTestId('tools-server-select').selectOption('demo');
  await page.getByTestId(`tool-item-${tool}`).click();
  await fill();
  const times = [];
  for (let i = 0; i < runs; i++) {
    await page.getByTestId('tool-run').waitFor({ timeout: 10000 });
    const ms = await page.evaluate(async (want) => {
      // The History tab counts runs: a new run is done when the count went
      // up, nothing waits, and the result shows.
      const runsSoFar = () => Number((document.querySelector('[data-testid="tool-tab-history"]')?.textContent.match(/\d+/) ?? ['0'])[0]);
      const before = runsSoFar();
      const start = performance.now();
      document.querySelector('[data-testid="tool-run"]').click();
      await new Promise((resolve) => {
        const check = () => {
          const r = document.querySelector('[data-testid="tool-result"]');
          if (runsSoFar() > before && r && r.textContent.includes(want) && !document.querySelector('[data-testid="tool-waiting"]')) {
            requestAnimationFrame(() => resolve());
          } else requestAnimationFrame(check);
        };
        check();
      });
      return performance.now() - start;
    }, expectText);
    times.push(ms);
  }
  return times;
}

if (!toolsOnly) {
  const echo = await runToRender('echo', () => page.getByTestId('schema-field-message').locator('input, textarea').first().fill('bench'), 'Echo: bench', 20);
  console.log(`run → rendered result, echo: median ${median(echo).toFixed(1)} ms (20 runs, min ${Math.min(...echo).toFixed(1)}, max ${Math.max(...echo).toFixed(1)})`);
  const big = await runToRender('big', () => page.getByTestId('schema-field-bytes').locator('input').first().fill('1048576'), 'Show all', 5);
  console.log(`run → rendered result, 1 MB text: median ${median(big).toFixed(1)} ms (5 runs, min ${Math.min(...big).toFixed(1)}, max ${Math.max(...big).toFixed(1)})`);
}

// The tool list's figures, each measured in the page from the change to the
// frame after the wanted rows are in the DOM (so the rendering and the
// layout they cost are in it):
//   usable list  picking the server (from demo) until its first tool shows;
//                the first time includes fetching the list from the server
//   search       typing the last tool's name until it is the only row
//   clear        emptying the search until the whole list shows again
//   scroll       jumping to the end of the list until the last row shows
const toolRows = '[data-testid^="tool-item-"]';
async function measure(change, want) {
  return page.evaluate(async ({ change, want, toolRows }) => {
    const byId = (id) => document.querySelector(`[data-testid="${id}"]`);
    const ready = () => {
      if (want.present && !byId(want.present)) return false;
      if (want.absent && byId(want.absent)) return false;
      const n = document.querySelectorAll(toolRows).length;
      return !(want.rows === 'one' && n !== 1) && !(want.rows === 'many' && n < 2);
    };
    const start = performance.now();
    if (change.select) {
      const el = byId('tools-server-select');
      el.value = change.select;
      el.dispatchEvent(new Event('change', { bubbles: true }));
    } else if (change.search !== undefined) {
      const el = byId('tools-search');
      el.value = change.search;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    } else if (change.scrollEnd) {
      const el = byId('tool-item-tool_0001')?.closest('.scroll') ?? document.querySelector(toolRows).closest('.scroll');
      el.scrollTop = el.scrollHeight;
    }
    await new Promise((resolve, reject) => {
      const give = setTimeout(() => {
        // What the list shows instead: its rows and where it is scrolled.
        const rows = [...document.querySelectorAll(toolRows)].map((r) => r.dataset.testid.replace('tool-item-', ''));
        const sc = document.querySelector(toolRows)?.closest('.scroll');
        const at = sc ? `scrollTop ${sc.scrollTop} of ${sc.scrollHeight} (${sc.clientHeight} shown)` : 'no list';
        reject(new Error(`not ready after 120 s: ${JSON.stringify(want)}; rows ${rows[0]}…${rows.at(-1)} (${rows.length}), ${at}`));
      }, 120000);
      const check = () => {
        if (ready()) {
          clearTimeout(give);
          requestAnimationFrame(() => resolve());
        } else requestAnimationFrame(check);
      };
      check();
    });
    return performance.now() - start;
  }, { change, want, toolRows });
}

const stats = (xs) => `median ${median(xs).toFixed(0)} ms (${xs.length} runs, min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
async function listFigures(server, count, last, end, runs) {
  const label = count.toLocaleString('en');
  const open = [];
  const search = [];
  const clear = [];
  const scroll = [];
  let rendered = 0;
  for (let i = 0; i < runs; i++) {
    await page.getByTestId('tools-search').fill('');
    await page.getByTestId('tools-server-select').selectOption('demo');
    await page.getByTestId('tool-item-echo').waitFor();
    open.push(await measure({ select: server }, { present: 'tool-item-tool_0001' }));
    rendered = await page.locator(toolRows).count();
    search.push(await measure({ search: last }, { present: `tool-item-${last}`, rows: 'one' }));
    clear.push(await measure({ search: '' }, { present: 'tool-item-tool_0001', rows: 'many' }));
    scroll.push(await measure({ scrollEnd: true }, { present: `tool-item-${end}` }));
  }
  console.log(`${label} tools, usable list, first time (list fetched): ${open[0].toFixed(0)} ms`);
  if (runs > 1) console.log(`${label} tools, usable list, again: ${stats(open.slice(1))}`);
  console.log(`${label} tools, search → only “${last}” shown: ${stats(search)}`);
  console.log(`${label} tools, clear search → whole list shown: ${stats(clear)}`);
  console.log(`${label} tools, scroll to the end → last row shown: ${stats(scroll)}`);
  console.log(`${label} tools, tool rows in the DOM: ${rendered}`);
}

// last: the tool searched for; end: the last row (tool names sort as text).
await listFigures('many', 1000, 'tool_1000', 'tool_1000', 6);
{
  // The list shows the tools in the server's order (mcp-go's, by name).
  const names = await listedTools(['--tools', String(HUGE)]);
  if (names.length !== 10000) throw new Error(`the huge server lists ${names.length} tools`);
  await listFigures('huge', 10000, `tool_${String(HUGE).padStart(4, '0')}`, names.at(-1), Number(process.env.BENCH_HUGE_RUNS || 4));
}

// As measured before the list was virtualised: switch to the server, search
// for its last tool and wait until it is listed (Playwright's round trips
// included).
const lists = [];
for (let i = 0; i < 5; i++) {
  await page.getByTestId('tools-server-select').selectOption('demo');
  await page.getByTestId('tool-item-echo').waitFor();
  const start = Date.now();
  await page.getByTestId('tools-server-select').selectOption('many');
  await page.getByTestId('tools-search').fill('tool_1000');
  await page.getByTestId('tool-item-tool_1000').waitFor({ timeout: 20000 });
  lists.push(Date.now() - start);
  await page.getByTestId('tools-search').fill('');
}
console.log(`list + render 1,000 tools and find the last: median ${median(lists)} ms (5 runs)`);

if (!toolsOnly) await chatFrames();
await finish();

async function finish() {
  await browser.close();
  try { process.kill(-app.pid, 'SIGTERM'); } catch {}
  fake?.proc.kill();
}

// chatFrames sends a message in a new chat for each scripted reply and
// measures, in the page, the requestAnimationFrame deltas from the first
// streamed text of the reply until its message is complete.
async function chatFrames() {
  // BENCH_CPU_SLOWDOWN=N runs the page's main thread N times slower (the
  // DevTools CPU throttle): what a slower machine sees.
  const slowdown = Number(process.env.BENCH_CPU_SLOWDOWN || 1);
  if (slowdown > 1) await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('composer-input').waitFor({ timeout: 10000 });
  for (const { label } of RUNS) {
    await page.getByTestId('chat-new').click();
    await page.getByTestId('composer-input').fill(prompt(label));
    // Send is enabled once the model list is in.
    await page.waitForFunction(() => !document.querySelector('[data-testid="composer-send"]')?.disabled, null, { timeout: 15000 });
    const tracing = process.env.BENCH_TRACE && label === 'as fast as it can';
    if (tracing) await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'disabled-by-default-v8.cpu_profiler'] });
    const r = await page.evaluate(`${probeSource}\nmeasureReplyFrames(${JSON.stringify(REPLY_END)})`).catch(async (e) => {
      const shot = join(root, 'build', 'bin', 'bench-chat-fail.png');
      await page.screenshot({ path: shot }).catch(() => {});
      const banners = await page.getByTestId('chat-error').allInnerTexts().catch(() => []);
      throw new Error(`${e.message}; chat errors: ${banners.join(' | ') || 'none'}; screenshot ${shot}`);
    });
    if (tracing) traceSummary(await browser.stopTracing(), process.env.BENCH_TRACE);
    console.log(describeFrames('chat', label, r));
    for (const f of r.long) {
      const scripts = f.scripts.map((x) => `${x.at} ${x.duration.toFixed(0)} ms (forced layout ${x.forced.toFixed(0)})`).join('; ');
      console.log(`  frame over 50 ms at ${f.at.toFixed(0)} ms of ${r.stream.toFixed(0)}: ${f.duration.toFixed(0)} ms, rendering ${f.render.toFixed(0)} ms (style and layout ${f.styleAndLayout.toFixed(0)}); scripts: ${scripts || 'none'}`);
    }
  }
}

// traceSummary writes a Chromium trace (BENCH_TRACE=file) and prints the
// main thread's tasks over 30 ms with the time of the events inside them
// by name: what a long frame is made of.
function traceSummary(buf, file) {
  writeFileSync(file, buf);
  const evs = JSON.parse(buf.toString()).traceEvents ?? [];
  const main = evs.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const mine = evs.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur);
  const tasks = mine.filter((e) => e.name === 'RunTask' && e.dur > 30000);
  for (const t of tasks) {
    const by = {};
    for (const e of mine) {
      if (e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.name !== 'RunTask') by[e.name] = (by[e.name] ?? 0) + e.dur;
    }
    const top = Object.entries(by).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`).join(', ');
    console.log(`  long task ${(t.dur / 1000).toFixed(1)} ms: ${top}`);
    const js = Object.entries(jsSelf(evs, main, t)).sort((a, b) => b[1] - a[1]).slice(0, 10)
      .map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`).join(', ');
    if (js) console.log(`    JavaScript (self ms): ${js}`);
  }
  console.log(`  trace: ${file} (${tasks.length} main-thread tasks over 30 ms)`);
}

// jsSelf sums the main thread's JavaScript samples inside task t by
// function (self time, µs), from the trace's V8 CPU profile chunks.
function jsSelf(evs, main, t) {
  const nodes = new Map();
  const out = {};
  // The main thread's profile; its chunks come from the profiler's thread.
  const profile = evs.find((e) => e.name === 'Profile' && e.pid === main.pid && e.tid === main.tid);
  if (!profile) return out;
  let time = profile.args.data.startTime;
  for (const e of evs) {
    if (e.name === 'ProfileChunk' && e.pid === main.pid && e.id === profile.id) {
      const p = e.args.data.cpuProfile ?? {};
      for (const n of p.nodes ?? []) nodes.set(n.id, n);
      const deltas = e.args.data.timeDeltas ?? [];
      (p.samples ?? []).forEach((id, i) => {
        time += deltas[i] ?? 0;
        const next = (deltas[i + 1] ?? 0);
        if (time < t.ts || time > t.ts + t.dur) return;
        const f = nodes.get(id)?.callFrame;
        if (!f) return;
        const name = `${f.functionName || '(anonymous)'}@${(f.url || '').split('/').pop()}:${f.lineNumber + 1}`;
        out[name] = (out[name] ?? 0) + next;
      });
    }
  }
  return out;
}
