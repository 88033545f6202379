import { screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ServerSpec } from '../../api';
import { spec, status } from '../../../test/fakes/fake';
import { renderApp, serverRow } from '../../../test/app';

function lastSave(fake: { callsOf(m: string): unknown[][] }): [string, ServerSpec] {
  const calls = fake.callsOf('SaveServer');
  return calls[calls.length - 1] as [string, ServerSpec];
}

describe('Server form: authentication (issue 14)', () => {
  it('a remote server signs in with OAuth by default; a registered client sends its id, secret (to the keychain) and scopes', async () => {
    const { fake, user } = renderApp();
    await user.click(await screen.findByTestId('add-server'));
    await user.type(screen.getByTestId('server-id'), 'linear');
    await user.click(screen.getByTestId('server-type-http'));
    await user.type(screen.getByTestId('server-url'), 'https://mcp.linear.example/mcp');
    expect(screen.getByTestId('server-auth')).toHaveValue('oauth');
    expect(screen.queryByTestId('server-oauth-client-id')).toBeNull();

    await user.selectOptions(screen.getByTestId('server-auth'), 'client');
    // The client id is required in this mode.
    await user.click(screen.getByTestId('save-server'));
    expect(await screen.findByText('Enter the client ID the authorization server gave you.')).toBeInTheDocument();
    expect(fake.callsOf('SaveServer')).toEqual([]);

    await user.type(screen.getByTestId('server-oauth-client-id'), 'desk-client');
    await user.type(screen.getByTestId('server-oauth-client-secret'), 'desk-secret-0123456789');
    await user.type(screen.getByTestId('server-oauth-scopes'), 'read write');
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(1));
    const [, saved] = lastSave(fake);
    expect(saved.auth).toBe('oauth');
    expect(saved.oauth).toEqual([
      { key: 'clientId', value: 'desk-client', keep: false, secret: false },
      { key: 'scopes', value: 'read write', keep: false, secret: false },
      { key: 'clientSecret', value: 'desk-secret-0123456789', keep: false, secret: true },
    ]);
  });

  it('editing keeps a stored client secret without showing it; "No sign-in" sends the headers alone', async () => {
    const stored = spec({
      id: 'gated',
      type: 'http',
      url: 'https://gated.example/mcp',
      auth: 'oauth',
      oauth: [
        { key: 'clientId', value: 'desk-client', keep: false, secret: false },
        { key: 'clientSecret', value: '', keep: true, secret: true },
      ],
    });
    const { fake, user } = renderApp({ servers: [{ spec: stored, status: status({ id: 'gated', transport: 'http' }) }] });
    await screen.findByTestId('server-gated');
    await user.click(serverRow('gated').getByTestId('server-edit'));
    expect(screen.getByTestId('server-auth')).toHaveValue('client');
    expect(screen.getByTestId('server-oauth-client-id')).toHaveValue('desk-client');
    expect(screen.getByTestId('server-oauth-secret-kept')).toHaveTextContent('Kept in the keychain');
    expect(screen.queryByTestId('server-oauth-client-secret')).toBeNull();
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(1));
    expect(lastSave(fake)[1].oauth).toContainEqual({ key: 'clientSecret', value: '', keep: true, secret: true });

    await user.click(serverRow('gated').getByTestId('server-edit'));
    await user.selectOptions(screen.getByTestId('server-auth'), 'none');
    expect(screen.queryByTestId('server-oauth-scopes')).toBeNull();
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(fake.callsOf('SaveServer')).toHaveLength(2));
    expect(lastSave(fake)[1]).toMatchObject({ auth: 'none', oauth: [] });
  });
});
