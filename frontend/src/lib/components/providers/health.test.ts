import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { go, renderApp } from '../../../test/app';
import type { FakeOptions } from '../../../test/fakes/fake';

const row = (id: string) => within(screen.getByTestId(`provider-row-${id}`));

async function openSettings(options: FakeOptions = {}) {
  const r = renderApp(options);
  await go(r.user, 'settings');
  await screen.findByTestId('settings-providers');
  return r;
}

describe('Provider health', () => {
  it('a key the provider rejects turns red after Test, never "Ready"', async () => {
    const { user } = await openSettings({
      providers: {
        providers: [{ id: 'open-1', name: 'Open', preset: 'custom', baseUrl: 'http://127.0.0.1:9/v1', keyInKeychain: true }],
        verdicts: { 'open-1': { code: 'key_rejected', usable: false, params: { status: '401' }, message: 'The API key for Open was rejected (401).' } },
      },
    });
    // Nothing has tried the key yet: the row says so rather than "Ready".
    const status = await row('open-1').findByTestId('provider-status');
    expect(status).toHaveTextContent('Not tested yet');
    expect(status).toHaveAttribute('data-state', 'untested');
    expect(status).toHaveAttribute('title', 'Press Test to check the key.');
    await user.click(row('open-1').getByTestId('provider-test'));
    await waitFor(() => expect(row('open-1').getByTestId('provider-status')).toHaveAttribute('data-state', 'error'));
    expect(row('open-1').getByTestId('provider-status')).toHaveTextContent('Key rejected (401)');
    expect(row('open-1').getByTestId('provider-test-result')).toHaveAttribute('data-state', 'error');
    expect(row('open-1').getByTestId('provider-test-code')).toHaveTextContent('Key rejected (401)');
    expect(row('open-1').getByTestId('provider-test-result')).toHaveTextContent('Paste a valid key with Edit.');
    // Dismissing the result keeps the verdict on the row, with its time.
    await user.click(row('open-1').getByTestId('provider-test-dismiss'));
    expect(row('open-1').getByTestId('provider-health')).toHaveTextContent('Key rejected (401)');
    expect(row('open-1').getByTestId('provider-health-when')).toHaveTextContent('Found by Test at');
  });

  it('Reload environment finds a key variable set since the start and says what running servers keep', async () => {
    const { user, fake } = await openSettings({
      providers: {
        providers: [{ id: 'env-1', name: 'Env', preset: 'custom', baseUrl: 'http://127.0.0.1:9/v1', keyEnv: 'LATE_KEY' }],
        envLater: { LATE_KEY: 'sk-late' },
      },
    });
    expect(await row('env-1').findByTestId('provider-status')).toHaveTextContent('LATE_KEY is not set');
    await user.click(screen.getByTestId('providers-reload-env'));
    const banner = await screen.findByTestId('providers-env-reload');
    expect(banner).toHaveTextContent('Environment read again.');
    expect(within(banner).getByTestId('providers-env-var')).toHaveTextContent('LATE_KEY is set');
    expect(banner).toHaveTextContent('MCP servers already running keep the environment they started with');
    // The key is there now, but nothing has tried it: not red, not "Ready".
    await waitFor(() => expect(row('env-1').getByTestId('provider-status')).toHaveTextContent('Not tested yet'));
    expect(row('env-1').getByTestId('provider-key')).toHaveTextContent('Key from $LATE_KEY');
    expect(fake.callsOf('providers.ReloadEnvironment')).toHaveLength(1);
    expect(document.body.innerHTML).not.toContain('sk-late');
  });

  it('the keychain banner never contradicts a stored key, and Check again runs the self-test again', async () => {
    const { user, fake } = await openSettings({
      keychain: { state: 'read_only', reason: 'the keychain returned a different value than was stored', storedKeys: 1 },
      keychainRecheck: { state: 'ok' },
      providers: { providers: [{ id: 'openai-1', name: 'OpenAI', preset: 'openai', keyInKeychain: true }] },
    });
    const banner = await screen.findByTestId('providers-keychain-banner');
    expect(banner).toHaveAttribute('data-state', 'read_only');
    expect(banner).toHaveTextContent('Keys already in the OS keychain work (1 key)');
    expect(banner).not.toHaveTextContent('unavailable');
    expect(row('openai-1').getByTestId('provider-key')).toHaveTextContent('Key in keychain');
    // Every place on the screen shows the same status.
    expect(screen.getByTestId('about-keychain')).toHaveAttribute('data-state', 'read_only');
    await user.click(within(banner).getByTestId('providers-keychain-recheck'));
    await waitFor(() => expect(screen.queryByTestId('providers-keychain-banner')).toBeNull());
    expect(screen.getByTestId('about-keychain')).toHaveTextContent('Available');
    expect(fake.callsOf('RecheckKeychain')).toHaveLength(1);
  });

  it('a chat refused with 401 offers Fix, which opens that provider in Settings marked red', async () => {
    const r = renderApp({
      providers: {
        providers: [{ id: 'openai', name: 'OpenAI', preset: 'openai', keyInKeychain: true }],
        defaultModel: { provider: 'openai', model: 'gpt-4o' },
      },
    });
    await go(r.user, 'chat');
    await screen.findByTestId('chat-screen');
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
    await r.user.type(screen.getByTestId('composer-input'), 'Hi');
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send').length).toBeGreaterThan(0));
    const t = r.fake.chat.turn();
    t.assistant();
    r.fake.providers.rejectInChat('openai', 401);
    t.error('auth', 'The API key for OpenAI was rejected (401). Check the key in Settings → Providers.', false);
    t.finish({ status: 'error' });
    t.done('error');
    const banner = await screen.findByTestId('chat-error');
    await r.user.click(within(banner).getByTestId('chat-error-fix'));
    await screen.findByTestId('provider-form');
    expect(row('openai').getByTestId('provider-status')).toHaveTextContent('Key rejected (401)');
    expect(row('openai').getByTestId('provider-health-when')).toHaveTextContent('A chat at');
  });

  it('a key refused in a chat after a good Test: the row turns red and the old "Connected" is not shown beside it', async () => {
    const { user, fake } = await openSettings({
      providers: { providers: [{ id: 'openai-1', name: 'OpenAI', preset: 'openai', keyInKeychain: true }] },
    });
    await user.click(await row('openai-1').findByTestId('provider-test'));
    await waitFor(() => expect(row('openai-1').getByTestId('provider-test-result')).toHaveAttribute('data-state', 'ok'));
    fake.providers.rejectInChat('openai-1', 403, new Date(Date.now() + 60_000));
    await go(user, 'chat');
    await go(user, 'settings');
    await waitFor(() => expect(row('openai-1').getByTestId('provider-status')).toHaveTextContent('Key rejected (403)'));
    expect(row('openai-1').queryByTestId('provider-test-result')).toBeNull();
    expect(row('openai-1').getByTestId('provider-health')).toHaveTextContent('A chat at');
  });
});
