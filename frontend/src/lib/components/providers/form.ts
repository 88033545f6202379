// The provider form's editable model, its conversion to a ProviderInput, and
// where Go's validation messages belong on the form.

import type { Preset, Provider, ProviderInput, ProviderType } from '../../api';

let uid = 0;
const nextUid = () => ++uid;

/** Where the key comes from: the OS keychain or an environment variable. */
export type KeyMode = 'keychain' | 'env';

/**
 * What happens to the key in the keychain on save: keep it (nothing is
 * sent), replace it with the typed value (or store one when there is none
 * yet), or remove it.
 */
export type KeyAction = 'keep' | 'replace' | 'remove';

export interface HeaderRow {
  uid: number;
  key: string;
  value: string;
}

export interface ProviderFormModel {
  preset: string;
  type: ProviderType;
  name: string;
  baseUrl: string;
  azure: boolean;
  azureApiVersion: string;
  keyMode: KeyMode;
  /** True when the keychain holds a key for the provider being edited. */
  stored: boolean;
  keyAction: KeyAction;
  /** The key being typed: write-only, sent once on save and never read back. */
  apiKey: string;
  keyEnv: string;
  headers: HeaderRow[];
  enabled: boolean;
}

/** The fields Go's validation messages can name. */
export type ProviderField = 'name' | 'baseUrl' | 'apiKey' | 'keyEnv' | 'headers';

export const headerRows = (h: Record<string, string>): HeaderRow[] =>
  Object.entries(h).map(([key, value]) => ({ uid: nextUid(), key, value }));

export const emptyHeader = (): HeaderRow => ({ uid: nextUid(), key: '', value: '' });

/** modelFrom builds the form of a provider; null starts a new one with no preset. */
export function modelFrom(p: Provider | null): ProviderFormModel {
  const stored = p?.keySource === 'keychain';
  return {
    preset: p?.preset ?? '',
    type: p?.type ?? 'openai',
    name: p?.name ?? '',
    baseUrl: p?.baseUrl ?? '',
    azure: p?.azure ?? false,
    azureApiVersion: p?.azureApiVersion ?? '',
    keyMode: !stored && p?.keyEnv ? 'env' : 'keychain',
    stored,
    keyAction: stored ? 'keep' : 'replace',
    apiKey: '',
    keyEnv: p?.keyEnv ?? '',
    headers: headerRows(p?.headers ?? {}),
    enabled: p?.enabled ?? true,
  };
}

/**
 * applyPreset fills a new provider's form from a preset: type, base URL,
 * Azure, suggested headers, and — unless the user typed their own — the
 * name and the key's usual variable. prev is the preset picked before.
 */
export function applyPreset(m: ProviderFormModel, preset: Preset, name: string, prev?: { preset: Preset; name: string }): void {
  if (!m.name.trim() || m.name === prev?.name) m.name = name;
  if (!m.keyEnv.trim() || m.keyEnv === prev?.preset.keyEnv) m.keyEnv = preset.keyEnv;
  m.preset = preset.id;
  m.type = preset.type;
  m.baseUrl = preset.baseUrl;
  m.azure = preset.azure;
  if (!preset.azure) m.azureApiVersion = '';
  m.headers = headerRows(preset.headers);
}

/** inputFrom builds what Save takes. The key goes only where the user asked. */
export function inputFrom(m: ProviderFormModel, original: Provider | null): ProviderInput {
  const headers: Record<string, string> = {};
  for (const h of m.headers) if (h.key.trim() || h.value.trim()) headers[h.key.trim()] = h.value;
  const input: ProviderInput = {
    id: original?.id ?? '',
    name: m.name.trim(),
    type: m.type,
    preset: m.preset,
    baseUrl: m.baseUrl.trim(),
    keyEnv: '',
    azure: m.azure,
    azureApiVersion: m.azure ? m.azureApiVersion.trim() : '',
    headers,
    enabled: m.enabled,
  };
  if (m.keyMode === 'env') {
    input.keyEnv = m.keyEnv.trim();
    // The keychain wins over the variable: drop a stored key so the variable is used.
    if (m.stored) input.apiKey = '';
  } else if (m.keyAction === 'remove') {
    if (m.stored) input.apiKey = '';
  } else if (m.keyAction === 'replace' && m.apiKey.trim()) {
    input.apiKey = m.apiKey;
  }
  return input;
}

const FIELD_PATTERNS: ReadonlyArray<[RegExp, ProviderField]> = [
  [/^Name\b/, 'name'],
  [/^Base URL\b/, 'baseUrl'],
  [/^Key from environment variable\b/, 'keyEnv'],
  [/^Headers\b/, 'headers'],
  [/keychain|API key/i, 'apiKey'],
];

/**
 * fieldOf returns the field one of Go's messages is about: its field errors
 * start with the field's label ("Name is required", "Base URL …"), and
 * keychain failures speak of the keychain. null means the form as a whole.
 */
export function fieldOf(message: string): ProviderField | null {
  for (const [re, field] of FIELD_PATTERNS) if (re.test(message)) return field;
  return null;
}
