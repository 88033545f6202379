// Completer fetches completion/complete suggestions (SPEC A13) for the
// argument fields of a prompt or a resource template as the user types,
// for a <datalist> beside each field. Late answers never overwrite newer
// ones, and a server without completions simply suggests nothing.

import { complete, type CompletionRef } from '../../api';

const DEBOUNCE_MS = 120;

export class Completer {
  #values = $state<Record<string, string[]>>({});
  #timers = new Map<string, ReturnType<typeof setTimeout>>();
  #seq = new Map<string, number>();

  /** values returns the suggestions for one argument. */
  values(arg: string): string[] {
    return this.#values[arg] ?? [];
  }

  /** ask requests suggestions for arg after a short pause. */
  ask(server: string, ref: CompletionRef, arg: string, value: string, filled: Record<string, string>): void {
    clearTimeout(this.#timers.get(arg));
    this.#timers.set(
      arg,
      setTimeout(() => void this.#fetch(server, ref, arg, value, filled), DEBOUNCE_MS),
    );
  }

  async #fetch(server: string, ref: CompletionRef, arg: string, value: string, filled: Record<string, string>) {
    const seq = (this.#seq.get(arg) ?? 0) + 1;
    this.#seq.set(arg, seq);
    const others = Object.fromEntries(Object.entries(filled).filter(([k, v]) => k !== arg && v !== ''));
    try {
      const c = await complete(server, ref, arg, value, others);
      if (this.#seq.get(arg) === seq) this.#values[arg] = c.values.slice(0, 100);
    } catch {
      if (this.#seq.get(arg) === seq) this.#values[arg] = [];
    }
  }

  /** dispose cancels pending requests. */
  dispose(): void {
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
  }
}
