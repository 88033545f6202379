// Numbers, money and days for the Usage and Audit screens (durations: util/format), in
// the UI language (Intl): 1,234 / 1.2K / 12万, $0.0123, "Mar 5" / "3月5日".

import { dateTimeFormat, numberFormat as nf } from '../../util/format';

/** count writes a whole number with grouping. */
export function count(n: number, locale: string): string {
  return nf(locale, { maximumFractionDigits: 0 }).format(n);
}

/** compact writes a count short: 1.2K, 3.4M (1.2万 in Chinese). */
export function compact(n: number, locale: string): string {
  return nf(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

/** money writes US dollars: cents above $1, up to four decimals below, "<$0.0001" for crumbs. */
export function money(usd: number, locale: string): string {
  const f = (v: number, max: number) =>
    nf(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: max }).format(v);
  if (usd > 0 && usd < 0.0001) return `<${f(0.0001, 4)}`;
  return f(usd, Math.abs(usd) >= 1 ? 2 : 4);
}

/** perMillion writes a price per million tokens: $2.50, $0.075. */
export function perMillion(usd: number, locale: string): string {
  return nf(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(usd);
}

/** parseDay reads YYYY-MM-DD as a local date (midnight). */
export function parseDay(day: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, (m || 1) - 1, d || 1);
}

/** shortDay writes a day as "Mar 5" (the year too when it is not this year's). */
export function shortDay(day: string, locale: string, now = new Date()): string {
  const d = parseDay(day);
  const year: Intl.DateTimeFormatOptions = d.getFullYear() !== now.getFullYear() ? { year: 'numeric' } : {};
  return dateTimeFormat(locale, { month: 'short', day: 'numeric', ...year }).format(d);
}

/** longDay writes a day in full: "Thu, Mar 5, 2026". */
export function longDay(day: string, locale: string): string {
  return dateTimeFormat(locale, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' }).format(parseDay(day));
}

/** dateTime writes an RFC 3339 time as a local date and time to the second. */
export function dateTime(iso: string, locale: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  return dateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(new Date(t));
}

/** days lists every day from `from` to `to`, inclusive (at most 1,000). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const d = parseDay(from);
  const end = parseDay(to);
  while (d <= end && out.length < 1000) {
    const p = (n: number) => String(n).padStart(2, '0');
    out.push(`${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`);
    d.setDate(d.getDate() + 1);
  }
  return out;
}
