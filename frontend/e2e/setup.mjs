// Playwright Test's global setup: our MCP test server, the fake LLM and the
// fake notification daemon are
// built once, and every worker's harness uses them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export default function setup() {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const bin = mkdtempSync(join(tmpdir(), 'mcpdesk-e2e-bin-'));
  for (const [name, pkg, env] of [
    ['testserver', './backend/mcppool/testserver', 'E2E_TESTSERVER'],
    ['fakellm', './backend/llm/llmtest/fakellm', 'E2E_FAKELLM'],
    ['fakenotifyd', './backend/notify/notifytest/fakenotifyd', 'E2E_FAKENOTIFYD'],
  ]) {
    execFileSync('go', ['build', '-o', join(bin, name), pkg], { cwd: root, stdio: 'inherit' });
    process.env[env] = join(bin, name);
  }
  process.env.E2E_TRACES ??= 'light';
}
