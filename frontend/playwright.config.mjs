// The end-to-end suite under Playwright Test: e2e/tests/*.spec.mjs, one per
// area (each registers its e2e/specs/ file), two workers (the files are
// independent: each app has its own data folder, port, X display and, with
// the keychain, its own D-Bus session), the system Chromium (nothing is
// downloaded), traces of failed tests kept in build/bin/e2e-results.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './e2e/tests',
  testMatch: '*.spec.mjs',
  globalSetup: './e2e/setup.mjs',
  workers: Number(process.env.E2E_WORKERS || 2),
  fullyParallel: false,
  retries: 0,
  timeout: 10 * 60 * 1000,
  // The whole run (about 4 minutes): a hang fails it instead of holding CI.
  globalTimeout: 30 * 60 * 1000,
  outputDir: '../build/bin/e2e-results',
  reporter: [['list', { printSteps: false }]],
});
