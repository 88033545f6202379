// End-to-end tests of MCP Desk in a real browser: Debian's Chromium, driven
// by playwright-core, against the development binary (-tags dev), which
// serves the built frontend and the real Go bindings over a websocket.
// Every test gets a fresh data folder. Prints `e2e: N passed, M failed`.
// The harness is harness.mjs; the tests are in specs/, one file per area.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { harness, tests, leftovers, browser, contexts } from './harness.mjs';

const { root } = harness;

// Every e2e/specs/*.mjs exports a default function that registers its
// tests with the harness (one file per area, so work on one never edits
// another's).
const specDir = join(root, 'frontend', 'e2e', 'specs');
if (existsSync(specDir)) {
  const { readdirSync } = await import('node:fs');
  const { pathToFileURL } = await import('node:url');
  for (const f of readdirSync(specDir).filter((f) => f.endsWith('.mjs')).sort()) {
    const spec = await import(pathToFileURL(join(specDir, f)).href);
    await spec.default(harness);
  }
}

// E2E_ONLY=<regex> runs only the tests whose names match (while working on one).
const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY, 'i') : null;
let passed = 0, failed = 0;
for (const t of tests) {
  if (only && !only.test(t.name)) continue;
  const start = Date.now();
  try {
    await t.fn();
    passed++;
    console.log(`ok   ${t.name} (${Date.now() - start} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${t.name}\n     ${String(e?.stack || e).split('\n').join('\n     ')}`);
  }
  for (const stop of [...leftovers]) stop();
  for (const c of [...contexts]) {
    contexts.delete(c);
    await c.close().catch(() => {});
  }
}
await browser.close();
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
