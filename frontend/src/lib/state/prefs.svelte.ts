import { loadPrefs, savePrefs, type LanguagePref, type NotificationKind, type Prefs, type ThemePref } from '../api';
import { LOCALES, setLocale, systemLocale, type Locale } from '../i18n';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The id of the page's data block of saved preferences: settings.PagePrefsID in Go. */
export const PAGE_PREFS_ID = 'mcpdesk-prefs';

const THEMES: readonly ThemePref[] = ['system', 'light', 'dark'];
const LANGUAGES: readonly LanguagePref[] = ['', ...LOCALES];
/** The kinds of desktop notification, in the order Settings lists them. */
export const NOTIFICATION_KINDS: readonly NotificationKind[] = ['reply', 'approval', 'question', 'task'];

/**
 * pagePrefs takes the saved preferences Go put into the page as it served
 * it (settings.InlinePrefs) out of doc, so the page opens in them without
 * waiting for a call. null when there are none, or when they are not
 * preferences this app knows (then the page asks Go, as without them).
 */
export function pagePrefs(doc: Document): Prefs | null {
  const el = doc.getElementById(PAGE_PREFS_ID);
  if (!(el instanceof HTMLScriptElement) || el.type !== 'application/json') return null;
  el.remove();
  let raw: unknown;
  try {
    raw = JSON.parse(el.textContent ?? '');
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const p = raw as Record<string, unknown>;
  const theme = THEMES.find((t) => t === p.theme);
  const language = LANGUAGES.find((l) => l === p.language);
  if (theme === undefined || language === undefined) return null;
  const off = Array.isArray(p.notifyOff) ? NOTIFICATION_KINDS.filter((k) => (p.notifyOff as unknown[]).includes(k)) : [];
  return { theme, language, quitOnClose: p.quitOnClose === true, notifyOff: off.length ? off : null };
}

/**
 * PrefsStore holds the theme and language and applies them to the document
 * as soon as they change. "system" follows prefers-color-scheme live; an
 * empty language follows the system language.
 */
export class PrefsStore {
  #prefs = $state<Prefs>({ theme: 'system', language: '', quitOnClose: false, notifyOff: null });
  #systemDark = $state(false);
  #systemLang = $state<Locale>(systemLocale());
  #loaded = false;
  #stop: (() => void) | null = null;

  /** loaded is true once the saved preferences have been read. */
  get loaded(): boolean {
    return this.#loaded;
  }

  get theme(): ThemePref {
    return this.#prefs.theme;
  }

  get language(): LanguagePref {
    return this.#prefs.language;
  }

  /** quitOnClose: closing the window quits instead of keeping MCP Desk in the tray. */
  get quitOnClose(): boolean {
    return this.#prefs.quitOnClose ?? false;
  }

  /** effectiveTheme is the theme in force after resolving "system". */
  get effectiveTheme(): 'light' | 'dark' {
    const t = this.#prefs.theme;
    return t === 'system' ? (this.#systemDark ? 'dark' : 'light') : t;
  }

  /** effectiveLocale is the language in force after resolving "system". */
  get effectiveLocale(): Locale {
    return this.#prefs.language || this.#systemLang;
  }

  /**
   * start follows the system theme and language and returns the cleanup.
   * A second start while running is a no-op.
   */
  start(): () => void {
    if (this.#stop) return () => {};
    const mq = typeof matchMedia === 'function' ? matchMedia(DARK_QUERY) : null;
    this.#systemDark = mq?.matches ?? false;
    const onScheme = (e: MediaQueryListEvent) => {
      this.#systemDark = e.matches;
      this.#apply();
    };
    const onLang = () => {
      this.#systemLang = systemLocale();
      this.#apply();
    };
    mq?.addEventListener?.('change', onScheme);
    addEventListener('languagechange', onLang);
    this.#apply();
    this.#stop = () => {
      mq?.removeEventListener?.('change', onScheme);
      removeEventListener('languagechange', onLang);
      this.#stop = null;
    };
    return this.#stop;
  }

  /**
   * seed takes saved preferences that came with the page (pagePrefs) and
   * applies them; with none it returns false and the store loads them.
   */
  seed(p: Prefs | null): boolean {
    if (!p) return false;
    this.#prefs = p;
    this.#loaded = true;
    this.#apply();
    return true;
  }

  /** load reads the saved preferences and applies them. */
  async load(): Promise<void> {
    this.#prefs = await loadPrefs();
    this.#loaded = true;
    this.#apply();
  }

  setTheme(theme: ThemePref): Promise<void> {
    return this.#save({ ...this.#prefs, theme });
  }

  setLanguage(language: LanguagePref): Promise<void> {
    return this.#save({ ...this.#prefs, language });
  }

  setQuitOnClose(quitOnClose: boolean): Promise<void> {
    return this.#save({ ...this.#prefs, quitOnClose });
  }

  /** notifies reports whether desktop notifications of kind are on. */
  notifies(kind: NotificationKind): boolean {
    return !(this.#prefs.notifyOff ?? []).includes(kind);
  }

  /** setNotify turns one kind of desktop notification on or off. */
  setNotify(kind: NotificationKind, on: boolean): Promise<void> {
    const off = (this.#prefs.notifyOff ?? []).filter((k) => k !== kind);
    if (!on) off.push(kind);
    return this.#save({ ...this.#prefs, notifyOff: off.length ? off : null });
  }

  // save applies at once, then persists; a failed save rolls back and throws.
  async #save(next: Prefs): Promise<void> {
    const prev = this.#prefs;
    this.#prefs = next;
    this.#apply();
    try {
      const saved = await savePrefs(next);
      if (saved) this.#prefs = { ...saved, theme: saved.theme || 'system', language: saved.language ?? '' };
    } catch (e) {
      this.#prefs = prev;
      this.#apply();
      throw e;
    }
    this.#apply();
  }

  #apply(): void {
    if (typeof document === 'undefined') return;
    const root = document.documentElement;
    root.dataset.theme = this.effectiveTheme;
    root.style.colorScheme = this.effectiveTheme;
    setLocale(this.effectiveLocale);
  }
}
