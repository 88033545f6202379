import { listConversations, searchMessages, type ConversationSummary, type SearchHit } from '../api';

/** The number of conversations fetched per page of the sidebar. */
export const PAGE_SIZE = 100;

/** SEARCH_DELAY is how long typing must pause before a search runs, in ms. */
export const SEARCH_DELAY = 200;

/**
 * ConversationList is the chat sidebar: the conversations, page by page,
 * and the search over every message. ChatStore owns one and tells it what
 * the user did; it knows nothing of the open conversation but its title.
 */
export class ConversationList {
  #list = $state<ConversationSummary[]>([]);
  #loaded = $state(false);
  #error = $state('');
  #hasMore = $state(false);
  #query = $state('');
  #hits = $state<SearchHit[] | null>(null);
  #searching = $state(false);
  #searchError = $state('');

  #inflight: Promise<void> | null = null;
  #again = false;
  #searchTimer: ReturnType<typeof setTimeout> | undefined;
  #searchSeq = 0;

  readonly #retitled: (id: number, title: string) => void;

  /** retitled hears of every listed title (the open conversation follows a change). */
  constructor(retitled: (id: number, title: string) => void = () => {}) {
    this.#retitled = retitled;
  }

  get list(): ConversationSummary[] {
    return this.#list;
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  get error(): string {
    return this.#error;
  }

  /** hasMore is true when the last page was full: more conversations may follow. */
  get hasMore(): boolean {
    return this.#hasMore;
  }

  get query(): string {
    return this.#query;
  }

  /** hits are the search results for query; null while no search is shown. */
  get hits(): SearchHit[] | null {
    return this.#hits;
  }

  get searching(): boolean {
    return this.#searching;
  }

  get searchError(): string {
    return this.#searchError;
  }

  /** find returns a listed conversation. */
  find(id: number): ConversationSummary | undefined {
    return this.#list.find((c) => c.id === id);
  }

  /** load reloads the first page (more = append the next page); calls coalesce. */
  load(more = false): Promise<void> {
    if (more) return this.#loadMore();
    if (this.#inflight) {
      this.#again = true;
      return this.#inflight;
    }
    this.#inflight = (async () => {
      do {
        this.#again = false;
        try {
          const n = Math.max(PAGE_SIZE, this.#list.length);
          const page = await listConversations(n, 0);
          this.#list = page;
          this.#hasMore = page.length === n;
          this.#error = '';
          for (const c of page) this.#retitled(c.id, c.title);
        } catch (e) {
          this.#error = (e as Error).message;
        }
      } while (this.#again);
      this.#loaded = true;
      this.#inflight = null;
    })();
    return this.#inflight;
  }

  async #loadMore(): Promise<void> {
    try {
      const page = await listConversations(PAGE_SIZE, this.#list.length);
      const seen = new Set(this.#list.map((c) => c.id));
      this.#list = [...this.#list, ...page.filter((c) => !seen.has(c.id))];
      this.#hasMore = page.length === PAGE_SIZE;
    } catch (e) {
      this.#error = (e as Error).message;
    }
  }

  /** setQuery searches all messages after a short pause; "" goes back to the list. */
  setQuery(q: string): void {
    this.#query = q;
    clearTimeout(this.#searchTimer);
    const seq = ++this.#searchSeq;
    if (!q.trim()) {
      this.#hits = null;
      this.#searching = false;
      this.#searchError = '';
      return;
    }
    this.#searching = true;
    this.#searchTimer = setTimeout(async () => {
      try {
        const hits = await searchMessages(q.trim(), 50);
        if (seq !== this.#searchSeq) return;
        this.#hits = hits;
        this.#searchError = '';
      } catch (e) {
        if (seq !== this.#searchSeq) return;
        this.#hits = [];
        this.#searchError = (e as Error).message;
      }
      this.#searching = false;
    }, SEARCH_DELAY);
  }

  /** renamed shows a new title at once. */
  renamed(id: number, title: string): void {
    const s = this.find(id);
    if (s) s.title = title;
  }

  /** removed drops a deleted conversation from the list and the hits. */
  removed(id: number): void {
    this.#list = this.#list.filter((c) => c.id !== id);
    this.#hits = this.#hits?.filter((h) => h.conversationId !== id) ?? null;
  }

  /** stop cancels a search waiting to run. */
  stop(): void {
    clearTimeout(this.#searchTimer);
  }
}
