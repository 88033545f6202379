// Import is not all or nothing (issue 12, point 7): every entry of the file
// is in the preview, a broken one with its own mistakes at file:line:col
// and no way to tick it; the good ones import; the mistakes stay on
// screen until dismissed.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeBackend, previewItem, shown, type FakePreview } from '../../../test/fakes/fake';
import { renderApp } from '../../../test/app';

const FILE = '/home/dev/.config/Claude/claude_desktop_config.json';

// What Go's PreviewEntries makes of a file with a broken entry between two
// good ones.
const partial: FakePreview = {
  file: FILE,
  format: 'claude',
  items: [
    previewItem({ id: 'alpha', command: shown('/opt/alpha'), line: 3, col: 5 }),
    previewItem({
      id: 'broken',
      line: 4,
      col: 5,
      problems: [{ line: 6, col: 15, field: 'args', message: 'must be an array of strings such as ["-y", "some-package"], not a string' }],
    }),
    previewItem({ id: 'omega', transport: 'http', url: shown('https://mcp.example.com/mcp'), host: 'mcp.example.com', line: 8, col: 5 }),
  ],
};

afterEach(() => {
  vi.useRealTimers();
});

async function openPreview(preview: FakePreview = partial) {
  const r = renderApp({ importFile: FILE, preview });
  await r.user.click(await screen.findByTestId('empty-import'));
  const dialog = await screen.findByTestId('import-dialog');
  return { ...r, dialog, d: within(dialog) };
}

// A generous bound for whole-app tests on a busy machine (the default is 5 s).
vi.setConfig({ testTimeout: 30_000 });

describe('Import of a file with a broken entry', () => {
  it('lists every entry, the broken one with its mistake where it is, and it cannot be ticked', async () => {
    const { d, user } = await openPreview();
    expect(d.getByTestId('import-item-alpha')).toHaveAttribute('data-status', 'ok');
    expect(d.getByTestId('import-item-omega')).toHaveAttribute('data-status', 'ok');
    const broken = d.getByTestId('import-item-broken');
    expect(broken).toHaveAttribute('data-status', 'broken');
    const b = within(broken);
    expect(b.getByTestId('import-broken')).toHaveTextContent('has mistakes: not imported');
    expect(b.getByTestId('import-problem-at')).toHaveTextContent('claude_desktop_config.json:6:15');
    expect(b.getByTestId('import-problem-at')).toHaveAttribute('title', FILE);
    expect(b.getByTestId('import-problem')).toHaveTextContent('args');
    expect(b.getByTestId('import-problem')).toHaveTextContent('must be an array of strings');
    // Nothing it would run is shown, and it cannot be chosen.
    expect(b.queryByTestId('import-toggle-broken')).toBeNull();
    const check = b.getByTestId('import-check-broken');
    expect(check).toBeDisabled();
    expect(check).not.toBeChecked();
    expect(check).toHaveAccessibleDescription(/must be an array of strings/);
    await user.click(check);
    expect(check).not.toBeChecked();

    expect(d.getByTestId('import-broken-summary')).toHaveTextContent('1 of 3 entries has mistakes and cannot be imported; the others can.');
    expect(d.getByTestId('import-confirm')).toHaveTextContent('Import 2 servers');
    // Select all is about the good ones.
    expect(d.getByTestId('import-check-all').closest('label')).toHaveTextContent('All servers that can be imported (2)');
    await user.click(d.getByTestId('import-check-all'));
    expect(d.getByTestId('import-confirm')).toBeDisabled();
    await user.click(d.getByTestId('import-check-all'));
    expect(d.getByTestId('import-confirm')).toHaveTextContent('Import 2 servers');
    expect(check).not.toBeChecked();
  });

  it('imports the good entries and keeps the mistakes on screen until dismissed', async () => {
    // Fake timers from the start, so that a timer set for the report would be caught.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { d, fake, user } = await openPreview();
    await user.click(d.getByTestId('import-confirm'));
    await waitFor(() => expect(fake.callsOf('Import')).toEqual([['fake-preview-1', ['alpha', 'omega']]]));
    await waitFor(() => expect(screen.queryByTestId('import-dialog')).toBeNull());
    expect(await screen.findByTestId('server-alpha')).toBeInTheDocument();
    expect(screen.queryByTestId('server-broken')).toBeNull();

    const report = await screen.findByTestId('import-report');
    expect(report).toHaveAttribute('role', 'alert');
    expect(report).toHaveTextContent(`1 entry of ${FILE} not imported`);
    expect(report).toHaveTextContent('2 servers were imported.');
    const entry = within(report).getByTestId('import-report-entry');
    expect(entry).toHaveAttribute('data-id', 'broken');
    expect(entry).toHaveTextContent('claude_desktop_config.json:6:15');
    expect(entry).toHaveTextContent('must be an array of strings');

    // No timer takes it away: a minute later it is still there.
    await vi.advanceTimersByTimeAsync(60_000);
    await tick();
    expect(screen.getByTestId('import-report')).toBeInTheDocument();
    await fireEvent.click(within(report).getByTestId('import-report-dismiss'));
    expect(screen.queryByTestId('import-report')).toBeNull();
  });

  it('cannot import anything from a file whose entries are all broken', async () => {
    const { d } = await openPreview({ ...partial, items: [partial.items[1]] });
    expect(d.getByTestId('import-check-all')).toBeDisabled();
    expect(d.getByTestId('import-confirm')).toBeDisabled();
    expect(d.getByTestId('import-broken-summary')).toHaveTextContent('1 of 1 entries has mistakes');
  });

  it('leaves no report when every entry was imported', async () => {
    const { d, user } = await openPreview({ ...partial, items: [partial.items[0], partial.items[2]] });
    expect(d.queryByTestId('import-broken-summary')).toBeNull();
    await user.click(d.getByTestId('import-confirm'));
    await waitFor(() => expect(screen.queryByTestId('import-dialog')).toBeNull());
    expect(await screen.findByTestId('server-omega')).toBeInTheDocument();
    expect(screen.queryByTestId('import-report')).toBeNull();
  });

  it('drops a failure once the same file reads, and keeps a failure until dismissed', async () => {
    const { fake, user } = renderApp({ importFile: FILE, preview: partial });
    fake.failNext('PreviewImport', `${FILE}:3:10: invalid character '}' looking for beginning of value`);
    await user.click(await screen.findByTestId('empty-import'));
    const report = await screen.findByTestId('import-report');
    expect(report).toHaveTextContent(`Could not import ${FILE}`);
    expect(within(report).getByTestId('import-report-failure')).toHaveTextContent(`${FILE}:3:10: invalid character`);
    // The file is fixed and read: the failure is no longer true.
    await user.click(screen.getByTestId('empty-import'));
    await screen.findByTestId('import-dialog');
    expect(screen.queryByTestId('import-report')).toBeNull();
  });
});

