import { answerElicitation, on, type ElicitationAction, type ElicitationRequest } from '../api';

/** Question is one pending elicitation with the time it arrived. */
export interface Question extends ElicitationRequest {
  /** When it arrived (ms since epoch): the base of its countdown. */
  at: number;
}

/**
 * Elicitations queues servers' questions (SPEC A10) in arrival order; the
 * dialog shows the first. A question leaves the queue when it is answered
 * here or when Go says it is settled (timeout, call ended).
 */
export class Elicitations {
  #queue = $state<Question[]>([]);

  /** current is the question the dialog shows, if any. */
  get current(): Question | undefined {
    return this.#queue[0];
  }

  /** waiting counts the questions behind the current one. */
  get waiting(): number {
    return Math.max(0, this.#queue.length - 1);
  }

  /** start subscribes to the events; returns the cleanup. */
  start(): () => void {
    const offs = [
      on('mcp:elicitation', (q) => {
        this.#queue.push({ ...q, at: Date.now() });
      }),
      on('mcp:elicitation-done', (d) => this.#drop(d.id)),
    ];
    return () => offs.forEach((off) => off());
  }

  /** answer sends the user's answer; the question leaves the queue either way. */
  async answer(id: string, action: ElicitationAction, content: Record<string, unknown> | null = null): Promise<void> {
    this.#drop(id);
    await answerElicitation(id, action, content);
  }

  #drop(id: string): void {
    const i = this.#queue.findIndex((q) => q.id === id);
    if (i >= 0) this.#queue.splice(i, 1);
  }
}
