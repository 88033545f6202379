/** Msg is a message key with its ICU values, translated when shown. */
export interface Msg {
  key: string;
  values?: Record<string, string | number>;
}

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface Toast {
  id: number;
  kind: ToastKind;
  title: Msg;
  /** Untranslated detail, e.g. an error message from Go shown as is. */
  detail?: string;
}

const TIMEOUTS: Record<ToastKind, number> = { success: 4000, info: 5000, warning: 9000, error: 9000 };

/** Toasts holds the transient notifications shown in the corner. */
export class Toasts {
  #items = $state<Toast[]>([]);
  #next = 1;
  #timers = new Map<number, ReturnType<typeof setTimeout>>();

  get items(): readonly Toast[] {
    return this.#items;
  }

  show(kind: ToastKind, title: Msg, detail?: string): number {
    const id = this.#next++;
    this.#items.push({ id, kind, title, detail });
    if (this.#items.length > 5) this.dismiss(this.#items[0].id);
    this.#timers.set(id, setTimeout(() => this.dismiss(id), TIMEOUTS[kind]));
    return id;
  }

  success(key: string, values?: Msg['values']): number {
    return this.show('success', { key, values });
  }

  info(key: string, values?: Msg['values']): number {
    return this.show('info', { key, values });
  }

  /**
   * warning shows an action that was done but did not go as hoped (a
   * server added that failed to start): values word it, detail adds
   * untranslated text.
   */
  warning(key: string, values?: Msg['values'], detail?: string): number {
    return this.show('warning', { key, values }, detail);
  }

  /** error shows a failure: a translated title and the backend's message as is. */
  error(key: string, detail?: string, values?: Msg['values']): number {
    return this.show('error', { key, values }, detail);
  }

  /** hold keeps a toast open while the pointer or focus is on it. */
  hold(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
  }

  release(id: number): void {
    const t = this.#items.find((x) => x.id === id);
    if (t) this.#timers.set(id, setTimeout(() => this.dismiss(id), TIMEOUTS[t.kind]));
  }

  dismiss(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    this.#items = this.#items.filter((t) => t.id !== id);
  }
}
