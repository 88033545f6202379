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
  /** Enabled, and has a key or needs none: only usable providers are offered in the model picker. */
  usable: boolean;
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

/** The outcome of TestConnection (providers.ConnectionResult). */
export interface ConnectionResult {
  ok: boolean;
  /** How many models the provider listed. */
  models: number;
  latencyMs: number;
  error?: string;
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
