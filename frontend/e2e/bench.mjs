// Inspector figures in a real browser against the dev binary (run by
// `make bench`): time from clicking Run to the rendered result for `echo`
// and for a 1 MB text result, and time to list and render a server with
// 1,000 tools. Prints figures; asserts nothing about speed.
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'mcpdesk-bench-'));
const testServer = join(work, 'testserver');
execFileSync('go', ['build', '-o', testServer, './backend/mcp/testserver'], { cwd: root, stdio: 'inherit' });

const port = await new Promise((res) => {
  const s = net.createServer();
  s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); });
});
const data = join(work, 'data');
mkdirSync(data, { recursive: true });
writeFileSync(join(data, 'mcp.config.json'), JSON.stringify({ mcpServers: {
  demo: { command: testServer },
  many: { command: testServer, args: ['--tools', '1000'] },
} }));
const app = spawn('xvfb-run', ['-a', join(root, 'build/bin/mcpdesk-dev'), '-devserver', `127.0.0.1:${port}`], {
  cwd: root, detached: true, stdio: 'ignore',
  env: { ...process.env, MCPDESK_DATA_DIR: data, XDG_DATA_HOME: join(work, 'x'), XDG_CACHE_HOME: join(work, 'c') },
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
for (const id of ['demo', 'many']) {
  await page.getByTestId(`server-${id}`).getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 30000 });
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

const echo = await runToRender('echo', () => page.getByTestId('schema-field-message').locator('input, textarea').first().fill('bench'), 'Echo: bench', 20);
console.log(`run → rendered result, echo: median ${median(echo).toFixed(1)} ms (20 runs, min ${Math.min(...echo).toFixed(1)}, max ${Math.max(...echo).toFixed(1)})`);
const big = await runToRender('big', () => page.getByTestId('schema-field-bytes').locator('input').first().fill('1048576'), 'Show all', 5);
console.log(`run → rendered result, 1 MB text: median ${median(big).toFixed(1)} ms (5 runs, min ${Math.min(...big).toFixed(1)}, max ${Math.max(...big).toFixed(1)})`);

// 1,000 tools: switch to the server and wait until its last tool is listed.
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
const rendered = await page.locator('[data-testid^="tool-item-"]').count();
console.log(`tool rows in the DOM with 1,000 tools listed: ${rendered}`);

await browser.close();
try { process.kill(-app.pid, 'SIGTERM'); } catch {}
