// register gives a spec file's tests to Playwright Test (the files in
// e2e/tests/ call it): each runs with the shared harness; helper processes
// it left running are stopped after it; the trace of every page it opened
// is kept in build/bin/e2e-results when it failed.
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
