import {
  chooseImportFile,
  configFile,
  importServers,
  previewImportData,
  listServers,
  on,
  previewImport,
  removeServer,
  restartServer,
  saveServer,
  setEnabled,
  type ConfigError,
  type ImportPreview,
  type ImportResult,
  type ServerSpec,
  type ServerStatus,
  type ServerView,
} from '../api';
import { ImportReports } from './importReports.svelte';

/** ServerEntry is one configured server as the Servers screen shows it. */
export interface ServerEntry {
  spec: ServerSpec;
  status: ServerStatus;
  /** When status arrived (ms since epoch): the base of the retry countdown. */
  statusAt: number;
}

function pendingStatus(spec: ServerSpec): ServerStatus {
  return {
    id: spec.id,
    state: spec.enabled ? 'connecting' : 'disabled',
    transport: spec.type,
    protocolVersion: '',
    serverName: '',
    serverVersion: '',
    tools: 0,
    resources: 0,
    prompts: 0,
  };
}

/**
 * ServersStore is the list of configured servers with statuses kept live
 * from backend events, plus the config-error banner.
 */
export class ServersStore {
  /**
   * RECONCILE_MS is how often the list is fetched again while a server is
   * connecting or restarting. A status event can be lost — one emitted while
   * the page (re)loads, before the runtime delivers events — and a server
   * must not look "Connecting…" for ever because of it.
   */
  static RECONCILE_MS = 2000;

  /** importReports are the import errors kept on screen until dismissed (issue 12). */
  readonly importReports = new ImportReports();

  #specs = $state<ServerSpec[]>([]);
  #statuses = $state<Record<string, ServerStatus>>({});
  #statusAt = $state<Record<string, number>>({});
  #loaded = $state(false);
  #loadError = $state('');
  #configError = $state<ConfigError | null>(null);
  #configFile = $state('');
  // The preview of a file dropped on the window, waiting for the Servers
  // screen's import dialog.
  #droppedPreview = $state<ImportPreview | null>(null);
  // epoch counts status events per id, so a list fetched while an event
  // arrived does not overwrite the newer status with an older snapshot.
  #epoch = new Map<string, number>();
  #inflight: Promise<void> | null = null;
  #again = false;

