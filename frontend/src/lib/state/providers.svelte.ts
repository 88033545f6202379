import {
  addManualModel,
  defaultModel,
  deleteProvider,
  detectOllama,
  fallbackModels,
  keychainStatus,
  listProviders,
  pickerModels,
  providerModels,
  providerPresets,
  recheckKeychain,
  reloadEnvironment,
  removeManualModel,
  saveProvider,
  setDefaultModel,
  setFallbackModels,
  setProviderEnabled,
  testConnection,
  type ConnectionResult,
  type EnvReload,
  type KeychainStatus,
  type Model,
  type ModelRef,
  type OllamaStatus,
  type PickerProvider,
  type Preset,
  type Provider,
  type ProviderInput,
} from '../api';

/** TestState is the last "Test connection" of one provider. */
export interface TestState {
  running: boolean;
  /** The outcome; a failed call is { ok: false, error }. */
  result: ConnectionResult | null;
}

/** ModelsState is one provider's model list as its Models panel shows it. */
export interface ModelsState {
  /** A fetch is running (the first one, or a refresh). */
  loading: boolean;
  /** The running fetch bypasses Go's cache. */
  refreshing: boolean;
  /** At least one fetch has finished. */
  loaded: boolean;
  models: Model[];
  /** Why the last fetch failed ("" when it did not); models still holds the manual entries. */
  error: string;
}

/** sameRef reports whether two refs name the same model of the same provider. */
export const sameRef = (a: ModelRef | null | undefined, b: ModelRef | null | undefined): boolean =>
  !!a && !!b && a.provider === b.provider && a.model === b.model;

/**
 * parseModelRef reads the "provider/model" a message or a sampling request
 * names its model by. Provider ids never hold "/", models may; a string
 * without "/" is a model alone.
 */
export function parseModelRef(s: string): ModelRef {
  const i = s.indexOf('/');
  return i > 0 ? { provider: s.slice(0, i), model: s.slice(i + 1) } : { provider: '', model: s };
}

/** refKey turns a ref into one string, for keyed lists and select values. */
export const refKey = (r: ModelRef): string => `${r.provider}\n${r.model}`;

function sortModels(models: Model[]): Model[] {
  return models.sort((a, b) => a.id.toLowerCase().localeCompare(b.id.toLowerCase()));
}

/**
 * ProvidersStore is the LLM providers (SPEC C2) as the UI sees them: the
 * list, presets, each provider's connection test and model list, the
 * default and fallback models, and the model picker's groups.
 *
 * Model pickers (the chat's, the Settings defaults) read pickerModels and
 * defaultModel after load(); refreshPicker() reloads the groups after
 * anything that can change them. The store never holds an API key: a key
 * passes through save() to Go and is not kept.
 */
export class ProvidersStore {
  #list = $state<Provider[]>([]);
  #presets = $state<Preset[]>([]);
  #loaded = $state(false);
  #loadError = $state('');
  #default = $state<ModelRef | null>(null);
  #fallbacks = $state<ModelRef[]>([]);
  #picker = $state<PickerProvider[]>([]);
  #pickerLoading = $state(false);
  #pickerLoaded = $state(false);
  #pickerError = $state('');
  #ollama = $state<OllamaStatus | null>(null);
  #detecting = $state(false);
  #keychain = $state<KeychainStatus | null>(null);
  #keychainError = $state('');
  #keychainChecking = $state(false);
  #envReload = $state<EnvReload | null>(null);
  #envReloading = $state(false);
  #envError = $state('');
  #focus = $state<string | null>(null);
  #tests = $state<Record<string, TestState>>({});
  #models = $state<Record<string, ModelsState>>({});
  #loading: Promise<void> | null = null;
  #pickerInflight: Promise<void> | null = null;
  #pickerAgain = false;

  /** list is every provider in display order. */
  get list(): Provider[] {
    return this.#list;
  }

  /** presets are the ready-made configurations, in display order. */
  get presets(): Preset[] {
    return this.#presets;
  }

