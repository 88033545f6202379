import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { previewItem, shown, type FakePreview } from '../../../test/fakes/fake';
import { renderApp, go } from '../../../test/app';

const preview: FakePreview = {
  file: 'claude_desktop_config.json',
  format: 'claude',
  items: [previewItem({ id: 'memory', command: shown('npx'), args: [shown('-y'), shown('@modelcontextprotocol/server-memory')] })],
};

const content = '{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}';

function dataTransfer(files: File[]) {
  return { types: ['Files'], files, dropEffect: 'none' };
}

describe('Drag-and-drop import', () => {
  it('shows an overlay while a file is dragged, previews the dropped file and imports what the preview showed', async () => {
    const { fake, user } = renderApp({ preview });
    await go(user, 'settings');
    const file = new File([content], 'claude_desktop_config.json', { type: 'application/json' });

    await fireEvent.dragEnter(window, { dataTransfer: dataTransfer([file]) });
    expect(await screen.findByTestId('drop-overlay')).toHaveTextContent('Drop to import MCP servers');
    await fireEvent.drop(window, { dataTransfer: dataTransfer([file]) });

    const dialog = await screen.findByTestId('import-dialog');
    expect(screen.queryByTestId('drop-overlay')).toBeNull();
    expect(fake.callsOf('PreviewImportData')).toEqual([['claude_desktop_config.json', content]]);
    expect(screen.getByTestId('nav-servers')).toHaveAttribute('aria-current', 'page');
    await user.click(within(dialog).getByTestId('import-confirm'));
    // The preview's token: the content is not sent again.
    await waitFor(() => expect(fake.callsOf('Import')).toEqual([['fake-preview-1', ['memory']]]));
    expect(await screen.findByTestId('server-memory')).toBeInTheDocument();
  });

  it('ignores drags that carry no files, and reports a file that is not a config', async () => {
    const { fake } = renderApp({});
    await fireEvent.dragEnter(window, { dataTransfer: { types: ['text/plain'], files: [] } });
    expect(screen.queryByTestId('drop-overlay')).toBeNull();
    fake.failNext('PreviewImportData', 'notes.txt:1:1: invalid character "h" looking for beginning of value');
    const file = new File(['hello'], 'notes.txt');
    await fireEvent.drop(window, { dataTransfer: dataTransfer([file]) });
    // On the Servers screen until dismissed, not in a toast (issue 12).
    const report = await screen.findByTestId('import-report');
    expect(report).toHaveTextContent('Could not import notes.txt');
    expect(report).toHaveTextContent('notes.txt:1:1');
    expect(screen.getByTestId('nav-servers')).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByTestId('toast')).toBeNull();
    expect(screen.queryByTestId('import-dialog')).toBeNull();
  });
});
