// The server form's editable model and its conversion to a ServerSpec.

import type { SecretPair, ServerSpec, Transport } from '../../api';
import { looksSecret, secretByName, type PairKind } from '../../util/secretLook';

let uid = 0;
export const nextUid = () => ++uid;

export interface ArgRow {
  uid: number;
  value: string;
}

/**
 * PairRow is one env variable or header being edited. keep true shows the
 * stored (withheld) secret; stored is true when the backend holds a secret
 * for this key, so the user can go back to it after choosing to replace it.
 * secret says the value goes to the OS keychain ("Keep in keychain"); it
 * follows looksSecret until the user sets it (secretSet). inFile: the stored
 * secret is still written in plain text in the config file.
 */
export interface PairRow {
  uid: number;
  key: string;
  value: string;
  keep: boolean;
  stored: boolean;
  reveal: boolean;
  secret: boolean;
  secretSet: boolean;
  inFile: boolean;
}

export const argRows = (args: readonly string[]): ArgRow[] => args.map((value) => ({ uid: nextUid(), value }));

export const pairRows = (pairs: readonly SecretPair[]): PairRow[] =>
  pairs.map((p) => ({
    uid: nextUid(),
    key: p.key,
    value: p.keep ? '' : p.value,
    keep: p.keep,
    stored: p.keep,
    reveal: false,
    secret: p.keep || !!p.secret,
    // A stored secret stays one unless the user says otherwise; a plain
    // value follows its name and look as it is edited.
    secretSet: p.keep,
    inFile: !!p.inFile,
  }));

export const emptyPair = (): PairRow => ({
  uid: nextUid(),
  key: '',
  value: '',
  keep: false,
  stored: false,
  reveal: false,
  secret: false,
  secretSet: false,
  inFile: false,
});

/**
 * autoSecret updates a row's "Keep in keychain" from its name and value
 * (the name alone while the value is empty), unless the user chose; off
 * while the keychain cannot be used.
 */
export function autoSecret(row: PairRow, kind: PairKind, keychainOff = false): void {
  if (row.secretSet || row.keep) return;
  const secret =
    !keychainOff && (row.value === '' ? secretByName(kind, row.key) : looksSecret(kind, row.key, row.value));
  if (row.secret !== secret) row.secret = secret;
}

/** toPairs drops blank rows and sends kept values as keep with no value; secret says where each value goes. */
export function toPairs(rows: readonly PairRow[]): SecretPair[] {
  return rows
    .filter((r) => r.key.trim() || r.value || r.keep)
    .map((r) => ({ key: r.key.trim(), value: r.keep ? '' : r.value, keep: r.keep, secret: r.secret }));
}

/** MIB is one megabyte as the message limit counts it (2^20 bytes). */
export const MIB = 1 << 20;

/** MESSAGE_MB_RANGE is the message limit the config accepts, in MB (64 KB – 1 GB). */
export const MESSAGE_MB_RANGE = [0.0625, 1024] as const;

export interface FormModel {
  id: string;
  type: Transport;
  command: string;
  args: ArgRow[];
  env: PairRow[];
  cwd: string;
  url: string;
  headers: PairRow[];
  timeout: string;
  concurrency: string;
  /** The largest message, in MB (decimals allowed: 64 KB is 0.0625). */
  maxMessage: string;
  protocol: string;
  enabled: boolean;
  roots: ArgRow[];
  /**
   * auth is how a remote server is authorized: oauth signs in when it asks
   * (the client registers itself); client signs in with a client the user
   * registered (oauthClientId, oauthSecret); none sends the headers alone
   * (a static token: an Authorization header, kept in the keychain).
   */
  auth: AuthMode;
  oauthClientId: string;
  /** The client secret: a one-row pair, so it is kept and replaced as headers are. */
  oauthSecret: PairRow;
  oauthScopes: string;
  oauthMetadataUrl: string;
}

export type AuthMode = 'oauth' | 'client' | 'none';

/** oauthSettings reads a spec's oauth pairs by key. */
function oauthSettings(spec: ServerSpec | null): Map<string, SecretPair> {
  return new Map((spec?.oauth ?? []).map((p) => [p.key, p]));
}

