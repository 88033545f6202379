// Internationalisation through svelte-i18n (ICU message format). Every
// visible string is a key in en.json, with the same keys in zh-CN.json.
// Components use the `_` store as `$_('key')`; TypeScript code uses t().

import { _, addMessages, getLocaleFromNavigator, init, locale } from 'svelte-i18n';
import { get } from 'svelte/store';
import en from './en.json';
import zhCN from './zh-CN.json';

export type Locale = 'en' | 'zh-CN';
export const LOCALES: readonly Locale[] = ['en', 'zh-CN'];

addMessages('en', en);
addMessages('zh-CN', zhCN);
init({ fallbackLocale: 'en', initialLocale: 'en' });

/** systemLocale maps a BCP 47 tag to a supported locale: zh* → zh-CN, else en. */
export function systemLocale(tag: string | null | undefined = getLocaleFromNavigator()): Locale {
  return tag && tag.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/** setLocale switches every visible string to the given locale at once. */
export function setLocale(l: Locale): void {
  locale.set(l);
  if (typeof document !== 'undefined') document.documentElement.lang = l;
}

/** t translates one key outside a component. */
export function t(key: string, values?: Record<string, string | number>): string {
  return get(_)(key, values ? { values } : undefined);
}

export { _, locale };
