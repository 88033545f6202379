// The keyboard shortcuts (SPEC F5), in one place: the app-wide handler
// (components/shortcuts/ShortcutsHost.svelte) matches key presses against
// this list, and the help overlay shows it, so the two cannot disagree.
// The composer's keys (send, new line) are handled by the composer itself;
// they are listed here so that the overlay shows them, and tested there.

export type ShortcutId = 'newChat' | 'search' | 'send' | 'newline' | 'stop' | 'toggleLogger' | 'settings' | 'help';

/** A key and its modifiers. */
export interface Chord {
  /** KeyboardEvent.key: a letter (lower case), a symbol, or a named key such as "Enter" or "F1". */
  key: string;
  /** Ctrl on Windows and Linux, ⌘ on macOS (either is accepted everywhere). */
  mod?: boolean;
  shift?: boolean;
}

export interface Shortcut {
  id: ShortcutId;
  /** i18n key of what it does. */
  label: string;
  /** i18n key of when it applies, if not always. */
  when?: string;
  /** Any of these does it. */
  chords: Chord[];
  /** app: handled app-wide; composer: in the chat composer only. */
  scope: 'app' | 'composer';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'newChat', label: 'shortcuts.action.newChat', chords: [{ key: 'n', mod: true }], scope: 'app' },
  { id: 'search', label: 'shortcuts.action.search', chords: [{ key: 'k', mod: true }, { key: 'f', mod: true, shift: true }], scope: 'app' },
  { id: 'send', label: 'shortcuts.action.send', when: 'shortcuts.when.composer', chords: [{ key: 'Enter' }], scope: 'composer' },
  { id: 'newline', label: 'shortcuts.action.newline', when: 'shortcuts.when.composer', chords: [{ key: 'Enter', shift: true }], scope: 'composer' },
  { id: 'stop', label: 'shortcuts.action.stop', when: 'shortcuts.when.streaming', chords: [{ key: 'Escape' }], scope: 'app' },
  { id: 'toggleLogger', label: 'shortcuts.action.toggleLogger', chords: [{ key: 'j', mod: true }], scope: 'app' },
  { id: 'settings', label: 'shortcuts.action.settings', chords: [{ key: ',', mod: true }], scope: 'app' },
  { id: 'help', label: 'shortcuts.action.help', chords: [{ key: '?' }, { key: 'F1' }, { key: '/', mod: true }], scope: 'app' },
];

const isLetter = (k: string) => /^[a-z]$/i.test(k);
const isNamed = (k: string) => k.length > 1;

/**
 * worksWhileTyping reports whether a chord acts while the focus is in a
 * text field: chords with Ctrl/⌘ and function keys do; a plain character
 * (?) is typed, and Esc belongs to the field (clear, cancel).
 */
export function worksWhileTyping(c: Chord): boolean {
  return !!c.mod || /^F\d+$/.test(c.key);
}

/** chordMatches reports whether e is the chord c. */
export function chordMatches(e: KeyboardEvent, c: Chord): boolean {
  if (e.altKey || (e.ctrlKey || e.metaKey) !== !!c.mod) return false;
  if (isLetter(c.key)) {
    // e.key is another letter on non-Latin layouts; the key's position says which.
    const ok = e.key.toLowerCase() === c.key || (!isLetter(e.key) && e.code === `Key${c.key.toUpperCase()}`);
    return ok && e.shiftKey === !!c.shift;
  }
  if (isNamed(c.key)) return e.key === c.key && e.shiftKey === !!c.shift;
  // A symbol: which needs Shift depends on the layout (? is Shift+/ on some, not on others).
  return e.key === c.key;
}

/** match returns the app-wide shortcut e is, with the chord that matched; null for none. */
export function match(e: KeyboardEvent): { shortcut: Shortcut; chord: Chord } | null {
  for (const shortcut of SHORTCUTS) {
    if (shortcut.scope !== 'app') continue;
    const chord = shortcut.chords.find((c) => chordMatches(e, c));
    if (chord) return { shortcut, chord };
  }
  return null;
}

/** isTyping reports whether el takes text: a text input, a textarea, a select or editable content. */
export function isTyping(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if (!(el instanceof HTMLInputElement)) return false;
  return !['button', 'checkbox', 'radio', 'range', 'color', 'file', 'image', 'reset', 'submit'].includes(el.type);
}

/** isMac reports whether the platform writes shortcuts with ⌘. */
export function isMac(platform = typeof navigator === 'undefined' ? '' : navigator.platform): boolean {
  return /Mac|iP(hone|ad|od)/.test(platform);
}

const NAMES: Record<string, { mac: string; other: string }> = {
  Enter: { mac: '↩', other: 'Enter' },
  Escape: { mac: 'esc', other: 'Esc' },
};

/** keyCaps returns the keys of a chord as the platform labels them, e.g. ["Ctrl", "Shift", "F"] or ["⌘", "⇧", "F"]. */
export function keyCaps(c: Chord, mac = isMac()): string[] {
  const caps: string[] = [];
  if (c.mod) caps.push(mac ? '⌘' : 'Ctrl');
  if (c.shift) caps.push(mac ? '⇧' : 'Shift');
  const name = NAMES[c.key];
  caps.push(name ? (mac ? name.mac : name.other) : c.key.length === 1 ? c.key.toUpperCase() : c.key);
  return caps;
}

/** chordLabel writes a chord as one string, e.g. "Ctrl+K" or "⌘K". */
export function chordLabel(c: Chord, mac = isMac()): string {
  return keyCaps(c, mac).join(mac ? '' : '+');
}

/** shortcut returns the entry of id. */
export function shortcut(id: ShortcutId): Shortcut {
  return SHORTCUTS.find((s) => s.id === id)!;
}
