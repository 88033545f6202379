import { SvelteMap } from 'svelte/reactivity';
import { cancelSignIn, continueSignIn, on, signIn, signInStepByStep, signOut, type SignInStep } from '../api';

/**
 * SignIns follows OAuth sign-ins to remote servers (issue 14): which
 * server waits for the browser, what went wrong, and the steps of each
 * server's last sign-in — the OAuth debugger lists them, each with its
 * HTTP exchange (secrets redacted by Go).
 */
export class SignIns {
  #pending = new SvelteMap<string, true>();
  #errors = new SvelteMap<string, string>();
  #steps = new SvelteMap<string, SignInStep[]>();

  /** start follows mcp:sign-in-step; returns the cleanup. */
  start(): () => void {
    return on('mcp:sign-in-step', (s) => {
      const have = this.#steps.get(s.server) ?? [];
      // A new attempt starts a new list.
      const same = have.length > 0 && have[0].attempt === s.attempt;
      this.#steps.set(s.server, [...(same ? have : []), s].sort((a, b) => a.seq - b.seq));
    });
  }

  /** pending reports whether a sign-in to server waits for the browser. */
  pending(server: string): boolean {
    return this.#pending.has(server);
  }

  /** error is why the last sign-in to server failed ("" when it did not). */
  error(server: string): string {
    return this.#errors.get(server) ?? '';
  }

  /** steps are the steps of the last sign-in to server, in order. */
  steps(server: string): SignInStep[] {
    return this.#steps.get(server) ?? [];
  }

  /** waiting is the step a step-by-step sign-in waits to run ("" when none). */
  waiting(server: string): string {
    if (!this.pending(server)) return '';
    const last = this.steps(server).at(-1);
    return last?.status === 'waiting' ? last.step : '';
  }

  /** continue lets the waiting step run. */
  continue(server: string): Promise<void> {
    return continueSignIn(server);
  }

  /** signIn opens the browser and waits for the user; stepwise waits before each step for continue(). False when it failed (see error). */
  async signIn(server: string, stepwise = false): Promise<boolean> {
    this.#pending.set(server, true);
    this.#errors.delete(server);
    this.#steps.delete(server);
    try {
      await (stepwise ? signInStepByStep(server) : signIn(server));
      return true;
    } catch (e) {
      this.#errors.set(server, (e as Error).message);
      return false;
    } finally {
      this.#pending.delete(server);
    }
  }

  cancel(server: string): Promise<void> {
    return cancelSignIn(server);
  }

  signOut(server: string): Promise<void> {
    this.#errors.delete(server);
    return signOut(server);
  }
}
