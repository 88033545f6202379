import type { Msg } from './toasts.svelte';

export interface ConfirmOptions {
  title: Msg;
  message: Msg;
  confirm: Msg;
  danger?: boolean;
}

interface Pending extends ConfirmOptions {
  resolve: (ok: boolean) => void;
}

/** Dialogs opens confirmation dialogs as promises. */
export class Dialogs {
  #pending = $state<Pending | null>(null);

  get pending(): ConfirmOptions | null {
    return this.#pending;
  }

  /** confirm resolves true when the user confirms, false when they cancel. */
  confirm(o: ConfirmOptions): Promise<boolean> {
    this.#pending?.resolve(false);
    return new Promise((resolve) => {
      this.#pending = { ...o, resolve };
    });
  }

  /** answer settles the open dialog; later answers are no-ops. */
  answer(ok: boolean): void {
    const p = this.#pending;
    this.#pending = null;
    p?.resolve(ok);
  }
}
