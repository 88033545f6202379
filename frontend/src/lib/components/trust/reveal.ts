// Invisible characters made visible (SPEC G1): a tool description may hide
// text from the user that the model still reads — Unicode tag characters,
// bidi controls, zero-width and other format characters, variation
// selectors carrying data, control characters. Where a description is
// shown, each of them is written as ⟨U+XXXX⟩ so the user sees what the
// model sees. The character classes are the JavaScript engine's Unicode
// tables (the same categories Go's unicode package gives the detector in
// backend/trust).

import type { DiffSpan, TrustWarning } from '../../api';

/** One piece of revealed text: plain text, or one invisible character by its code point. */
export type RevealPart = { text: string; code?: undefined } | { text: string; code: string };

const INVISIBLE = /[\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}\p{Variation_Selector}\u{E0000}-\u{E007F}]/u;
const ALL_INVISIBLE = new RegExp(INVISIBLE.source, 'gu');
const SYMBOL = /\p{So}/u;
const VS = /\p{Variation_Selector}/u;

/** codePoint names a character as U+XXXX. */
export const codePoint = (ch: string): string => 'U+' + (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');

/**
 * keep says whether an invisible character at index i of chars is one an
 * honest text has: tab and line breaks, a zero-width joiner inside an
 * emoji sequence, one presentation selector after a visible character.
 */
function keep(chars: string[], i: number): boolean {
  const c = chars[i];
  if (c === '\t' || c === '\n' || c === '\r') return true;
  const prev = chars[i - 1] ?? '';
  const next = chars[i + 1] ?? '';
  if (c === '\u200D') return SYMBOL.test(prev) && SYMBOL.test(next);
  const cp = c.codePointAt(0) ?? 0;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return prev !== '' && !VS.test(prev) && !VS.test(next);
  return false;
}

/** hasInvisible reports whether text holds a character revealParts would show by its code point. */
export function hasInvisible(text: string): boolean {
  if (!INVISIBLE.test(text)) return false;
  const chars = [...text];
  return chars.some((c, i) => INVISIBLE.test(c) && !keep(chars, i));
}

/** revealParts splits text into plain runs and the invisible characters in it. */
export function revealParts(text: string): RevealPart[] {
  if (!text || !hasInvisible(text)) return text ? [{ text }] : [];
  const chars = [...text];
  const out: RevealPart[] = [];
  let run = '';
  chars.forEach((c, i) => {
    if (INVISIBLE.test(c) && !keep(chars, i)) {
      if (run) out.push({ text: run });
      run = '';
      out.push({ text: c, code: codePoint(c) });
    } else {
      run += c;
    }
  });
  if (run) out.push({ text: run });
  return out;
}

/** revealed is text with each invisible character written as ⟨U+XXXX⟩ (for titles and plain strings). */
export function revealed(text: string): string {
  if (!text || !hasInvisible(text)) return text ?? '';
  return revealParts(text)
    .map((p) => (p.code ? `⟨${p.code}⟩` : p.text))
    .join('');
}

/** stripInvisible drops the invisible characters (for counting what a person sees). */
export const stripInvisible = (text: string): string => text.replace(ALL_INVISIBLE, '');

/** spanText joins a diff's spans of the given side: "before" leaves out insertions, "after" deletions. */
export function spanText(spans: DiffSpan[], side: 'before' | 'after'): string {
  return spans
    .filter((s) => s.op === 'equal' || (side === 'before' ? s.op === 'delete' : s.op === 'insert'))
    .map((s) => s.text)
    .join('');
}

/** warningValues are a warning's message values, revealed so no hidden text reaches the page as is. */
export function warningValues(w: TrustWarning): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(w.params ?? {})) out[k] = revealed(v);
  return out;
}
