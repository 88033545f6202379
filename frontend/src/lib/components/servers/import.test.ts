import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { previewItem, shown, spec, type FakePreview } from '../../../test/fakes/fake';
import { renderApp } from '../../../test/app';

const FILE = '/home/dev/.config/Claude/claude_desktop_config.json';
const preview: FakePreview = {
  file: FILE,
  format: 'claude',
  items: [
    previewItem({ id: 'filesystem', command: shown('npx'), args: [shown('-y'), shown('@modelcontextprotocol/server-filesystem'), shown('/home/dev')] }),
    previewItem({ id: 'memory', command: shown('npx'), args: [shown('-y'), shown('@modelcontextprotocol/server-memory')] }),
    previewItem({ id: 'everything', command: shown('npx'), args: [shown('-y'), shown('@modelcontextprotocol/server-everything')] }),
  ],
};

// A file with everything the preview must show: what the Go preview
// (mcpconfig.Preview) makes of loader variables, a secret, ${VAR}
// references, a remote server and a replacement.
const risky: FakePreview = {
  file: FILE,
  format: 'claude',
  items: [
    previewItem({
      id: 'notes',
      command: shown('node'),
      args: [shown('/opt/notes/index.js'), shown('--root'), shown('${HOME}/notes', { reads: ['HOME'] }), shown('postgres://app:***@db/notes', { partial: true })],
      cwd: shown('/opt/notes'),
      env: [
        { name: 'LD_PRELOAD', value: shown('/tmp/x.so') },
        { name: 'NODE_OPTIONS', value: shown('--require /tmp/x.js') },
        { name: 'OPENAI_API_KEY', value: shown('sk-…9f2c', { secret: true, length: 51 }) },
        { name: 'GITHUB_TOKEN', value: shown('${GITHUB_TOKEN}', { reads: ['GITHUB_TOKEN'] }) },
      ],
      reads: ['GITHUB_TOKEN', 'HOME'],
      warnings: [
        { code: 'preload', params: { name: 'LD_PRELOAD' } },
        { code: 'nodeOptions', params: { name: 'NODE_OPTIONS' } },
        { code: 'hidden', params: { field: 'arg', name: '4', secret: '' } },
      ],
      changes: [
        { field: 'command', name: '', old: [shown('npx')], new: [shown('node')] },
        { field: 'env', name: 'OPENAI_API_KEY', old: [], new: [shown('sk-…9f2c', { secret: true, length: 51 })] },
        { field: 'enabled', name: '', old: [shown('false')], new: [shown('true')] },
      ],
    }),
    previewItem({
      id: 'remote',
      transport: 'http',
      url: shown('http://mcp.example.com/mcp?api_key=***&region=${REGION}', { partial: true, reads: ['REGION'] }),
      host: 'mcp.example.com',
      headers: [{ name: 'Authorization', value: shown('Bearer …R8U2', { secret: true, length: 99 }) }],
      reads: ['REGION'],
      warnings: [{ code: 'plainHttp', params: { host: 'mcp.example.com' } }],
    }),
    previewItem({ id: 'same', command: shown('uvx'), args: [shown('mcp-server-time')] }),
  ],
};

