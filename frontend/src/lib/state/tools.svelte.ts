import {
  callTool,
  cancelCall,
  deleteSavedRequest,
  listSavedRequests,
  listTools,
  newCallId,
  on,
  saveRequest,
  type Progress,
  type SavedRequest,
  type ServerState,
  type Tool,
  type ToolCallOutcome,
} from '../api';

/** The tools of one server as last fetched. */
export interface ToolList {
  tools: Tool[];
  loading: boolean;
  /** Why the last fetch failed ("" when it did not). */
  error: string;
  /** True once a fetch finished (ok or not). */
  loaded: boolean;
}

export type RunStatus = 'running' | 'done' | 'failed' | 'cancelled';

/** ToolRun is one call of a tool from the Tools screen: its arguments and how it ended. */
export interface ToolRun {
  /** Unique within the session; the history's key. */
  id: number;
  callId: string;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Date.now() when the call started. */
  startedAt: number;
  status: RunStatus;
  /** True once Stop was pressed. */
  stopping: boolean;
  outcome?: ToolCallOutcome;
  /** Why the call failed or was cancelled: the backend's message. */
  error?: string;
  /** The last progress notification. */
  progress?: Omit<Progress, 'callId'>;
  /** Client-side wall time of the call in ms, when it ended. */
  elapsedMs?: number;
}

/** The saved requests of one server as last fetched. */
export interface SavedList {
  items: SavedRequest[];
  loading: boolean;
  /** Why the last fetch failed ("" when it did not). */
  error: string;
}

/** The number of runs kept per tool. */
export const HISTORY_LIMIT = 20;

/** runKey names a tool of a server in the store's maps. */
export const runKey = (server: string, tool: string) => `${server}\u0000${tool}`;

/** toolMatches reports whether a tool matches a search (name, title, description; case-insensitive). */
export function toolMatches(t: Tool, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [t.name, t.title, t.annotations?.title, t.description].some((f) => f !== undefined && f.toLowerCase().includes(q));
}

/**
 * ToolsStore is the Tools screen's state: each server's tool list (fetched
 * on demand, again on list_changed and after a reconnect), the selected
 * tool per server, the argument form per tool, and this session's runs of
 * each tool (the last HISTORY_LIMIT, in memory) with live progress.
 */
export class ToolsStore {
  #lists = $state<Record<string, ToolList>>({});
  #selected = $state<Record<string, string>>({});
  #query = $state('');
  #runs = $state<Record<string, ToolRun[]>>({});
  #shown = $state<Record<string, number>>({});
  #states = new Map<string, ServerState>();
  #fetches = new Map<string, number>();
  #nextRun = 1;
  #saved = $state<Record<string, SavedList>>({});
  #savedFetches = new Map<string, number>();

