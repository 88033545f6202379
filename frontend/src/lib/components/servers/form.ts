// The server form's editable model and its conversion to a ServerSpec.

import type { SecretPair, ServerSpec, Transport } from '../../api';

let uid = 0;
export const nextUid = () => ++uid;

export interface ArgRow {
  uid: number;
  value: string;
}

/**
 * PairRow is one env variable or header being edited. keep true shows the
 * stored (withheld) value; stored is true when the backend holds a value for
 * this key, so the user can go back to it after choosing to replace it.
 */
export interface PairRow {
  uid: number;
  key: string;
  value: string;
  keep: boolean;
  stored: boolean;
  reveal: boolean;
}

export const argRows = (args: readonly string[]): ArgRow[] => args.map((value) => ({ uid: nextUid(), value }));

export const pairRows = (pairs: readonly SecretPair[]): PairRow[] =>
  pairs.map((p) => ({ uid: nextUid(), key: p.key, value: p.keep ? '' : p.value, keep: p.keep, stored: p.keep, reveal: false }));

export const emptyPair = (): PairRow => ({ uid: nextUid(), key: '', value: '', keep: false, stored: false, reveal: false });

/** toPairs drops blank rows and sends kept values as keep with no value. */
export function toPairs(rows: readonly PairRow[]): SecretPair[] {
  return rows
    .filter((r) => r.key.trim() || r.value || r.keep)
    .map((r) => (r.keep ? { key: r.key.trim(), value: '', keep: true } : { key: r.key.trim(), value: r.value, keep: false }));
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
  };
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
    ...rootsOf(m),
  };
}
