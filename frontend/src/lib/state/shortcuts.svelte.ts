import type { ShortcutId } from '../util/shortcuts';

/**
 * Shortcuts is the state of the keyboard shortcuts (SPEC F5): whether the
 * help overlay is open, and which screen carries out the shortcuts that
 * need one (a new chat clears the chat screen's composer; search focuses
 * its sidebar). The key map is util/shortcuts.ts.
 */
export class Shortcuts {
  #helpOpen = $state(false);
  #handlers = new Map<ShortcutId, () => void>();

  /** helpOpen is true while the overlay that lists the shortcuts is open. */
  get helpOpen(): boolean {
    return this.#helpOpen;
  }

  openHelp(): void {
    this.#helpOpen = true;
  }

  closeHelp(): void {
    this.#helpOpen = false;
  }

  toggleHelp(): void {
    this.#helpOpen = !this.#helpOpen;
  }

  /**
   * handle lets a mounted screen carry out shortcut id; it returns the
   * function that stops it (call it from the $effect's cleanup).
   */
  handle(id: ShortcutId, fn: () => void): () => void {
    this.#handlers.set(id, fn);
    return () => {
      if (this.#handlers.get(id) === fn) this.#handlers.delete(id);
    };
  }

  /** run carries out id through the screen that handles it; false when none does. */
  run(id: ShortcutId): boolean {
    const fn = this.#handlers.get(id);
    fn?.();
    return !!fn;
  }
}