describe('Import', () => {
  it('previews the file, imports the chosen servers of that preview and reports the result', async () => {
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
    expect(within(d.getByTestId('import-item-memory')).getByTestId('import-new')).toHaveTextContent('new');
    expect(d.getByTestId('import-replace-warning')).toHaveTextContent('1 server with the same ID will be replaced.');
    expect(d.getByTestId('import-confirm')).toHaveTextContent('Import 3 servers');

    await user.click(d.getByTestId('import-check-memory'));
    expect(d.getByTestId('import-confirm')).toHaveTextContent('Import 2 servers');
    expect(d.getByTestId('import-check-all')).toHaveProperty('indeterminate', true);
    await user.click(d.getByTestId('import-confirm'));

    // By the preview's token: what was shown, whatever the file says now.
    await waitFor(() => expect(fake.callsOf('Import')).toEqual([['fake-preview-1', ['filesystem', 'everything']]]));
    await waitFor(() => expect(screen.queryByTestId('import-dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Imported: 1 added, 1 replaced')).toBeInTheDocument();
    expect(await screen.findByTestId('server-filesystem')).toBeInTheDocument();
    expect(screen.queryByTestId('server-memory')).not.toBeInTheDocument();
  });

  it('shows everything each server will run or send, with warnings, secrets masked and what a replacement changes', async () => {
    const { user } = renderApp({
      servers: [spec({ id: 'notes', command: 'npx', enabled: false }), spec({ id: 'same', command: 'uvx', args: ['mcp-server-time'] })],
      importFile: FILE,
      preview: risky,
    });
    await screen.findByTestId('server-notes');
    await user.click(screen.getByTestId('import-button'));
    const d = within(await screen.findByTestId('import-dialog'));

    // Three servers: every detail shows at once.
    const notes = within(d.getByTestId('import-item-notes'));
    expect(notes.getByTestId('import-warn-count')).toHaveTextContent('3 warnings');
    expect(notes.getAllByTestId('import-warning').map((w) => w.textContent?.trim())).toEqual([
      'LD_PRELOAD loads a library into every program before it starts.',
      "NODE_OPTIONS adds options to every Node.js program, such as --require or --import, which load any code before the server's.",
      'Argument 4 contains a key, hidden here.',
    ]);
    expect(notes.getByTestId('import-command')).toHaveTextContent('node');
    // Every argument on its own line, ${VAR} marked.
    const args = notes.getAllByTestId('import-arg');
    expect(args.map((a) => a.querySelector('code')?.textContent)).toEqual(['/opt/notes/index.js', '--root', '${HOME}/notes', 'postgres://app:***@db/notes']);
    expect(within(args[2]).getByTestId('import-read')).toHaveTextContent('reads HOME from your environment');
    expect(within(args[3]).getByTestId('import-partial')).toHaveTextContent('partly hidden');
    expect(notes.getByTestId('import-cwd')).toHaveTextContent('/opt/notes');
    const cells = (r: HTMLElement) => [...(r as HTMLTableRowElement).cells].map((c) => c.textContent?.replace(/\s+/g, ' ').trim()).join(' ');
    const env = Object.fromEntries(notes.getAllByTestId('import-env-row').map((r) => [r.dataset.name, cells(r)]));
    expect(env).toEqual({
      LD_PRELOAD: 'LD_PRELOAD /tmp/x.so',
      NODE_OPTIONS: 'NODE_OPTIONS --require /tmp/x.js',
      OPENAI_API_KEY: 'OPENAI_API_KEY sk-…9f2c (51 characters)',
      GITHUB_TOKEN: 'GITHUB_TOKEN ${GITHUB_TOKEN} reads GITHUB_TOKEN from your environment',
    });
    // What the replacement changes, old → new.
    const changes = notes.getAllByTestId('import-change').map(cells);
    expect(changes).toEqual(['Program npx node', 'Env OPENAI_API_KEY not set sk-…9f2c (51 characters)', 'Switched on off on']);

    const remote = within(d.getByTestId('import-item-remote'));
    expect(remote.getByTestId('import-host')).toHaveTextContent('mcp.example.com');
    expect(remote.getByTestId('import-url')).toHaveTextContent('http://mcp.example.com/mcp?api_key=***&region=${REGION}');
    expect(remote.getByTestId('import-url')).toHaveTextContent('reads REGION from your environment');
    expect(cells(remote.getByTestId('import-header-row'))).toBe('Authorization Bearer …R8U2 (99 characters)');
    expect(remote.getByTestId('import-warning')).toHaveTextContent('Connects to mcp.example.com over plain http://');

    // A replacement that changes nothing says so.
    const same = within(d.getByTestId('import-item-same'));
    expect(same.getByTestId('import-identical-badge')).toHaveTextContent('identical');
    expect(same.getByTestId('import-identical')).toHaveTextContent('Identical to the configured server');

    // Collapse and expand one server; the summary shows while collapsed.
    await user.click(d.getByTestId('import-toggle-notes'));
    expect(notes.queryByTestId('import-details-notes')).toBeNull();
    expect(d.getByTestId('import-item-notes')).toHaveTextContent('node /opt/notes/index.js --root ${HOME}/notes');
    expect(d.getByTestId('import-toggle-notes')).toHaveAttribute('aria-expanded', 'false');
    await user.click(d.getByTestId('import-toggle-notes'));
    expect(notes.getByTestId('import-details-notes')).toBeInTheDocument();
  });

  it('folds the details of many servers, and shows them all on request', async () => {
    const many: FakePreview = { ...risky, items: [...risky.items, previewItem({ id: 'fourth', command: shown('x') })] };
    const { user } = renderApp({ importFile: FILE, preview: many });
    await user.click(await screen.findByTestId('import-button'));
    const d = within(await screen.findByTestId('import-dialog'));
    expect(d.queryByTestId('import-details-notes')).toBeNull();
    expect(within(d.getByTestId('import-item-notes')).getByTestId('import-warn-count')).toHaveTextContent('3 warnings');
    await user.click(d.getByTestId('import-open-all'));
    for (const id of ['notes', 'remote', 'same', 'fourth']) expect(d.getByTestId(`import-details-${id}`)).toBeInTheDocument();
    await user.click(d.getByTestId('import-open-all'));
    expect(d.queryByTestId('import-details-remote')).toBeNull();
  });

  it('reads in 简体中文', async () => {
    const { user } = renderApp({ prefs: { theme: 'system', language: 'zh-CN' }, servers: [spec({ id: 'notes', command: 'npx' })], importFile: FILE, preview: risky });
    await user.click(await screen.findByTestId('import-button'));
    const notes = within(within(await screen.findByTestId('import-dialog')).getByTestId('import-item-notes'));
    expect(notes.getByTestId('import-warn-count')).toHaveTextContent('3 条警告');
    expect(notes.getAllByTestId('import-warning')[2]).toHaveTextContent('第 4 个参数包含一个密钥，此处已隐藏。');
    expect(notes.getAllByTestId('import-secret')[0]).toHaveTextContent('sk-…9f2c（51 个字符）');
    expect(notes.getAllByTestId('import-read')[0]).toHaveTextContent('从你的环境读取 HOME');
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
    // Kept on screen until dismissed (issue 12), not in a toast.
    const report = await screen.findByTestId('import-report');
    expect(report).toHaveTextContent('Could not import /tmp/broken.json');
    expect(report).toHaveTextContent('/tmp/broken.json: line 2, column 9: invalid character');
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
    expect(screen.queryByTestId('import-dialog')).not.toBeInTheDocument();
  });

  it('keeps the dialog open with the error when Import fails, and says when a preview is gone', async () => {
    const { fake, user } = renderApp({ importFile: FILE, preview });
    await user.click(await screen.findByTestId('import-button'));
    fake.failNext('Import', 'write config: disk full');
    await user.click(await screen.findByTestId('import-confirm'));
    expect(await screen.findByTestId('import-error')).toHaveTextContent('write config: disk full');
    expect(screen.getByTestId('import-dialog')).toBeInTheDocument();
    // A token imports once (as in Go): a second try says to open the file again.
    await user.click(screen.getByTestId('import-confirm'));
    await waitFor(() => expect(screen.queryByTestId('import-dialog')).not.toBeInTheDocument());
    await expect(fake.mcp.Import('fake-preview-1', [])).rejects.toMatch('open the file again');
  });
});