describe('The fake imports as Go does', () => {
  it('refuses a broken entry by id and imports only good ones by default', async () => {
    const fake = new FakeBackend({ preview: partial });
    try {
      const p = await fake.mcp.PreviewImport(FILE);
      await expect(fake.mcp.Import(p.token, ['broken'])).rejects.toMatch('server "broken" has mistakes (see the preview) and cannot be imported');
      expect(await fake.mcp.Import(p.token, [])).toEqual({ added: ['alpha', 'omega'], replaced: [] });
    } finally {
      fake.dispose();
    }
  });
});

describe('The welcome with a found file that has a broken entry', () => {
  it('offers to import the file and says which entries will not be imported', async () => {
    const r = renderApp({
      firstRun: true,
      detected: [{ client: 'claude', path: FILE, servers: ['alpha', 'omega'], broken: ['broken'], error: '' }],
      preview: partial,
    });
    const welcome = within(await screen.findByTestId('welcome'));
    const row = await welcome.findByTestId('welcome-config');
    const w = within(row);
    expect(w.getByTestId('welcome-config-broken')).toHaveTextContent('1 entry has mistakes and will not be imported (broken); Import shows where.');
    await r.user.click(w.getByTestId('welcome-import'));
    const d = within(await screen.findByTestId('import-dialog'));
    expect(d.getByTestId('import-item-broken')).toHaveAttribute('data-status', 'broken');
    await r.user.click(d.getByTestId('import-confirm'));
    await waitFor(() => expect(r.fake.callsOf('Import')).toEqual([['fake-preview-1', ['alpha', 'omega']]]));
    // The mistakes stay in the welcome until dismissed.
    expect(await welcome.findByTestId('import-report')).toHaveTextContent('claude_desktop_config.json:6:15');
  });
});
