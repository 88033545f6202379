/** clockTime formats Unix milliseconds as local HH:MM:SS.mmm. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

// Durations and numbers, in the user's locale through Intl: the one place
// the app writes them (issue 12). English gives "3 ms", "9.5 sec",
// "2 min 5 sec"; Chinese "3毫秒", "9.5秒", "2分钟5秒". Components use the
// reactive `fmt` store of lib/i18n, which follows the chosen language.

type Unit = 'millisecond' | 'second' | 'minute' | 'hour';

// Intl formatters are costly to make (each compiles the locale's patterns:
// about a millisecond here, more for the first of a locale), and lists and
// tables format row by row: each is made once per locale and options.
function kept<O, F>(make: (locale: string, options: O) => F): (locale: string, options: O) => F {
  const made = new Map<string, F>();
  return (locale, options) => {
    const key = `${locale}|${JSON.stringify(options)}`;
    let f = made.get(key);
    if (!f) made.set(key, (f = make(locale, options)));
    return f;
  };
}

/** numberFormat returns the Intl.NumberFormat of locale and options, made once. */
export const numberFormat = kept((l, o: Intl.NumberFormatOptions) => new Intl.NumberFormat(l, o));

/** dateTimeFormat returns the Intl.DateTimeFormat of locale and options, made once. */
export const dateTimeFormat = kept((l, o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(l, o));

const listFormat = kept((l, o: Intl.ListFormatOptions) => new Intl.ListFormat(l, o));

/** unit formats n of unit in locale, with at most digits decimals (at least min). */
function unit(n: number, u: Unit, locale: string, digits = 0, min = 0): string {
  return numberFormat(locale, { style: 'unit', unit: u, unitDisplay: 'short', minimumFractionDigits: min, maximumFractionDigits: digits }).format(n);
}

/** both joins two parts of one duration as the locale does ("2 min 5 sec", "2分钟5秒"). */
function both(a: string, b: string, locale: string): string {
  return listFormat(locale, { type: 'unit', style: 'narrow' }).format([a, b]);
}

/**
 * formatDuration writes a duration of ms milliseconds in locale: below a
 * second in milliseconds (one decimal below 10), below a minute in seconds
 * (two decimals below 10, one below 60), then minutes and seconds, then
 * hours and minutes. A negative or non-finite value gives "".
 */
export function formatDuration(ms: number, locale: string): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  // Just below a unit's end, rounding would write 1000 ms or 60 s.
  if (ms < 999.5) return unit(ms, 'millisecond', locale, ms < 10 ? 1 : 0);
  if (ms < 59_950) {
    const s = ms / 1000;
    return unit(s, 'second', locale, s < 10 ? 2 : 1);
  }
  const total = Math.floor(ms / 1000);
  if (total < 3600) {
    const m = Math.floor(total / 60);
    const s = total % 60;
    return s === 0 ? unit(m, 'minute', locale) : both(unit(m, 'minute', locale), unit(s, 'second', locale), locale);
  }
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  return m === 0 ? unit(h, 'hour', locale) : both(unit(h, 'hour', locale), unit(m, 'minute', locale), locale);
}

/**
 * formatElapsed writes the time a running call has taken: tenths of a
 * second below a minute (so the figure ticks evenly), else formatDuration.
 */
export function formatElapsed(ms: number, locale: string): string {
  if (ms < 60_000) return unit(Math.max(0, ms) / 1000, 'second', locale, 1, 1);
  return formatDuration(ms, locale);
}

/** formatNumber writes n in locale, with at most digits decimals. */
export function formatNumber(n: number, locale: string, digits = 2): string {
  return numberFormat(locale, { maximumFractionDigits: digits }).format(n);
}

/** commandLine renders a command and its args for display, quoting where needed. */
export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(quote).join(' ');
}

function quote(word: string): string {
  if (word === '') return "''";
  if (/^[A-Za-z0-9_@%+=:,./~-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
