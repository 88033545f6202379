import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../api';
import { spec } from '../../../test/fakes/fake';
import { go, renderApp } from '../../../test/app';

/** generated returns n tools named like the test server's: tool_0001…. */
function generated(n: number): Tool[] {
  return Array.from({ length: n }, (_, i) => {
    const name = `tool_${String(i + 1).padStart(4, '0')}`;
    return { name, description: `Generated tool number ${i + 1}.`, inputSchema: { type: 'object' } };
  });
}

async function openMany(n: number, extra: Tool[] = []) {
  const app = renderApp({ servers: [spec({ id: 'a', command: 'x' })], tools: { a: [...generated(n), ...extra] } });
  await go(app.user, 'tools');
  await screen.findByTestId('tool-item-tool_0001');
  return app;
}

const rendered = () => screen.queryAllByTestId(/^tool-item-/);
const list = () => screen.getByRole('list', { name: 'Tools' });
const scroller = () => list().parentElement!;
const active = () => (document.activeElement as HTMLElement | null)?.dataset.testid;
const ROW_H = 68;

describe('Tool list (virtualised)', () => {
  it('renders only the rows in view of 1,000 tools, the first ones at once', async () => {
    await openMany(1000);
    expect(screen.getByTestId('tools-summary')).toHaveTextContent('1,000 tools');
    const rows = rendered();
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]).toHaveAttribute('data-testid', 'tool-item-tool_0001');
    expect(screen.getByTestId('tool-enabled-tool_0002')).toBeChecked();
    expect(screen.queryByTestId('tool-item-tool_1000')).not.toBeInTheDocument();
    // The list keeps the height of all rows, and says how long it is.
    expect(list().style.height).toBe(`${1000 * ROW_H}px`);
    expect(rows[1].closest('li')).toHaveAttribute('aria-setsize', '1000');
    expect(rows[1].closest('li')).toHaveAttribute('aria-posinset', '2');
  });

  it('renders the rows scrolled to, and not the ones scrolled past', async () => {
    await openMany(1000);
    scroller().scrollTop = 500 * ROW_H;
    await fireEvent.scroll(scroller());
    await waitFor(() => expect(screen.getByTestId('tool-item-tool_0501')).toBeInTheDocument());
    expect(screen.queryByTestId('tool-item-tool_0001')).not.toBeInTheDocument();
    expect(rendered().length).toBeLessThan(40);
    expect(screen.getByTestId('tool-item-tool_0501').closest('li')!.style.top).toBe(`${500 * ROW_H}px`);
  });

  it('filters all tools, not only the rendered ones', async () => {
    const { user } = await openMany(1000);
    await user.type(screen.getByTestId('tools-search'), 'tool_0987');
    expect(rendered().map((r) => r.dataset.testid)).toEqual(['tool-item-tool_0987']);
    expect(list().style.height).toBe(`${ROW_H}px`);

    // Matching descriptions far down the list too.
    await user.clear(screen.getByTestId('tools-search'));
    await user.type(screen.getByTestId('tools-search'), 'number 99');
    expect(rendered().map((r) => r.dataset.testid)).toEqual([
      'tool-item-tool_0099',
      ...Array.from({ length: 10 }, (_, i) => `tool-item-tool_099${i}`),
    ]);
  });

  it('starts a new search at the top of the list', async () => {
    const { user } = await openMany(1000);
    scroller().scrollTop = 900 * ROW_H;
    await fireEvent.scroll(scroller());
    await waitFor(() => expect(screen.getByTestId('tool-item-tool_0901')).toBeInTheDocument());
    await user.type(screen.getByTestId('tools-search'), 'tool_0');
    expect(scroller().scrollTop).toBe(0);
    expect(rendered()[0]).toHaveAttribute('data-testid', 'tool-item-tool_0001');
  });

  it('moves the focus with the keyboard beyond the first screen; Enter selects the row in view', async () => {
    const { user } = await openMany(1000);
    screen.getByTestId('tool-item-tool_0001').focus();
    await user.keyboard('{ArrowDown>40/}');
    await waitFor(() => expect(active()).toBe('tool-item-tool_0041'));
    expect(screen.queryByTestId('tool-item-tool_0001')).not.toBeInTheDocument();
    expect(scroller().scrollTop).toBeGreaterThan(30 * ROW_H);

    await user.keyboard('{Enter}');
    expect(await screen.findByTestId('tool-detail')).toBeInTheDocument();
    expect(screen.getByTestId('tool-item-tool_0041')).toHaveAttribute('aria-current', 'true');

    await user.keyboard('{End}');
    await waitFor(() => expect(active()).toBe('tool-item-tool_1000'));
    expect(rendered().length).toBeLessThan(40);
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(active()).toBe('tool-item-tool_0999'));
    await user.keyboard('{Home}');
    await waitFor(() => expect(active()).toBe('tool-item-tool_0001'));
    expect(scroller().scrollTop).toBe(0);
    await user.keyboard('{ArrowUp}');
    expect(active()).toBe('tool-item-tool_0001');

    // The selected row is still highlighted when scrolled back to.
    scroller().scrollTop = 30 * ROW_H;
    await fireEvent.scroll(scroller());
    await waitFor(() => expect(screen.getByTestId('tool-item-tool_0041')).toHaveAttribute('aria-current', 'true'));
    expect(screen.getByTestId('tool-item-tool_0040')).not.toHaveAttribute('aria-current');
  });

  it('keeps the focused row while the list is scrolled away from it', async () => {
    const { user } = await openMany(1000);
    screen.getByTestId('tool-item-tool_0003').focus();
    scroller().scrollTop = 600 * ROW_H;
    await fireEvent.scroll(scroller());
    await waitFor(() => expect(screen.getByTestId('tool-item-tool_0601')).toBeInTheDocument());
    expect(active()).toBe('tool-item-tool_0003');
    expect(screen.queryByTestId('tool-item-tool_0004')).not.toBeInTheDocument();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(active()).toBe('tool-item-tool_0004'));
    expect(screen.queryByTestId('tool-item-tool_0601')).not.toBeInTheDocument();
  });

  it('switches off a tool far down the list', async () => {
    const { user, fake } = await openMany(1000);
    scroller().scrollTop = 700 * ROW_H;
    await fireEvent.scroll(scroller());
    const box = await screen.findByTestId('tool-enabled-tool_0705');
    expect(box).toBeChecked();
    await user.click(box);
    await waitFor(() => expect(fake.callsOf('SetToolEnabled')).toEqual([['a', 'tool_0705', false]]));
    await waitFor(() => expect(screen.getByTestId('tools-token-estimate')).toHaveTextContent('999 of 1000 offered'));
    expect(screen.getByTestId('tool-enabled-tool_0705')).not.toBeChecked();
  });

  it('shows the selected tool again when the Tools screen is opened again', async () => {
    const { user } = await openMany(1000);
    await user.type(screen.getByTestId('tools-search'), 'tool_0800');
    await user.click(screen.getByTestId('tool-item-tool_0800'));
    await user.clear(screen.getByTestId('tools-search'));
    expect(screen.queryByTestId('tool-item-tool_0800')).not.toBeInTheDocument();
    await go(user, 'servers');
    await go(user, 'tools');
    expect(await screen.findByTestId('tool-item-tool_0800')).toHaveAttribute('aria-current', 'true');
    expect(screen.queryByTestId('tool-item-tool_0001')).not.toBeInTheDocument();
  });

  it('clamps long descriptions to a fixed row, with the full text in the title', async () => {
    const long = 'A very long description. '.repeat(40).trim();
    await openMany(3, [{ name: 'wordy', title: 'Wordy tool', description: long, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }]);
    const row = within(screen.getByTestId('tool-item-wordy'));
    expect(row.getByText(long)).toHaveAttribute('title', long);
    expect(row.getByText('Wordy tool')).toBeInTheDocument();
    expect(row.getByText('wordy')).toBeInTheDocument();
    expect(row.getByTestId('tool-badge-read-only')).toBeInTheDocument();
    const heights = rendered().map((r) => r.closest('li')!.style.top);
    expect(heights).toEqual(['0px', `${ROW_H}px`, `${2 * ROW_H}px`, `${3 * ROW_H}px`]);
  });

  it('lists 10,000 tools with a bounded number of rows', async () => {
    const { user } = await openMany(10000);
    expect(rendered().length).toBeLessThan(40);
    await user.type(screen.getByTestId('tools-search'), 'tool_9999');
    expect(rendered().map((r) => r.dataset.testid)).toEqual(['tool-item-tool_9999']);
  });
});
