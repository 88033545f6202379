// The in-memory ProviderManager of FakeBackend (fake.ts). It validates like
// backend/providers, keeps default and fallback models, lists scripted
// models, and — as Go does — never hands a key back: it does not even keep
// one, only whether there is one. The calls it records (FakeBackend.calls,
// as "providers.<Method>") are the only place a test sees a key it sent.

import type { ProvidersBackend } from '../../lib/api/backend';
import type {
  ConnectionResult,
  EnvReload,
  EnvVar,
  Health,
  KeySource,
  Model,
  ModelList,
  ModelRef,
  OllamaStatus,
  PickerProvider,
  Preset,
  Provider,
  ProviderInput,
} from '../../lib/api/providerTypes';
import type { KeychainStatus } from '../../lib/api/types';

/** FAKE_PRESETS mirrors backend/llm/presets.go. */
export const FAKE_PRESETS: readonly Preset[] = [
  { id: 'openai', name: 'OpenAI', type: 'openai', baseUrl: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY', keyUrl: 'https://platform.openai.com/api-keys', needsKey: true, azure: false, headers: {} },
  { id: 'azure', name: 'Azure OpenAI', type: 'openai', baseUrl: '', keyEnv: 'AZURE_OPENAI_API_KEY', keyUrl: 'https://portal.azure.com/', needsKey: true, azure: true, headers: {} },
  { id: 'deepseek', name: 'DeepSeek', type: 'openai', baseUrl: 'https://api.deepseek.com/v1', keyEnv: 'DEEPSEEK_API_KEY', keyUrl: 'https://platform.deepseek.com/api_keys', needsKey: true, azure: false, headers: {} },
  { id: 'openrouter', name: 'OpenRouter', type: 'openai', baseUrl: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY', keyUrl: 'https://openrouter.ai/settings/keys', needsKey: true, azure: false, headers: { 'X-Title': 'MCP Desk' } },
  { id: 'gemini', name: 'Google Gemini', type: 'openai', baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai', keyEnv: 'GEMINI_API_KEY', keyUrl: 'https://aistudio.google.com/apikey', needsKey: true, azure: false, headers: {} },
  { id: 'anthropic', name: 'Anthropic', type: 'openai', baseUrl: 'https://api.anthropic.com/v1', keyEnv: 'ANTHROPIC_API_KEY', keyUrl: 'https://console.anthropic.com/settings/keys', needsKey: true, azure: false, headers: {} },
  { id: 'groq', name: 'Groq', type: 'openai', baseUrl: 'https://api.groq.com/openai/v1', keyEnv: 'GROQ_API_KEY', keyUrl: 'https://console.groq.com/keys', needsKey: true, azure: false, headers: {} },
  { id: 'xai', name: 'xAI', type: 'openai', baseUrl: 'https://api.x.ai/v1', keyEnv: 'XAI_API_KEY', keyUrl: 'https://console.x.ai/', needsKey: true, azure: false, headers: {} },
  { id: 'mistral', name: 'Mistral', type: 'openai', baseUrl: 'https://api.mistral.ai/v1', keyEnv: 'MISTRAL_API_KEY', keyUrl: 'https://console.mistral.ai/api-keys', needsKey: true, azure: false, headers: {} },
  { id: 'lmstudio', name: 'LM Studio', type: 'openai', baseUrl: 'http://localhost:1234/v1', keyEnv: '', keyUrl: '', needsKey: false, azure: false, headers: {} },
  { id: 'ollama', name: 'Ollama', type: 'ollama', baseUrl: 'http://localhost:11434', keyEnv: '', keyUrl: '', needsKey: false, azure: false, headers: {} },
  { id: 'custom', name: 'Custom (OpenAI-compatible)', type: 'openai', baseUrl: '', keyEnv: '', keyUrl: '', needsKey: false, azure: false, headers: {} },
];

/** A provider configured when the fake starts; keyInKeychain stands for a stored key. */
export type FakeProviderSeed = Partial<Omit<Provider, 'hasKey' | 'keySource' | 'keyProblem' | 'usable' | 'needsKey'>> & {
  id: string;
  name: string;
  keyInKeychain?: boolean;
};

export interface FakeProvidersOptions {
  providers?: FakeProviderSeed[];
  /** Environment variables "Go" can read (a key from $VAR). */
  env?: Record<string, string>;
  /** The model ids each provider lists, by provider id; default: a few per preset. */
  models?: Record<string, string[]>;
  /** A provider whose listing fails with this message, by provider id. */
  modelErrors?: Record<string, string>;
  /** What DetectOllama reports; default: not running. */
  ollama?: OllamaStatus;
  defaultModel?: ModelRef;
  fallbacks?: ModelRef[];
  /** Latency TestConnection reports (default 123 ms). */
  latencyMs?: number;
  /**
   * What TestConnection finds past the settings, by provider id (a key the
   * provider rejects, an unreachable host…); default: ok.
   */
  verdicts?: Record<string, Pick<Health, 'code' | 'usable'> & Partial<Health>>;
  /** Environment variables a ReloadEnvironment (or a Test) makes appear. */
  envLater?: Record<string, string>;
}

interface Stored {
  p: Omit<Provider, 'hasKey' | 'keySource' | 'keyProblem' | 'usable' | 'needsKey' | 'health'>;
  /** Whether the keychain holds a key for it: never the key itself. */
  keyInKeychain: boolean;
}

const DEFAULT_MODELS: Record<string, string[]> = {
  openai: ['gpt-4.1', 'gpt-4o', 'gpt-4o-mini', 'o3-mini'],
  deepseek: ['deepseek-chat', 'deepseek-reasoner'],
  openrouter: ['anthropic/claude-sonnet-4', 'openai/gpt-4o', 'meta-llama/llama-3.3-70b-instruct'],
  gemini: ['gemini-2.5-flash', 'gemini-2.5-pro'],
  anthropic: ['claude-sonnet-4-5', 'claude-haiku-4-5'],
  groq: ['llama-3.3-70b-versatile'],
  xai: ['grok-4'],
  mistral: ['mistral-large-latest', 'mistral-small-latest'],
  lmstudio: ['qwen2.5-7b-instruct'],
  ollama: ['llama3.2:latest', 'qwen3:8b'],
};

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;

const secretName = (n: string) => ['key', 'token', 'secret', 'password', 'auth'].some((w) => n.toLowerCase().includes(w));
const secretHeader = (n: string) => ['authorization', 'proxy-authorization', 'cookie'].includes(n.toLowerCase()) || secretName(n);

function checkBaseURL(raw: string): void {
  if (!raw) throw 'Base URL is required';
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw `Base URL "${raw}" must start with http:// or https://`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw `Base URL "${raw}" must start with http:// or https://`;
  if (!u.host) throw `Base URL "${raw}" has no host`;
  if (u.username || u.password) throw 'Base URL must not contain a user name or password; put the key under API key instead';
  for (const k of u.searchParams.keys())
    if (secretName(k)) throw `Base URL must not carry a key in its query ("${k}"); put the key under API key instead`;
}

/** FakeProviders is FakeBackend's ProviderManager. */
export class FakeProviders implements ProvidersBackend {
  readonly stored = new Map<string, Stored>();
  env: Record<string, string>;
  /** Listed model ids by provider id. */
  models: Record<string, string[]>;
  /** Listing (Models, TestConnection) fails with this message, by provider id. */
  modelErrors: Record<string, string>;
  ollama: OllamaStatus;
  default: ModelRef = { provider: '', model: '' };
  fallbacks: ModelRef[] = [];
  latencyMs: number;
  verdicts: NonNullable<FakeProvidersOptions['verdicts']>;
  envLater: Record<string, string>;
  /** The verdicts of Tests and chat calls, by provider id (Go's healthBook). */
  readonly book = new Map<string, Health>();
  #seq = 0;
  #gates = new Map<string, { promise: Promise<void>; release: () => void }>();
  #record: (method: string, args: unknown[]) => void;
  #keychain: () => KeychainStatus;

  constructor(o: FakeProvidersOptions, record: (method: string, args: unknown[]) => void, keychain: () => KeychainStatus) {
    this.#record = (m, a) => record(`providers.${m}`, a);
    this.#keychain = keychain;
    this.env = { ...(o.env ?? {}) };
    this.models = structuredClone(o.models ?? {});
    this.modelErrors = { ...(o.modelErrors ?? {}) };
    this.ollama = o.ollama ?? { running: false, url: 'http://localhost:11434' };
    this.latencyMs = o.latencyMs ?? 123;
    this.verdicts = structuredClone(o.verdicts ?? {});
    this.envLater = { ...(o.envLater ?? {}) };
    if (o.defaultModel) this.default = { ...o.defaultModel };
    this.fallbacks = structuredClone(o.fallbacks ?? []);
    const now = new Date(Date.UTC(2026, 0, 2)).toISOString();
    for (const s of o.providers ?? []) {
      const preset = FAKE_PRESETS.find((p) => p.id === s.preset);
      this.stored.set(s.id, {
        keyInKeychain: !!s.keyInKeychain,
        p: {
          id: s.id,
          name: s.name,
          type: s.type ?? preset?.type ?? 'openai',
          preset: s.preset ?? '',
          baseUrl: s.baseUrl ?? preset?.baseUrl ?? '',
          keyEnv: s.keyEnv ?? '',
          azure: s.azure ?? preset?.azure ?? false,
          azureApiVersion: s.azureApiVersion ?? '',
          headers: { ...(s.headers ?? {}) },
          enabled: s.enabled ?? true,
          manualModels: [...(s.manualModels ?? [])],
          createdAt: s.createdAt ?? now,
          updatedAt: s.updatedAt ?? now,
        },
      });
    }
  }

  /**
   * hold makes calls of method (e.g. "TestConnection") wait until the
   * returned release is called, so a test can see the work in progress.
   */
  hold(method: string): () => void {
    let release!: () => void;
    const promise = new Promise<void>((r) => (release = r));
    const gate = {
      promise,
      release: () => {
        if (this.#gates.get(method) === gate) this.#gates.delete(method);
        release();
      },
    };
    this.#gates.set(method, gate);
    return gate.release;
  }

  /** view is what Go returns for a stored provider: whether there is a key, never the key. */
  view(id: string): Provider {
    const s = this.stored.get(id);
    if (!s) throw `no such provider`;
    const kc = this.#keychain();
    const preset = FAKE_PRESETS.find((p) => p.id === s.p.preset);
    const needsKey = s.p.type === 'ollama' ? false : (preset?.needsKey ?? false);
    let keySource: KeySource = 'none';
    if (s.keyInKeychain && kc.available) keySource = 'keychain';
    else if (s.p.keyEnv && (this.env[s.p.keyEnv] ?? '').trim()) keySource = 'env';
    const v: Provider = {
      ...structuredClone(s.p),
      needsKey,
      hasKey: keySource !== 'none',
      keySource,
      usable: false,
      health: { code: 'untested', usable: true, source: 'config', message: '' },
    };
    if (!kc.available) v.keyProblem = `the OS keychain is unavailable: ${kc.reason}`;
    const bad = this.#configHealth(v);
    v.usable = v.enabled && !bad;
    v.health = bad ??
      structuredClone(this.book.get(id)) ?? {
        code: 'untested',
        usable: true,
        source: 'config',
        message: `${v.name} is set up but has not been tested yet.`,
      };
    return v;
  }

  /** configHealth is Go's configHealth: what the settings say without asking the provider. */
  #configHealth(v: Provider): Health | null {
    if (v.keySource !== 'none') return null;
    if (v.keyProblem && v.needsKey)
      return {
        code: 'keychain_unreadable',
        params: { reason: v.keyProblem },
        usable: false,
        source: 'config',
        message: `The OS keychain could not be read, so ${v.name} has no key: ${v.keyProblem}.`,
      };
    if (v.keyEnv)
      return {
        code: 'env_unset',
        params: { name: v.keyEnv },
        usable: false,
        source: 'config',
        message: `${v.name} has no API key: the environment variable ${v.keyEnv} is not set. Set it and press Test (or Reload environment), or add a key in Settings → Providers.`,
      };
    if (v.needsKey)
      return { code: 'no_key', usable: false, source: 'config', message: `${v.name} has no API key. Add one in Settings → Providers.` };
    return null;
  }

  /** reloadEnv is Go's ReloadEnv: the variables set since the start appear. */
  #reloadEnv(): void {
    Object.assign(this.env, this.envLater);
  }

  /** rejectInChat marks a provider as Go does after a 401/403 during a chat. */
  rejectInChat(id: string, status = 401, at = new Date()): void {
    this.book.set(id, {
      code: 'key_rejected',
      params: { status: String(status) },
      usable: false,
      source: 'chat',
      at: at.toISOString(),
      message: `The API key for ${this.#get(id).p.name} was rejected (${status}). Check the key in Settings → Providers.`,
    });
  }

  async #enter(method: string, args: unknown[]): Promise<void> {
    this.#record(method, args);
    const gate = this.#gates.get(method);
    if (gate) await gate.promise;
  }

  #get(id: string): Stored {
    const s = this.stored.get(id);
    if (!s) throw 'no such provider';
    return s;
  }

  #listed(s: Stored): string[] | string {
    const v = this.view(s.p.id);
    if (v.needsKey && !v.hasKey) {
      let msg = `${s.p.name} has no API key. Add one in Settings → Providers`;
      if (s.p.keyEnv) msg += `, or set the environment variable ${s.p.keyEnv}`;
      return msg + '.';
    }
    if (this.modelErrors[s.p.id]) return this.modelErrors[s.p.id];
    return this.models[s.p.id] ?? DEFAULT_MODELS[s.p.preset] ?? DEFAULT_MODELS[s.p.type] ?? [];
  }

  #modelList(s: Stored): ModelList {
    const listed = this.#listed(s);
    const out: Model[] = [];
    for (const id of typeof listed === 'string' ? [] : listed) out.push({ id, listed: true, manual: false });
    for (const id of s.p.manualModels) {
      const m = out.find((x) => x.id === id);
      if (m) m.manual = true;
      else out.push({ id, listed: false, manual: true });
    }
    out.sort((a, b) => a.id.toLowerCase().localeCompare(b.id.toLowerCase()));
    return { provider: s.p.id, models: out, ...(typeof listed === 'string' ? { error: listed } : {}) };
  }

  #checkRef(r: ModelRef, what: string): void {
    if (!r.provider) throw `${what}: choose a provider`;
    if (!r.model) throw `${what}: choose a model`;
    if (!this.stored.has(r.provider)) throw `${what}: there is no provider "${r.provider}"`;
  }

  #normalize(input: ProviderInput): Stored['p'] {
    const name = (input.name ?? '').trim();
    if (!name) throw 'Name is required';
    if (name.length > 100) throw 'Name is longer than 100 characters';
    let type = (input.type ?? '').trim();
    let baseUrl = (input.baseUrl ?? '').trim().replace(/\/+$/, '');
    let azure = !!input.azure;
    let headers: Record<string, string> | null = input.headers ?? null;
    const presetId = (input.preset ?? '').trim();
    if (presetId) {
      const pr = FAKE_PRESETS.find((p) => p.id === presetId);
      if (!pr) throw `Preset: unknown preset "${presetId}"`;
      if (!type) type = pr.type;
      if (type !== pr.type) throw `Type: the ${pr.name} preset is of type "${pr.type}", not "${type}"`;
      if (!baseUrl) baseUrl = pr.baseUrl.replace(/\/+$/, '');
      azure = azure || pr.azure;
      if (headers === null) headers = pr.headers;
    }
    if (type === 'ollama') {
      if (!baseUrl) baseUrl = 'http://localhost:11434';
      if (azure) throw 'Azure: an Ollama provider cannot use Azure OpenAI';
    } else if (type === '') throw 'Type is required: "openai" or "ollama"';
    else if (type !== 'openai') throw `Type: unknown type "${type}", want "openai" or "ollama"`;
    checkBaseURL(baseUrl);
    const keyEnv = (input.keyEnv ?? '').trim();
    if (keyEnv && !ENV_NAME.test(keyEnv))
      throw `Key from environment variable: "${keyEnv}" is not a variable name (letters, digits and _, not starting with a digit)`;
    const out: Record<string, string> = {};
    const entries = Object.entries(headers ?? {});
    if (entries.length > 32) throw 'Headers: at most 32';
    for (const [k, v] of entries) {
      const n = k.trim();
      if (!HTTP_TOKEN.test(n)) throw `Headers: "${k}" is not a header name`;
      if (secretHeader(n))
        throw `Headers: "${n}" looks like it carries a secret; headers are stored unencrypted, so put the key under API key instead`;
      if (/[\r\n]/.test(v)) throw `Headers: the value of "${n}" has a line break`;
      out[n] = v.trim();
    }
    return {
      id: '',
      name,
      type: type as Provider['type'],
      preset: presetId,
      baseUrl,
      keyEnv,
      azure,
      azureApiVersion: azure ? (input.azureApiVersion ?? '').trim() : '',
      headers: out,
      enabled: true,
      manualModels: [],
      createdAt: '',
      updatedAt: '',
    };
  }

  #newId(name: string): string {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 24) || 'provider';
    let id = `${slug}-${++this.#seq}`;
    while (this.stored.has(id)) id = `${slug}-${++this.#seq}`;
    return id;
  }

  // ---- ProvidersBackend

  List = async (): Promise<Provider[]> => {
    await this.#enter('List', []);
    return [...this.stored.keys()].map((id) => this.view(id));
  };

  Presets = async (): Promise<Preset[]> => {
    await this.#enter('Presets', []);
    return structuredClone([...FAKE_PRESETS]);
  };

  Save = async (input: ProviderInput): Promise<Provider> => {
    await this.#enter('Save', [input]);
    const p = this.#normalize(input);
    const old = input.id ? this.stored.get(input.id) : undefined;
    if (input.id && !old) throw 'save provider: no such provider';
    p.id = old ? old.p.id : this.#newId(p.name);
    p.enabled = input.enabled ?? old?.p.enabled ?? true;
    p.manualModels = old ? [...old.p.manualModels] : [];
    for (const s of this.stored.values())
      if (s.p.id !== p.id && s.p.name.toLowerCase() === p.name.toLowerCase())
        throw `Name: another provider is already called "${p.name}"`;
    let keyInKeychain = old?.keyInKeychain ?? false;
    const key = input.apiKey;
    if (key !== undefined && !(input.id === '' && key.trim() === '')) {
      const kc = this.#keychain();
      if (key.trim() === '') {
        if (!kc.available)
          throw `The OS keychain is unavailable (${kc.reason}), so the stored key could not be removed. Try again when the keychain is available.`;
        keyInKeychain = false;
      } else {
        if (!kc.available)
          throw `The OS keychain is unavailable (${kc.reason}). Set the key in an environment variable and enter its name under 'Key from environment variable' instead.`;
        keyInKeychain = true;
      }
    }
    const now = new Date().toISOString();
    p.createdAt = old?.p.createdAt ?? now;
    p.updatedAt = now;
    this.stored.set(p.id, { p, keyInKeychain });
    this.book.delete(p.id);
    return this.view(p.id);
  };

  Delete = async (id: string): Promise<void> => {
    await this.#enter('Delete', [id]);
    if (!this.stored.delete(id)) throw 'delete provider: no such provider';
    this.book.delete(id);
    if (this.default.provider === id) this.default = { provider: '', model: '' };
    this.fallbacks = this.fallbacks.filter((r) => r.provider !== id);
  };

  SetEnabled = async (id: string, enabled: boolean): Promise<Provider> => {
    await this.#enter('SetEnabled', [id, enabled]);
    this.#get(id).p.enabled = enabled;
    return this.view(id);
  };

  TestConnection = async (id: string): Promise<ConnectionResult> => {
    await this.#enter('TestConnection', [id]);
    this.#reloadEnv();
    const s = this.#get(id);
    const v = this.view(id);
    const bad = this.#configHealth(v);
    if (bad) return { ok: false, models: 0, latencyMs: 0, error: bad.message, health: bad };
    const at = new Date().toISOString();
    const listed = this.#listed(s);
    let health: Health;
    if (this.verdicts[id]) health = { source: 'test', message: '', ...structuredClone(this.verdicts[id]), at };
    else if (typeof listed === 'string') health = { code: 'failed', usable: false, source: 'test', at, message: listed, detail: listed };
    else health = { code: 'ok', usable: true, source: 'test', at, params: { model: listed[0] ?? '' }, message: `${s.p.name} accepted the key.` };
    this.book.set(id, health);
    const models = typeof listed === 'string' ? 0 : listed.length;
    return { ok: health.usable, models, latencyMs: this.latencyMs, health, ...(health.usable ? {} : { error: health.message }) };
  };

  ReloadEnvironment = async (): Promise<EnvReload> => {
    await this.#enter('ReloadEnvironment', []);
    this.#reloadEnv();
    const vars: EnvVar[] = [];
    for (const s of this.stored.values()) {
      if (!s.p.keyEnv) continue;
      this.book.delete(s.p.id);
      let v = vars.find((x) => x.name === s.p.keyEnv);
      if (!v) vars.push((v = { name: s.p.keyEnv, set: !!(this.env[s.p.keyEnv] ?? '').trim(), providers: [] }));
      v.providers.push(s.p.name);
    }
    return { reloaded: true, vars };
  };

  Models = async (id: string, refresh: boolean): Promise<ModelList> => {
    await this.#enter('Models', [id, refresh]);
    return this.#modelList(this.#get(id));
  };

  AddManualModel = async (id: string, model: string): Promise<Provider> => {
    await this.#enter('AddManualModel', [id, model]);
    const m = model.trim();
    if (!m) throw 'Model name is required';
    if (m.length > 256) throw 'Model name is longer than 256 characters';
    const s = this.#get(id);
    if (!s.p.manualModels.includes(m)) s.p.manualModels.push(m);
    return this.view(id);
  };

  RemoveManualModel = async (id: string, model: string): Promise<Provider> => {
    await this.#enter('RemoveManualModel', [id, model]);
    const s = this.#get(id);
    s.p.manualModels = s.p.manualModels.filter((x) => x !== model.trim());
    return this.view(id);
  };

  DefaultModel = async (): Promise<ModelRef> => {
    await this.#enter('DefaultModel', []);
    return { ...this.default };
  };

  SetDefaultModel = async (ref: ModelRef): Promise<void> => {
    await this.#enter('SetDefaultModel', [ref]);
    const r = { provider: ref.provider.trim(), model: ref.model.trim() };
    if (r.provider || r.model) this.#checkRef(r, 'Default model');
    this.default = r;
  };

  Fallbacks = async (): Promise<ModelRef[]> => {
    await this.#enter('Fallbacks', []);
    return structuredClone(this.fallbacks);
  };

  SetFallbacks = async (refs: ModelRef[]): Promise<void> => {
    await this.#enter('SetFallbacks', [refs]);
    const out: ModelRef[] = [];
    refs.forEach((ref, i) => {
      const r = { provider: ref.provider.trim(), model: ref.model.trim() };
      this.#checkRef(r, `Fallback ${i + 1}`);
      if (!out.some((o) => o.provider === r.provider && o.model === r.model)) out.push(r);
    });
    this.fallbacks = out;
  };

  PickerModels = async (): Promise<PickerProvider[]> => {
    await this.#enter('PickerModels', []);
    const out: PickerProvider[] = [];
    for (const s of this.stored.values()) {
      if (!this.view(s.p.id).usable) continue;
      const l = this.#modelList(s);
      out.push({ id: s.p.id, name: s.p.name, type: s.p.type, models: l.models, ...(l.error ? { error: l.error } : {}) });
    }
    return out;
  };

  DetectOllama = async (): Promise<OllamaStatus> => {
    await this.#enter('DetectOllama', []);
    return { ...this.ollama };
  };
}
