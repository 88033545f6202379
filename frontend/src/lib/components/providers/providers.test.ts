import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ProviderInput } from '../../api';
import type { FakeBackend, FakeOptions } from '../../../test/fakes/fake';
import type { FakeProviderSeed } from '../../../test/fakes/fakeProviders';
import type { Stores } from '../../state/context';
import { go, renderApp } from '../../../test/app';

const OPENAI: FakeProviderSeed = { id: 'openai-1', name: 'OpenAI', preset: 'openai', keyInKeychain: true };
const DEEPSEEK: FakeProviderSeed = { id: 'deepseek-1', name: 'DeepSeek', preset: 'deepseek', keyInKeychain: true };

async function openSettings(options: FakeOptions = {}) {
  const r = renderApp(options);
  await go(r.user, 'settings');
  await screen.findByTestId('settings-providers');
  return r;
}

/** row returns queries scoped to one provider's row. */
const row = (id: string) => within(screen.getByTestId(`provider-row-${id}`));

function saves(fake: FakeBackend): ProviderInput[] {
  return fake.callsOf('providers.Save').map((args) => args[0] as ProviderInput);
}

const form = () => within(screen.getByTestId('provider-form'));

/** noSecret asserts a key appears nowhere the UI keeps things: DOM text, attributes, input values, store state. */
function expectNoSecret(secret: string, stores: Stores) {
  expect(document.documentElement.outerHTML).not.toContain(secret);
  for (const el of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea'))
    expect(el.value).not.toContain(secret);
  const p = stores.providers;
  const snapshot = JSON.stringify({
    list: p.list,
    presets: p.presets,
    picker: p.pickerModels,
    default: p.defaultModel,
    fallbacks: p.fallbacks,
    tests: p.list.map((x) => p.testOf(x.id)),
    models: p.list.map((x) => p.modelsOf(x.id)),
    keychain: p.keychain,
    toasts: stores.toasts.items,
  });
  expect(snapshot).not.toContain(secret);
}

describe('Providers: list and empty state', () => {
  it('explains what a provider is and offers a running Ollama in one click', async () => {
    const { fake, user } = await openSettings({
      providers: { ollama: { running: true, version: '0.12.3', url: 'http://localhost:11434' } },
    });
    const empty = await screen.findByTestId('providers-empty');
    expect(empty).toHaveTextContent('No model providers yet');
    expect(empty).toHaveTextContent('A provider is a service that runs language models');
    expect(within(empty).getByTestId('providers-empty-add')).toHaveTextContent('Add provider');
    const use = await within(empty).findByTestId('providers-use-ollama');
    expect(use).toHaveTextContent('Use Ollama at http://localhost:11434 (version 0.12.3)');

    await user.click(use);
    await waitFor(() => expect(saves(fake)).toHaveLength(1));
    expect(saves(fake)[0]).toMatchObject({ id: '', name: 'Ollama', type: 'ollama', preset: 'ollama', baseUrl: 'http://localhost:11434' });
    expect(saves(fake)[0]).not.toHaveProperty('apiKey');
    const r = row('ollama-1');
    expect(r.getByTestId('provider-type')).toHaveTextContent('Ollama');
    expect(r.getByTestId('provider-key')).toHaveTextContent('No key needed');
    // It is tested at once, and its models are open.
    await waitFor(() => expect(r.getByTestId('provider-test-result')).toHaveTextContent('Connected · 2 models · 123 ms'));
    expect(r.getByTestId('provider-status')).toHaveTextContent('Ready');
    expect(await r.findByTestId('provider-model-llama3.2:latest')).toBeInTheDocument();
    expect(screen.queryByTestId('providers-ollama-offer')).not.toBeInTheDocument();
  });

  it('says nothing about Ollama when it does not run', async () => {
    await openSettings();
    await screen.findByTestId('providers-empty');
    await waitFor(() => expect(screen.queryByTestId('providers-detecting')).not.toBeInTheDocument());
    expect(screen.queryByTestId('providers-use-ollama')).not.toBeInTheDocument();
  });

  it('offers a running Ollama beside a list that has none', async () => {
    await openSettings({ providers: { providers: [OPENAI], ollama: { running: true, url: 'http://localhost:11434' } } });
    expect(await screen.findByTestId('providers-ollama-offer')).toHaveTextContent('Ollama is running at http://localhost:11434.');
  });

  it('shows type, base URL, key source and whether each provider is usable', async () => {
    await openSettings({
      providers: {
        env: { GROQ_API_KEY: 'gsk-from-env' },
        providers: [
          OPENAI,
          { id: 'groq-1', name: 'Groq', preset: 'groq', keyEnv: 'GROQ_API_KEY' },
          { id: 'mistral-1', name: 'Mistral', preset: 'mistral', keyEnv: 'MISTRAL_KEY' },
          { id: 'xai-1', name: 'xAI', preset: 'xai' },
          { id: 'azure-1', name: 'Azure', preset: 'azure', baseUrl: 'https://r.openai.azure.com', keyInKeychain: true, enabled: false },
        ],
      },
    });
    await screen.findByTestId('provider-row-openai-1');
    expect(row('openai-1').getByTestId('provider-type')).toHaveTextContent('OpenAI-compatible');
    expect(row('openai-1').getByTestId('provider-url')).toHaveTextContent('https://api.openai.com/v1');
    expect(row('openai-1').getByTestId('provider-key')).toHaveTextContent('Key in keychain');
    // Set up but never tried in this run: it says so, it does not guess "Ready".
    expect(row('openai-1').getByTestId('provider-status')).toHaveTextContent('Not tested yet');
    expect(row('openai-1').getByTestId('provider-status')).toHaveAttribute('data-state', 'untested');
    expect(row('groq-1').getByTestId('provider-key')).toHaveTextContent('Key from $GROQ_API_KEY');
    expect(row('mistral-1').getByTestId('provider-key')).toHaveTextContent('$MISTRAL_KEY is not set');
    // A key variable that is not set is red, in its own words, never "Ready".
    expect(row('mistral-1').getByTestId('provider-status')).toHaveTextContent('MISTRAL_KEY is not set');
    expect(row('mistral-1').getByTestId('provider-status')).toHaveAttribute('data-state', 'error');
    expect(row('mistral-1').getByTestId('provider-health')).toHaveTextContent('Reload environment');
    expect(row('xai-1').getByTestId('provider-key')).toHaveTextContent('No key');
    expect(row('azure-1').getByTestId('provider-type')).toHaveTextContent('Azure OpenAI');
    expect(row('azure-1').getByTestId('provider-status')).toHaveTextContent('Disabled');
    expect(row('azure-1').getByTestId('provider-enabled')).toHaveAttribute('aria-checked', 'false');
    // The env variable's value is Go's business, never the UI's.
    expect(document.body.innerHTML).not.toContain('gsk-from-env');
  });

  it('enables and disables a provider, and the model picker follows', async () => {
    const { fake, user } = await openSettings({ providers: { providers: [OPENAI] } });
    const select = await screen.findByTestId('default-model-select');
    await waitFor(() => expect(within(select).getByRole('option', { name: 'gpt-4o' })).toBeInTheDocument());

    await user.click(row('openai-1').getByTestId('provider-enabled'));
    expect(row('openai-1').getByTestId('provider-status')).toHaveTextContent('Disabled');
    await waitFor(() => expect(fake.callsOf('providers.SetEnabled')).toEqual([['openai-1', false]]));
    await waitFor(() => expect(screen.getByTestId('defaults-empty')).toBeInTheDocument());

    fake.failNext('providers.SetEnabled', 'database is locked');
    await user.click(row('openai-1').getByTestId('provider-enabled'));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Could not enable “OpenAI”');
    expect(row('openai-1').getByTestId('provider-enabled')).toHaveAttribute('aria-checked', 'false');
  });

  it('deletes a provider after confirming, and clears its default model', async () => {
    const { fake, user } = await openSettings({
      providers: { providers: [OPENAI, DEEPSEEK], defaultModel: { provider: 'openai-1', model: 'gpt-4o' } },
    });
    await user.click(await row('openai-1').findByTestId('provider-remove'));
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('Delete “OpenAI”?');
    await user.click(within(dialog).getByTestId('confirm-cancel'));
    expect(fake.callsOf('providers.Delete')).toEqual([]);

    await user.click(row('openai-1').getByTestId('provider-remove'));
    await user.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.queryByTestId('provider-row-openai-1')).not.toBeInTheDocument());
    expect(fake.callsOf('providers.Delete')).toEqual([['openai-1']]);
    expect(await screen.findByText('Provider “OpenAI” deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('default-model-select')).toHaveValue(''));
  });
});

describe('Providers: add and edit', () => {
  it('adds a provider from a preset with a key; the key reaches Go once and is kept nowhere in the UI', async () => {
    const SECRET = 'sk-test-DO-NOT-LEAK-7f3a9c';
    const { fake, user, stores } = await openSettings();
    await user.click(await screen.findByTestId('providers-empty-add'));
    expect(form().getByTestId('provider-pick-hint')).toBeInTheDocument();
    expect(form().getByTestId('provider-save')).toBeDisabled();

    await user.click(form().getByTestId('preset-deepseek'));
    expect(form().getByTestId('preset-deepseek')).toHaveAttribute('aria-pressed', 'true');
    expect(form().getByTestId('provider-name')).toHaveValue('DeepSeek');
    expect(form().getByTestId('provider-base-url')).toHaveValue('https://api.deepseek.com/v1');
    await user.click(form().getByTestId('provider-get-key'));
    expect(fake.opened).toEqual(['https://platform.deepseek.com/api_keys']);

    const key = form().getByTestId('provider-api-key');
    expect(key).toHaveAttribute('type', 'password');
    await user.type(key, SECRET);
    await user.click(form().getByTestId('provider-save'));

    await waitFor(() => expect(screen.queryByTestId('provider-form')).not.toBeInTheDocument());
    expect(saves(fake)).toEqual([
      {
        id: '',
        name: 'DeepSeek',
        type: 'openai',
        preset: 'deepseek',
        baseUrl: 'https://api.deepseek.com/v1',
        keyEnv: '',
        azure: false,
        azureApiVersion: '',
        headers: {},
        enabled: true,
        apiKey: SECRET,
      },
    ]);
    expect(await screen.findByText('Provider “DeepSeek” added')).toBeInTheDocument();
    const r = row('deepseek-1');
    expect(r.getByTestId('provider-key')).toHaveTextContent('Key in keychain');
    expect(r.getByTestId('provider-status')).toHaveTextContent('Ready');
    await waitFor(() => expect(r.getByTestId('provider-test-result')).toHaveTextContent('Connected · 2 models · 123 ms'));
    await waitFor(() => expect(stores.providers.pickerModels.map((p) => p.id)).toEqual(['deepseek-1']));

    // Go never answers with the key, and the UI did not keep it.
    expect(JSON.stringify(await fake.providers.List())).not.toContain(SECRET);
    expectNoSecret(SECRET, stores);

    // Editing shows only that a key is stored.
    await user.click(r.getByTestId('provider-edit'));
    expect(form().getByTestId('provider-key-stored')).toHaveTextContent('•••• stored in keychain');
    expect(form().queryByTestId('provider-api-key')).not.toBeInTheDocument();
    expectNoSecret(SECRET, stores);
  });

  it('keeps an untouched key, replaces it, and removes it', async () => {
    const { fake, user } = await openSettings({ providers: { providers: [OPENAI] } });

    await user.click(await row('openai-1').findByTestId('provider-edit'));
    expect(form().getByTestId('provider-name')).toHaveFocus();
    await user.clear(form().getByTestId('provider-name'));
    await user.type(form().getByTestId('provider-name'), 'OpenAI (work)');
    await user.click(form().getByTestId('provider-save'));
    await waitFor(() => expect(saves(fake)).toHaveLength(1));
    expect(saves(fake)[0]).toMatchObject({ id: 'openai-1', name: 'OpenAI (work)', preset: 'openai' });
    expect(saves(fake)[0]).not.toHaveProperty('apiKey');
    expect(await row('openai-1').findByText('OpenAI (work)')).toBeInTheDocument();
    expect(row('openai-1').getByTestId('provider-key')).toHaveTextContent('Key in keychain');

    // Replace, change your mind, replace again.
    await user.click(row('openai-1').getByTestId('provider-edit'));
    await user.click(form().getByTestId('provider-key-replace'));
    expect(form().getByTestId('provider-api-key')).toHaveFocus();
    await user.type(form().getByTestId('provider-api-key'), 'sk-abandoned');
    await user.click(form().getByTestId('provider-key-keep'));
    expect(form().getByTestId('provider-key-stored')).toBeInTheDocument();
    await user.click(form().getByTestId('provider-key-replace'));
    expect(form().getByTestId('provider-api-key')).toHaveValue('');
    await user.type(form().getByTestId('provider-api-key'), 'sk-new-key');
    await user.click(form().getByTestId('provider-save'));
    await waitFor(() => expect(saves(fake)).toHaveLength(2));
    expect(saves(fake)[1].apiKey).toBe('sk-new-key');
    await waitFor(() => expect(screen.queryByTestId('provider-form')).not.toBeInTheDocument());
    expect(document.body.innerHTML).not.toContain('sk-new-key');

    // Remove: nothing is removed until Save, and Undo brings it back.
    await user.click(row('openai-1').getByTestId('provider-edit'));
    await user.click(form().getByTestId('provider-key-remove'));
    expect(form().getByTestId('provider-key-removing')).toHaveTextContent('The stored key will be removed when you save');
    await user.click(form().getByTestId('provider-key-keep'));
    expect(form().getByTestId('provider-key-stored')).toBeInTheDocument();
    await user.click(form().getByTestId('provider-key-remove'));
    await user.click(form().getByTestId('provider-save'));
    await waitFor(() => expect(saves(fake)).toHaveLength(3));
    expect(saves(fake)[2].apiKey).toBe('');
    await waitFor(() => expect(row('openai-1').getByTestId('provider-key')).toHaveTextContent('No key'));
    expect(row('openai-1').getByTestId('provider-status')).toHaveTextContent('Needs a key');
  });

  it('takes the key from an environment variable instead', async () => {
    const { fake, user } = await openSettings({ providers: { env: { OPENAI_API_KEY: 'sk-env-value' } } });
    await user.click(await screen.findByTestId('providers-empty-add'));
    await user.click(form().getByTestId('preset-openai'));
    await user.click(form().getByTestId('provider-key-mode-env'));
    const env = form().getByTestId('provider-key-env');
    expect(env).toHaveFocus();
    expect(env).toHaveValue('OPENAI_API_KEY');
    expect(form().queryByTestId('provider-api-key')).not.toBeInTheDocument();
    await user.click(form().getByTestId('provider-save'));
    await waitFor(() => expect(saves(fake)).toHaveLength(1));
    expect(saves(fake)[0]).toMatchObject({ preset: 'openai', keyEnv: 'OPENAI_API_KEY' });
    expect(saves(fake)[0]).not.toHaveProperty('apiKey');
    expect(await row('openai-1').findByTestId('provider-key')).toHaveTextContent('Key from $OPENAI_API_KEY');

    // Switching a keychain-stored provider to a variable drops the stored key so the variable is used.
    await user.click(row('openai-1').getByTestId('provider-edit'));
    expect(form().getByTestId('provider-key-env')).toHaveValue('OPENAI_API_KEY');
    await user.click(form().getByTestId('provider-key-mode-keychain'));
    await user.type(form().getByTestId('provider-api-key'), 'sk-kc');
    await user.click(form().getByTestId('provider-save'));
    await waitFor(() => expect(row('openai-1').getByTestId('provider-key')).toHaveTextContent('Key in keychain'));
    expect(saves(fake)[1]).toMatchObject({ keyEnv: '', apiKey: 'sk-kc' });

    await user.click(row('openai-1').getByTestId('provider-edit'));
    await user.click(form().getByTestId('provider-key-mode-env'));
    expect(form().getByTestId('provider-key-env-note')).toHaveTextContent('will be removed when you save');
    await user.type(form().getByTestId('provider-key-env'), 'OPENAI_API_KEY');
    await user.click(form().getByTestId('provider-save'));
    await waitFor(() => expect(saves(fake)).toHaveLength(3));
    expect(saves(fake)[2]).toMatchObject({ keyEnv: 'OPENAI_API_KEY', apiKey: '' });
    await waitFor(() => expect(row('openai-1').getByTestId('provider-key')).toHaveTextContent('Key from $OPENAI_API_KEY'));
  });

  it('says when the OS keychain is unavailable and why, and steers to an environment variable', async () => {
    const { fake, user } = await openSettings({ keychain: { available: false, reason: 'no Secret Service on D-Bus' } });
    expect(await screen.findByTestId('providers-keychain-banner')).toHaveTextContent(
      'The OS keychain is unavailable: no Secret Service on D-Bus',
    );
    await user.click(screen.getByTestId('providers-empty-add'));
    await user.click(form().getByTestId('preset-anthropic'));
    const down = form().getByTestId('provider-keychain-unavailable');
    expect(down).toHaveTextContent('The OS keychain is unavailable: no Secret Service on D-Bus');
    expect(form().queryByTestId('provider-api-key')).not.toBeInTheDocument();
    await user.click(within(down).getByTestId('provider-use-env'));
    expect(form().getByTestId('provider-key-env')).toHaveFocus();
    expect(form().getByTestId('provider-key-env')).toHaveValue('ANTHROPIC_API_KEY');
    await user.click(form().getByTestId('provider-save'));
    await waitFor(() => expect(saves(fake)).toHaveLength(1));
    expect(saves(fake)[0]).toMatchObject({ preset: 'anthropic', keyEnv: 'ANTHROPIC_API_KEY' });
    expect(saves(fake)[0]).not.toHaveProperty('apiKey');
  });

  it('shows a keychain failure on save at the key field, with the way out', async () => {
    const { fake, user } = await openSettings();
    await user.click(await screen.findByTestId('providers-empty-add'));
    await user.click(form().getByTestId('preset-openai'));
    await waitFor(() => expect(fake.callsOf('KeychainStatus').length).toBeGreaterThan(0));
    // The keychain locks between opening the form and saving.
    fake.keychain = { ...fake.keychain, state: 'unavailable', available: false, reason: 'the keychain is locked' };
    await user.type(form().getByTestId('provider-api-key'), 'sk-x');
    await user.click(form().getByTestId('provider-save'));
    const err = await form().findByTestId('provider-key-error');
    expect(err).toHaveTextContent('The OS keychain is unavailable (the keychain is locked).');
    expect(form().getByTestId('provider-api-key')).toHaveAttribute('aria-invalid', 'true');
    expect(form().queryByTestId('provider-form-error')).not.toBeInTheDocument();
    await user.click(within(err).getByTestId('provider-use-env'));
    expect(form().getByTestId('provider-key-env')).toHaveFocus();
  });

  it('shows Go’s validation message at the field it names', async () => {
    const { fake, user } = await openSettings({ providers: { providers: [OPENAI] } });
    await user.click(await screen.findByTestId('provider-add'));
    await user.click(form().getByTestId('preset-custom'));
    expect(form().getByTestId('provider-name')).toHaveFocus();
    expect(form().getByTestId('provider-name')).toHaveValue('');
    expect(form().queryByTestId('provider-get-key')).not.toBeInTheDocument();

    await user.click(form().getByTestId('provider-save'));
    expect(await screen.findByText('Name is required')).toHaveAttribute('id', 'provider-name-error');
    expect(form().getByTestId('provider-name')).toHaveAttribute('aria-invalid', 'true');
    expect(form().getByTestId('provider-name')).toHaveFocus();

    await user.type(form().getByTestId('provider-name'), 'openai');
    expect(form().getByTestId('provider-name')).toHaveAttribute('aria-invalid', 'false');
    await user.type(form().getByTestId('provider-base-url'), 'ftp://gateway.local');
    await user.click(form().getByTestId('provider-save'));
    await waitFor(() =>
      expect(document.getElementById('provider-base-url-error')).toHaveTextContent('Base URL "ftp://gateway.local" must start with http:// or https://'),
    );
    expect(form().getByTestId('provider-base-url')).toHaveAttribute('aria-invalid', 'true');
    expect(form().getByTestId('provider-base-url')).toHaveFocus();

    await user.clear(form().getByTestId('provider-base-url'));
    await user.type(form().getByTestId('provider-base-url'), 'https://gateway.local/v1');
    await user.click(form().getByTestId('provider-save'));
    await waitFor(() => expect(document.getElementById('provider-name-error')).toHaveTextContent('Name: another provider is already called "openai"'));
    expect(document.getElementById('provider-base-url-error')).toBeNull();

    await user.clear(form().getByTestId('provider-name'));
    await user.type(form().getByTestId('provider-name'), 'Gateway');
    await user.click(form().getByTestId('provider-advanced'));
    await user.click(form().getByTestId('provider-header-add'));
    await user.type(form().getByTestId('provider-header-key'), 'X-Api-Key');
    await user.type(form().getByTestId('provider-header-value'), 'v');
    await user.click(form().getByTestId('provider-save'));
    expect(await form().findByTestId('provider-headers-error')).toHaveTextContent('"X-Api-Key" looks like it carries a secret');

    await user.click(form().getByTestId('provider-header-remove'));
    await user.click(form().getByTestId('provider-save'));
    await waitFor(() => expect(screen.queryByTestId('provider-form')).not.toBeInTheDocument());
    expect(saves(fake).at(-1)).toMatchObject({ name: 'Gateway', preset: 'custom', baseUrl: 'https://gateway.local/v1', headers: {} });
  });

  it('fills an OpenRouter provider with its suggested header, and Azure with its API version field', async () => {
    const { fake, user } = await openSettings({ providers: { providers: [OPENAI] } });
    await user.click(await screen.findByTestId('provider-add'));
    await user.click(form().getByTestId('preset-openrouter'));
    expect(form().getByTestId('provider-advanced')).toHaveAttribute('aria-expanded', 'false');
    await user.click(form().getByTestId('provider-advanced'));
    expect(form().getByTestId('provider-header-key')).toHaveValue('X-Title');
    expect(form().getByTestId('provider-header-value')).toHaveValue('MCP Desk');
    expect(form().queryByTestId('provider-azure-version')).not.toBeInTheDocument();

    await user.click(form().getByTestId('preset-azure'));
    expect(form().getByTestId('provider-name')).toHaveValue('Azure OpenAI');
    expect(form().getByTestId('provider-base-url')).toHaveValue('');
    expect(form().getByTestId('provider-base-url')).toHaveFocus();
    await user.type(form().getByTestId('provider-base-url'), 'https://my-res.openai.azure.com');
    await user.type(form().getByTestId('provider-azure-version'), '2025-01-01-preview');
    await user.type(form().getByTestId('provider-api-key'), 'az-key');
    await user.click(form().getByTestId('provider-save'));
    await waitFor(() => expect(saves(fake)).toHaveLength(1));
    expect(saves(fake)[0]).toMatchObject({
      preset: 'azure',
      azure: true,
      azureApiVersion: '2025-01-01-preview',
      baseUrl: 'https://my-res.openai.azure.com',
      headers: {},
      apiKey: 'az-key',
    });
  });
});

describe('Providers: connection and models', () => {
  it('tests the connection with progress, then shows models and latency, or the error', async () => {
    const { fake, user } = await openSettings({
      providers: { providers: [OPENAI, DEEPSEEK], latencyMs: 87, modelErrors: { 'deepseek-1': 'DeepSeek rejected the API key (401). Check the key.' } },
    });
    const release = fake.providers.hold('TestConnection');
    await user.click(await row('openai-1').findByTestId('provider-test'));
    const result = row('openai-1').getByTestId('provider-test-result');
    expect(result).toHaveAttribute('data-state', 'running');
    expect(result).toHaveTextContent('Testing connection…');
    // Busy but still focusable: the keyboard keeps its place (issue 12, point 15).
    const testButton = row('openai-1').getByTestId('provider-test');
    expect(testButton).toHaveAttribute('aria-disabled', 'true');
    expect(testButton).not.toBeDisabled();
    expect(testButton).toHaveFocus();
    await user.click(testButton);
    expect(fake.callsOf('providers.TestConnection')).toHaveLength(1);
    // The row's status follows the verdict in the same instant, not when
    // the list is read again (the E2E run once saw "OK" beside "Not tested yet").
    const releaseList = fake.providers.hold('List');
    release();
    await waitFor(() => expect(row('openai-1').getByTestId('provider-test-result')).toHaveAttribute('data-state', 'ok'));
    expect(row('openai-1').getByTestId('provider-test-result')).toHaveTextContent('Connected · 4 models · 87 ms');
    expect(row('openai-1').getByTestId('provider-status')).toHaveTextContent('Ready');
    releaseList();

    await user.click(row('deepseek-1').getByTestId('provider-test'));
    await waitFor(() => expect(row('deepseek-1').getByTestId('provider-test-result')).toHaveAttribute('data-state', 'error'));
    expect(row('deepseek-1').getByTestId('provider-test-result')).toHaveTextContent('DeepSeek rejected the API key (401). Check the key.');
    await user.click(row('deepseek-1').getByTestId('provider-test-dismiss'));
    expect(row('deepseek-1').queryByTestId('provider-test-result')).not.toBeInTheDocument();
  });

  it('lists, searches and refreshes models, and adds and removes manual ones', async () => {
    const { fake, user } = await openSettings({ providers: { providers: [OPENAI] } });
    await user.click(await row('openai-1').findByTestId('provider-models-toggle'));
    const panel = within(row('openai-1').getByTestId('provider-models'));
    expect(await panel.findByTestId('provider-model-gpt-4o')).toBeInTheDocument();
    expect(panel.getByTestId('provider-models-count')).toHaveTextContent('4 models');
    expect(fake.callsOf('providers.Models')).toEqual([['openai-1', false]]);

    await user.type(panel.getByTestId('provider-models-search'), 'mini');
    expect(panel.getAllByRole('listitem').map((li) => li.getAttribute('data-testid'))).toEqual([
      'provider-model-gpt-4o-mini',
      'provider-model-o3-mini',
    ]);
    expect(panel.getByTestId('provider-models-count')).toHaveTextContent('2 of 4');
    await user.type(panel.getByTestId('provider-models-search'), 'zzz');
    expect(panel.getByTestId('provider-models-no-match')).toHaveTextContent('No model matches “minizzz”.');
    await user.keyboard('{Escape}');
    expect(panel.getByTestId('provider-models-search')).toHaveValue('');

    // Refresh bypasses Go's cache and shows progress.
    fake.providers.models['openai-1'] = ['gpt-4o', 'gpt-5'];
    const release = fake.providers.hold('Models');
    await user.click(panel.getByTestId('provider-models-refresh'));
    expect(panel.getByTestId('provider-models-refresh')).toBeDisabled();
    expect(panel.getByTestId('provider-models-refresh')).toHaveTextContent('Refreshing…');
    release();
    expect(await panel.findByTestId('provider-model-gpt-5')).toBeInTheDocument();
    expect(panel.queryByTestId('provider-model-o3-mini')).not.toBeInTheDocument();
    expect(fake.callsOf('providers.Models').at(-1)).toEqual(['openai-1', true]);

    // Manual entries.
    await user.click(panel.getByTestId('provider-manual-add'));
    expect(await panel.findByTestId('provider-manual-error')).toHaveTextContent('Model name is required');
    await user.type(panel.getByTestId('provider-manual-input'), 'ft:gpt-4o:acme{Enter}');
    const manual = await panel.findByTestId('provider-model-ft:gpt-4o:acme');
    expect(manual).toHaveTextContent('Manual');
    expect(panel.getByTestId('provider-manual-input')).toHaveValue('');
    expect(panel.queryByTestId('provider-manual-error')).not.toBeInTheDocument();
    expect(fake.callsOf('providers.AddManualModel')).toEqual([
      ['openai-1', ''],
      ['openai-1', 'ft:gpt-4o:acme'],
    ]);
    expect(fake.providers.view('openai-1').manualModels).toEqual(['ft:gpt-4o:acme']);
    // The model picker offers it too.
    await waitFor(() =>
      expect(within(screen.getByTestId('default-model-select')).getByRole('option', { name: 'ft:gpt-4o:acme' })).toBeInTheDocument(),
    );

    await user.click(within(manual).getByTestId('provider-model-remove'));
    await waitFor(() => expect(panel.queryByTestId('provider-model-ft:gpt-4o:acme')).not.toBeInTheDocument());
    expect(fake.callsOf('providers.RemoveManualModel')).toEqual([['openai-1', 'ft:gpt-4o:acme']]);
  });

  it('shows why a model list could not be fetched, keeping the manual entries', async () => {
    const { user } = await openSettings({
      providers: {
        providers: [{ ...OPENAI, manualModels: ['my-model'] }],
        modelErrors: { 'openai-1': 'OpenAI could not be reached: connection refused.' },
      },
    });
    await user.click(await row('openai-1').findByTestId('provider-models-toggle'));
    const panel = within(row('openai-1').getByTestId('provider-models'));
    expect(await panel.findByTestId('provider-models-error')).toHaveTextContent('OpenAI could not be reached: connection refused.');
    expect(panel.getByTestId('provider-model-my-model')).toBeInTheDocument();
  });

  it('sets the default model in one place only: the model list shows it but offers no second way (issue 12, 12d)', async () => {
    const { fake, user } = await openSettings({ providers: { providers: [OPENAI] } });
    await user.click(await row('openai-1').findByTestId('provider-models-toggle'));
    const model = await row('openai-1').findByTestId('provider-model-gpt-4.1');
    expect(within(model).queryByTestId('provider-model-make-default')).toBeNull();
    expect(within(model).queryByRole('button', { name: /default/i })).toBeNull();
    // The one place: the Default models card's select, always shown, a native control.
    const select = screen.getByTestId('default-model-select');
    expect(select.tagName).toBe('SELECT');
    select.focus();
    expect(document.activeElement).toBe(select);
    await user.selectOptions(select, within(select).getByRole('option', { name: 'gpt-4.1' }));
    await waitFor(() => expect(fake.providers.default).toEqual({ provider: 'openai-1', model: 'gpt-4.1' }));
    expect(within(model).getByTestId('provider-model-is-default')).toHaveTextContent('Default');
    expect(screen.queryByTestId('settings-default-model-change')).toBeNull();
  });
});

describe('Providers: default model and fallbacks', () => {
  it('picks the default from usable providers and orders the fallbacks, persisted in Go', async () => {
    const { fake, user } = await openSettings({
      providers: {
        providers: [OPENAI, DEEPSEEK, { id: 'groq-1', name: 'Groq', preset: 'groq' }],
        defaultModel: { provider: 'openai-1', model: 'gpt-4o' },
      },
    });
    const select = await screen.findByTestId('default-model-select');
    await waitFor(() => expect(select).toHaveDisplayValue('gpt-4o'));
    // Groq has no key: it is not offered.
    const groups = within(select).getAllByRole('group').map((g) => g.getAttribute('label'));
    expect(groups).toEqual(['OpenAI', 'DeepSeek']);

    await user.selectOptions(select, 'deepseek-chat');
    await waitFor(() => expect(fake.providers.default).toEqual({ provider: 'deepseek-1', model: 'deepseek-chat' }));

    expect(screen.getByTestId('fallbacks-empty')).toBeInTheDocument();
    const add = screen.getByTestId('fallback-add-select');
    // The default is not offered as a fallback.
    expect(within(add).queryByRole('option', { name: 'deepseek-chat' })).not.toBeInTheDocument();
    for (const m of ['gpt-4o', 'deepseek-reasoner', 'gpt-4o-mini']) {
      await user.selectOptions(add, m);
      await user.click(screen.getByTestId('fallback-add'));
    }
    await waitFor(() => expect(fake.providers.fallbacks.map((r) => r.model)).toEqual(['gpt-4o', 'deepseek-reasoner', 'gpt-4o-mini']));
    const items = () => screen.getAllByTestId('fallback-item').map((li) => li.getAttribute('data-model'));
    expect(items()).toEqual(['gpt-4o', 'deepseek-reasoner', 'gpt-4o-mini']);
    expect(screen.getAllByTestId('fallback-item')[1]).toHaveTextContent('DeepSeek');

    // Move the last one up: the keyboard stays on it.
    const last = screen.getAllByTestId('fallback-item')[2];
    expect(within(last).getByTestId('fallback-down')).toBeDisabled();
    await user.click(within(last).getByTestId('fallback-up'));
    await waitFor(() => expect(items()).toEqual(['gpt-4o', 'gpt-4o-mini', 'deepseek-reasoner']));
    expect(fake.providers.fallbacks).toEqual([
      { provider: 'openai-1', model: 'gpt-4o' },
      { provider: 'openai-1', model: 'gpt-4o-mini' },
      { provider: 'deepseek-1', model: 'deepseek-reasoner' },
    ]);
    const moved = screen.getAllByTestId('fallback-item')[1];
    expect(within(moved).getByTestId('fallback-up')).toHaveFocus();
    expect(screen.getByTestId('fallback-live')).toHaveTextContent('gpt-4o-mini moved to position 2');

    // Again with the keyboard alone: Enter on the focused button moves it to the top.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(items()).toEqual(['gpt-4o-mini', 'gpt-4o', 'deepseek-reasoner']));
    // At the top Up is disabled, so focus goes to Down.
    expect(within(screen.getAllByTestId('fallback-item')[0]).getByTestId('fallback-down')).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(items()).toEqual(['gpt-4o', 'gpt-4o-mini', 'deepseek-reasoner']));
    expect(within(screen.getAllByTestId('fallback-item')[1]).getByTestId('fallback-down')).toHaveFocus();

    await user.click(within(screen.getAllByTestId('fallback-item')[0]).getByTestId('fallback-remove'));
    await waitFor(() => expect(items()).toEqual(['gpt-4o-mini', 'deepseek-reasoner']));
    expect(fake.providers.fallbacks.map((r) => r.model)).toEqual(['gpt-4o-mini', 'deepseek-reasoner']);

    // Clearing the default.
    await user.selectOptions(select, '');
    await waitFor(() => expect(fake.providers.default).toEqual({ provider: '', model: '' }));
  });

  it('rolls back and explains when Go refuses the fallbacks', async () => {
    const { fake, user } = await openSettings({
      providers: {
        providers: [OPENAI],
        fallbacks: [
          { provider: 'openai-1', model: 'gpt-4o' },
          { provider: 'openai-1', model: 'o3-mini' },
        ],
      },
    });
    const first = await screen.findAllByTestId('fallback-item');
    fake.failNext('providers.SetFallbacks', 'Fallback 2: there is no provider "x"');
    await user.click(within(first[1]).getByTestId('fallback-up'));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Fallback 2: there is no provider "x"');
    expect(screen.getAllByTestId('fallback-item').map((li) => li.getAttribute('data-model'))).toEqual(['gpt-4o', 'o3-mini']);
  });

  it('marks a default or fallback whose provider is no longer usable', async () => {
    await openSettings({
      providers: {
        providers: [OPENAI, { ...DEEPSEEK, enabled: false }],
        defaultModel: { provider: 'deepseek-1', model: 'deepseek-chat' },
        fallbacks: [{ provider: 'deepseek-1', model: 'deepseek-reasoner' }],
      },
    });
    expect(await screen.findByTestId('default-model-unavailable')).toHaveTextContent(
      'deepseek-chat (DeepSeek) is unavailable: its provider is disabled or has no key.',
    );
    expect(screen.getByTestId('default-model-select')).toHaveDisplayValue('deepseek-chat — unavailable');
    expect(screen.getByTestId('fallback-item')).toHaveTextContent('unavailable');
  });

  it('says what to do when no provider can serve models yet', async () => {
    await openSettings({ providers: { providers: [{ id: 'xai-1', name: 'xAI', preset: 'xai' }] } });
    expect(await screen.findByTestId('defaults-empty')).toHaveTextContent('Add a provider that has a key');
  });
});

