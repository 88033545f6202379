import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ServerSpec } from '../../api';
import { previewItem, shown, spec, type FakePreview } from '../../../test/fakes/fake';
import { looksSecret } from '../../util/secretLook';
import { renderApp, serverRow } from '../../../test/app';

function lastSave(fake: { callsOf(m: string): unknown[][] }): [string, ServerSpec] {
  const calls = fake.callsOf('SaveServer');
  return calls[calls.length - 1] as [string, ServerSpec];
}

const values = (testid: string) => screen.getAllByTestId(testid).map((i) => (i as HTMLInputElement).value);

describe('looksSecret (mirrors mcpconfig.LooksSecret)', () => {
  it.each([
    ['env', 'API_KEY', 'abc', true],
    ['env', 'GITHUB_TOKEN', 'x', true],
    ['env', 'DB_PASSWORD', 'hunter2', true],
    ['env', 'SOMETHING', 'sk-proj-abcdefgh12345678', true], // by look
    ['env', 'SOMETHING', 'eyJhbGciOi.eyJzdWIiOi.sig', true],
    ['env', 'PATH', '/usr/local/bin:/usr/bin', false],
    ['env', 'TOOLS_PATH', '/opt/tools/bin:/usr/local/bin', false],
    ['env', 'LOG_LEVEL', 'debug', false],
    ['env', 'API_KEY', '', false], // empty
    ['env', 'API_KEY', '${OPENAI_API_KEY}', false], // only refers to a variable
    ['env', 'API_KEY', '${keychain:s/env/API_KEY}', false], // already a reference
    ['header', 'Authorization', 'Bearer abc', true],
    ['header', 'Cookie', 'a=b', true],
    ['header', 'Authorization', 'Bearer ${TOKEN}', false],
    ['header', 'Accept-Language', 'en', false],
  ] as const)('%s %s=%s → %s', (kind, name, value, want) => {
    expect(looksSecret(kind, name, value)).toBe(want);
  });
});

