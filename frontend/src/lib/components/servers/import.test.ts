import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ImportPreview } from '../../api';
import { spec } from '../../api/fake';
import { renderApp } from '../../../test/app';

const FILE = '/home/dev/.config/Claude/claude_desktop_config.json';
const preview: ImportPreview = {
  file: FILE,
  format: 'claude',
  items: [
    { id: 'filesystem', transport: 'stdio', summary: 'npx -y @modelcontextprotocol/server-filesystem /home/dev', replaces: false },
    { id: 'memory', transport: 'stdio', summary: 'npx -y @modelcontextprotocol/server-memory', replaces: false },
    { id: 'everything', transport: 'stdio', summary: 'npx -y @modelcontextprotocol/server-everything', replaces: true },
  ],
};

describe('Import', () => {
  it('previews the file, imports the chosen servers and reports the result', async () => {
    const { fake, user } = renderApp({ servers: [spec({ id: 'everything', command: 'node' })], importFile: FILE, preview });
    await screen.findByTestId('server-everything');
    await user.click(screen.getByTestId('import-button'));

    const dialog = await screen.findByTestId('import-dialog');
    expect(fake.callsOf('PreviewImport')).toEqual([[FILE]]);
    const d = within(dialog);
    expect(d.getByTestId('import-format')).toHaveTextContent('Claude Desktop');
    expect(dialog).toHaveTextContent(FILE);
    expect(within(d.getByTestId('import-item-everything')).getByTestId('import-replaces')).toHaveTextContent('replaces existing');
    expect(within(d.getByTestId('import-item-memory')).queryByTestId('import-replaces')).not.toBeInTheDocument();
    expect(d.getByTestId('import-replace-warning')).toHaveTextContent('1 server with the same ID will be replaced.');
    expect(d.getByTestId('import-confirm')).toHaveTextContent('Import 3 servers');

    await user.click(d.getByTestId('import-check-memory'));
    expect(d.getByTestId('import-confirm')).toHaveTextContent('Import 2 servers');
    expect(d.getByTestId('import-check-all')).toHaveProperty('indeterminate', true);
    await user.click(d.getByTestId('import-confirm'));

    await waitFor(() => expect(fake.callsOf('Import')).toEqual([[FILE, ['filesystem', 'everything']]]));
    await waitFor(() => expect(screen.queryByTestId('import-dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Imported: 1 added, 1 replaced')).toBeInTheDocument();
    expect(await screen.findByTestId('server-filesystem')).toBeInTheDocument();
    expect(screen.queryByTestId('server-memory')).not.toBeInTheDocument();
  });

  it('disables Import when nothing is chosen and can select all again', async () => {
    const { user } = renderApp({ importFile: FILE, preview });
    await user.click(await screen.findByTestId('empty-import'));
    const d = within(await screen.findByTestId('import-dialog'));
    await user.click(d.getByTestId('import-check-all'));
    expect(d.getByTestId('import-confirm')).toBeDisabled();
    await user.click(d.getByTestId('import-check-all'));
    expect(d.getByTestId('import-confirm')).toHaveTextContent('Import 3 servers');
    expect(d.getByTestId('import-confirm')).toBeEnabled();
  });

  it('does nothing when the file dialog is cancelled', async () => {
    const { fake, user } = renderApp({ importFile: '', preview });
    await user.click(await screen.findByTestId('import-button'));
    await waitFor(() => expect(fake.callsOf('ChooseImportFile')).toHaveLength(1));
    expect(fake.callsOf('PreviewImport')).toEqual([]);
    expect(screen.queryByTestId('import-dialog')).not.toBeInTheDocument();
  });

  it('shows why a file cannot be read', async () => {
    const { fake, user } = renderApp({ importFile: '/tmp/broken.json', preview });
    fake.failNext('PreviewImport', '/tmp/broken.json: line 2, column 9: invalid character');
    await user.click(await screen.findByTestId('import-button'));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Could not read that file');
    expect(toast).toHaveTextContent('/tmp/broken.json: line 2, column 9: invalid character');
    expect(screen.queryByTestId('import-dialog')).not.toBeInTheDocument();
  });

  it('keeps the dialog open with the error when Import fails', async () => {
    const { fake, user } = renderApp({ importFile: FILE, preview });
    await user.click(await screen.findByTestId('import-button'));
    fake.failNext('Import', 'write config: disk full');
    await user.click(await screen.findByTestId('import-confirm'));
    expect(await screen.findByTestId('import-error')).toHaveTextContent('write config: disk full');
    expect(screen.getByTestId('import-dialog')).toBeInTheDocument();
  });
});
