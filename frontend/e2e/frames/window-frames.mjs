// window-frames.mjs: the frames of the real production window (WebKitGTK
// under Xvfb, software rendering) while the 10,000-token reply of bench.mjs
// arrives, as fast as it can and paced. bench.mjs measures the same reply in
// Chromium against the dev build, whose events come over the dev server's
// websocket; here they come through WebKit's own IPC, as for a user.
//
// The production binary has no probe in it. For each repository given
// (default: this one; its frontend/dist must be built), it builds a probe
// binary with `go build -overlay`: the embedded index.html gains one
// script, frames/probe.js and a driver that sends the prompts and reports
// the frames through the Wails runtime's log (LogError, the level a
// production build prints). The source tree is not touched. Runs alternate
// between the repositories, RUNS (3) times. Run it through
// build/scripts/window-frames-bench.sh (a D-Bus session, Xvfb's display).
//   node frontend/e2e/frames/window-frames.mjs [repo ...]
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNS, REPLY_END, describeFrames, fakeScript, frameStats, longReply, probeSource, prompt, replyLangs } from './reply.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const repos = (process.argv.length > 2 ? process.argv.slice(2) : [root]).map((r) => resolve(r));
const runs = Number(process.env.RUNS || 3);
const work = mkdtempSync(join(tmpdir(), 'mcpdesk-frames-'));
const children = [];
process.on('exit', () => {
  for (const c of children) try { c.kill('SIGKILL'); } catch {}
  rmSync(work, { recursive: true, force: true });
});