  #list = $derived<ServerEntry[]>(
    this.#specs.map((spec) => ({
      spec,
      status: this.#statuses[spec.id] ?? pendingStatus(spec),
      statusAt: this.#statusAt[spec.id] ?? 0,
    })),
  );

  get list(): ServerEntry[] {
    return this.#list;
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  get loadError(): string {
    return this.#loadError;
  }

  get configError(): ConfigError | null {
    return this.#configError;
  }

  get configFile(): string {
    return this.#configFile;
  }

  /** totals sums what the connected servers offer. */
  get totals(): { connected: number; failed: number; tools: number; resources: number; prompts: number } {
    const t = { connected: 0, failed: 0, tools: 0, resources: 0, prompts: 0 };
    for (const { status: s } of this.#list) {
      if (s.state === 'failed') t.failed++;
      if (s.state !== 'connected') continue;
      t.connected++;
      t.tools += s.tools;
      t.resources += s.resources;
      t.prompts += s.prompts;
    }
    return t;
  }

  get(id: string): ServerEntry | undefined {
    return this.#list.find((e) => e.spec.id === id);
  }

  /** start subscribes to server events and loads the list; returns the cleanup. */
  start(): () => void {
    const offs = [
      on('mcp:server-status', (s) => this.#applyStatus(s)),
      on('mcp:servers-changed', () => {
        this.#configError = null;
        void this.refresh();
      }),
      on('mcp:config-error', (e) => {
        this.#configError = e;
      }),
    ];
    void this.refresh();
    void configFile()
      .then((f) => (this.#configFile = f))
      .catch(() => {});
    const timer = setInterval(() => {
      const settling = this.#list.some((e) => e.status.state === 'connecting' || e.status.state === 'restarting');
      if (settling && !this.#inflight) void this.refresh();
    }, ServersStore.RECONCILE_MS);
    return () => {
      clearInterval(timer);
      offs.forEach((off) => off());
    };
  }

  /** refresh reloads the list; concurrent calls coalesce into one more fetch. */
  refresh(): Promise<void> {
    if (this.#inflight) {
      this.#again = true;
      return this.#inflight;
    }
    this.#inflight = (async () => {
      do {
        this.#again = false;
        const before = new Map(this.#epoch);
        try {
          const views = await listServers();
          this.#replace(views, before);
          this.#loadError = '';
        } catch (e) {
          this.#loadError = (e as Error).message;
        }
      } while (this.#again);
      this.#loaded = true;
      this.#inflight = null;
    })();
    return this.#inflight;
  }

  /** save adds (originalId "") or updates a server; rejects with Go's message. */
  async save(originalId: string, spec: ServerSpec): Promise<ServerView> {
    const view = await saveServer(originalId, spec);
    const i = this.#specs.findIndex((s) => s.id === (originalId || view.spec.id));
    if (i >= 0) this.#specs[i] = view.spec;
    else if (!this.#specs.some((s) => s.id === view.spec.id)) this.#specs.push(view.spec);
    if (originalId && originalId !== view.spec.id) this.#forget(originalId);
    // A status event may already have overtaken the reply; keep the newer one.
    if (!this.#statuses[view.spec.id]) this.#setStatus(view.status);
    return view;
  }

  async remove(id: string): Promise<void> {
    await removeServer(id);
    this.#specs = this.#specs.filter((s) => s.id !== id);
    this.#forget(id);
  }

  /**
   * setEnabled flips the switch at once and rolls it back if Go refuses; it
   * resolves with the server as stored, a server turned on with its first
   * start's outcome.
   */
  async setEnabled(id: string, enabled: boolean): Promise<ServerView> {
    const spec = this.#specs.find((s) => s.id === id);
    const prev = spec?.enabled;
    if (spec) spec.enabled = enabled;
    try {
      return await setEnabled(id, enabled);
    } catch (e) {
      if (spec && prev !== undefined) spec.enabled = prev;
      throw e;
    }
  }

  restart(id: string): Promise<void> {
    return restartServer(id);
  }

  /**
   * chooseImport asks for a file and previews it; null when cancelled, or
   * when the file cannot be read at all: why is then kept in importReports.
   */
  async chooseImport(): Promise<ImportPreview | null> {
    const path = await chooseImportFile();
    if (!path) return null;
    return this.previewFile(path, () => previewImport(path));
  }

  /**
   * previewFile runs a preview of file; a failure is kept in importReports
   * (until dismissed) and gives null.
   */
  async previewFile(file: string, read: () => Promise<ImportPreview>): Promise<ImportPreview | null> {
    try {
      const p = await read();
      this.importReports.read(file);
      return p;
    } catch (e) {
      this.importReports.failed(file, (e as Error).message ?? String(e));
      return null;
    }
  }

  /**
   * previewDropped previews a file dropped on the window (SPEC F3) and
   * offers it to the Servers screen's import dialog.
   */
  async previewDropped(name: string, content: string): Promise<ImportPreview | null> {
    const p = await this.previewFile(name, () => previewImportData(name, content));
    this.#droppedPreview = p;
    return p;
  }

  /** droppedPreview is a dropped file's preview waiting for the import dialog. */
  get droppedPreview(): ImportPreview | null {
    return this.#droppedPreview;
  }

  /** takeDroppedPreview hands the waiting preview to the dialog once. */
  takeDroppedPreview(): ImportPreview | null {
    const p = this.#droppedPreview;
    this.#droppedPreview = null;
    return p;
  }

  /**
   * importPreviewed imports the chosen servers of a preview — those it
   * showed, kept by the backend under its token, whatever the file says now.
   */
  async importPreviewed(preview: ImportPreview, ids: string[]): Promise<ImportResult> {
    const result = await importServers(preview.token, ids);
    this.importReports.imported(preview, result);
    await this.refresh();
    return result;
  }

  dismissConfigError(): void {
    this.#configError = null;
  }

  #applyStatus(s: ServerStatus): void {
    this.#epoch.set(s.id, (this.#epoch.get(s.id) ?? 0) + 1);
    this.#setStatus(s);
  }

  #setStatus(s: ServerStatus): void {
    this.#statuses[s.id] = s;
    this.#statusAt[s.id] = Date.now();
  }

  #forget(id: string): void {
    delete this.#statuses[id];
    delete this.#statusAt[id];
    this.#epoch.delete(id);
  }

  #replace(views: ServerView[], epochBefore: Map<string, number>): void {
    this.#specs = views.map((v) => v.spec);
    const ids = new Set(views.map((v) => v.spec.id));
    for (const v of views) {
      const id = v.spec.id;
      const raced = (this.#epoch.get(id) ?? 0) !== (epochBefore.get(id) ?? 0);
      if (!raced || !this.#statuses[id]) this.#setStatus(v.status);
    }
    for (const id of Object.keys(this.#statuses)) if (!ids.has(id)) this.#forget(id);
  }
}
