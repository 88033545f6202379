// Import is not all or nothing (issue 12, point 7): a file with a broken
// entry lists every entry in the preview — the broken one with its mistake
// at file:line:col and no way to tick it — imports the good ones, and the
// mistakes stay on screen until the user dismisses them. Only a file that
// is not JSON fails as a whole, and says where too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// axeCheck runs axe-core (WCAG 2.0/2.1/2.2 A and AA) on the elements this
// point added, and returns what fails. CDP evaluation is not subject to
// the page's CSP.
async function axeCheck(page, selectors) {
  await page.evaluate(`${axeSource};0`);
  return page.evaluate(async (include) => {
    const r = await window.axe.run({ include: include.filter((s) => document.querySelector(s)) }, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, selectors);
}

// at returns "line:col" (1-based, col in characters) of the first needle
// in text.
function at(text, needle) {
  const i = text.indexOf(needle);
  if (i < 0) throw new Error(`${needle} not in the file`);
  const before = text.slice(0, i).split('\n');
  return `${before.length}:${[...before[before.length - 1]].length + 1}`;
}

// drop drops a file with this name and text on the window, as a user
// dragging it from the file manager.
async function drop(page, name, text) {
  for (const type of ['dragenter', 'drop']) {
    await page.evaluate(([name, text, type]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type: 'application/json' }));
      window.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, [name, text, type]);
  }
}

export default function ({ test, expect, startApp, openPage, colorScheme, shots, testServer }) {
  test('import partial: 2 good entries and 1 bad one show as 3 rows, the bad with its line:col; the good import and the mistake stays until dismissed', async () => {
    // Written by hand so that positions are what a person sees in an editor.
    const file = [
      '{',
      '  "mcpServers": {',
      `    "alpha": { "command": ${JSON.stringify(testServer)}, "args": ["--name", "alpha"], "disabled": true },`,
      '    "broken": {',
      `      "command": ${JSON.stringify(testServer)},`,
      '      "args": "--name broken",',
      '      "disabled": true',
      '    },',
      '    "omega": { "url": "http://127.0.0.1:9/mcp", "disabled": true }',
      '  }',
      '}',
      '',
    ].join('\n');
    const badAt = `claude_desktop_config.json:${at(file, '"--name broken"')}`; // 6:15
    const notJSON = '{\n  "mcpServers": {\n    "a": }\n}\n';
    const notJSONAt = `notes.json:${at(notJSON, '}')}`; // 3:10

    const app = await startApp('import-partial');
    try {
      const { page, errors } = await openPage(app);

      // A file that is not JSON: one error for the whole file, with where.
      await drop(page, 'notes.json', notJSON);
      const failure = page.locator('[data-testid="import-report"][data-file="notes.json"]');
      await failure.waitFor({ timeout: 10000 });
      const failureText = await failure.innerText();
      expect(failureText.includes(notJSONAt), `the failure does not say ${notJSONAt}: ${failureText}`);

      // A file with one broken entry between two good ones.
      await drop(page, 'claude_desktop_config.json', file);
      const dialog = page.getByTestId('import-dialog');
      await dialog.waitFor({ timeout: 10000 });
      const rows = dialog.locator('[data-testid^="import-item-"]');
      const statuses = await rows.evaluateAll((els) => els.map((e) => `${e.dataset.testid}=${e.dataset.status}`));
      expect(JSON.stringify(statuses) === JSON.stringify(['import-item-alpha=ok', 'import-item-broken=broken', 'import-item-omega=ok']), `rows: ${statuses}`);
      const broken = dialog.getByTestId('import-item-broken');
      const brokenText = await broken.innerText();
      expect(brokenText.includes(badAt) && brokenText.includes('must be an array of strings'), `the broken row does not say ${badAt}: ${brokenText}`);
      expect(await broken.getByTestId('import-check-broken').isDisabled(), 'the broken entry can be ticked');
      expect(!(await broken.getByTestId('import-check-broken').isChecked()), 'the broken entry is ticked');
      expect(await dialog.getByTestId('import-check-alpha').isChecked() && await dialog.getByTestId('import-check-omega').isChecked(), 'the good entries are not ticked by default');
      expect((await dialog.getByTestId('import-confirm').innerText()).includes('Import 2 servers'), 'confirm does not offer the 2 good servers');
      const mine = ['[data-testid="import-item-broken"]', '[data-testid="import-broken-summary"]'];
      await page.setViewportSize({ width: 900, height: 600 });
      await page.screenshot({ path: join(shots, 'import-partial-900-light.png') });
      let axe = await axeCheck(page, mine);
      expect(axe.length === 0, `axe, light: ${axe.join(' | ')}`);
      await colorScheme(page, 'dark');
      await page.screenshot({ path: join(shots, 'import-partial-900-dark.png') });
      axe = await axeCheck(page, mine);
      expect(axe.length === 0, `axe, dark: ${axe.join(' | ')}`);
      await colorScheme(page, 'light');
      await page.setViewportSize({ width: 1280, height: 820 });

      await dialog.getByTestId('import-confirm').click();
      await dialog.waitFor({ state: 'hidden', timeout: 10000 });
      const cfg = JSON.parse(readFileSync(join(app.data, 'mcp.config.json'), 'utf8'));
      const ids = Object.keys(cfg.mcpServers ?? {}).sort();
      expect(JSON.stringify(ids) === '["alpha","omega"]', `imported ${ids}, want alpha and omega`);

      // The mistakes stay on screen: no timer takes them away.
      const skipped = page.locator('[data-testid="import-report"][data-file="claude_desktop_config.json"]');
      await skipped.waitFor({ timeout: 10000 });
      await page.waitForTimeout(10500);
      expect(await skipped.isVisible(), 'the skipped entry vanished from the screen within 10 s');
      expect(await failure.isVisible(), 'the file error vanished from the screen within 10 s');
      const skippedText = await skipped.innerText();
      expect(skippedText.includes('broken') && skippedText.includes(badAt), `the report does not name the entry and ${badAt}: ${skippedText}`);
      await page.screenshot({ path: join(shots, 'import-partial-report.png') });
      for (const scheme of ['light', 'dark']) {
        await colorScheme(page, scheme);
        const found = await axeCheck(page, ['[data-testid="import-report"]']);
        expect(found.length === 0, `axe on the reports, ${scheme}: ${found.join(' | ')}`);
      }

      // Until dismissed.
      await skipped.getByTestId('import-report-dismiss').click();
      await skipped.waitFor({ state: 'hidden', timeout: 5000 });
      await failure.getByTestId('import-report-dismiss').click();
      await failure.waitFor({ state: 'hidden', timeout: 5000 });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); }
  });
}
