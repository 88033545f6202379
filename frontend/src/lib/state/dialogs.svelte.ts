import type { Msg } from './toasts.svelte';

export interface ConfirmOptions {
  title: Msg;
  message: Msg;
  confirm: Msg;
  danger?: boolean;
  /** A checkbox under the message, off at first (confirmChoice reads it). */
  option?: Msg;
}

/** What the user answered, with the checkbox. */
export interface ConfirmChoice {
  ok: boolean;
  option: boolean;
}

interface Pending extends ConfirmOptions {
  resolve: (c: ConfirmChoice) => void;
}

/** Dialogs opens confirmation dialogs as promises. */
export class Dialogs {
  #pending = $state<Pending | null>(null);

  get pending(): ConfirmOptions | null {
    return this.#pending;
  }

  /** confirm resolves true when the user confirms, false when they cancel. */
  confirm(o: ConfirmOptions): Promise<boolean> {
    return this.confirmChoice(o).then((c) => c.ok);
  }

  /** confirmChoice is confirm that also says whether the option was ticked (only with ok). */
  confirmChoice(o: ConfirmOptions): Promise<ConfirmChoice> {
    this.#pending?.resolve({ ok: false, option: false });
    return new Promise((resolve) => {
      this.#pending = { ...o, resolve };
    });
  }

  /** answer settles the open dialog; later answers are no-ops. */
  answer(ok: boolean, option = false): void {
    const p = this.#pending;
    this.#pending = null;
    p?.resolve({ ok, option: ok && option });
  }
}