describe('Server secrets', () => {
  it('keeps a key in the keychain by default, shows a path in plain text, and lets the user choose', async () => {
    const { fake, user } = renderApp({});
    await user.click(await screen.findByTestId('add-server'));
    const form = within(screen.getByTestId('server-form'));
    await user.type(screen.getByTestId('server-id'), 'tools');
    await user.type(screen.getByTestId('server-command'), 'npx');
    await user.click(screen.getByTestId('server-env-add'));
    await user.type(form.getAllByTestId('server-env-key')[0], 'API_KEY');
    await user.type(form.getAllByTestId('server-env-value')[0], 'sk-live-123');
    await user.click(screen.getByTestId('server-env-add'));
    await user.type(form.getAllByTestId('server-env-key')[1], 'TOOLS_PATH');
    await user.type(form.getAllByTestId('server-env-value')[1], '/opt/tools/bin:/usr/bin');

    const [keyValue, pathValue] = form.getAllByTestId('server-env-value');
    const [keyBox, pathBox] = form.getAllByTestId('server-env-secret') as HTMLInputElement[];
    expect(keyValue).toHaveAttribute('type', 'password');
    expect(keyBox.checked).toBe(true);
    expect(pathValue).toHaveAttribute('type', 'text');
    expect(pathBox.checked).toBe(false);

    // The user's choice wins over the guess, also when the name changes later.
    await user.click(pathBox);
    expect(pathValue).toHaveAttribute('type', 'password');
    await user.click(pathBox);
    await user.type(form.getAllByTestId('server-env-key')[1], '_X');
    expect(pathBox.checked).toBe(false);

    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(1));
    expect(lastSave(fake)[1].env).toEqual([
      { key: 'API_KEY', value: 'sk-live-123', keep: false, secret: true },
      { key: 'TOOLS_PATH_X', value: '/opt/tools/bin:/usr/bin', keep: false, secret: false },
    ]);

    // Reopened: the plain value is shown, the secret is masked until revealed.
    await waitFor(() => expect(screen.queryByTestId('server-form')).not.toBeInTheDocument());
    await user.click(serverRow('tools').getByTestId('server-edit'));
    expect(values('server-env-value')).toEqual(['/opt/tools/bin:/usr/bin']);
    expect(screen.getByTestId('server-env-stored')).toHaveTextContent('In keychain');
    expect(screen.getByTestId('server-form')).not.toHaveTextContent('sk-live-123');
    expect(fake.callsOf('RevealSecret')).toEqual([]);
    await user.click(screen.getByTestId('server-env-reveal'));
    await waitFor(() => expect(values('server-env-value')).toEqual(['sk-live-123', '/opt/tools/bin:/usr/bin']));
    expect(fake.callsOf('RevealSecret')).toEqual([['tools', 'env', 'API_KEY']]);
    expect(screen.getAllByTestId('server-env-value')[0]).toHaveAttribute('type', 'text');
  }, 30_000);

  it('says when the keychain cannot be used and does not offer it by default', async () => {
    const { fake, user } = renderApp({ keychain: { available: false, reason: 'no Secret Service on D-Bus' } });
    await user.click(await screen.findByTestId('add-server'));
    await user.type(screen.getByTestId('server-id'), 'k');
    await user.type(screen.getByTestId('server-command'), 'npx');
    await user.click(screen.getByTestId('server-env-add'));
    await user.type(screen.getByTestId('server-env-key'), 'API_KEY');
    await user.type(screen.getByTestId('server-env-value'), 'k-123');
    expect(screen.getByTestId('server-env-keychain-off')).toHaveTextContent('The OS keychain cannot be used (no Secret Service on D-Bus)');
    expect((screen.getByTestId('server-env-secret') as HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(1));
    expect(lastSave(fake)[1].env).toEqual([{ key: 'API_KEY', value: 'k-123', keep: false, secret: false }]);
  }, 30_000);

  it('fetches a stored secret before making it plain, and keeps it secret if that fails', async () => {
    const { fake, user } = renderApp({
      servers: [spec({ id: 'db', command: 'uvx', env: [{ key: 'DB_PASSWORD', value: 'pw-123', keep: false, secret: true }] })],
    });
    await screen.findByTestId('server-db');
    await user.click(serverRow('db').getByTestId('server-edit'));
    fake.failNext('RevealSecret', 'env DB_PASSWORD of server "db" is kept in the OS keychain, but the keychain is locked');
    await user.click(screen.getByTestId('server-env-secret'));
    expect(await screen.findByTestId('server-env-reveal-error')).toHaveTextContent('the keychain is locked');
    expect((screen.getByTestId('server-env-secret') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('server-env-stored')).toBeInTheDocument();

    await user.click(screen.getByTestId('server-env-secret'));
    await waitFor(() => expect(values('server-env-value')).toEqual(['pw-123']));
    expect(screen.getByTestId('server-env-value')).toHaveAttribute('type', 'text');
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(1));
    expect(lastSave(fake)[1].env).toEqual([{ key: 'DB_PASSWORD', value: 'pw-123', keep: false, secret: false }]);
  });

  it('offers once to move secrets written in the config file into the keychain', async () => {
    const { fake, user } = renderApp({
      servers: [
        spec({ id: 'gh', command: 'npx', env: [{ key: 'GITHUB_TOKEN', value: 'ghp_abcdefgh12345678', keep: false }] }),
        spec({ id: 'api', type: 'http', url: 'https://h/mcp', headers: [{ key: 'Authorization', value: 'Bearer x', keep: false }] }),
        spec({ id: 'plain', command: 'uvx', env: [{ key: 'LOG_LEVEL', value: 'debug', keep: false }] }),
      ],
    });
    const notice = await screen.findByTestId('secrets-notice');
    expect(notice).toHaveTextContent('2 secrets are written in plain text in mcp.config.json');
    await user.click(within(notice).getByTestId('secrets-move'));
    await waitFor(() => expect(screen.queryByTestId('secrets-notice')).not.toBeInTheDocument());
    expect(fake.callsOf('MoveSecretsToKeychain')).toEqual([[[]]]);
    expect(await screen.findByText('2 secrets moved to the keychain')).toBeInTheDocument();
  });

  it('says in 简体中文 how many secrets are in the file', async () => {
    renderApp({
      prefs: { theme: 'system', language: 'zh-CN' },
      servers: [spec({ id: 'gh', command: 'npx', env: [{ key: 'API_KEY', value: 'k-1234', keep: false }] })],
    });
    expect(await screen.findByTestId('secrets-notice')).toHaveTextContent('1 个机密以明文写在 mcp.config.json 中');
  });

  it('moves the secrets of imported servers into the keychain unless the user unticks it', async () => {
    const preview: FakePreview = {
      file: '/home/dev/claude_desktop_config.json',
      format: 'claude',
      items: [
        previewItem({
          id: 'notes',
          command: shown('node'),
          env: [
            { name: 'OPENAI_API_KEY', value: shown('sk-…9f2c', { secret: true, length: 51 }) },
            { name: 'HOME_DIR', value: shown('/home/dev') },
          ],
        }),
        previewItem({
          id: 'remote',
          transport: 'http',
          url: shown('https://mcp.example.com/mcp'),
          headers: [{ name: 'Authorization', value: shown('Bearer …R8U2', { secret: true, length: 99 }) }],
        }),
      ],
    };
    const { fake, user } = renderApp({ importFile: preview.file, preview });
    await user.click(await screen.findByTestId('import-button'));
    const d = within(await screen.findByTestId('import-dialog'));
    const box = d.getByTestId('import-move-secrets') as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(box.closest('label')).toHaveTextContent('Move 2 secrets to the keychain after importing');
    await user.click(d.getByTestId('import-check-remote'));
    expect(box.closest('label')).toHaveTextContent('Move 1 secret to the keychain after importing');
    await user.click(d.getByTestId('import-confirm'));
    await waitFor(() => expect(fake.callsOf('MoveSecretsToKeychain')).toEqual([[['notes']]]));

    // Unticked: nothing moves.
    await waitFor(() => expect(screen.queryByTestId('import-dialog')).not.toBeInTheDocument());
    await user.click(screen.getByTestId('import-button'));
    const d2 = within(await screen.findByTestId('import-dialog'));
    await user.click(d2.getByTestId('import-move-secrets'));
    await user.click(d2.getByTestId('import-confirm'));
    await waitFor(() => expect(fake.callsOf('Import')).toHaveLength(2));
    expect(fake.callsOf('MoveSecretsToKeychain')).toHaveLength(1);
  });
});