  /** start follows list changes, reconnects and progress; returns the cleanup. */
  start(): () => void {
    const offs = [
      on('mcp:list-changed', (e) => {
        if (e.kind === 'tools' && this.#lists[e.server]) void this.load(e.server);
      }),
      on('mcp:server-status', (s) => {
        const before = this.#states.get(s.id);
        this.#states.set(s.id, s.state);
        if (s.state === 'connected' && before !== undefined && before !== 'connected' && this.#lists[s.id]) void this.load(s.id);
      }),
      on('mcp:progress', (p) => {
        for (const runs of Object.values(this.#runs)) {
          const r = runs.find((x) => x.callId === p.callId && x.status === 'running');
          if (r) {
            r.progress = { progress: p.progress, total: p.total, message: p.message, dropped: p.dropped };
            return;
          }
        }
      }),
    ];
    return () => offs.forEach((off) => off());
  }

  /** list returns the fetched tools of server, if fetched. */
  list(server: string): ToolList | undefined {
    return this.#lists[server];
  }

  get query(): string {
    return this.#query;
  }

  setQuery(q: string): void {
    this.#query = q;
  }

  /** load (re)fetches the tools of server; a later fetch wins over an earlier one. */
  async load(server: string): Promise<void> {
    if (!server) return;
    const seq = (this.#fetches.get(server) ?? 0) + 1;
    this.#fetches.set(server, seq);
    const prev = this.#lists[server];
    this.#lists[server] = { tools: prev?.tools ?? [], loading: true, error: '', loaded: prev?.loaded ?? false };
    try {
      const tools = await listTools(server);
      if (this.#fetches.get(server) !== seq) return;
      this.#lists[server] = { tools: tools ?? [], loading: false, error: '', loaded: true };
    } catch (e) {
      if (this.#fetches.get(server) !== seq) return;
      this.#lists[server] = { tools: prev?.tools ?? [], loading: false, error: (e as Error).message, loaded: true };
    }
  }

  /** ensure fetches the tools of server unless they were fetched already. */
  ensure(server: string): void {
    if (server && !this.#lists[server]) void this.load(server);
  }

  /** selected returns the name of the tool selected on server ("" = none). */
  selected(server: string): string {
    return this.#selected[server] ?? '';
  }

  select(server: string, tool: string): void {
    this.#selected[server] = tool;
  }

  /** runs returns this session's runs of a tool, newest first. */
  runs(server: string, tool: string): ToolRun[] {
    return this.#runs[runKey(server, tool)] ?? [];
  }

  /** shown returns the run whose result is shown for a tool: the chosen one, else the newest. */
  shown(server: string, tool: string): ToolRun | undefined {
    const runs = this.runs(server, tool);
    const id = this.#shown[runKey(server, tool)];
    return runs.find((r) => r.id === id) ?? runs[0];
  }

  /** show shows a past run's result. */
  show(server: string, tool: string, id: number): void {
    this.#shown[runKey(server, tool)] = id;
  }

  /** running returns the tool's run in progress, if any. */
  running(server: string, tool: string): ToolRun | undefined {
    return this.runs(server, tool).find((r) => r.status === 'running');
  }

  /**
   * run calls a tool and records the run. It resolves when the call ended,
   * however it ended; the run says how.
   */
  async run(server: string, tool: string, args: Record<string, unknown>): Promise<ToolRun> {
    const key = runKey(server, tool);
    const id = this.#nextRun++;
    const callId = newCallId();
    if (!this.#runs[key]) this.#runs[key] = [];
    const runs = this.#runs[key];
    runs.unshift({ id, callId, server, tool, args: structuredClone(args), startedAt: Date.now(), status: 'running', stopping: false });
    if (runs.length > HISTORY_LIMIT) runs.splice(HISTORY_LIMIT);
    this.#shown[key] = id;
    // The proxied run, so changes below are seen.
    const r = runs[0];
    try {
      const outcome = await callTool({ callId, server, tool, arguments: args });
      r.outcome = outcome;
      r.status = 'done';
    } catch (e) {
      const message = (e as Error).message;
      r.error = message;
      r.status = r.stopping || /cancel/i.test(message) ? 'cancelled' : 'failed';
    }
    r.elapsedMs = Date.now() - r.startedAt;
    return r;
  }

  /** stop cancels a running call (Go sends notifications/cancelled). */
  async stop(run: ToolRun): Promise<void> {
    if (run.status !== 'running') return;
    run.stopping = true;
    await cancelCall(run.callId);
  }

  /** saved returns the saved requests of server, if fetched. */
  saved(server: string): SavedList | undefined {
    return this.#saved[server];
  }

  /** loadSaved (re)fetches the saved requests of server; a later fetch wins. */
  async loadSaved(server: string): Promise<void> {
    if (!server) return;
    const seq = (this.#savedFetches.get(server) ?? 0) + 1;
    this.#savedFetches.set(server, seq);
    const prev = this.#saved[server];
    this.#saved[server] = { items: prev?.items ?? [], loading: true, error: '' };
    try {
      const items = await listSavedRequests(server);
      if (this.#savedFetches.get(server) !== seq) return;
      this.#saved[server] = { items: items ?? [], loading: false, error: '' };
    } catch (e) {
      if (this.#savedFetches.get(server) !== seq) return;
      this.#saved[server] = { items: prev?.items ?? [], loading: false, error: (e as Error).message };
    }
  }

  /** save adds (id 0) or updates a saved request, then refetches the server's list. Go's error is thrown as is. */
  async save(r: SavedRequest): Promise<SavedRequest> {
    const stored = await saveRequest($state.snapshot(r) as SavedRequest);
    await this.loadSaved(r.server);
    return stored;
  }

  /** deleteSaved deletes a saved request, then refetches the server's list. */
  async deleteSaved(r: SavedRequest): Promise<void> {
    await deleteSavedRequest(r.id);
    await this.loadSaved(r.server);
  }
}
