// Issue 12, points 1–3: provider statuses tell the truth.
// With the fake LLM answering /v1/models to anyone (--open-models) but
// refusing chat completions without the right key, as many
// OpenAI-compatible servers do: "Test" shows a wrong key as red "Key
// rejected (401)" (a model list alone said "Connected"); a key variable that
// is not set is red; a 401 during a chat marks the provider red in Settings
// with the time and the chat error's "Fix" opens it; "Reload environment"
// reads the login shell again (a fake $SHELL whose rc file is written after
// the start) and the provider becomes ready; the keychain status is one and
// the same on the whole screen.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default function ({ test, expect, startApp, openPage, track, work, shots, fakeLLM }) {
  const RIGHT = 'sk-e2e-right-key-4711';
  const WRONG = 'sk-e2e-wrong-key-0815';

  // startLLM runs fakellm with keys checked on chat requests only.
  async function startLLM() {
    const dir = mkdtempSync(join(work, 'health-llm-'));
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify([{ text: ['OK'] }]));
    const args = ['--addr', '127.0.0.1:0', '--script', script, '--repeat', '--models', 'fake-1', '--require-key', RIGHT, '--open-models'];
    const proc = spawn(fakeLLM, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = track(proc);
    const url = await new Promise((res, rej) => {
      let buf = '';
      const t = setTimeout(() => rej(new Error('fakellm did not start')), 10000);
      proc.stdout.on('data', (d) => { buf += d; const m = buf.match(/listening (\S+)/); if (m) { clearTimeout(t); res(m[1]); } });
      proc.on('exit', (code) => { clearTimeout(t); rej(new Error(`fakellm exited with ${code}`)); });
    });
    return { url, baseUrl: `${url}/v1`, stop };
  }

  // save adds a provider through the Go bindings and returns its id.
  async function save(page, input) {
    return page.evaluate(async (input) => {
      const p = await window.go.providers.ProviderManager.Save({
        id: '', type: 'openai', preset: 'custom', keyEnv: '', azure: false, azureApiVersion: '', headers: {}, enabled: true, ...input,
      });
      return p.id;
    }, input);
  }

  const red = (page) => page.evaluate(() => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--red)';
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  });

  async function openSettingsRow(page, id) {
    await page.getByTestId('nav-settings').click();
    const row = page.getByTestId(`provider-row-${id}`);
    await row.waitFor({ timeout: 15000 });
    return row;
  }

  test('provider health: a wrong key is "Key rejected (401)" after Test though /models answers 200; an unset key variable is red', async () => {
    const llm = await startLLM();
    const app = await startApp('provider-health', null, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      // The model list really answers without a key: the old Test said "Connected".
      const listed = await (await fetch(`${llm.baseUrl}/models`)).json();
      expect(listed.data?.[0]?.id === 'fake-1', `/v1/models without a key: ${JSON.stringify(listed)}`);

      const wrong = await save(page, { name: 'Wrong key', baseUrl: llm.baseUrl, apiKey: WRONG });
      const right = await save(page, { name: 'Right key', baseUrl: llm.baseUrl, apiKey: RIGHT });
      const unset = await save(page, { name: 'Unset variable', baseUrl: llm.baseUrl, keyEnv: 'MCPDESK_E2E_UNSET_KEY' });
      await page.reload();
      await page.getByTestId('nav-servers').waitFor({ timeout: 15000 });
      const wrongRow = await openSettingsRow(page, wrong);
      const RED = await red(page);

      // Test proves the key: the completion is refused, whatever /models said.
      await wrongRow.getByTestId('provider-test').click();
      const result = wrongRow.getByTestId('provider-test-result');
      await result.and(page.locator(':not([data-state="running"])')).waitFor({ timeout: 30000 });
      const status = wrongRow.getByTestId('provider-status');
      await status.filter({ hasText: 'Key rejected (401)' }).waitFor({ timeout: 10000 }).catch(async () => {
        throw new Error(`after Test the wrong key's row says "${await status.innerText()}" and "${await result.innerText()}"`);
      });
      expect(await result.getAttribute('data-state') === 'error', `the test result is ${await result.getAttribute('data-state')}: ${await result.innerText()}`);
      expect(await status.evaluate((el) => getComputedStyle(el).color) === RED, 'the rejected status is not red');
      expect(!/Ready|Connected/.test(await wrongRow.innerText()), `the rejected row still says Ready/Connected: ${await wrongRow.innerText()}`);

      // An unset variable is red in its own words, without a Test.
      const unsetStatus = page.getByTestId(`provider-row-${unset}`).getByTestId('provider-status');
      const unsetText = await unsetStatus.innerText();
      expect(/MCPDESK_E2E_UNSET_KEY is not set/.test(unsetText), `the unset-variable provider says "${unsetText}"`);
      expect(await unsetStatus.evaluate((el) => getComputedStyle(el).color) === RED, 'the unset-variable status is not red');

      // The right key is proved the same way and is ready.
      const rightRow = page.getByTestId(`provider-row-${right}`);
      await rightRow.getByTestId('provider-test').click();
      await rightRow.getByTestId('provider-test-result').and(page.locator('[data-state="ok"]')).waitFor({ timeout: 30000 });
      expect(/Ready/.test(await rightRow.getByTestId('provider-status').innerText()), 'the right key is not Ready');

      // Test on the unset variable says so, in red.
      const unsetRow = page.getByTestId(`provider-row-${unset}`);
      await unsetRow.getByTestId('provider-test').click();
      await unsetRow.getByTestId('provider-test-result').and(page.locator('[data-state="error"]')).waitFor({ timeout: 30000 });
      expect(/MCPDESK_E2E_UNSET_KEY is not set/.test(await unsetRow.getByTestId('provider-test-result').innerText()), 'Test on the unset variable');

      // The verdict stays when the screen is left and opened again.
      await page.getByTestId('nav-servers').click();
      await openSettingsRow(page, wrong);
      expect(/Key rejected \(401\)/.test(await page.getByTestId(`provider-row-${wrong}`).getByTestId('provider-status').innerText()), 'the verdict is lost after leaving Settings');
      await page.screenshot({ path: join(shots, 'provider-health.png'), fullPage: true });
      const html = await page.content();
      expect(!html.includes(WRONG) && !html.includes(RIGHT), 'a key reached the page');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally {
      await app.stop();
      llm.stop();
    }
  });

  test('provider health: a 401 during a chat marks the provider red with the time; the chat error\'s Fix opens it', async () => {
    const llm = await startLLM();
    const app = await startApp('provider-health-chat', null, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      const id = await save(page, { name: 'Chat key', baseUrl: llm.baseUrl, apiKey: WRONG });
      await page.evaluate((id) => window.go.providers.ProviderManager.SetDefaultModel({ provider: id, model: 'fake-1' }), id);
      await page.reload();
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('composer-input').fill('Hello?');
      await page.getByTestId('composer-send').click();
      const banner = page.getByTestId('chat-error');
      await banner.waitFor({ timeout: 30000 });
      expect(await banner.getAttribute('data-kind') === 'auth', `the chat error is ${await banner.getAttribute('data-kind')}: ${await banner.innerText()}`);
      await banner.getByTestId('chat-error-fix').click();
      await page.getByTestId('provider-form').waitFor({ timeout: 10000 });
      const row = page.getByTestId(`provider-row-${id}`);
      const status = await row.getByTestId('provider-status').innerText();
      expect(/Key rejected \(401\)/.test(status), `after the chat the provider says "${status}"`);
      expect(/A chat at \d/.test(await row.getByTestId('provider-health-when').innerText()), 'no time of the refused chat');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally {
      await app.stop();
      llm.stop();
    }
  });

  test('provider health: Reload environment reads the login shell again; a key exported after the start counts', async () => {
    const llm = await startLLM();
    const dir = mkdtempSync(join(work, 'health-shell-'));
    const rc = join(dir, 'rc');
    const shell = join(dir, 'fakesh');
    // A login shell that reads an rc file, then runs the command it is given.
    writeFileSync(shell, `#!/bin/sh\n[ -f ${rc} ] && . ${rc}\nfor a; do last=$a; done\neval "$last"\n`, { mode: 0o755 });
    const app = await startApp('provider-health-env', null, { keychain: true, env: { SHELL: shell } });
    try {
      const { page, errors } = await openPage(app);
      const id = await save(page, { name: 'Late key', baseUrl: llm.baseUrl, keyEnv: 'MCPDESK_E2E_LATE_KEY' });
      await page.reload();
      const row = await openSettingsRow(page, id);
      const before = await row.getByTestId('provider-status').innerText();
      expect(/MCPDESK_E2E_LATE_KEY is not set/.test(before), `before the rc file sets the variable the provider says "${before}"`);
      writeFileSync(rc, `MCPDESK_E2E_LATE_KEY=${RIGHT}; export MCPDESK_E2E_LATE_KEY\n`);
      await page.getByTestId('providers-reload-env').click();
      const note = page.getByTestId('providers-env-reload');
      await note.waitFor({ timeout: 20000 });
      const text = await note.innerText();
      expect(/MCPDESK_E2E_LATE_KEY is set/.test(text), `the reload says: ${text}`);
      expect(/restart them/.test(text), `the reload does not say running servers keep their environment: ${text}`);
      // The key is there now but nothing has tried it: the row says so.
      await row.getByTestId('provider-status').filter({ hasText: 'Not tested yet' }).waitFor({ timeout: 10000 });
      await row.getByTestId('provider-test').click();
      await row.getByTestId('provider-test-result').and(page.locator('[data-state="ok"]')).waitFor({ timeout: 30000 });
      await row.getByTestId('provider-status').filter({ hasText: 'Ready' }).waitFor({ timeout: 10000 });
      expect(!(await page.content()).includes(RIGHT), 'the key reached the page');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally {
      await app.stop();
      llm.stop();
    }
  });

  test('keychain status: one self-test per start, the same words on every load and every place, Check again re-runs it', async () => {
    const app = await startApp('provider-health-keychain', null, { keychain: true });
    try {
      const { page, errors } = await openPage(app);
      const id = await save(page, { name: 'Stored key', baseUrl: 'http://127.0.0.1:9/v1', apiKey: RIGHT });
      // Settings asks for the status from several places at once (the
      // About card, the Providers section, the provider form): on main two
      // self-tests then raced on one probe entry and the banner said "the
      // keychain returned a different value than was stored" beside a key
      // in the keychain.
      let first = null;
      for (let i = 0; i < 6; i++) {
        await page.reload();
        await page.getByTestId('nav-settings').click();
        await page.getByTestId(`provider-row-${id}`).waitFor({ timeout: 15000 });
        const about = page.getByTestId('about-keychain');
        await about.filter({ hasText: /Available|Unavailable|Reads/ }).waitFor({ timeout: 15000 });
        expect(/^Available/.test(await about.innerText()), `load ${i + 1}: About says "${await about.innerText()}" beside a key in the keychain`);
        const banner = page.getByTestId('providers-keychain-banner');
        if (await banner.count() !== 0) throw new Error(`load ${i + 1}: a keychain banner beside a key in the keychain: ${await banner.innerText()}`);
        expect(/Key in keychain/.test(await page.getByTestId(`provider-row-${id}`).getByTestId('provider-key').innerText()), 'the key is not in the keychain');
        const again = await page.evaluate(() => window.go.settings.Service.KeychainStatus());
        first ??= again;
        expect(again.state === 'ok' && again.checkedAt, `the real keychain's status: ${JSON.stringify(again)}`);
        expect(JSON.stringify(again) === JSON.stringify(first), `the status changed between loads: ${JSON.stringify(first)} then ${JSON.stringify(again)}`);
      }
      const rechecked = await page.evaluate(() => window.go.settings.Service.RecheckKeychain());
      expect(rechecked.state === 'ok' && rechecked.storedKeys === 1 && rechecked.checkedAt >= first.checkedAt, `Check again: ${JSON.stringify(rechecked)}`);
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally {
      await app.stop();
    }
  });
}
