import { conversationTotal, knownCost, type Attachment, type ConversationSettings, type ModelRef } from '../api';
import { ChatStore } from './chat.svelte';
import { refKey } from './providers.svelte';

/** The most models one comparison asks at once (MCPJam compares up to three). */
export const MAX_COMPARE = 3;

/** One model's column: its own conversation, in a store of its own. */
export interface CompareColumn {
  model: ModelRef;
  store: ChatStore;
  /** When the last message was sent, and when its reply ended (ms, performance.now; 0: not yet). */
  sentAt: number;
  doneAt: number;
  /** USD of the column's conversation so far, once known (null: not priced). */
  cost: number | null;
  stop: () => void;
}

/**
 * Compare sends one prompt to two or three models at once (issue 16). Each
 * model answers in a conversation of its own — stored, searchable and
 * continued like any other — shown in a column of its own with its own
 * ChatStore, so each streams, asks for approvals and counts its tokens
 * independently. Continuing with one opens its conversation in the chat.
 */
export class Compare {
  #models = $state<ModelRef[]>([]);
  #columns = $state<CompareColumn[]>([]);

  /** active: comparing (two models or more chosen). */
  get active(): boolean {
    return this.#models.length >= 2;
  }

  get models(): ModelRef[] {
    return this.#models;
  }

  get columns(): CompareColumn[] {
    return this.#columns;
  }

  /** busy: a column's reply is still running. */
  get busy(): boolean {
    return this.#columns.some((c) => c.store.running);
  }

  /** choose sets the models (at most MAX_COMPARE, no repeats); a new choice starts a new comparison. */
  choose(models: ModelRef[]): void {
    const seen = new Set<string>();
    const next = models.filter((m) => {
      const k = refKey(m);
      if (!m.provider || !m.model || seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    this.reset();
    this.#models = next.slice(0, MAX_COMPARE);
  }

  /** leave ends comparing; the conversations stay in the list. */
  leave(): void {
    this.reset();
    this.#models = [];
  }

  reset(): void {
    for (const c of this.#columns) c.stop();
    this.#columns = [];
  }

  /**
   * send sends text to every model: the first time each gets a new
   * conversation with the chat's settings and its own model; then each
   * conversation goes on. It resolves once every turn started.
   */
  async send(text: string, attachments: Attachment[], settings: ConversationSettings): Promise<boolean> {
    if (this.#columns.length === 0) {
      this.#columns = this.#models.map((model) => {
        const store = new ChatStore({ sidebar: false });
        const stop = store.start();
        return { model, store, sentAt: 0, doneAt: 0, cost: null, stop };
      });
      await Promise.all(this.#columns.map((c) => c.store.setSettings({ ...settings, provider: c.model.provider, model: c.model.model })));
    }
    const now = performance.now();
    for (const c of this.#columns) {
      c.sentAt = now;
      c.doneAt = 0;
    }
    await Promise.all(this.#columns.map((c) => c.store.send(text, attachments)));
    return true;
  }

  /** ended marks a column's reply ended now and reads what its conversation cost. */
  async ended(c: CompareColumn): Promise<void> {
    if (!c.doneAt) c.doneAt = performance.now();
    const id = c.store.current?.id;
    if (!id) return;
    try {
      c.cost = knownCost(await conversationTotal(id));
    } catch {
      c.cost = null;
    }
  }
}
