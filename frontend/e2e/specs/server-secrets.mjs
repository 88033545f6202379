// Secrets in server env and headers (issue 12, point 8): a value that looks
// secret goes to the OS keychain and mcp.config.json holds a
// ${keychain:…} reference; a plain value (a path) is written and shown as it
// is; the secret is masked in the form, fetched only on Reveal, and the
// server gets the real value when it starts. Secrets already written in the
// file are moved to the keychain from a notice on Servers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { axeViolations } from '../axe.mjs';

const API_KEY = 'e2e-apikey-Kc7Qx2Lm9Rt4';
const TOOLS_PATH = '/opt/e2e-tools/bin:/usr/local/bin';
const LEGACY_TOKEN = 'ghp_E2eLegacyToken0123456789abcdef';

// callWhenConnected calls the test server's env tool, waiting (up to 20 s)
// while the server is (re)connecting.
async function callWhenConnected(page, server, name) {
  const until = Date.now() + 20000;
  for (;;) {
    try {
      return await page.evaluate(([server, name]) => window.go.mcppool.MCPPool.CallTool({ server, tool: 'env', arguments: { name }, callId: `e2e-${Math.random()}` }), [server, name]);
    } catch (e) {
      if (Date.now() > until || !/call\.server(Starting|NotRunning|Disabled)/.test(String(e))) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export default function ({ test, expect, startApp, openPage, colorScheme, shots, testServer, root }) {
  const config = (app) => JSON.parse(readFileSync(join(app.data, 'mcp.config.json'), 'utf8'));

  test('server secrets: API_KEY goes to the keychain as a reference, a path stays plain and is shown, the secret is masked until revealed', async () => {
    const app = await startApp('server-secrets', { mcpServers: {} }, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('add-server').first().click();
      await page.getByTestId('server-id').fill('keyed');
      await page.getByTestId('server-command').fill(testServer);
      await page.getByTestId('server-env-add').click();
      await page.getByTestId('server-env-key').last().fill('API_KEY');
      await page.getByTestId('server-env-value').last().fill(API_KEY);
      await page.getByTestId('server-env-add').click();
      await page.getByTestId('server-env-key').last().fill('TOOLS_PATH');
      await page.getByTestId('server-env-value').last().fill(TOOLS_PATH);
      // The guess: the key is a secret, the path is not.
      expect((await page.getByTestId('server-env-value').nth(0).getAttribute('type')) === 'password', 'API_KEY is not masked while typed');
      expect((await page.getByTestId('server-env-value').nth(1).getAttribute('type')) === 'text', 'TOOLS_PATH is masked while typed');
      const boxes = page.getByTestId('server-env-secret');
      expect(await boxes.nth(0).isChecked(), 'API_KEY is not kept in the keychain by default');
      expect(!(await boxes.nth(1).isChecked()), 'TOOLS_PATH would go to the keychain');
      await page.getByTestId('save-server').click();
      const row = page.getByTestId('server-keyed');
      await row.getByTestId('server-state').filter({ hasText: /connected/i }).waitFor({ timeout: 20000 });

      // The file holds the reference and the plain value, never the secret.
      const raw = readFileSync(join(app.data, 'mcp.config.json'), 'utf8');
      const env = config(app).mcpServers.keyed?.env ?? {};
      expect(env.API_KEY === '${keychain:keyed/env/API_KEY}', `API_KEY in the file: ${JSON.stringify(env.API_KEY)}`);
      expect(env.TOOLS_PATH === TOOLS_PATH, `TOOLS_PATH in the file: ${JSON.stringify(env.TOOLS_PATH)}`);
      expect(!raw.includes(API_KEY), 'the secret is written in mcp.config.json');

      // The server started with the real value: it echoes it, and the
      // result comes back with exactly that value scrubbed.
      const res = await callWhenConnected(page, 'keyed', 'API_KEY');
      expect(res?.result?.content?.[0]?.text === '[redacted]', `the server did not get API_KEY: ${JSON.stringify(res)}`);
      // … which the JSON-RPC log does not show although the server echoed it.
      const rpc = await page.evaluate(() => window.go.mcppool.MCPPool.RPCLog());
      expect(!JSON.stringify(rpc).includes(API_KEY), 'the secret is in the JSON-RPC log');
      expect(!app.log.join('').includes(API_KEY), 'the secret is in the app log');

      // Editing shows the path in plain text and the secret masked.
      await page.reload();
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('server-keyed').getByTestId('server-edit').click();
      const form = page.getByTestId('server-form');
      await form.getByTestId('server-env-stored').waitFor({ timeout: 10000 });
      const shown = await form.getByTestId('server-env-value').evaluateAll((els) => els.map((e) => [e.value, e.type]));
      expect(JSON.stringify(shown) === JSON.stringify([[TOOLS_PATH, 'text']]), `values shown: ${JSON.stringify(shown)}`);
      expect((await form.getByTestId('server-env-stored').innerText()).includes('In keychain'), 'the secret is not marked as in the keychain');
      expect(!(await page.content()).includes(API_KEY), 'the secret is in the page before Reveal');
      const views = await page.evaluate(() => window.go.mcppool.MCPPool.ListServers());
      expect(!JSON.stringify(views).includes(API_KEY), 'ListServers sent the secret');
      await page.screenshot({ path: join(shots, 'server-secrets-form.png') });
      for (const scheme of ['light', 'dark']) {
        await colorScheme(page, scheme);
        const found = await axeViolations(page, '[data-testid="server-env"]');
        expect(found.length === 0, `axe (${scheme}) on the env rows: ${found.join('; ')}`);
      }
      await colorScheme(page, 'light');
      // At 900 px the stored secret's label and its buttons still fit.
      await page.setViewportSize({ width: 900, height: 600 });
      const where = form.getByTestId('server-env-stored');
      const fits = await where.evaluate((el) => el.scrollWidth <= el.clientWidth);
      await page.screenshot({ path: join(shots, 'server-secrets-form-900.png') });
      expect(fits, 'the stored secret label is cut at 900 px');

      // Reveal fetches it on demand.
      await form.getByTestId('server-env-reveal').click();
      await form.getByTestId('server-env-value').nth(1).waitFor({ timeout: 5000 });
      const revealed = await form.getByTestId('server-env-value').evaluateAll((els) => els.map((e) => e.value));
      expect(JSON.stringify(revealed) === JSON.stringify([API_KEY, TOOLS_PATH]), `after Reveal: ${JSON.stringify(revealed)}`);
      await page.getByTestId('cancel-server').click();

      // Removing the server deletes its keychain entry: a server added again
      // with the same reference does not get it.
      await page.getByTestId('server-keyed').getByTestId('server-remove').click();
      await page.getByTestId('confirm-ok').click();
      await page.getByTestId('server-keyed').waitFor({ state: 'detached', timeout: 10000 });
      writeFileSync(join(app.data, 'mcp.config.json'), JSON.stringify({
        mcpServers: { keyed: { command: testServer, env: { API_KEY: '${keychain:keyed/env/API_KEY}' } } },
      }, null, 2));
      const again = page.getByTestId('server-keyed');
      await again.locator('[data-state="failed"]').first().waitFor({ timeout: 20000 });
      const why = await again.getByTestId('server-error').innerText();
      expect(why.includes('env API_KEY of server "keyed" is kept in the OS keychain, but the keychain has no entry for it'), `error after removal: ${why}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });

  test('server secrets: a notice moves secrets written in the config file into the keychain', async () => {
    const app = await startApp('server-secrets-legacy', {
      mcpServers: { legacy: { command: testServer, env: { GITHUB_TOKEN: LEGACY_TOKEN, LOG_LEVEL: 'debug' } } },
    }, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      const notice = page.getByTestId('secrets-notice');
      await notice.waitFor({ timeout: 10000 });
      expect((await notice.innerText()).includes('1 secret is written in plain text in mcp.config.json'), `notice: ${await notice.innerText()}`);
      for (const scheme of ['light', 'dark']) {
        await colorScheme(page, scheme);
        const found = await axeViolations(page, '[data-testid="secrets-notice"]');
        expect(found.length === 0, `axe (${scheme}) on the notice: ${found.join('; ')}`);
      }
      expect(!(await page.content()).includes(LEGACY_TOKEN), 'the literal secret is in the page');
      await notice.getByTestId('secrets-move').click();
      await notice.waitFor({ state: 'detached', timeout: 10000 });
      const env = config(app).mcpServers.legacy.env;
      expect(env.GITHUB_TOKEN === '${keychain:legacy/env/GITHUB_TOKEN}' && env.LOG_LEVEL === 'debug', `env after the move: ${JSON.stringify(env)}`);
      // The changed config restarts the server; it still gets the token.
      const res = await callWhenConnected(page, 'legacy', 'GITHUB_TOKEN');
      expect(res?.result?.content?.[0]?.text === '[redacted]', `after the move the server got: ${JSON.stringify(res)}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });
}