describe('Providers: language', () => {
  it('shows the providers section in Chinese', async () => {
    const { user } = await openSettings({ providers: { providers: [OPENAI] } });
    await user.click(screen.getByTestId('settings-language-zh-CN'));
    expect(screen.getByTestId('settings-providers')).toHaveTextContent('模型服务商');
    expect(row('openai-1').getByTestId('provider-key')).toHaveTextContent('密钥在钥匙串中');
    expect(row('openai-1').getByTestId('provider-test')).toHaveTextContent('测试');
    await waitFor(() => expect(row('openai-1').getByTestId('provider-status')).toHaveTextContent('尚未测试'));
    expect(screen.getByTestId('default-models')).toHaveTextContent('默认模型与备用模型');

    await user.click(row('openai-1').getByTestId('provider-edit'));
    expect(form().getByTestId('provider-key-stored')).toHaveTextContent('已保存在钥匙串中');
    expect(form().getByTestId('provider-key-mode-env')).toHaveTextContent('从环境变量读取密钥');
  });

  it('starts in Chinese with the empty state', async () => {
    const { user } = renderApp({ prefs: { theme: 'system', language: 'zh-CN' } });
    await waitFor(() => expect(screen.getByTestId('nav-settings')).toHaveTextContent('设置'));
    await go(user, 'settings');
    expect(await screen.findByTestId('providers-empty')).toHaveTextContent('还没有模型服务商');
    expect(screen.getByTestId('providers-empty-add')).toHaveTextContent('添加服务商');
  });
});

describe('Providers: model names', () => {
  it('names a model by its provider once the list is read, and never by the internal id before', async () => {
    const r = renderApp({ providers: { providers: [OPENAI] } });
    const p = r.stores.providers;
    // Before the list is read, the provider's internal id is not shown.
    expect(p.loaded).toBe(false);
    expect(p.modelLabel('openai-1/gpt-4o')).toBe('gpt-4o');
    await p.load();
    expect(p.modelLabel('openai-1/gpt-4o')).toBe('OpenAI · gpt-4o');
    // A provider that is gone is named by its id (it is all there is).
    expect(p.modelLabel({ provider: 'gone-1', model: 'm' })).toBe('gone-1 · m');
  });
});
