// Internationalisation in the ICU message format. Every visible string is
// a key in en.json, with the same keys in zh-CN.json. Components use the `_`
// store as `$_('key')` or `$_('key', { values })`; TypeScript code uses t().
//
// The tables are compiled when the app is built (compile.ts, through the
// `virtual:messages/…` modules of vite.config.ts): a message with arguments
// arrives as intl-messageformat's syntax tree, which intl-messageformat
// formats without its parser, and the window's code has no parser at all.
// This replaced svelte-i18n, which parsed each message in the window on
// first use: the parser, the parsing and svelte-i18n's stores held 0.2 MiB
// of the web process at idle (issue 16, alternating runs).

import IntlMessageFormat from 'intl-messageformat';
import { derived, get, writable, type Readable } from 'svelte/store';
import en from 'virtual:messages/en';
import { formatDuration, formatElapsed, formatNumber } from '../util/format';
import type { Message, Packed, Table } from './compile';

export type Locale = 'en' | 'zh-CN';
export const LOCALES: readonly Locale[] = ['en', 'zh-CN'];

/** The values a message is filled in with. */
export type Values = Record<string, string | number | boolean | Date | null | undefined>;

/** What `$_` and t() take beside the key. */
export interface MessageOptions {
  values?: Values;
  /** The text when no table has the key (else the key itself). */
  default?: string;
}

/** A function that words a key in the current language. */
export type Formatter = (key: string, options?: MessageOptions) => string;

// The tables loaded so far. English is always there (it is the fallback);
// other tables load when chosen, so that they stay out of the window's
// memory otherwise. Tables are never changed once put. Each holds its
// groups as JSON text (compile.ts, Packed); groups holds those parsed.
const tables = new Map<Locale, Packed>([['en', en]]);
const groups = new Map<string, Message | Table>();
const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Packed }>> = {
  'zh-CN': () => import('virtual:messages/zh-CN'),
};
let wanted: Locale = 'en';
// What setLocale still waits for: the strings of the language chosen last.
let settling: Promise<void> = Promise.resolve();

const current = writable<Locale>('en');

/** locale is the language the window shows now. */
export const locale: Readable<Locale> = { subscribe: current.subscribe };

/** loadLocale loads the strings of l once; setLocale does it when needed. */
export async function loadLocale(l: Locale): Promise<void> {
  if (tables.has(l)) return;
  const table = await loaders[l as Exclude<Locale, 'en'>]();
  tables.set(l, table.default);
}

/**
 * lookup finds key (dotted) in l's table, then in English. Keys are
 * sometimes built from what a server sent (`signIn.step.${step}`), so only
 * a table's own entries count: never an object's inherited properties.
 */
function lookup(key: string, l: Locale): { message: Message; locale: Locale } | undefined {
  const [first, ...rest] = key.split('.');
  for (const loc of l === 'en' ? (['en'] as const) : [l, 'en' as const]) {
    let node = group(loc, first);
    for (const part of rest) {
      if (node === undefined || typeof node === 'string' || Array.isArray(node) || !Object.hasOwn(node, part)) {
        node = undefined;
        break;
      }
      node = node[part];
    }
    if (typeof node === 'string' || Array.isArray(node)) return { message: node, locale: loc };
  }
  return undefined;
}

/** group returns the top-level entry name of l's table, parsed once. */
function group(l: Locale, name: string): Message | Table | undefined {
  const table = tables.get(l);
  if (!table || !Object.hasOwn(table, name)) return undefined;
  const id = `${l}\u0000${name}`;
  let g = groups.get(id);
  if (g === undefined) {
    g = JSON.parse(table[name]) as Message | Table;
    groups.set(id, g);
  }
  return g;
}

// One formatter per message and language, made on first use.
const formatters = new Map<string, IntlMessageFormat>();

/** format words key in l: see Formatter. */
function format(l: Locale, key: string, options?: MessageOptions): string {
  const found = lookup(key, l);
  if (!found) return options?.default ?? key;
  if (typeof found.message === 'string') return found.message;
  const id = `${found.locale}\u0000${key}`;
  let f = formatters.get(id);
  if (!f) {
    f = new IntlMessageFormat(found.message, found.locale);
    formatters.set(id, f);
  }
  try {
    return String(f.format(options?.values ?? {}));
  } catch (e) {
    // A value the message needs is missing: a bug in the caller. The key
    // shows which message, and errors.ts reads it as "no words for this".
    console.warn(`message ${key}:`, (e as Error).message);
    return key;
  }
}

/** _ words a key in the current language: `$_('key', { values })`. */
export const _: Readable<Formatter> = derived(current, (l) => (key: string, options?: MessageOptions) => format(l, key, options));

/** systemLocale maps a BCP 47 tag to a supported locale: zh* → zh-CN, else en. */
export function systemLocale(tag: string | null | undefined = typeof navigator === 'undefined' ? undefined : navigator.language): Locale {
  return tag && tag.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/**
 * setLocale switches every visible string to the given locale at once: at
 * once when its strings are loaded, else as soon as they are (the window
 * stays in the language it had meanwhile, never a mix).
 */
export function setLocale(l: Locale): void {
  wanted = l;
  if (!tables.has(l)) {
    settling = loadLocale(l).then(
      () => {
        if (wanted === l) applyLocale(l);
      },
      (e: unknown) => console.error(`load the ${l} strings:`, e),
    );
    return;
  }
  settling = Promise.resolve();
  applyLocale(l);
}

/**
 * localeSettled resolves once the language chosen last is shown (or its
 * strings failed to load): the window mounts in it, not in English for a
 * moment (main.ts).
 */
export function localeSettled(): Promise<void> {
  return settling;
}

function applyLocale(l: Locale): void {
  current.set(l);
  if (typeof document !== 'undefined') document.documentElement.lang = l;
}

/** t translates one key outside a component. */
export function t(key: string, values?: Values): string {
  return format(get(current), key, values ? { values } : undefined);
}

/** Formats writes durations and numbers in one locale (util/format). */
export interface Formats {
  /** A duration of ms milliseconds: "3 ms", "9.5 sec", "2 min 5 sec"; "3毫秒", "9.5秒". */
  duration(ms: number): string;
  /** The time a running call has taken, in tenths of a second below a minute. */
  elapsed(ms: number): string;
  /** A number, with at most digits decimals (2). */
  number(n: number, digits?: number): string;
}

/** formatsFor returns the Formats of locale l. */
export function formatsFor(l: string): Formats {
  return {
    duration: (ms) => formatDuration(ms, l),
    elapsed: (ms) => formatElapsed(ms, l),
    number: (n, digits) => formatNumber(n, l, digits),
  };
}

/** fmt follows the chosen language: components write `$fmt.duration(ms)`. */
export const fmt = derived(current, (l) => formatsFor(l));

