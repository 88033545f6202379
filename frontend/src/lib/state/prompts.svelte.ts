import { getPrompt, listPrompts, on, type GetPromptResult, type Prompt } from '../api';

/** The outcome of the last Get: running, done or failed. */
export interface GetState {
  prompt: string;
  args: Record<string, string>;
  loading: boolean;
  result?: GetPromptResult;
  error?: string;
}

const matches = (q: string, ...fields: Array<string | undefined>) =>
  fields.some((f) => f !== undefined && f.toLowerCase().includes(q));

/**
 * PromptsStore is the state of the Prompts screen for one server at a time:
 * the prompt list, the search, the selected prompt, the argument values per
 * prompt and the last Get. Responses that arrive after the server changed
 * are dropped.
 */
export class PromptsStore {
  #server = $state('');
  #prompts = $state<Prompt[]>([]);
  #loading = $state(false);
  #loaded = $state(false);
  #error = $state('');
  #query = $state('');
  #selected = $state('');
  #args = $state<Record<string, Record<string, string>>>({});
  #missing = $state<string[]>([]);
  #get = $state<GetState | null>(null);
  #gen = 0;
  #loadSeq = 0;
  #getSeq = 0;
  #stale = true;

  #filtered = $derived.by(() => {
    const q = this.#query.trim().toLowerCase();
    if (!q) return this.#prompts;
    return this.#prompts.filter((p) => matches(q, p.name, p.title, p.description));
  });

  get server(): string {
    return this.#server;
  }

  get prompts(): Prompt[] {
    return this.#prompts;
  }

  /** filtered is what the search leaves of the prompts (name, title, description). */
  get filtered(): Prompt[] {
    return this.#filtered;
  }

  get loading(): boolean {
    return this.#loading;
  }

  /** loaded is true once the list arrived (or failed) for the current server. */
  get loaded(): boolean {
    return this.#loaded;
  }

  get error(): string {
    return this.#error;
  }

  get query(): string {
    return this.#query;
  }

  set query(q: string) {
    this.#query = q;
  }

  get selected(): Prompt | undefined {
    return this.#prompts.find((p) => p.name === this.#selected);
  }

  /** missing lists the required arguments left empty at the last Get. */
  get missing(): readonly string[] {
    return this.#missing;
  }

  get result(): GetState | null {
    return this.#get;
  }

  /** start follows mcp:list-changed while the screen is shown and returns the cleanup. */
  start(): () => void {
    const off = on('mcp:list-changed', (p) => {
      if (p.kind === 'prompts' && p.server === this.#server && !this.#stale) void this.refresh();
    });
    return () => {
      off();
      this.#stale = true;
    };
  }

  /** show makes server the one whose prompts are held (see ResourcesStore.show). */
  show(server: string, connected: boolean): void {
    if (server !== this.#server) {
      this.#gen++;
      this.#server = server;
      this.#prompts = [];
      this.#loading = false;
      this.#loaded = false;
      this.#error = '';
      this.#query = '';
      this.#selected = '';
      this.#args = {};
      this.#missing = [];
      this.#get = null;
      this.#stale = true;
    }
    if (!server) return;
    if (!connected) {
      this.#stale = true;
      return;
    }
    if (this.#stale) void this.refresh();
  }

  /** refresh reloads the prompt list. */
  async refresh(): Promise<void> {
    this.#stale = false;
    const gen = this.#gen;
    const seq = ++this.#loadSeq;
    this.#loading = true;
    try {
      const prompts = await listPrompts(this.#server);
      if (gen !== this.#gen || seq !== this.#loadSeq) return;
      this.#prompts = (prompts ?? []).map((p) => ({ ...p, arguments: p.arguments ?? [] }));
      this.#error = '';
    } catch (e) {
      if (gen !== this.#gen || seq !== this.#loadSeq) return;
      this.#error = (e as Error).message;
    }
    this.#loading = false;
    this.#loaded = true;
  }

  select(name: string): void {
    if (this.#selected === name) return;
    this.#selected = name;
    this.#missing = [];
    if (this.#get?.prompt !== name) this.#get = null;
  }

  /** argsOf returns the values entered for a prompt's arguments. */
  argsOf(name: string): Record<string, string> {
    return this.#args[name] ?? {};
  }

  setArg(prompt: string, arg: string, value: string): void {
    if (!this.#args[prompt]) this.#args[prompt] = {};
    this.#args[prompt][arg] = value;
    if (value.trim() && this.#missing.includes(arg)) this.#missing = this.#missing.filter((m) => m !== arg);
  }

  /**
   * get fetches the selected prompt with its non-empty argument values. It
   * returns false without calling the server while a required argument is
   * empty (listed in missing).
   */
  async get(): Promise<boolean> {
    const p = this.selected;
    if (!p) return false;
    const entered = this.argsOf(p.name);
    this.#missing = (p.arguments ?? []).filter((a) => a.required && !(entered[a.name] ?? '').trim()).map((a) => a.name);
    if (this.#missing.length > 0) return false;
    const args: Record<string, string> = {};
    for (const a of p.arguments ?? []) if ((entered[a.name] ?? '') !== '') args[a.name] = entered[a.name];
    const gen = this.#gen;
    const seq = ++this.#getSeq;
    this.#get = { prompt: p.name, args, loading: true };
    try {
      const result = await getPrompt(this.#server, p.name, args);
      if (gen !== this.#gen || seq !== this.#getSeq) return true;
      this.#get = { prompt: p.name, args, loading: false, result: { ...result, messages: result?.messages ?? [] } };
    } catch (e) {
      if (gen !== this.#gen || seq !== this.#getSeq) return true;
      this.#get = { prompt: p.name, args, loading: false, error: (e as Error).message };
    }
    return true;
  }
}
