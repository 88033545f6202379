import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ServerSpec } from '../../api';
import { spec, status } from '../../../test/fakes/fake';
import { renderApp, serverRow } from '../../../test/app';

function lastSave(fake: { callsOf(m: string): unknown[][] }): [string, ServerSpec] {
  const calls = fake.callsOf('SaveServer');
  return calls[calls.length - 1] as [string, ServerSpec];
}

describe('Server form', () => {
  it('adds a stdio server with args rows and env pairs, then shows it connected', async () => {
    const { fake, user } = renderApp({ connectDelayMs: 40 });
    await user.click(await screen.findByTestId('add-server'));
    const form = screen.getByTestId('server-form');
    expect(screen.getByTestId('server-id')).toHaveFocus();

    await user.type(screen.getByTestId('server-id'), 'files');
    await user.type(screen.getByTestId('server-command'), 'npx');
    await user.click(screen.getByTestId('server-arg-add'));
    await user.type(screen.getAllByTestId('server-arg')[0], '-y{Enter}');
    // Enter adds the next row and focuses it.
    expect(screen.getAllByTestId('server-arg')).toHaveLength(2);
    await user.keyboard('@modelcontextprotocol/server-filesystem');
    await user.click(screen.getByTestId('server-arg-add'));
    await user.type(screen.getAllByTestId('server-arg')[2], '/home/dev/my docs');

    await user.click(screen.getByTestId('server-env-add'));
    await user.type(within(form).getAllByTestId('server-env-key')[0], 'API_TOKEN');
    const value = within(form).getAllByTestId('server-env-value')[0];
    expect(value).toHaveAttribute('type', 'password');
    await user.type(value, 's3cret');

    await user.click(screen.getByTestId('save-server'));

    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(1));
    expect(lastSave(fake)).toEqual([
      '',
      {
        id: 'files',
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/dev/my docs'],
        env: [{ key: 'API_TOKEN', value: 's3cret', keep: false, secret: true }],
        cwd: '',
        url: '',
        headers: [],
        auth: '',
        oauth: [],
        enabled: true,
        timeoutMs: 0,
        maxConcurrency: 0,
        maxMessageBytes: 0,
        protocolVersion: '',
      },
    ]);
    await waitFor(() => expect(screen.queryByTestId('server-form')).not.toBeInTheDocument());
    // Go answers once the first start has an outcome: the toast tells it.
    expect(await screen.findByText('Server “files” added')).toBeInTheDocument();
    await waitFor(() => expect(serverRow('files').getByTestId('server-state')).toHaveTextContent('Connected'));
  }, 15000); // it types a great deal: slow on a busy machine

  it('splits a pasted command line into command, args and env', async () => {
    const { user } = renderApp({});
    await user.click(await screen.findByTestId('add-server'));
    await user.type(
      screen.getByTestId('server-paste'),
      `DEBUG=1 npx -y "@scope/pkg" --root '/a b' C:\\tools\\x{Enter}`,
    );
    expect(screen.getByTestId('server-command')).toHaveValue('npx');
    expect(screen.getAllByTestId('server-arg').map((i) => (i as HTMLInputElement).value)).toEqual([
      '-y',
      '@scope/pkg',
      '--root',
      '/a b',
      'C:\\tools\\x',
    ]);
    expect(screen.getAllByTestId('server-env-key').map((i) => (i as HTMLInputElement).value)).toEqual(['DEBUG']);
    expect(screen.getAllByTestId('server-env-value').map((i) => (i as HTMLInputElement).value)).toEqual(['1']);
    expect(screen.getByTestId('server-paste')).toHaveValue('');
  });

  it('splits a command line pasted into an empty Command field', async () => {
    const { user } = renderApp({});
    await user.click(await screen.findByTestId('add-server'));
    await fireEvent.paste(screen.getByTestId('server-command'), {
      clipboardData: { getData: () => 'uvx mcp-server-time --local-timezone=Europe/Paris' },
    });
    expect(screen.getByTestId('server-command')).toHaveValue('uvx');
    expect(screen.getAllByTestId('server-arg').map((i) => (i as HTMLInputElement).value)).toEqual([
      'mcp-server-time',
      '--local-timezone=Europe/Paris',
    ]);
  });

  it('shows validation messages next to the fields and does not save', async () => {
    const { fake, user } = renderApp({ servers: [spec({ id: 'taken', command: 'x' })] });
    await user.click(await screen.findByTestId('add-server'));
    await user.click(screen.getByTestId('save-server'));
    expect(screen.getByText('Enter an ID.')).toBeInTheDocument();
    expect(screen.getByText('Enter the command that starts the server.')).toBeInTheDocument();
    expect(screen.getByTestId('server-id')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('server-id')).toHaveFocus();

    await user.type(screen.getByTestId('server-id'), '-bad id');
    expect(screen.getByText(/Start with a letter or digit/)).toBeInTheDocument();
    await user.clear(screen.getByTestId('server-id'));
    await user.type(screen.getByTestId('server-id'), 'taken');
    expect(screen.getByText('A server with this ID already exists.')).toBeInTheDocument();
    await user.clear(screen.getByTestId('server-id'));
    await user.type(screen.getByTestId('server-id'), 'web.api_2');

    await user.click(screen.getByTestId('server-type-http'));
    expect(screen.queryByTestId('server-command')).not.toBeInTheDocument();
    expect(screen.getByText("Enter the server's URL.")).toBeInTheDocument();
    await user.type(screen.getByTestId('server-url'), 'ftp://example.com/mcp');
    expect(screen.getByText('The URL must start with http:// or https://.')).toBeInTheDocument();
    await user.clear(screen.getByTestId('server-url'));
    await user.type(screen.getByTestId('server-url'), 'not a url');
    expect(screen.getByText('This is not a valid URL.')).toBeInTheDocument();

    await user.click(screen.getByTestId('server-advanced'));
    await user.type(screen.getByTestId('server-concurrency'), '500');
    expect(screen.getByText('Enter a number from 1 to 64.')).toBeInTheDocument();
    await user.type(screen.getByTestId('server-max-message'), '2048');
    expect(screen.getByText('Enter a number from 0.0625 to 1024.')).toBeInTheDocument();
    await user.clear(screen.getByTestId('server-max-message'));
    await user.type(screen.getByTestId('server-max-message'), '1e3');
    expect(screen.getByText('Enter a number, such as 32 or 0.5.')).toBeInTheDocument();
    await user.click(screen.getByTestId('save-server'));
    expect(fake.callsOf('SaveServer')).toEqual([]);
  });

  it('adds a Streamable HTTP server with headers and advanced options', async () => {
    const { fake, user } = renderApp({});
    await user.click(await screen.findByTestId('add-server'));
    await user.type(screen.getByTestId('server-id'), 'github');
    await user.click(screen.getByTestId('server-type-http'));
    await user.type(screen.getByTestId('server-url'), 'https://api.example.com/mcp');
    await user.click(screen.getByTestId('server-header-add'));
    await user.type(screen.getByTestId('server-header-key'), 'Authorization');
    await user.type(screen.getByTestId('server-header-value'), 'Bearer abc');
    await user.click(screen.getByTestId('server-advanced'));
    await user.type(screen.getByTestId('server-timeout'), '30000');
    await user.type(screen.getByTestId('server-concurrency'), '2');
    await user.type(screen.getByTestId('server-max-message'), '64');
    await user.selectOptions(screen.getByTestId('server-protocol'), '2026-07-28');
    await user.click(screen.getByTestId('server-enabled-field'));
    await user.click(screen.getByTestId('save-server'));

    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(1));
    expect(lastSave(fake)).toEqual([
      '',
      {
        id: 'github',
        type: 'http',
        command: '',
        args: [],
        env: [],
        cwd: '',
        url: 'https://api.example.com/mcp',
        headers: [{ key: 'Authorization', value: 'Bearer abc', keep: false, secret: true }],
        // Its own Authorization header: no sign-in.
        auth: 'none',
        oauth: [],
        enabled: false,
        timeoutMs: 30000,
        maxConcurrency: 2,
        maxMessageBytes: 64 << 20,
        protocolVersion: '2026-07-28',
      },
    ]);
    await waitFor(() => expect(serverRow('github').getByTestId('server-state')).toHaveTextContent('Disabled'));
  });

  it('warns that legacy SSE cannot carry server requests', async () => {
    const { user } = renderApp({});
    await user.click(await screen.findByTestId('add-server'));
    await user.click(screen.getByTestId('server-type-sse'));
    expect(screen.getByTestId('sse-note')).toHaveTextContent('Legacy SSE');
  });

  it('edits a server keeping stored secrets unless replaced', async () => {
    const { fake, user } = renderApp({
      servers: [
        spec({
          id: 'db',
          command: 'uvx',
          args: ['mcp-server-sqlite'],
          env: [
            { key: 'DB_PASSWORD', value: 'old-pass', keep: false },
            { key: 'DB_USER', value: 'admin', keep: false },
          ],
          timeoutMs: 15000,
        }),
      ],
    });
    await screen.findByTestId('server-db');
    await user.click(serverRow('db').getByTestId('server-edit'));
    const form = screen.getByTestId('server-form');
    expect(form).toHaveTextContent('Edit “db”');
    expect(screen.getByTestId('server-id')).toHaveValue('db');
    // Secrets never come back; they show as stored. Plain values are shown.
    expect(within(form).getAllByTestId('server-env-stored')).toHaveLength(1);
    expect(within(form).getByTestId('server-env-stored')).toHaveTextContent('Plain text in file');
    expect(within(form).getAllByTestId('server-env-value').map((i) => (i as HTMLInputElement).value)).toEqual(['admin']);
    expect(screen.getByTestId('server-timeout')).toHaveValue('15000');

    // Save unchanged: the secret is sent with keep and no value (and moves
    // to the keychain), the plain value as it is.
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(1));
    expect(lastSave(fake)[0]).toBe('db');
    expect(lastSave(fake)[1].env).toEqual([
      { key: 'DB_PASSWORD', value: '', keep: true, secret: true },
      { key: 'DB_USER', value: 'admin', keep: false, secret: false },
    ]);
    expect(fake.servers.get('db')!.spec.env.map((p) => p.value)).toEqual(['old-pass', 'admin']);

    // Replace one value, remove the other, add a new one.
    await waitFor(() => expect(screen.queryByTestId('server-form')).not.toBeInTheDocument());
    await user.click(serverRow('db').getByTestId('server-edit'));
    await user.click(screen.getAllByTestId('server-env-replace')[0]);
    const replaced = screen.getAllByTestId('server-env-value')[0];
    expect(replaced).toHaveFocus();
    await user.type(replaced, 'new-pass');
    await user.click(screen.getAllByTestId('server-env-remove')[1]);
    await user.click(screen.getByTestId('server-env-add'));
    await user.type(screen.getAllByTestId('server-env-key')[1], 'DB_NAME');
    await user.type(screen.getAllByTestId('server-env-value')[1], 'prod');
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(2));
    expect(lastSave(fake)[1].env).toEqual([
      { key: 'DB_PASSWORD', value: 'new-pass', keep: false, secret: true },
      { key: 'DB_NAME', value: 'prod', keep: false, secret: false },
    ]);
    expect(fake.servers.get('db')!.spec.env).toEqual([
      { key: 'DB_PASSWORD', value: 'new-pass', keep: false, secret: true },
      { key: 'DB_NAME', value: 'prod', keep: false, secret: false },
    ]);
  });

  it('folds the paste box when editing and opens it on demand', async () => {
    const { user } = renderApp({ servers: [spec({ id: 'db', command: 'uvx', args: ['old'] })] });
    await screen.findByTestId('server-db');
    await user.click(serverRow('db').getByTestId('server-edit'));
    expect(screen.queryByTestId('server-paste')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('server-paste-open'));
    expect(screen.getByTestId('server-paste')).toHaveFocus();
    await user.type(screen.getByTestId('server-paste'), 'uvx mcp-server-sqlite --db x.db{Enter}');
    expect(screen.getAllByTestId('server-arg').map((i) => (i as HTMLInputElement).value)).toEqual(['mcp-server-sqlite', '--db', 'x.db']);
  });

  it('can go back to the stored value after choosing to replace it', async () => {
    const { fake, user } = renderApp({
      servers: [spec({ id: 'db', command: 'uvx', env: [{ key: 'TOKEN', value: 't', keep: false }] })],
    });
    await screen.findByTestId('server-db');
    await user.click(serverRow('db').getByTestId('server-edit'));
    await user.click(screen.getByTestId('server-env-replace'));
    await user.type(screen.getByTestId('server-env-value'), 'oops');
    await user.click(screen.getByTestId('server-env-keep'));
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(1));
    expect(lastSave(fake)[1].env).toEqual([{ key: 'TOKEN', value: '', keep: true, secret: true }]);
  });

  it('shows the backend error as is and keeps the form open', async () => {
    const { fake, user } = renderApp({});
    await user.click(await screen.findByTestId('add-server'));
    await user.type(screen.getByTestId('server-id'), 'bad');
    await user.type(screen.getByTestId('server-command'), 'npx');
    fake.failNext('SaveServer', 'server "bad": field "args": ${HOME_DIR} is not set');
    await user.click(screen.getByTestId('save-server'));
    const err = await screen.findByTestId('server-form-error');
    expect(err).toHaveTextContent('Could not save the server');
    expect(err).toHaveTextContent('server "bad": field "args": ${HOME_DIR} is not set');
    expect(screen.getByTestId('server-form')).toBeInTheDocument();
    expect(screen.queryByTestId('server-bad')).not.toBeInTheDocument();
  });

  it('closes on Escape without saving', async () => {
    const { fake, user } = renderApp({});
    await user.click(await screen.findByTestId('add-server'));
    await user.type(screen.getByTestId('server-id'), 'x');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('server-form')).not.toBeInTheDocument();
    expect(screen.getByTestId('add-server')).toHaveFocus();
    expect(fake.callsOf('SaveServer')).toEqual([]);
  });

  it('renames a server by sending the original id', async () => {
    const { fake, user } = renderApp({ servers: [{ spec: spec({ id: 'old', command: 'x' }), status: status({ id: 'old' }) }] });
    await screen.findByTestId('server-old');
    await user.click(serverRow('old').getByTestId('server-edit'));
    await user.clear(screen.getByTestId('server-id'));
    await user.type(screen.getByTestId('server-id'), 'new');
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(1));
    expect(lastSave(fake)[0]).toBe('old');
    expect(lastSave(fake)[1].id).toBe('new');
    expect(await screen.findByTestId('server-new')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('server-old')).not.toBeInTheDocument());
  });

  it('edits roots: stored ones are listed, a chosen folder is added, and they are saved', async () => {
    const { fake, user } = renderApp({ servers: [spec({ id: 'fs', command: 'npx', roots: ['/home/dev/src'] })] });
    fake.folder = '/home/dev/notes';
    await screen.findByTestId('server-fs');
    await user.click(serverRow('fs').getByTestId('server-edit'));
    await user.click(screen.getByTestId('server-advanced'));
    const rows = within(screen.getByTestId('server-roots')).getAllByTestId('server-root');
    expect(rows.map((r) => (r as HTMLInputElement).value)).toEqual(['/home/dev/src']);
    await user.click(screen.getByTestId('server-root-choose'));
    await user.click(screen.getByTestId('server-root-choose')); // the same folder is not added twice
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(1));
    expect((fake.callsOf('SaveServer')[0][1] as ServerSpec).roots).toEqual(['/home/dev/src', '/home/dev/notes']);
  });
});