// driver runs in the window once the page has loaded: for each run it
// starts a new chat, types the prompt, and reports what measureReplyFrames
// saw; then "done". It reports an error as "failed" and stops.
function driver(runs, end) {
  const log = (m) => window.runtime.LogError(`frame probe: ${m}`);
  const q = (id) => document.querySelector(`[data-testid="${id}"]`);
  const until = async (what, f, ms = 30000) => {
    for (const t0 = Date.now(); ; ) {
      const v = f();
      if (v) return v;
      if (Date.now() - t0 > ms) throw new Error(`no ${what} within ${ms / 1000} s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  (async () => {
    await until('Wails runtime', () => window.runtime?.LogError);
    try {
      await until('New chat', () => q('chat-new'));
      log(JSON.stringify({ label: 'idle', ...(await measureIdleFrames(3000)) }));
      log(JSON.stringify({ label: 'touch', ...(await measureIdleFrames(3000, true)) }));
      for (const { label, text } of runs) {
        (await until('New chat', () => q('chat-new'))).click();
        const input = await until('composer', () => q('composer-input'));
        input.value = text;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await until('Send enabled', () => q('composer-send') && !q('composer-send').disabled);
        const r = await measureReplyFrames(end);
        log(JSON.stringify({ label, ...r }));
      }
      log('done');
    } catch (e) {
      log(`failed: ${e.message}`);
    }
  })();
}

// probeBinary builds repo's app with the probe in its embedded page.
function probeBinary(repo, i) {
  const dist = join(repo, 'frontend', 'dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  if (!html.includes('</body>')) throw new Error(`${dist}/index.html has no </body>`);
  const dir = join(work, `overlay-${i}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'index.html'), html.replace('</body>', '  <script defer src="/frame-probe.js"></script>\n  </body>'));
  const runsIn = RUNS.map((r) => ({ label: r.label, text: prompt(r.label) }));
  writeFileSync(join(dir, 'frame-probe.js'), `${probeSource}\n(${driver})(${JSON.stringify(runsIn)}, ${JSON.stringify(REPLY_END)});\n`);
  writeFileSync(join(dir, 'overlay.json'), JSON.stringify({ Replace: {
    [join(dist, 'index.html')]: join(dir, 'index.html'),
    [join(dist, 'frame-probe.js')]: join(dir, 'frame-probe.js'),
  } }));
  const bin = join(work, `mcpdesk-probe-${i}`);
  execFileSync('go', ['build', '-tags', 'desktop,production,webkit2_41,sqlite_fts5', '-trimpath', '-ldflags', '-w -s',
    '-overlay', join(dir, 'overlay.json'), '-o', bin, '.'], { cwd: repo, stdio: 'inherit' });
  return bin;
}

// started spawns a command and resolves with the first match of re in its stdout.
function started(cmd, args, re, opts = {}) {
  const proc = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'], ...opts });
  children.push(proc);
  return new Promise((res, rej) => {
    let buf = '';
    proc.stdout.on('data', (d) => { buf += d; const m = buf.match(re); if (m) res({ proc, m }); });
    proc.on('exit', (c) => rej(new Error(`${cmd} exited with ${c}`)));
  });
}

const bins = repos.map(probeBinary);
const fakeLLM = join(work, 'fakellm');
execFileSync('go', ['build', '-o', fakeLLM, './backend/llm/llmtest/fakellm'], { cwd: root, stdio: 'inherit' });
writeFileSync(join(work, 'script.json'), JSON.stringify(fakeScript(longReply(replyLangs()))));
const display = execFileSync(join(root, 'build/scripts/free-display.sh'), { encoding: 'utf8' }).trim();
const xvfb = spawn('Xvfb', [display, '-screen', '0', '1280x820x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
children.push(xvfb);
await new Promise((r) => setTimeout(r, 500));
// The first-run welcome would cover the chat: its key, from the source.
const welcome = readFileSync(join(root, 'frontend/src/lib/state/welcome.svelte.ts'), 'utf8').match(/WELCOME_SEEN\s*=\s*['"]([^'"]+)['"]/)?.[1];
if (!welcome) throw new Error('no WELCOME_SEEN in welcome.svelte.ts');
const env = { ...process.env, XDG_DATA_HOME: join(work, 'xdg'), XDG_CACHE_HOME: join(work, 'xdg-cache'), XDG_CONFIG_HOME: join(work, 'xdg-config') };
const noDisplay = { ...env };
delete noDisplay.DISPLAY;

for (let r = 1; r <= runs; r++) {
  for (const [i, bin] of bins.entries()) {
    // A fake LLM of its own: each app's two turns get the script's two replies in order.
    const { proc: fake, m: [, url] } = await started(fakeLLM, ['--quiet', '--script', join(work, 'script.json'), '--models', 'fake-1'], /listening (\S+)/);
    const data = join(work, `data-${r}-${i}`);
    mkdirSync(data);
    execFileSync(bin, ['providers', 'add', '--data-dir', data, '--name', 'Fake', '--type', 'openai', '--preset', 'custom', '--base-url', `${url}/v1`], { env: noDisplay, stdio: 'ignore' });
    execFileSync('python3', ['-c', `import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for kv in (("screen", "chat"), (sys.argv[2], "1")):
    c.execute("INSERT INTO ui_state(key, value, updated_at) VALUES(?, ?, datetime('now')) ON CONFLICT(key) DO UPDATE SET value = excluded.value", kv)
c.commit()`, join(data, 'mcpdesk.db'), welcome]);
    const app = spawn(bin, ['--data-dir', data], { env: { ...env, DISPLAY: display }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(app);
    let out = '';
    app.stdout.on('data', (d) => { out += d; });
    const results = await new Promise((res, rej) => {
      const got = [];
      let buf = '';
      const give = setTimeout(() => rej(new Error(`${repos[i]}: no "frame probe: done" within 240 s; the app printed:\n${out.slice(-3000)}`)), 240000);
      // Wails' default logger prints with Go's println: to stderr.
      app.stderr.on('data', (d) => {
        out += d;
        buf += d;
        for (let nl; (nl = buf.indexOf('\n')) >= 0; buf = buf.slice(nl + 1)) {
          const m = buf.slice(0, nl).match(/frame probe: (.*)$/);
          if (!m) continue;
          if (m[1] === 'done') { clearTimeout(give); res(got); }
          else if (m[1].startsWith('failed')) { clearTimeout(give); rej(new Error(`${repos[i]}: ${m[1]}`)); }
          else got.push(JSON.parse(m[1]));
        }
      });
      app.on('exit', (c) => { clearTimeout(give); rej(new Error(`${repos[i]}: the app exited with ${c}; it printed:\n${out.slice(-3000)}`)); });
    });
    app.removeAllListeners('exit');
    app.kill('SIGTERM');
    await new Promise((res) => { app.once('exit', res); setTimeout(res, 5000); });
    fake.removeAllListeners('exit');
    fake.kill();
    const what = `window, ${repos.length > 1 ? `${repos[i]}, ` : ''}run ${r}`;
    for (const x of results) {
      if (x.label === 'idle') console.log(`${what}, the chat idle for 3 s (the engine's own frame rate): ${frameStats(x.frames).text}`);
      else if (x.label === 'touch') console.log(`${what}, one character changing in every frame for 3 s (the least drawing): ${frameStats(x.frames).text}`);
      else console.log(describeFrames(what, x.label, x));
    }
  }
}
process.exit(0);
