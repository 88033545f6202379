// How a failure from Go reads in the user's language (issue 12). Go sends
// {code, params, message} (backend/usererr): when the catalogue has
// errors.<code>, the error is worded from it with its params — numbers and
// durations written for the locale — else the English message is shown.

import { get } from 'svelte/store';
import { _, locale } from './index';
import { formatDuration, formatNumber } from '../util/format';

/** A failure as Go shapes it (usererr.Payload). */
export interface CodedError {
  code?: string;
  params?: Record<string, unknown>;
  /** The English message: for logs and when the catalogue has no words for code. */
  message: string;
}

/** isDuration reports whether a param is a duration ({ms}, usererr.JSONParams). */
function isDuration(v: unknown): v is { ms: number } {
  return typeof v === 'object' && v !== null && typeof (v as { ms?: unknown }).ms === 'number';
}

/** errorValues writes the params of an error for the catalogue, in locale. */
export function errorValues(params: Record<string, unknown> | undefined, loc: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params ?? {})) {
    if (isDuration(v)) out[k] = formatDuration(v.ms, loc);
    else if (typeof v === 'number') out[k] = formatNumber(v, loc);
    else out[k] = String(v ?? '');
  }
  return out;
}

/**
 * codedText words a coded failure in the current locale: errors.<code>
 * filled in with its params, or the English message when the catalogue
 * has no entry for code (or there is no code).
 */
export function codedText(e: CodedError): string {
  if (!e.code) return e.message;
  const key = `errors.${e.code}`;
  const loc = get(locale) ?? 'en';
  const text = get(_)(key, { values: errorValues(e.params, loc) });
  return text === key ? e.message : text;
}
