// Typed wrappers over the ProviderManager service (SPEC C2), as the
// generated contract types them (lists and maps never null: backend/core's
// TestBoundResultsAreNotNull).

import { backend } from './backend';
import { call } from './call';
import type {
  ConnectionResult,
  EnvReload,
  ModelList,
  ModelRef,
  OllamaStatus,
  PickerProvider,
  Preset,
  Provider,
  ProviderInput,
} from './providerTypes';

/** isModelRef reports whether r names a model (Go sends empty fields for "none"). */
export const isModelRef = (r: ModelRef | null | undefined): r is ModelRef => !!r && !!r.provider && !!r.model;

/** listProviders returns every provider in display order. */
export const listProviders = (): Promise<Provider[]> => call(() => backend().providers.List());

/** providerPresets returns the ready-made configurations, in display order. */
export const providerPresets = (): Promise<Preset[]> => call(() => backend().providers.Presets());

/**
 * saveProvider adds (input.id "") or edits a provider and returns it as
 * stored. It rejects with Go's sentence; a field error's names the field.
 */
export const saveProvider = (input: ProviderInput): Promise<Provider> =>
  call(() => backend().providers.Save(input));

/** deleteProvider removes a provider, its key and the model preferences naming it. */
export const deleteProvider = (id: string): Promise<void> => call(() => backend().providers.Delete(id));

export const setProviderEnabled = (id: string, enabled: boolean): Promise<Provider> =>
  call(() => backend().providers.SetEnabled(id, enabled));

/** testConnection proves the provider's key with the cheapest request; the verdict is result.health, not a rejection. */
export const testConnection = (id: string): Promise<ConnectionResult> =>
  call(() => backend().providers.TestConnection(id));

/** reloadEnvironment reads the login shell's environment again and says which key variables are set. */
export const reloadEnvironment = (): Promise<EnvReload> => call(() => backend().providers.ReloadEnvironment());

/** providerModels returns fetched (cached unless refresh) and manual models; a failed fetch is list.error. */
export const providerModels = (id: string, refresh: boolean): Promise<ModelList> => call(() => backend().providers.Models(id, refresh));

export const addManualModel = (id: string, model: string): Promise<Provider> =>
  call(() => backend().providers.AddManualModel(id, model));

export const removeManualModel = (id: string, model: string): Promise<Provider> =>
  call(() => backend().providers.RemoveManualModel(id, model));

/** defaultModel returns the default model, or null when none is set. */
export async function defaultModel(): Promise<ModelRef | null> {
  const r = await call(() => backend().providers.DefaultModel());
  return isModelRef(r) ? { provider: r.provider, model: r.model } : null;
}

/** setDefaultModel sets the default model; null clears it. */
export const setDefaultModel = (ref: ModelRef | null): Promise<void> =>
  call(() => backend().providers.SetDefaultModel(ref ?? { provider: '', model: '' }));

/** fallbackModels returns the fallbacks in the order they are tried. */
export async function fallbackModels(): Promise<ModelRef[]> {
  return (await call(() => backend().providers.Fallbacks())).map((r) => ({ provider: r.provider, model: r.model }));
}

export const setFallbackModels = (refs: ModelRef[]): Promise<void> =>
  call(() => backend().providers.SetFallbacks(refs.map((r) => ({ provider: r.provider, model: r.model }))));

/** pickerModels returns the usable providers with their models, for model pickers. */
export const pickerModels = (): Promise<PickerProvider[]> => call(() => backend().providers.PickerModels());

/** detectOllama reports whether Ollama runs on this machine (it answers within 1.5 s). */
export const detectOllama = (): Promise<OllamaStatus> => call(() => backend().providers.DetectOllama());
