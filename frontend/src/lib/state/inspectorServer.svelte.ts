import { saveUIState, uiState, type ServerState } from '../api';
import type { ServerEntry, ServersStore } from './servers.svelte';

/** The remembered server of the inspector screens. */
export const INSPECTOR_SERVER_KEY = 'inspector.server';

// A chosen server in one of these states stays chosen: it is, or soon will
// be, connected. In any other state a connected server is shown instead.
const HOLD: readonly ServerState[] = ['connected', 'connecting', 'restarting'];

/** What an inspector screen lists; a server's status counts each. */
export type InspectorKind = 'tools' | 'resources' | 'prompts';

/**
 * InspectorServer is the server the inspector screens (Tools, Resources,
 * Prompts) show: one choice for all of them, remembered across launches.
 * The shown server is derived from the choice and the live server list: the
 * chosen one while it is connected or on its way there, else the first
 * connected server, else the first one on its way to being connected.
 * A screen that opens (visit) shows a connected server that offers what it
 * lists when the shown one offers none, until the user picks one there.
 */
export class InspectorServer {
  #servers: ServersStore;
  #picked = $state('');
  #loading: Promise<void> | null = null;
  #touched = false;
  #saved = '';
  #visiting = $state<{ kind: InspectorKind; empty: (e: ServerEntry) => boolean } | null>(null);

  #base = $derived.by(() => {
    const list = this.#servers.list;
    const picked = list.find((e) => e.spec.id === this.#picked);
    if (picked && HOLD.includes(picked.status.state)) return picked.spec.id;
    const next =
      list.find((e) => e.status.state === 'connected') ?? list.find((e) => HOLD.includes(e.status.state)) ?? picked;
    return next?.spec.id ?? '';
  });

  #id = $derived.by(() => {
    const id = this.#base;
    const visit = this.#visiting;
    const shown = this.#servers.get(id);
    if (!visit || !shown || shown.status.state !== 'connected' || !visit.empty(shown)) return id;
    return this.offering(visit.kind)[0]?.spec.id ?? id;
  });

  constructor(servers: ServersStore) {
    this.#servers = servers;
  }

  /** id is the shown server ("" when there is none). */
  get id(): string {
    return this.#id;
  }

  /** entry is the shown server with its status. */
  get entry(): ServerEntry | undefined {
    return this.#servers.get(this.#id);
  }

  /** connected lists the connected servers, in config order. */
  get connected(): ServerEntry[] {
    return this.#servers.list.filter((e) => e.status.state === 'connected');
  }

  /** offering lists the connected servers that offer kind, in config order. */
  offering(kind: InspectorKind): ServerEntry[] {
    return this.connected.filter((e) => e.status[kind] > 0);
  }

  /**
   * visit tells that the screen listing kind opened: while no server is
   * picked there, a server offering none is passed over for one that offers
   * some. empty tells a server that offers none (by default: its status
   * counts none; resource templates are not counted there). The returned
   * function ends the visit.
   */
  visit(kind: InspectorKind, empty: (e: ServerEntry) => boolean = (e) => e.status[kind] === 0): () => void {
    const visit = { kind, empty };
    this.#visiting = visit;
    return () => {
      if (this.#visiting === visit) this.#visiting = null;
    };
  }

  /** load reads the remembered choice once; a pick made before it arrives wins. */
  load(): Promise<void> {
    this.#loading ??= uiState(INSPECTOR_SERVER_KEY)
      .then((id) => {
        if (this.#touched) return;
        this.#saved = id;
        if (id) this.#picked = id;
      })
      .catch(() => {});
    return this.#loading;
  }

  /**
   * hold keeps showing id while it reconnects, when nothing was picked (or
   * the pick is gone). Unlike pick it is not remembered across launches.
   */
  hold(id: string): void {
    if (!id || id === this.#picked) return;
    if (!this.#picked || !this.#servers.get(this.#picked)) this.#picked = id;
  }

  /** pick shows a server and remembers it. */
  pick(id: string): void {
    this.#touched = true;
    this.#visiting = null;
    this.#picked = id;
    if (this.#saved === id) return;
    this.#saved = id;
    void saveUIState(INSPECTOR_SERVER_KEY, id).catch(() => {});
  }
}
