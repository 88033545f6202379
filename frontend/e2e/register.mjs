// register gives a spec file's tests to Playwright Test (the files in
// e2e/tests/ call it): each runs with the shared harness; helper processes
// it left running are stopped after it; the trace of every page it opened
// is kept in build/bin/e2e-results when it failed, and the end of what each
// page showed is added to the failure's message (CI prints the message, not
// the trace).
import { test } from '@playwright/test';
import { join } from 'node:path';
import { harness, leftovers, contexts } from './harness.mjs';

export function register(spec) {
  spec({
    ...harness,
    test: (name, fn) =>
      test(name, async ({}, info) => {
        let ok = false;
        try {
          await fn();
          ok = true;
        } catch (e) {
          if (e instanceof Error) e.message += await shown();
          throw e;
        } finally {
          for (const stop of [...leftovers]) stop();
          let n = 0;
          for (const c of [...contexts]) {
            contexts.delete(c);
            const path = ok ? undefined : join(info.outputDir, `trace-${++n}.zip`);
            await c.tracing.stop(path ? { path } : undefined).catch(() => {});
            await c.close().catch(() => {});
          }
        }
      }),
  });
}

// shown returns the end of the text each open page shows, one line each.
// Pages show what hostile test servers and models wrote, and this goes to a
// terminal: control characters (escape sequences) are dropped.
async function shown() {
  const lines = [];
  for (const c of contexts) {
    for (const p of c.pages()) {
      const text = await p.locator('body').innerText({ timeout: 2000 }).catch(() => '(unreadable)');
      const plain = text.replace(/\s+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
      lines.push(`  ${p.url()}: …${plain.slice(-1000)}`);
    }
  }
  return lines.length ? `\n\nWhat the page showed at the failure (its end):\n${lines.join('\n')}` : '';
}