export function modelFrom(spec: ServerSpec | null): FormModel {
  return {
    id: spec?.id ?? '',
    type: spec?.type ?? 'stdio',
    command: spec?.command ?? '',
    args: argRows(spec?.args ?? []),
    env: pairRows(spec?.env ?? []),
    cwd: spec?.cwd ?? '',
    url: spec?.url ?? '',
    headers: pairRows(spec?.headers ?? []),
    timeout: spec?.timeoutMs ? String(spec.timeoutMs) : '',
    concurrency: spec?.maxConcurrency ? String(spec.maxConcurrency) : '',
    // bytes / 2^20 is exact in binary, so the value comes back unchanged.
    maxMessage: spec?.maxMessageBytes ? String(spec.maxMessageBytes / MIB) : '',
    protocol: spec?.protocolVersion ?? '',
    enabled: spec?.enabled ?? true,
    roots: argRows(spec?.roots ?? []),
    ...authFrom(spec),
  };
}

function authFrom(spec: ServerSpec | null): Pick<FormModel, 'auth' | 'oauthClientId' | 'oauthSecret' | 'oauthScopes' | 'oauthMetadataUrl'> {
  const o = oauthSettings(spec);
  const clientId = o.get('clientId')?.value ?? '';
  const secret = o.get('clientSecret');
  return {
    auth: spec?.auth === 'none' ? 'none' : clientId ? 'client' : 'oauth',
    oauthClientId: clientId,
    oauthSecret: secret ? { ...pairRows([secret])[0], secret: true, secretSet: true } : { ...emptyPair(), key: 'clientSecret', secret: true, secretSet: true },
    oauthScopes: o.get('scopes')?.value ?? '',
    oauthMetadataUrl: o.get('clientMetadataUrl')?.value ?? '',
  };
}

/** hasAuthorizationHeader: the headers carry their own Authorization, which replaces any sign-in (as Go sends it). */
export function hasAuthorizationHeader(m: FormModel): boolean {
  return m.headers.some((h) => h.key.trim().toLowerCase() === 'authorization' && (h.value !== '' || h.keep));
}

/** authOf is the auth and oauth settings of the spec to save. */
function authOf(m: FormModel): Pick<ServerSpec, 'auth' | 'oauth'> {
  if (m.type === 'stdio') return { auth: '', oauth: [] };
  if (m.auth === 'none' || hasAuthorizationHeader(m)) return { auth: 'none', oauth: [] };
  const plain = (key: string, value: string): SecretPair[] => (value.trim() ? [{ key, value: value.trim(), keep: false, secret: false }] : []);
  const oauth = [...plain('scopes', m.oauthScopes), ...plain('clientMetadataUrl', m.oauthMetadataUrl)];
  if (m.auth === 'client') {
    oauth.unshift(...plain('clientId', m.oauthClientId));
    const s = m.oauthSecret;
    if (s.keep || s.value) oauth.push({ key: 'clientSecret', value: s.keep ? '' : s.value, keep: s.keep, secret: true });
  }
  return { auth: 'oauth', oauth };
}

// rootsOf sends the roots only when there are some, so specs without roots
// stay as they were (an absent list clears them in Go, as an empty one does).
function rootsOf(m: FormModel): { roots?: string[] } {
  const roots = m.roots.map((r) => r.value.trim()).filter((v) => v !== '');
  return roots.length > 0 ? { roots } : {};
}

/** specFrom builds the spec to save; fields of the other transport are left empty. */
export function specFrom(m: FormModel): ServerSpec {
  const stdio = m.type === 'stdio';
  return {
    id: m.id.trim(),
    type: m.type,
    command: stdio ? m.command.trim() : '',
    args: stdio ? m.args.map((a) => a.value).filter((v) => v !== '') : [],
    env: stdio ? toPairs(m.env) : [],
    cwd: stdio ? m.cwd.trim() : '',
    url: stdio ? '' : m.url.trim(),
    headers: stdio ? [] : toPairs(m.headers),
    enabled: m.enabled,
    timeoutMs: m.timeout.trim() ? Number(m.timeout) : 0,
    maxConcurrency: m.concurrency.trim() ? Number(m.concurrency) : 0,
    maxMessageBytes: m.maxMessage.trim() ? Math.round(Number(m.maxMessage) * MIB) : 0,
    protocolVersion: m.protocol,
    ...authOf(m),
    ...rootsOf(m),
  };
}
