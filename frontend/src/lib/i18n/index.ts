// Internationalisation through svelte-i18n (ICU message format). Every
// visible string is a key in en.json, with the same keys in zh-CN.json.
// Components use the `_` store as `$_('key')`; TypeScript code uses t().

import { _, dictionary, getLocaleFromNavigator, init, locale } from 'svelte-i18n';
import { derived, get } from 'svelte/store';
import { formatDuration, formatElapsed, formatNumber } from '../util/format';
import en from './en.json';

export type Locale = 'en' | 'zh-CN';
export const LOCALES: readonly Locale[] = ['en', 'zh-CN'];

/**
 * putTable makes table the strings of l. svelte-i18n's addMessages would
 * deep-copy the table (deepmerge) to merge it into what l has; each locale
 * here has one whole table, so it is put as it is — the copy held 0.85 MiB
 * of the window's memory for nothing (issue 16). Tables are never changed
 * after they are put.
 */
function putTable(l: Locale, table: typeof en): void {
  dictionary.update((d) => ({ ...d, [l]: table }));
}

putTable('en', en);
init({ fallbackLocale: 'en', initialLocale: 'en' });

// English is always there (it is the fallback); other tables load when
// chosen, so that they stay out of the window's memory otherwise.
const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: typeof en }>> = {
  'zh-CN': () => import('./zh-CN.json'),
};
const loaded = new Set<Locale>(['en']);
let wanted: Locale = 'en';

/** loadLocale loads the strings of l once; setLocale does it when needed. */
export async function loadLocale(l: Locale): Promise<void> {
  if (loaded.has(l)) return;
  const table = await loaders[l as Exclude<Locale, 'en'>]();
  putTable(l, table.default);
  loaded.add(l);
}

/** systemLocale maps a BCP 47 tag to a supported locale: zh* → zh-CN, else en. */
export function systemLocale(tag: string | null | undefined = getLocaleFromNavigator()): Locale {
  return tag && tag.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/**
 * setLocale switches every visible string to the given locale at once: at
 * once when its strings are loaded, else as soon as they are (the window
 * stays in the language it had meanwhile, never a mix).
 */
export function setLocale(l: Locale): void {
  wanted = l;
  if (!loaded.has(l)) {
    loadLocale(l).then(
      () => {
        if (wanted === l) applyLocale(l);
      },
      (e: unknown) => console.error(`load the ${l} strings:`, e),
    );
    return;
  }
  applyLocale(l);
}

function applyLocale(l: Locale): void {
  locale.set(l);
  if (typeof document !== 'undefined') document.documentElement.lang = l;
}

/** t translates one key outside a component. */
export function t(key: string, values?: Record<string, string | number>): string {
  return get(_)(key, values ? { values } : undefined);
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
export const fmt = derived(locale, (l) => formatsFor(l ?? 'en'));

export { _, locale };