  /** loaded is true once the list has been read (even if that failed: see loadError). */
  get loaded(): boolean {
    return this.#loaded;
  }

  get loadError(): string {
    return this.#loadError;
  }

  /** defaultModel is the default model, or null when none is set. */
  get defaultModel(): ModelRef | null {
    return this.#default;
  }

  /** fallbacks are the models tried, in order, when a call fails with a retryable error. */
  get fallbacks(): ModelRef[] {
    return this.#fallbacks;
  }

  /** pickerModels are the usable providers (enabled, with a key or needing none) with their models. */
  get pickerModels(): PickerProvider[] {
    return this.#picker;
  }

  /** pickerLoading is true while the picker groups are being fetched. */
  get pickerLoading(): boolean {
    return this.#pickerLoading;
  }

  /** pickerLoaded is true once the picker groups have been fetched at least once. */
  get pickerLoaded(): boolean {
    return this.#pickerLoaded;
  }

  get pickerError(): string {
    return this.#pickerError;
  }

  /** ollama is what DetectOllama last said, null before it answered. */
  get ollama(): OllamaStatus | null {
    return this.#ollama;
  }

  get detecting(): boolean {
    return this.#detecting;
  }

  /** ollamaOffer is the Ollama found running when no Ollama provider is configured yet. */
  get ollamaOffer(): OllamaStatus | null {
    const o = this.#ollama;
    return o?.running && !this.#list.some((p) => p.type === 'ollama') ? o : null;
  }

  /** keychain says whether API keys can be stored in the OS keychain; null before checkKeychain answered. */
  get keychain(): KeychainStatus | null {
    return this.#keychain;
  }

  /** keychainError is why asking Go for the keychain status failed ("" when it did not). */
  get keychainError(): string {
    return this.#keychainError;
  }

  /** keychainChecking is true while "Check again" runs the self-test. */
  get keychainChecking(): boolean {
    return this.#keychainChecking;
  }

  /** envReload is what the last "Reload environment" found; null before one ran. */
  get envReload(): EnvReload | null {
    return this.#envReload;
  }

  get envReloading(): boolean {
    return this.#envReloading;
  }

  get envError(): string {
    return this.#envError;
  }

  /** focus is the provider Settings should open (a chat error's "Fix"); null when none. */
  get focus(): string | null {
    return this.#focus;
  }

  /** openInSettings asks Settings → Providers to open provider id; the section clears it with takeFocus. */
  openInSettings(id: string): void {
    this.#focus = id;
  }

  /** takeFocus returns the provider to open and forgets it. */
  takeFocus(): string | null {
    const id = this.#focus;
    this.#focus = null;
    return id;
  }

  /** rejected is the provider a chat call most recently found with a rejected key, if any. */
  rejected(): Provider | undefined {
    let best: Provider | undefined;
    for (const p of this.#list) {
      const h = p.health;
      if (h?.code !== 'key_rejected' || h.source !== 'chat') continue;
      if (!best || (h.at ?? '') > (best.health.at ?? '')) best = p;
    }
    return best;
  }

  get(id: string): Provider | undefined {
    return this.#list.find((p) => p.id === id);
  }

  preset(id: string): Preset | undefined {
    return this.#presets.find((p) => p.id === id);
  }

  /** providerName is a provider's name, or its id when it is gone. */
  providerName(id: string): string {
    return this.get(id)?.name ?? this.#picker.find((p) => p.id === id)?.name ?? id;
  }

