// OAuth for remote servers (issue 14): a remote server behind a test
// authorization server that approves at once. Without a sign-in its row
// says "Needs sign-in" and no browser opens by itself; Sign in connects it
// (the dev build's MCPDESK_E2E_BROWSER=fetch plays the browser) and its
// tools run; the detail says who signed in and until when and lists every
// step of the flow; an expired token is refreshed without the user; a
// token revoked at the server leads back to "Needs sign-in". No token,
// code or secret reaches the page, SQLite, the log or the config file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Every token the test authorization server issues starts so
// (backend/oauth/oauthtest): at- access, rt- refresh, code- codes,
// secret- client secrets; 16 base64url characters follow.
const SECRET = /\b(?:at|rt|code|secret)-[A-Za-z0-9_-]{16}/;

export default function ({ test, expect, startApp, openPage, startHTTPServer, shots }) {
  async function guardedServer() {
    const { url, stop } = await startHTTPServer('--oauth');
    return { url, origin: new URL(url).origin, stop };
  }

  // files lists every file under dir, the keyring's own folder left out.
  function files(dir) {
    const out = [];
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (name === 'keyrings') continue;
      const st = statSync(p);
      if (st.isDirectory()) out.push(...files(p));
      else if (st.isFile()) out.push(p);
    }
    return out;
  }

  test('oauth: a remote server that needs a sign-in says so, signs in from its row, runs tools, shows every step, refreshes silently and asks again once revoked; nothing secret leaks', async () => {
    const srv = await guardedServer();
    const app = await startApp('oauth', { mcpServers: { guarded: { type: 'http', url: srv.url } } }, { keychain: true, env: { MCPDESK_E2E_BROWSER: 'fetch' } });
    try {
      const { page, errors } = await openPage(app);
      await page.getByTestId('nav-servers').click();
      const row = page.getByTestId('server-guarded');
      await row.getByTestId('server-state').filter({ hasText: /^needs sign-in$/i }).waitFor({ timeout: 20000 });
      expect((await row.getByTestId('sign-in-needed').innerText()).includes('This server needs you to sign in.'), 'the row does not say it needs a sign-in');
      await page.screenshot({ path: join(shots, 'oauth-needs-sign-in.png') });

      await row.getByTestId('sign-in').click();
      await row.getByTestId('server-state').filter({ hasText: /^connected$/i }).waitFor({ timeout: 30000 });
      const call = () => page.evaluate(() => window.go.mcppool.MCPPool.CallTool({ callId: `oauth-${Math.random()}`, server: 'guarded', tool: 'echo', arguments: { message: 'signed in' } }));
      const first = await call();
      expect(JSON.stringify(first.result).includes('signed in'), `the tool answered ${JSON.stringify(first).slice(0, 200)}`);

      await row.getByTestId('server-open').click();
      const detail = page.getByTestId('server-detail');
      const signedIn = detail.getByTestId('signed-in');
      await signedIn.waitFor({ timeout: 10000 });
      const said = await signedIn.innerText();
      expect(/Signed in to 127\.0\.0\.1:\d+ as ada@example\.com · expires in/.test(said), `the detail says ${said}`);
      const steps = await detail.getByTestId('sign-in-step').evaluateAll((els) => els.map((e) => e.dataset.step));
      for (const s of ['resource-metadata', 'server-metadata', 'client', 'authorize', 'callback', 'token'])
        expect(steps.includes(s), `the debugger lacks the ${s} step: ${steps.join(', ')}`);
      // The token step opens on its redacted exchange.
      await detail.locator('[data-testid="sign-in-step"][data-step="token"] summary').first().click();
      const exchange = await detail.locator('[data-testid="sign-in-step"][data-step="token"]').first().innerText();
      expect(exchange.includes('[redacted]') && !SECRET.test(exchange), `the token step shows ${exchange.slice(0, 400)}`);
      await page.screenshot({ path: join(shots, 'oauth-detail.png') });
      await page.keyboard.press('Escape');

      // Expired at the server: refreshed without the user.
      await fetch(`${srv.origin}/_test/expire`, { method: 'POST' });
      const again = await call();
      expect(JSON.stringify(again.result).includes('signed in'), 'the call after expiry failed');
      // The debugger goes on: the first authenticated request, the refresh.
      await row.getByTestId('server-open').click();
      await detail.locator('[data-testid="sign-in-step"][data-step="refresh"][data-status="ok"]').waitFor({ timeout: 10000 });
      const later = await detail.getByTestId('sign-in-step').evaluateAll((els) => els.map((e) => e.dataset.step));
      expect(later.includes('request') && later.indexOf('refresh') > later.indexOf('token'), `the debugger's steps: ${later.join(', ')}`);
      await page.keyboard.press('Escape');

      // Leaks: the page, the data folder (SQLite, log, config).
      const html = await page.content();
      expect(!SECRET.test(html), `the page holds a secret: ${html.match(SECRET)?.[0]}`);
      for (const f of files(app.data)) {
        const text = readFileSync(f).toString('latin1');
        expect(!SECRET.test(text), `${f} holds a secret: ${text.match(SECRET)?.[0]}`);
      }

      // Revoked at the server: back to "Needs sign-in".
      await fetch(`${srv.origin}/_test/revoke`, { method: 'POST' });
      await row.getByTestId('server-restart').click();
      await row.getByTestId('server-state').filter({ hasText: /^needs sign-in$/i }).waitFor({ timeout: 20000 });
      expect(errors.length === 0, `page errors: ${errors.join('; ')}`);
    } finally {
      await app.stop();
      await srv.stop();
    }
  });
}
