// Formatting for the chat: token counts, times in the sidebar, snippets.

import { SNIPPET_END, SNIPPET_START } from '../../api';
import { dateTimeFormat } from '../../util/format';

/** formatTokens writes a token count with grouping: 1,234. */
export function formatTokens(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/**
 * shortTime writes when something happened, for the sidebar: the time of
 * day today, the weekday within a week, else the date.
 */
export function shortTime(iso: string, locale: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  const d = new Date(t);
  const today = new Date(now);
  if (d.toDateString() === today.toDateString()) return dateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(d);
  if (now - t < 6 * 86_400_000 && now >= t) return dateTimeFormat(locale, { weekday: 'short' }).format(d);
  const year: Intl.DateTimeFormatOptions = d.getFullYear() !== today.getFullYear() ? { year: 'numeric' } : {};
  return dateTimeFormat(locale, { month: 'short', day: 'numeric', ...year }).format(d);
}

/** SnippetPart is a piece of a search snippet; mark is true for a match. */
export interface SnippetPart {
  text: string;
  mark: boolean;
}

/** snippetParts splits a search snippet at its match markers (never HTML: the parts are shown as text). */
export function snippetParts(snippet: string): SnippetPart[] {
  const out: SnippetPart[] = [];
  let rest = snippet;
  while (rest) {
    const s = rest.indexOf(SNIPPET_START);
    if (s < 0) {
      out.push({ text: rest, mark: false });
      break;
    }
    if (s > 0) out.push({ text: rest.slice(0, s), mark: false });
    const e = rest.indexOf(SNIPPET_END, s + 1);
    const end = e < 0 ? rest.length : e;
    out.push({ text: rest.slice(s + 1, end), mark: true });
    rest = rest.slice(end + 1);
  }
  return out.filter((p) => p.text);
}

/**
 * plainPreview turns the start of a markdown message into one line of plain
 * text for the sidebar: no heading marks, emphasis, code fences or link
 * targets.
 */
export function plainPreview(md: string): string {
  return md
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/(^|\W)[*_](\S[^*_]*\S|\S)[*_](?=\W|$)/g, '$1$2')
    .replace(/\|/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