  /**
   * modelLabel names a model for people as the composer does: "Fake LLM ·
   * fake-1", from a ref or a stored "provider/model". A provider that is
   * gone is named by its id (see removed); until the list is read, an
   * unknown provider is left out rather than shown by its internal id.
   */
  modelLabel(ref: ModelRef | string): string {
    const r = typeof ref === 'string' ? parseModelRef(ref) : ref;
    if (!r.provider || (!this.#loaded && !this.get(r.provider) && !this.#picker.some((p) => p.id === r.provider))) return r.model;
    return `${this.providerName(r.provider)} · ${r.model}`;
  }

  /** removed reports whether id names no saved provider, once the list was read. */
  removed(id: string): boolean {
    return this.#loaded && !this.#loadError && !!id && !this.get(id);
  }

  /** available reports whether ref's provider is in the picker (usable). */
  available(ref: ModelRef): boolean {
    return this.#picker.some((p) => p.id === ref.provider);
  }

  testOf(id: string): TestState | undefined {
    return this.#tests[id];
  }

  modelsOf(id: string): ModelsState | undefined {
    return this.#models[id];
  }

  /**
   * load reads the providers, presets, default and fallback models and the
   * picker groups; each appears as soon as it arrives. Calls made while one
   * runs share it.
   */
  load(): Promise<void> {
    this.#loading ??= Promise.all([this.#loadCore(), this.refreshPicker()])
      .then(() => {})
      .finally(() => (this.#loading = null));
    return this.#loading;
  }

  async #loadCore(): Promise<void> {
    const presets = this.#presets.length ? Promise.resolve(this.#presets) : providerPresets().catch(() => this.#presets);
    const prefs = Promise.all([defaultModel(), fallbackModels()]).catch(() => null);
    try {
      this.#list = await listProviders();
      this.#loadError = '';
    } catch (e) {
      this.#loadError = (e as Error).message;
    }
    this.#presets = await presets;
    const p = await prefs;
    if (p) [this.#default, this.#fallbacks] = p;
    this.#loaded = true;
  }

  /** pickerReady settles once the picker groups are read: the fetch under way, or one started now. */
  pickerReady(): Promise<void> {
    if (this.#pickerInflight) return this.#pickerInflight;
    return this.#pickerLoaded ? Promise.resolve() : this.refreshPicker();
  }

  /** refreshPicker reloads the picker groups; calls during a fetch coalesce into one more. */
  refreshPicker(): Promise<void> {
    if (this.#pickerInflight) {
      this.#pickerAgain = true;
      return this.#pickerInflight;
    }
    this.#pickerLoading = true;
    this.#pickerInflight = (async () => {
      do {
        this.#pickerAgain = false;
        try {
          this.#picker = await pickerModels();
          this.#pickerError = '';
        } catch (e) {
          this.#pickerError = (e as Error).message;
        }
      } while (this.#pickerAgain);
      this.#pickerLoaded = true;
      this.#pickerLoading = false;
      this.#pickerInflight = null;
    })();
    return this.#pickerInflight;
  }

  /**
   * save adds (input.id "") or edits a provider and returns it as stored; it
   * rejects with Go's sentence. The input, key included, is not kept.
   */
  async save(input: ProviderInput): Promise<Provider> {
    const p = await saveProvider(input);
    const i = this.#list.findIndex((x) => x.id === p.id);
    if (i >= 0) this.#list[i] = p;
    else this.#list.push(p);
    // Its endpoint or key may have changed: earlier results no longer hold.
    delete this.#tests[p.id];
    delete this.#models[p.id];
    void this.refreshPicker();
    return p;
  }

  /** remove deletes a provider, its key and the default or fallbacks that named it. */
  async remove(id: string): Promise<void> {
    await deleteProvider(id);
    this.#list = this.#list.filter((p) => p.id !== id);
    delete this.#tests[id];
    delete this.#models[id];
    if (this.#default?.provider === id) this.#default = null;
    this.#fallbacks = this.#fallbacks.filter((r) => r.provider !== id);
    void this.refreshPicker();
  }

  /** setEnabled flips the switch at once and rolls it back if Go refuses. */
  async setEnabled(id: string, enabled: boolean): Promise<void> {
    const i = this.#list.findIndex((p) => p.id === id);
    const prev = i >= 0 ? this.#list[i] : undefined;
    if (prev) this.#list[i] = { ...prev, enabled, usable: enabled && (prev.hasKey || !prev.needsKey) };
    try {
      this.#replace(await setProviderEnabled(id, enabled));
    } catch (e) {
      const j = this.#list.findIndex((p) => p.id === id);
      if (prev && j >= 0) this.#list[j] = prev;
      throw e;
    }
    void this.refreshPicker();
  }

  /** test runs "Test connection"; the outcome stays in testOf(id) until the provider changes. */
  async test(id: string): Promise<ConnectionResult> {
    this.#tests[id] = { running: true, result: this.#tests[id]?.result ?? null };
    let result: ConnectionResult;
    try {
      result = await testConnection(id);
    } catch (e) {
      const message = (e as Error).message;
      result = { ok: false, models: 0, latencyMs: 0, error: message, health: { code: 'failed', usable: false, source: 'test', message, detail: message } };
    }
    if (this.get(id)) {
      this.#tests[id] = { running: false, result };
      // The row's verdict changes in the same instant as the result shown
      // beneath it: a green "OK" beside "Not tested yet" would be a lie,
      // however short (the list refresh below brings the rest).
      const i = this.#list.findIndex((p) => p.id === id);
      if (i >= 0 && result.health) this.#list[i] = { ...this.#list[i], health: result.health };
    }
    // Test read the environment again and recorded its verdict: the row's
    // key source and health follow.
    void this.#refreshList();
    // A successful test refreshed Go's cached model list.
    if (result.ok) {
      if (this.#models[id]?.loaded) void this.loadModels(id);
      if (this.get(id)?.usable) void this.refreshPicker();
    }
    return result;
  }

  /** clearTest forgets the last test result of a provider. */
  clearTest(id: string): void {
    delete this.#tests[id];
  }

  /** loadModels fetches a provider's models (refresh bypasses Go's cache). */
  async loadModels(id: string, refresh = false): Promise<void> {
    const prev = this.#models[id];
    this.#models[id] = {
      loading: true,
      refreshing: refresh,
      loaded: prev?.loaded ?? false,
      models: prev?.models ?? [],
      error: prev?.error ?? '',
    };
    let next: Pick<ModelsState, 'models' | 'error'>;
    try {
      const l = await providerModels(id, refresh);
      next = { models: l.models, error: l.error ?? '' };
    } catch (e) {
      next = { models: this.#models[id]?.models ?? [], error: (e as Error).message };
    }
    if (!this.get(id)) return;
    this.#models[id] = { loading: false, refreshing: false, loaded: true, ...next };
    if (refresh && this.get(id)?.usable) void this.refreshPicker();
  }

  /** addManualModel adds a model id by hand; it rejects with Go's sentence. */
  async addManualModel(id: string, model: string): Promise<void> {
    this.#replace(await addManualModel(id, model));
    const name = model.trim();
    const st = this.#models[id];
    if (st) {
      const m = st.models.find((x) => x.id === name);
      if (m) m.manual = true;
      else st.models = sortModels([...st.models, { id: name, listed: false, manual: true }]);
    }
    if (this.get(id)?.usable) void this.refreshPicker();
  }

  /** removeManualModel takes a hand-added model id away. */
  async removeManualModel(id: string, model: string): Promise<void> {
    this.#replace(await removeManualModel(id, model));
    const st = this.#models[id];
    if (st) st.models = st.models.flatMap((m) => (m.id !== model ? [m] : m.listed ? [{ ...m, manual: false }] : []));
    if (this.get(id)?.usable) void this.refreshPicker();
  }

  /** setDefaultModel sets (null clears) the default model; rolls back if Go refuses. */
  async setDefaultModel(ref: ModelRef | null): Promise<void> {
    const prev = this.#default;
    const next = ref ? { provider: ref.provider, model: ref.model } : null;
    this.#default = next;
    try {
      await setDefaultModel(next);
    } catch (e) {
      this.#default = prev;
      throw e;
    }
  }

  /** setFallbacks replaces the fallbacks (repeats dropped); rolls back if Go refuses. */
  async setFallbacks(refs: ModelRef[]): Promise<void> {
    const prev = this.#fallbacks;
    const next: ModelRef[] = [];
    for (const r of refs) if (!next.some((n) => sameRef(n, r))) next.push({ provider: r.provider, model: r.model });
    this.#fallbacks = next;
    try {
      await setFallbackModels(next);
    } catch (e) {
      this.#fallbacks = prev;
      throw e;
    }
  }

  addFallback(ref: ModelRef): Promise<void> {
    return this.setFallbacks([...this.#fallbacks, ref]);
  }

  removeFallback(index: number): Promise<void> {
    return this.setFallbacks(this.#fallbacks.filter((_, i) => i !== index));
  }

  /** moveFallback moves the fallback at index by delta places (−1 up, +1 down). */
  moveFallback(index: number, delta: number): Promise<void> {
    const to = index + delta;
    if (index < 0 || index >= this.#fallbacks.length || to < 0 || to >= this.#fallbacks.length) return Promise.resolve();
    const next = [...this.#fallbacks];
    const [item] = next.splice(index, 1);
    next.splice(to, 0, item);
    return this.setFallbacks(next);
  }

  /** detectOllama asks whether Ollama runs on this machine; null when the call failed. */
  async detectOllama(): Promise<OllamaStatus | null> {
    this.#detecting = true;
    try {
      this.#ollama = await detectOllama();
    } catch {
      this.#ollama = null;
    } finally {
      this.#detecting = false;
    }
    return this.#ollama;
  }

  /** useOllama adds the Ollama that detectOllama found, in one step. */
  async useOllama(): Promise<Provider> {
    const url = this.#ollama?.url ?? '';
    return this.save({
      id: '',
      name: this.freeName('Ollama'),
      type: 'ollama',
      preset: 'ollama',
      baseUrl: url,
      keyEnv: '',
      azure: false,
      azureApiVersion: '',
      headers: {},
      enabled: true,
    });
  }

  /** freeName returns name, or "name 2", "name 3"… when a provider already has it. */
  freeName(name: string, exceptId = ''): string {
    const taken = new Set(this.#list.filter((p) => p.id !== exceptId).map((p) => p.name.toLowerCase()));
    if (!taken.has(name.toLowerCase())) return name;
    for (let n = 2; ; n++) if (!taken.has(`${name} ${n}`.toLowerCase())) return `${name} ${n}`;
  }

  /** checkKeychain reads the keychain's status of this run (Go tests it once per start; the first may wait for the OS to unlock it). */
  async checkKeychain(): Promise<KeychainStatus | null> {
    try {
      this.#keychain = await keychainStatus();
      this.#keychainError = '';
    } catch (e) {
      this.#keychainError = (e as Error).message;
    }
    return this.#keychain;
  }

  /** recheckKeychain runs the keychain self-test again ("Check again") and reloads the providers, whose key sources may change. */
  async recheckKeychain(): Promise<KeychainStatus | null> {
    this.#keychainChecking = true;
    try {
      this.#keychain = await recheckKeychain();
      this.#keychainError = '';
    } catch (e) {
      this.#keychainError = (e as Error).message;
    } finally {
      this.#keychainChecking = false;
    }
    await this.#refreshList();
    return this.#keychain;
  }

  /** reloadEnvironment reads the login shell's environment again; providers, their verdicts and the picker follow. */
  async reloadEnvironment(): Promise<EnvReload | null> {
    this.#envReloading = true;
    try {
      this.#envReload = await reloadEnvironment();
      this.#envError = '';
    } catch (e) {
      this.#envError = (e as Error).message;
    } finally {
      this.#envReloading = false;
    }
    await this.#refreshList();
    void this.refreshPicker();
    return this.#envReload;
  }

  /** clearEnvReload hides the result of the last "Reload environment". */
  clearEnvReload(): void {
    this.#envReload = null;
    this.#envError = '';
  }

  /** reloadList reads the providers again (their verdicts change with chat calls); a failure keeps the list. */
  reloadList(): Promise<void> {
    return this.#refreshList();
  }

  async #refreshList(): Promise<void> {
    try {
      this.#list = await listProviders();
    } catch {
      // The list keeps what it had; load() reports failures.
    }
  }

  #replace(p: Provider): void {
    const i = this.#list.findIndex((x) => x.id === p.id);
    if (i >= 0) this.#list[i] = p;
  }
}
