// Types mirroring backend/providers (the bound ProviderManager, SPEC C1, C2).
// JSON field names are exact; keep them in step with the Go side. No type
// here ever carries an API key back from Go: keys only go in, through
// ProviderInput.apiKey.

/** How the app talks to a provider. */
export type ProviderType = 'openai' | 'ollama';

/** Where a provider's key comes from: the OS keychain, an environment variable, or nowhere. */
export type KeySource = 'keychain' | 'env' | 'none';

/** A configured provider as Go shows it (providers.Provider). */
export interface Provider {
  id: string;
  name: string;
  type: ProviderType;
  /** The preset it was made from ("openai", "azure", …, "custom"); "" for none. */
  preset: string;
  baseUrl: string;
  /** The environment variable that holds the key, or "". */
  keyEnv: string;
  azure: boolean;
  azureApiVersion: string;
  /** Extra non-secret request headers. */
  headers: Record<string, string>;
  enabled: boolean;
  /** Model ids the user added by hand. */
  manualModels: string[];
  /** False for Ollama, local servers and custom endpoints, which may do without a key. */
  needsKey: boolean;
  hasKey: boolean;
  keySource: KeySource;
  /** Why the keychain could not be read, when it could not. */
  keyProblem?: string;
  /** Enabled, and its settings allow calls (a key, or none needed and no unset key variable named): only usable providers are offered in the model picker. */
  usable: boolean;
  /** The verdict on the provider: its settings, else the last Test or chat call of this run, else untested. */
  health: Health;
  createdAt: string;
  updatedAt: string;
}

/**
 * What Save takes (providers.ProviderInput): id "" adds a provider. apiKey
 * is write-only: absent keeps the stored key, "" removes it, any other
 * value is stored in the OS keychain.
 */
export interface ProviderInput {
  id: string;
  name: string;
  /** "" takes the preset's type. */
  type: ProviderType | '';
  preset: string;
  /** "" takes the preset's base URL (or Ollama's default). */
  baseUrl: string;
  keyEnv: string;
  azure: boolean;
  azureApiVersion: string;
  headers: Record<string, string>;
  /** Absent: true for a new provider, unchanged for an edit. */
  enabled?: boolean;
  apiKey?: string;
}

/** A ready-made provider configuration (providers.Preset). */
export interface Preset {
  id: string;
  name: string;
  type: ProviderType;
  /** "" when the user must supply one (Azure, custom). */
  baseUrl: string;
  /** The variable the provider's own tools read the key from. */
  keyEnv: string;
  /** Where to create a key; "" when there is no such page. */
  keyUrl: string;
  needsKey: boolean;
  azure: boolean;
  /** Suggested extra headers (e.g. OpenRouter's X-Title). */
  headers: Record<string, string>;
}

/** One model of one provider (providers.ModelRef). */
export interface ModelRef {
  /** The provider's id. */
  provider: string;
  /** The model id as the provider knows it. */
  model: string;
}

/** One model of a provider's list (providers.Model). */
export interface Model {
  id: string;
  ownedBy?: string;
  /** The provider's own list has it. */
  listed: boolean;
  /** The user added it by hand. */
  manual: boolean;
}

/** A provider's models, fetched merged with manual (providers.ModelList). */
export interface ModelList {
  provider: string;
  models: Model[];
  /** Why the fetch failed; models then holds the manual entries only. */
  error?: string;
}

/** A provider verdict's code (providers.Health.code); the UI translates providerHealth.code.<code>. */
export type HealthCode =
  | 'untested'
  | 'ok'
  | 'no_key'
  | 'env_unset'
  | 'keychain_unreadable'
  | 'key_rejected'
  | 'unreachable'
  | 'model_missing'
  | 'no_models'
  | 'quota'
  | 'rate_limited'
  | 'server_error'
  | 'failed';

/** The verdict on a provider (providers.Health). It never holds a key. */
export interface Health {
  code: HealthCode;
  /** Parameters of the code: status, name, host, model, reason. */
  params?: Record<string, string>;
  /** False when calls to the provider are known to fail. */
  usable: boolean;
  /** Where the verdict comes from: the settings, the last Test, or the last chat call. */
  source: 'config' | 'test' | 'chat';
  /** When a Test or a chat call found it (RFC 3339); absent for config. */
  at?: string;
  /** One English sentence, for logs and the command line. */
  message: string;
  /** The provider's own words (key removed). */
  detail?: string;
}

/** The outcome of TestConnection (providers.ConnectionResult). */
export interface ConnectionResult {
  /** health.usable. */
  ok: boolean;
  /** How many models the provider listed. */
  models: number;
  latencyMs: number;
  /** The model the key was proved with. */
  model?: string;
  /** health.message when the provider is not usable. */
  error?: string;
  health: Health;
}

/** One environment variable providers take their key from (providers.EnvVar). */
export interface EnvVar {
  name: string;
  set: boolean;
  /** Names of the providers that read it. */
  providers: string[];
}

/** What ReloadEnvironment found (providers.EnvReload); names only, never values. */
export interface EnvReload {
  /** False: the login shell could not be read again; only a restart of MCP Desk sees new variables. */
  reloaded: boolean;
  vars: EnvVar[];
}

/** One group of the model picker: a usable provider and its models (providers.PickerProvider). */
export interface PickerProvider {
  id: string;
  name: string;
  type: ProviderType;
  models: Model[];
  error?: string;
}

/** Whether Ollama answers on this machine (providers.OllamaStatus). */
export interface OllamaStatus {
  running: boolean;
  version?: string;
  url: string;
}
