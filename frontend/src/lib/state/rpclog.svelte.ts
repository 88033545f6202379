import { clearRPCLog, on, rpcLog, type RPCEntry } from '../api';

/** RPC_CAP is how many entries the client keeps; older ones drop off. */
export const RPC_CAP = 5000;

export interface RPCFilter {
  server: string;
  method: string;
  text: string;
}

/** RPCLogStore holds the JSON-RPC logger's entries, filters and selection. */
export class RPCLogStore {
  #entries = $state.raw<RPCEntry[]>([]);
  #filter = $state<RPCFilter>({ server: '', method: '', text: '' });
  #selected = $state<number | null>(null);
  #seen = new Set<number>();
  #holding = false;
  readonly cap: number;

  constructor(cap = RPC_CAP) {
    this.cap = cap;
  }

  #filtered = $derived.by(() => {
    const { server, method, text } = this.#filter;
    const m = method.trim().toLowerCase();
    const q = text.trim().toLowerCase();
    if (!server && !m && !q) return this.#entries;
    return this.#entries.filter(
      (e) =>
        (!server || e.server === server) &&
        (!m || e.method.toLowerCase().includes(m)) &&
        (!q || e.payload.toLowerCase().includes(q)),
    );
  });

  // What became of each request that ended on our side: the local entry
  // that noted it, by the request's seq. Request ids start again when a
  // server restarts, so a note belongs to the latest request with its id.
  #outcomes = $derived.by(() => {
    const last = new Map<string, number>();
    const out = new Map<number, RPCEntry>();
    for (const e of this.#entries) {
      if (!e.id) continue;
      const key = `${e.server}\u0000${e.id}`;
      if (e.direction === 'out' && e.kind === 'request') last.set(key, e.seq);
      else if (e.direction === 'local' && e.note) {
        const req = last.get(key);
        if (req !== undefined) out.set(req, e);
      }
    }
    return out;
  });

  #servers = $derived([...new Set(this.#entries.map((e) => e.server))].sort());
  #methods = $derived([...new Set(this.#entries.map((e) => e.method).filter(Boolean))].sort());

  get entries(): readonly RPCEntry[] {
    return this.#entries;
  }

  get filtered(): readonly RPCEntry[] {
    return this.#filtered;
  }

  get servers(): readonly string[] {
    return this.#servers;
  }

  get methods(): readonly string[] {
    return this.#methods;
  }

  /** outcome is the local entry noting how request e ended without an answer (cancelled by the user, timed out…). */
  outcome(e: RPCEntry): RPCEntry | undefined {
    return e.kind === 'request' && e.direction === 'out' ? this.#outcomes.get(e.seq) : undefined;
  }

  get filter(): Readonly<RPCFilter> {
    return this.#filter;
  }

  get selected(): RPCEntry | null {
    const seq = this.#selected;
    if (seq === null) return null;
    return this.#entries.find((e) => e.seq === seq) ?? null;
  }

  /**
   * start follows the backend's log. The window keeps entries only from the
   * first time the logger shows (hold): until then the backend holds them
   * alone. Three servers' start-up traffic held in the window cost its web
   * process 0.36 MiB at idle (3 alternating runs, build/scripts/mem-bench.sh).
   */
  start(): () => void {
    return on('mcp:rpc-log', (b) => {
      if (this.#holding) this.append(b.entries ?? []);
    });
  }

  /** hold loads what the backend holds and keeps every entry from now on. */
  hold(): void {
    if (this.#holding) return;
    this.#holding = true;
    void rpcLog()
      .then((all) => this.append(all))
      .catch(() => {});
  }

  /** append adds entries in sequence order, skipping ones already held. */
  append(batch: readonly RPCEntry[]): void {
    const fresh = batch.filter((e) => !this.#seen.has(e.seq));
    if (fresh.length === 0) return;
    let next = this.#entries.concat(fresh);
    const last = this.#entries.at(-1);
    if ((last && fresh[0].seq < last.seq) || !isSorted(fresh)) next.sort((a, b) => a.seq - b.seq);
    if (next.length > this.cap) {
      next = next.slice(next.length - this.cap);
      this.#seen = new Set(next.map((e) => e.seq));
    } else for (const e of fresh) this.#seen.add(e.seq);
    this.#entries = next;
  }

  setFilter(f: Partial<RPCFilter>): void {
    Object.assign(this.#filter, f);
  }

  resetFilter(): void {
    this.#filter = { server: '', method: '', text: '' };
  }

  select(seq: number | null): void {
    this.#selected = seq;
  }

  /** clear empties the logger here and in Go. */
  async clear(): Promise<void> {
    await clearRPCLog();
    this.#entries = [];
    this.#selected = null;
  }
}

function isSorted(a: readonly RPCEntry[]): boolean {
  for (let i = 1; i < a.length; i++) if (a[i].seq < a[i - 1].seq) return false;
  return true;
}

/** prettyPayload pretty-prints JSON text, or returns it unchanged if it is not JSON. */
export function prettyPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** exportEntries renders entries as a pretty JSON array for the clipboard. */
export function exportEntries(entries: readonly RPCEntry[]): string {
  return JSON.stringify(
    entries.map((e) => {
      let payload: unknown = e.payload;
      try {
        payload = JSON.parse(e.payload);
      } catch {
        /* keep the raw text */
      }
      return {
        seq: e.seq,
        time: new Date(e.time).toISOString(),
        server: e.server,
        direction: e.direction,
        kind: e.kind,
        method: e.method,
        ...(e.id !== undefined ? { id: e.id } : {}),
        ...(e.latencyMs !== undefined ? { latencyMs: e.latencyMs } : {}),
        ...(e.truncated ? { truncated: true } : {}),
        ...(e.note ? { note: e.note } : {}),
        payload,
      };
    }),
    null,
    2,
  );
}
