import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { spec, status } from '../../../test/fakes/fake';
import { renderApp, serverRow } from '../../../test/app';

// A remote server that answered 401: "Needs sign-in" until the user signs in.
const remote = {
  spec: spec({ id: 'linear', type: 'http', command: '', url: 'https://mcp.linear.example/mcp' }),
  status: status({
    id: 'linear',
    state: 'needs-sign-in',
    transport: 'http',
    error: 'This server needs you to sign in.',
    signIn: { signedIn: false, issuer: '', host: '', account: '', scope: '', expiresAt: 0, renewable: false, client: '' },
  }),
};

describe('OAuth sign-in (issue 14)', () => {
  it('a server that needs a sign-in says so and signs in from its row; the detail shows who and until when, the steps, and signs out', async () => {
    const { fake, user } = renderApp({ servers: [remote] });
    await screen.findByTestId('server-linear');
    const row = serverRow('linear');
    expect(row.getByTestId('server-state')).toHaveTextContent('Needs sign-in');
    expect(row.getByTestId('sign-in-needed')).toHaveTextContent('This server needs you to sign in.');

    await user.click(row.getByTestId('sign-in'));
    expect(fake.callsOf('SignIn')).toEqual([['linear']]);
    await waitFor(() => expect(serverRow('linear').getByTestId('server-state')).toHaveTextContent('Connected'));
    expect(serverRow('linear').queryByTestId('sign-in-needed')).toBeNull();

    await user.click(serverRow('linear').getByTestId('server-open'));
    const dlg = within(await screen.findByTestId('server-detail'));
    expect(dlg.getByTestId('signed-in')).toHaveTextContent(/Signed in to auth\.example as ada@example\.com · expires in (59|60) min/);
    const steps = dlg.getAllByTestId('sign-in-step');
    expect(steps.map((s) => s.dataset.step)).toEqual(['resource-metadata', 'server-metadata', 'client', 'authorize', 'callback', 'token']);
    expect(steps[0]).toHaveTextContent('Resource metadata');

    await user.click(dlg.getByTestId('sign-out'));
    expect(fake.callsOf('SignOut')).toEqual([['linear']]);
    await waitFor(() => expect(dlg.getByTestId('detail-state')).toHaveTextContent('Needs sign-in'));
    expect(dlg.queryByTestId('signed-in')).toBeNull();
  });

  it('a stdio server has no sign-in, and the debugger says what to do before any sign-in', async () => {
    const { user } = renderApp({ servers: [remote, { spec: spec({ id: 'local' }), status: status({ id: 'local' }) }] });
    await screen.findByTestId('server-local');
    expect(serverRow('local').queryByTestId('sign-in')).toBeNull();
    await user.click(serverRow('linear').getByTestId('server-open'));
    const dlg = within(await screen.findByTestId('server-detail'));
    expect(dlg.getByTestId('sign-in-steps-empty')).toHaveTextContent('press Sign in');
  });

  it('the debugger runs the sign-in step by step: each step waits for Continue', async () => {
    const { fake, user } = renderApp({ servers: [remote] });
    await screen.findByTestId('server-linear');
    await user.click(serverRow('linear').getByTestId('server-open'));
    const dlg = within(await screen.findByTestId('server-detail'));
    await user.click(dlg.getByTestId('sign-in-stepwise'));
    expect(fake.callsOf('SignInStepByStep')).toEqual([['linear']]);
    for (const step of ['resource-metadata', 'server-metadata', 'client', 'authorize', 'token']) {
      await waitFor(() => expect(dlg.getAllByTestId('sign-in-step').at(-1)?.dataset).toMatchObject({ step, status: 'waiting' }));
      expect(dlg.queryByTestId('sign-in-run')).toBeNull();
      await user.click(dlg.getByTestId('sign-in-continue'));
    }
    await waitFor(() => expect(dlg.getByTestId('detail-state')).toHaveTextContent('Connected'));
    expect(dlg.queryByTestId('sign-in-continue')).toBeNull();
    expect(fake.callsOf('ContinueSignIn')).toHaveLength(5);
  });
});
